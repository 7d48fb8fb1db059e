"""A revival task's verdict: its project's hidden tests and probes in the target environment, typed
(docs/revival.md)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from swr.kinds.verdict import Verdict


class RevivalRecord(BaseModel):
    """One hidden test (that passed natively) or one probe (against its recorded output) of a revival task."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    case: str
    check: Literal["test", "probe"]
    passed: bool = Field(alias="pass")
    detail: str


class RevivalVerdict(Verdict):
    """pass = every record passes and anti-cheat found nothing; score = records passed (docs/revival.md)."""

    json_order: ClassVar[tuple[str, ...]] = (
        "kind",
        "task",
        "pass",
        "label",
        "labels",
        "score",
        "records",
        "anticheat",
        "detail",
        "similarity",
        "split",
    )
    kind: Literal["revival"]
    r_hid: None = None
    r_pub: None = None
    label: str
    score: str = Field(pattern=r"^\d+/\d+$")
    records: list[RevivalRecord]
    anticheat: list[dict[str, Any]]
    detail: str
    split: Literal["public"] | None = None  # ./feedback's run of the public tests
    similarity: dict[str, int | float] | None = (
        None  # a deleted module's rebuild against the original (copied_original)
    )

    @property
    def public_only(self) -> bool:
        return self.split == "public"

    def exit_ok(self) -> bool:
        """A task this machine cannot run (label skipped_no_device, pass null) is no failure either."""
        return self.passed is None or super().exit_ok()

    def findings(self) -> list[dict[str, Any]]:
        return self.anticheat

    def measured_similarity(self) -> bool:
        return self.similarity is not None

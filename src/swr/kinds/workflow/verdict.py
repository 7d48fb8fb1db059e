"""A workflow task's verdict (the judge's, DESIGN.md "Judge and verdict"), typed. The judge builds it as JSON
(swr.judge knows no kind); the workflow grader hands it on as this model."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from swr.kinds.verdict import Verdict


class Scenario(BaseModel):
    """One workflow scenario: the first failing stage is its label, every failing stage is in `labels`.
    Fields in the order the judge writes them (judge_scenario), which is the order a dump keeps."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    split: Literal["hidden", "public"]
    index: int
    passed: bool = Field(alias="pass")
    label: str | None
    labels: list[str]
    field_agreement: int | float
    matched: int
    total: int
    mismatches: list[dict[str, Any]]
    extra_keys: list[str]
    exit_code: int | None
    limit: str | None
    wall_s: int | float | str  # a non-finite float is written as a string
    stderr_tail: str
    detail: str | None


class WorkflowVerdict(Verdict):
    """pass = every hidden scenario matched (r_hid meets the task's threshold) and no anti-shortcut finding.
    A workflow verdict names no kind in its JSON (the judge's format predates kinds)."""

    json_order: ClassVar[tuple[str, ...]] = (
        "kind",
        "task",
        "pass",
        "label",
        "labels",
        "r_hid",
        "r_pub",
        "field_agreement",
        "anti_shortcut",
        "scenarios",
        "detail",
    )
    kind: Literal["workflow"] = "workflow"
    score: None = None
    r_hid: int | float | None
    r_pub: int | float | None
    field_agreement: int | float
    anti_shortcut: list[dict[str, Any]]
    scenarios: list[Scenario]

    def agreement(self) -> float | None:
        """Matched graded leaves over all of them (the judge's field agreement)."""
        return self.field_agreement

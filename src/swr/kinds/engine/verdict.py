"""An engine task's verdict (its hidden verifier's records, DESIGN.md "Task kinds"), and its ./feedback on
the worked examples, typed."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from swr.kinds.verdict import Verdict


class CheckRecord(BaseModel):
    """One (case, check) of an engine's verifier, or one (case, check, item): the recomputed quantity against
    the spec's threshold. `item` None: the record covers every item of its case (a verdict written before
    items existed has none)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    case: str
    item: str | None = None
    check: str
    kind: Literal["tolerance", "proof", "invariant"]
    measured: Any
    threshold: int | float | None  # as the spec wrote it: an int stays one in the JSON
    better: Literal["lower", "higher"] | None
    passed: bool = Field(alias="pass")
    detail: str


class CaseRun(BaseModel):
    """One case's run of the candidate: why it produced no output (None: it did)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    case: str
    failure: str | None
    detail: str


class Example(BaseModel):
    """One worked example in ./feedback: the candidate's output against the expected one."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    case: str
    failure: str | None
    detail: str
    differing_leaves: int
    worst_relative_difference: int | float
    first_differences: list[str]


class EngineVerdict(Verdict):
    """score = "k/N", items passed of the hidden cases' items (a case without `items` is one); pass = k reaches
    the spec's `[score] pass_at` (docs/engines.md "Score").
    ./feedback is the same model with `split` "public", a `note` and its `examples` instead (no pass)."""

    json_order: ClassVar[tuple[str, ...]] = (
        "task",
        "kind",
        "split",
        "pass",
        "label",
        "labels",
        "score",
        "failed_checks",
        "records",
        "cases",
        "note",
        "examples",
    )
    kind: Literal["engine"]
    r_hid: None = None
    r_pub: None = None
    failed_checks: list[str] = []
    records: list[CheckRecord] = []
    cases: list[CaseRun] = []
    split: Literal["public"] | None = None
    note: str | None = None
    examples: list[Example] = []

    @model_validator(mode="after")
    def _complete(self) -> EngineVerdict:
        """A verdict has its records and score; feedback its examples: each is refused without them."""
        need = (
            ("note", "examples")
            if self.split == "public"
            else ("label", "labels", "score", "failed_checks", "records", "cases")
        )
        if missing := [k for k in need if k not in self.model_fields_set]:
            raise ValueError(f"{missing[0]} is required")
        return self

    @property
    def public_only(self) -> bool:
        return self.split == "public"

    def exit_ok(self) -> bool:
        """Feedback passes when every worked example ran and matched its expected output."""
        if self.public_only:
            return all(not e.failure and e.worst_relative_difference <= 1e-6 for e in self.examples)
        return super().exit_ok()

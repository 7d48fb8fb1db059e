"""The verdict, typed: what `swr grade --json` prints and every run records. Each kind's grader returns its
kind's model (kinds/<kind>/verdict.py), a subclass of `Verdict`, which holds what every kind has and what the
harness, regrade and reports read generically; JSON is made only at the boundaries, by `dump_verdict`, and
read back by `parse_verdict`."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from swr.core.errors import SwrError, first_problem


class Verdict(BaseModel):
    """What every kind's verdict has. `score` and `r_hid` are what a table of runs shows: a kind fills the one
    it grades by. JSON keys keep the order each grader always wrote them in (`json_order`), so that a dump is
    byte-identical to the dict the grader used to return, and only the keys it set are written."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    json_order: ClassVar[tuple[str, ...]] = ()
    kind: str = "workflow"
    task: str
    passed: bool | None = Field(alias="pass")
    label: str | None = None
    labels: list[str] = []
    score: str | None = Field(None, pattern=r"^\d+/\d+$")  # engine, revival: cases passed, "k/N"
    r_hid: int | float | None = None  # workflow: the share of hidden scenarios passed
    r_pub: int | float | None = None  # workflow: and of public ones
    detail: str | None = None

    def agreement(self) -> float | None:
        """Diagnostic agreement (how close a failed run came): the share of cases its score says passed;
        a kind without a score says otherwise (a workflow: its field agreement)."""
        if self.score is None:
            return None
        k, n = (int(x) for x in self.score.split("/"))
        return k / n if n else None

    @property
    def public_only(self) -> bool:
        """Feedback on the public split (./feedback), not a verdict of the hidden cases."""
        return False

    def exit_ok(self) -> bool:
        """Whether `swr grade`/`swr feedback` exits 0: the verdict passed, or it is feedback that had
        nothing to run (a revival task without public tests: pass null), which is no failure either."""
        return True if self.public_only and self.passed is None else bool(self.passed)

    def findings(self) -> list[dict[str, Any]]:
        """What the grader's own anti-cheat found in the candidate (each a {kind, ...}); none by default."""
        return []

    def measured_similarity(self) -> bool:
        """Whether the grader measured the candidate against a deleted module's original."""
        return False


def verdict_model(kind: str) -> type[Verdict]:
    """The verdict model of a registered kind (swr.kinds.registry); an unknown kind is a one-line error."""
    from swr.kinds import registry

    known = registry.get(kind)
    if known is None:
        raise SwrError(f"not a verdict: unknown kind {kind!r}", field="kind")
    return known.verdict_model


def parse_verdict(doc: dict[str, Any]) -> Verdict:
    """A verdict's JSON as its kind's model (a workflow verdict need not name its kind). A model passes
    through unchanged, so that readers may take either."""
    if isinstance(doc, Verdict):
        return doc
    if not isinstance(doc, dict):
        raise SwrError(f"not a verdict: a JSON {type(doc).__name__}, not an object")
    kind = doc.get("kind", "workflow")
    model = verdict_model(kind if isinstance(kind, str) else repr(kind))
    try:
        return model.model_validate(doc)
    except ValidationError as e:
        msg, where = first_problem(e)
        raise SwrError(f"not a verdict: {msg}", field=where) from None


def verdict_json(v: Verdict) -> dict[str, Any]:
    """The verdict as the JSON value its grader built: its keys in the grader's order, only those it set."""
    doc = v.model_dump(by_alias=True, exclude_unset=True)
    order = type(v).json_order
    return {k: doc[k] for k in sorted(doc, key=lambda k: order.index(k) if k in order else len(order))}


def dump_verdict(v: Verdict, indent: int | None = None) -> str:
    """The verdict's JSON text (a non-finite float is refused, as JSON has none)."""
    return json.dumps(verdict_json(v), indent=indent, allow_nan=False)


ANTI_CHEAT = "anti_cheat"


def run_outcome(
    verdict: Verdict | dict[str, Any], limit: str | None, cheated: bool, policy: str
) -> tuple[bool | None, str, list[str]]:
    """A run's (passed, label, labels): its verdict's, then the agent's limit and anti-cheat as the harness saw
    them. Under the `fail` policy a cheat fails a passing verdict; under `record` it is only named."""
    v = parse_verdict(verdict)  # type: ignore[arg-type]
    labels = v.labels + ([limit] if limit else []) + ([ANTI_CHEAT] if cheated else [])
    if v.passed is None and not v.public_only:  # graded where it cannot run (a task needing a GPU): skipped,
        return None, v.label or "skipped", labels  # neither a pass nor a fail (swr.harness.results counts it apart)
    passed = bool(v.passed) and not (cheated and policy == "fail")
    label = "pass" if passed else (ANTI_CHEAT if cheated and v.passed else (limit or v.label or ""))
    return passed, label, labels

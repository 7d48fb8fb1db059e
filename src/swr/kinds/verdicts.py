"""The verdict, typed: what `swr grade --json` prints and every run records. The judge (workflow tasks) and
an engine's verifier (engine tasks) build it as JSON; this model is the contract both are checked against,
and how the harness, regrade and reports read it back."""
from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from swr.core.errors import SwrError, first_problem


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True)

    passed: bool | None = Field(alias="pass")


class Scenario(_Model):
    """One workflow scenario: the first failing stage is its label, every failing stage is in `labels`."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    split: Literal["hidden", "public"]
    index: int
    label: str | None
    labels: list[str]
    field_agreement: float
    matched: int
    total: int
    mismatches: list[dict[str, Any]]
    extra_keys: list[str]
    exit_code: int | None
    limit: str | None
    wall_s: float | str  # a non-finite float is written as a string
    stderr_tail: str
    detail: str | None


class WorkflowVerdict(_Model):
    """pass = every hidden scenario matched (r_hid meets the task's threshold) and no anti-shortcut finding."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    kind: Literal["workflow"] = "workflow"
    task: str
    label: str | None
    labels: list[str]
    r_hid: float | None
    r_pub: float | None
    field_agreement: float
    anti_shortcut: list[dict[str, Any]]
    scenarios: list[Scenario]
    detail: str | None = None


class CheckRecord(_Model):
    """One (case, check) of an engine's verifier: the recomputed quantity against the spec's threshold."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    case: str
    check: str
    kind: Literal["tolerance", "proof", "invariant"]
    measured: Any
    threshold: float | None
    better: Literal["lower", "higher"] | None
    detail: str


class CaseRun(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    case: str
    failure: str | None
    detail: str


class EngineVerdict(_Model):
    """pass = every check meets its share of cases (proofs and invariants: all of them); score = cases passed."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    kind: Literal["engine"]
    task: str
    label: str
    labels: list[str]
    score: str = Field(pattern=r"^\d+/\d+$")
    failed_checks: list[str]
    records: list[CheckRecord]
    cases: list[CaseRun]


class RevivalRecord(_Model):
    """One hidden test (that passed natively) or one probe (against its recorded output) of a revival task."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    case: str
    check: Literal["test", "probe"]
    detail: str


class RevivalVerdict(_Model):
    """pass = every record passes and anti-cheat found nothing; score = records passed (docs/revival.md)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    kind: Literal["revival"]
    task: str
    label: str
    labels: list[str]
    score: str = Field(pattern=r"^\d+/\d+$")
    records: list[RevivalRecord]
    anticheat: list[dict[str, Any]]
    detail: str
    split: Literal["public"] | None = None  # ./feedback's run of the public tests
    similarity: dict[str, float] | None = None  # a deleted module's rebuild against the original (copied_original)


AnyVerdict = WorkflowVerdict | EngineVerdict | RevivalVerdict
Verdict = Annotated[AnyVerdict, Field(discriminator="kind")]
_ADAPTER: TypeAdapter[AnyVerdict] = TypeAdapter(Verdict)


def parse_verdict(doc: dict[str, Any]) -> AnyVerdict:
    """A verdict's JSON as its kind's model (a workflow verdict need not name its kind)."""
    plugin = _plugin_model(doc)
    if plugin is not None:  # a plug-in kind's verdict (swr.kinds.registry): its own model
        try:
            return plugin.model_validate(doc)  # type: ignore[no-any-return]
        except ValidationError as e:
            msg, where = first_problem(e)
            raise SwrError(f"not a verdict: {msg}", field=where) from None
    try:
        return _ADAPTER.validate_python({"kind": "workflow", **doc})
    except ValidationError as e:
        msg, where = first_problem(e, tagged=True)
        raise SwrError(f"not a verdict: {msg}", field=where) from None


def _plugin_model(doc: dict[str, Any]) -> Any:
    """The verdict model of a registered kind that is none of the union's above, or None."""
    from swr.kinds.registry import get

    kind = get(str(doc.get("kind") or "workflow"))
    model = getattr(kind, "verdict_model", None)
    return None if model is None or model in get_args(AnyVerdict) else model


def checked(doc: dict[str, Any]) -> dict[str, Any]:
    """The verdict JSON as built, once it holds to the contract (a grader bug fails loudly, not downstream)."""
    parse_verdict(doc)
    return doc


ANTI_CHEAT = "anti_cheat"


def run_outcome(verdict: dict[str, Any], limit: str | None, cheated: bool, policy: str) -> tuple[bool, str, list[str]]:
    """A run's (passed, label, labels): its verdict's, then the agent's limit and anti-cheat as the harness saw
    them. Under the `fail` policy a cheat fails a passing verdict; under `record` it is only named."""
    v = parse_verdict(verdict)
    labels = v.labels + ([limit] if limit else []) + ([ANTI_CHEAT] if cheated else [])
    passed = bool(v.passed) and not (cheated and policy == "fail")
    label = "pass" if passed else (ANTI_CHEAT if cheated and v.passed else (limit or v.label or ""))
    return passed, label, labels

"""An engine task's private/build.json, typed: what its build checked (swr.kinds.engine.check.check_engine):
the reference's score, the empty candidate and every cheat failing, each tolerance check's margin on two BLAS
kernels, and the spec-rule and operator mutants of the adequacy audit. Written once by write_engine_task."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from swr.core.recordfile import Number


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid", strict=True)


class Outcome(_Record):
    """A candidate's verdict in brief (the reference: no pass, it must pass to be written; the empty
    candidate: no score)."""

    passed: bool | None = Field(None, alias="pass")
    labels: list[str]
    score: str | None = Field(None, pattern=r"^\d+/\d+$")


class Margin(_Record):
    """One tolerance check: the worst value the reference attained against the level the build requires."""

    check: str
    attained: Number | None
    threshold: Number
    required: Number
    better: Literal["lower", "higher"] | None
    margin: Number | None
    variation: Number
    margin_ok: bool


class Mutant(_Record):
    """One mutant of the reference graded on the hidden cases: killed when its verdict fails."""

    id: str
    kind: Literal["rule", "operator"]
    killed: bool
    labels: list[str]
    score: str | None
    spec_section: str | None = None  # a rule's
    summary: str | None = None
    equivalent: str | None = None
    file: str | None = None  # an operator's
    line: int | None = None
    operator: str | None = None
    cls: str | None = Field(None, alias="class")


class Survivor(_Record):
    id: str
    kind: Literal["rule", "operator"]
    reason: str


class Adequacy(_Record):
    """The adequacy audit's summary (swr.audit.adequacy.summarize)."""

    engine: str
    cases: int
    rules_declared: int
    rules_killed: int
    rules_equivalent: int
    operators_total: int
    operators_killed: int
    kill_rate: Number | None
    survivors: list[Survivor]
    rules: list[Mutant]
    operators: list[Mutant]
    problems: list[str]


class EngineBuildFile(_Record):
    """The file."""

    engine: str
    cases: int
    hidden_cases: str
    reference: Outcome
    achievability: list[Margin]
    nop: Outcome
    cheats: dict[str, Outcome]
    adequacy: Adequacy

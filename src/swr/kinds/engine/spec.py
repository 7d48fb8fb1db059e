"""The engine spec (`engine.toml`): what an engine task asks for, how a candidate is called, and the
checks its hidden verifier reports, with their kinds and thresholds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from swr.core.errors import SwrError, first_problem, load_toml
from swr.core.layout import ENGINE_TOML as ENGINE_FILE
from swr.core.layout import REFERENCE, SPEC_MD, VERIFIER, VERIFY
from swr.kinds.engine.mutants import PATCH_SUFFIX, BadPatch, patch_targets

N_EXAMPLES = 3
DOMAINS = (
    "software-formal-systems",
    "physical-engineering-simulation",
    "spatial-geometry-3d",
    "life-molecular-sciences",
    "data-document",
    "earth-space-sciences",
    "enterprise-industrial-systems",
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Check(_Strict):
    """One notion of correctness. `tolerance` compares a recomputed error with a threshold; `proof` and
    `invariant` hold or not. Each is reported per case or per item; an item passes when every check holds
    on it (the score, not a check, says how many items must pass)."""

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    kind: Literal["tolerance", "proof", "invariant"]
    description: str
    threshold: float | None = None  # tolerance: the bound on `measured`
    better: Literal["lower", "higher"] = "lower"  # tolerance: which side of the threshold passes

    @model_validator(mode="after")
    def _check(self) -> Check:
        if self.kind == "tolerance" and self.threshold is None:
            raise ValueError("a tolerance check needs `threshold`")
        return self


class Score(_Strict):
    """How the task is scored, as the paper's Table 2: k of N items (operations, analyses, quantity groups) must
    pass. The hidden cases define the items (a case's `items`, else the case itself); `why` justifies k."""

    unit: str = Field(min_length=1)  # what one item is
    items: int = Field(gt=0)  # N: the build checks the hidden cases hold exactly this many
    pass_at: int = Field(gt=0)  # k: items that must pass
    why: str = Field(min_length=1)

    @model_validator(mode="after")
    def _k_of_n(self) -> Score:
        if self.pass_at > self.items:
            raise ValueError(f"pass_at {self.pass_at} is more than the {self.items} items")
        return self


class Interface(_Strict):
    """How a candidate is called: `./run` with one case's input JSON on stdin, one JSON object out."""

    description: str  # what the input and output objects hold, for the instruction
    timeout_s: float = Field(60.0, gt=0)
    memory_mb: int = Field(2048, gt=0)


class Forbidden(_Strict):
    packages: list[str] = []  # existing implementations: not importable in the candidate's sandbox
    binaries: list[str] = []  # and not on its PATH


class Rule(_Strict):
    """One rule the spec states, declared beside it with a mutant of the reference that breaks it alone: the
    hidden cases must fail that mutant (`swr audit adequacy`), else they do not exercise the rule.
    `equivalent`: why the mutant cannot be told from the reference by any input (then it may survive)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    spec_section: str
    summary: str
    mutant: str = Field(pattern=r"^mutants/[A-Za-z0-9][A-Za-z0-9_.-]*$")  # a diff of reference/ (engine.mutants)
    equivalent: str | None = Field(None, min_length=1)


class EngineSpec(_Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    domain: Literal[DOMAINS]  # type: ignore[valid-type]
    analog: str  # the commercial or industrial software it stands for
    summary: str
    interface: Interface
    forbidden: Forbidden = Forbidden()
    checks: list[Check] = Field(min_length=1)
    verify_timeout_s: float = Field(120.0, gt=0)
    hidden_seed: int = 0  # for generate.py
    apt: list[str] = []  # Debian packages its verifier and reference tools run (an exported Harbor image installs them)
    diagnostics: list[str] = []  # dotted paths (`*` any key or index) of figures the candidate reports about itself
    rules: list[Rule] = []  # spec rules with their mutants (swr audit adequacy)
    score: Score  # k of N items (docs/engines.md "Score")
    directory: Path = Field(exclude=True)

    @property
    def family(self) -> str:
        """An engine is its own family (results group by family)."""
        return self.name

    def check(self, name: str) -> Check:
        return next(c for c in self.checks if c.name == name)

    @model_validator(mode="after")
    def _unique(self) -> EngineSpec:
        names = [c.name for c in self.checks]
        if len(set(names)) != len(names):
            raise ValueError("check names must be unique")
        ids = [r.id for r in self.rules]
        if len(set(ids)) != len(ids):
            raise ValueError("rule ids must be unique")
        return self


def load_engine(directory: Path) -> EngineSpec:
    """engine.toml, validated; a bad field is one line naming the file and field."""
    path = Path(directory) / ENGINE_FILE
    data = load_toml(path)
    try:
        spec = EngineSpec.model_validate({**data, "directory": Path(directory).resolve()})
    except ValidationError as e:
        msg, where = first_problem(e)
        raise SwrError(msg, file=path, field=where) from None
    for need in (SPEC_MD, f"{VERIFIER}/{VERIFY}", f"{REFERENCE}/run"):
        if not (spec.directory / need).exists():
            raise SwrError(f"missing {need}", file=path)
    for i, rule in enumerate(spec.rules):
        _check_mutant(spec.directory, rule, f"rules.{i}.mutant")
    return spec


def _check_mutant(engine: Path, rule: Rule, field: str) -> None:
    """A rule's mutant is a patch under mutants/ that changes reference files and nothing else (an added or
    unchanged file breaks no rule, and its survival would say nothing); whether it still applies is decided
    where it is applied (`swr audit adequacy`, the engine build). A directory is the former format."""
    where = engine / ENGINE_FILE
    p = engine / rule.mutant
    if p.is_dir() and not p.is_symlink():
        raise SwrError(
            f"rule {rule.id}: {rule.mutant} is a directory of whole files, the former format: convert "
            f"it with `python -m swr.kinds.engine.mutants {engine}`",
            file=where,
            field=field,
        )
    if not rule.mutant.endswith(PATCH_SUFFIX) or p.is_symlink() or p.parent.is_symlink() or not p.is_file():
        raise SwrError(
            f"rule {rule.id}: {rule.mutant} is not a patch file (mutants/<id>{PATCH_SUFFIX})", file=where, field=field
        )
    try:
        patch_targets(p.read_text(), engine / REFERENCE)
    except (BadPatch, UnicodeDecodeError) as e:
        raise SwrError(f"rule {rule.id}: {rule.mutant}: {e}", file=where, field=field) from None


def read_cases(directory: Path, split: str) -> list[dict[str, Any]]:
    """Cases of a split, in name order: each {"id", "input", "expected"?}."""
    root = Path(directory) / split
    out = []
    for f in sorted(root.glob("*.json")):
        try:
            case = json.loads(f.read_text())
        except ValueError as e:
            raise SwrError(f"invalid JSON: {e}", file=f) from None
        if not isinstance(case, dict) or "input" not in case:
            raise SwrError("a case is an object with `input` (and optionally `expected`)", file=f)
        out.append({"id": case.get("id", f.stem), **case})
    return out

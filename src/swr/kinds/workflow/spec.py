"""The workflow spec (`workflow.toml`): parsed, validated, and turned into judge tolerances."""

from __future__ import annotations

import shlex
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

from swr.core.errors import SwrError, load_toml
from swr.core.hashing import tree_hash
from swr.core.layout import WORKFLOW_TOML
from swr.core.trees import JUNK
from swr.judge import Tolerances
from swr.judge.tolerance import artifact_options, zero_rtol

SPEC_FILE = WORKFLOW_TOML
DOMAINS = (
    "software-formal-systems",
    "physical-engineering-simulation",
    "spatial-geometry-3d",
    "life-molecular-sciences",
    "data-document",
    "earth-space-sciences",
)
Scalar = str | int | float | bool


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class InputSpec(_Strict):
    """One typed scenario parameter."""

    type: Literal["number", "integer", "boolean", "categorical", "array", "path"]
    description: str = ""
    units: str | None = None
    min: float | None = None
    max: float | None = None
    log: bool = False
    choices: list[Scalar] | None = None
    items: Literal["number", "integer", "boolean", "categorical"] | None = None
    length: tuple[int, int] | None = None

    @model_validator(mode="after")
    def _check(self) -> InputSpec:
        numeric = self.type in ("number", "integer") or self.items in ("number", "integer")
        if numeric:
            if self.min is None or self.max is None:
                raise ValueError("`min` and `max` are required for numeric parameters")
            if self.min > self.max:
                raise ValueError(f"min ({self.min:g}) > max ({self.max:g})")
            if self.log and self.min <= 0:
                raise ValueError("log sampling needs min > 0")
        needs_choices = self.type in ("categorical", "path") or self.items == "categorical"
        if needs_choices and not self.choices:
            raise ValueError("`choices` must be a non-empty list")
        if self.type == "array":
            if self.items is None or self.length is None:
                raise ValueError("arrays need `items` and `length = [min, max]`")
            if not 0 <= self.length[0] <= self.length[1]:
                raise ValueError(f"length {list(self.length)} is not [min, max] with 0 <= min <= max")
        elif self.items is not None or self.length is not None:
            raise ValueError("`items` and `length` apply to arrays only")
        if self.type == "integer" and self.max is not None and int(self.max) < (self.min or 0):
            raise ValueError("no integer lies in [min, max]")
        return self


class FieldSpec(_Strict):
    """Per-field grading override and documentation."""

    atol: float | None = Field(default=None, ge=0)
    rtol: float | None = Field(default=None, ge=0)
    description: str = ""
    units: str | None = None
    artifact: dict[str, Any] = {}  # comparator options when the field names an artifact file
    period: float | None = Field(default=None, gt=0)  # an angle's period: values compared modulo it
    zero: bool = False  # zero by construction: the reference's values are rounding noise (swr.kinds.workflow.gates)


class OutputsSpec(_Strict):
    atol: float = Field(default=1e-6, ge=0)
    rtol: float = Field(default=1e-4, ge=0)
    ignore: list[str] = []
    fields: dict[str, FieldSpec] = {}


class Requires(_Strict):
    pip: list[str] = []
    apt: list[str] = []
    image: str | None = Field(default=None, min_length=1)  # a container image to run in, instead of one built


class LimitsSpec(_Strict):
    """Per-workflow sandbox limits; defaults are the sandbox's."""

    memory_mb: int | None = Field(default=None, gt=0)
    pids: int | None = Field(default=None, gt=0)
    stdout_mb: int | None = Field(default=None, gt=0)


class LibraryConstant(_Strict):
    """A constant the instruction states that the wrapped library holds (not the reference's own code): where
    it lives and how its value was checked, for a reviewer."""

    value: float
    source: str = Field(min_length=20)
    # "module:expression" giving the library's own value (evaluated in the module's namespace by the catalog's
    # tests, where the workflow's packages are installed), so that a library change cannot leave it stale
    python: str | None = Field(default=None, pattern=r"^[A-Za-z_][\w.]*:.+$")


class LintAccept(_Strict):
    """A `swr audit lint` finding declared right as is: reported as accepted, with its reason, not as a warning."""

    check: str = Field(min_length=1)  # a lint check's name (an unknown one is a `stale_accept` warning)
    field: str = ""  # dotted output path, `*` for one segment, covering its subtree as [outputs] patterns do
    why: str = Field(min_length=20)  # the sentence a reviewer reads


class LintSpec(_Strict):
    accept: list[LintAccept] = []


class CoverageSpec(_Strict):
    """What `swr.kinds.workflow.coverage` records of this workflow's reference: the functions of `package` (import
    names, or dotted prefixes such as "scipy.integrate"; default: the first `[requires] pip` name's), and the
    family's overlap threshold if not the default (every workflow of the family declares it: a pair is held to
    the lower of its two, so one workflow cannot loosen the rule for its family alone)."""

    package: list[Annotated[str, Field(pattern=r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")]] | None = Field(
        default=None, min_length=1
    )
    overlap_max: float | None = Field(default=None, gt=0, le=1)
    why: str = ""  # required with overlap_max: the sentence a reviewer reads

    @model_validator(mode="after")
    def _why(self) -> CoverageSpec:
        if self.overlap_max is not None and len(self.why) < 20:
            raise ValueError("`overlap_max` needs a `why` of at least 20 characters")
        return self


class WorkflowSpec(_Strict):
    """A validated `workflow.toml`, plus the directory it came from."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    family: str = Field(min_length=1)
    domain: Literal[DOMAINS]  # type: ignore[valid-type]
    summary: str = Field(min_length=1)
    command: list[str] | None = None
    entry: str | None = Field(default=None, pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
    timeout_s: float = Field(default=30.0, gt=0)
    inputs: dict[str, InputSpec] = Field(min_length=1)
    outputs: OutputsSpec = OutputsSpec()
    requires: Requires = Requires()
    limits: LimitsSpec = LimitsSpec()
    lint: LintSpec = LintSpec()
    coverage: CoverageSpec = CoverageSpec()
    # Constants the instruction states: a number is the reference's own and run.py reads it from this table (one
    # source for both); a table {value, source} is the wrapped library's. `swr audit lint` (instruction_constant)
    # flags a precise number in the instruction that is neither.
    constants: dict[str, float | LibraryConstant] = {}
    forbidden_packages: list[str] = []  # what a candidate must not import or call (anti-cheat of `swr run`)
    directory: Path = Field(default=Path("."), exclude=True)

    @field_validator("command")
    @classmethod
    def _nonempty(cls, v: list[str] | None) -> list[str] | None:
        if v is not None and not v:
            raise ValueError("`command` must not be empty")
        return v

    @field_validator("constants")
    @classmethod
    def _constant_names(cls, v: dict[str, Any]) -> dict[str, Any]:
        bad = [k for k in v if not k.isidentifier()]
        if bad:
            raise ValueError(f"constant names must be identifiers, got {bad[0]!r}")
        return v

    @model_validator(mode="after")
    def _one_runner(self) -> WorkflowSpec:
        if (self.command is None) == (self.entry is None):
            raise ValueError("give exactly one of `command` or `entry`")
        return self

    @property
    def tolerances(self) -> Tolerances:
        o = self.outputs
        fields = tuple(
            (p, f.atol, zero_rtol(f.rtol, f.zero))
            for p, f in sorted(o.fields.items())
            if f.atol is not None or f.rtol is not None or f.zero
        )
        arts = artifact_options({p: f.artifact for p, f in o.fields.items() if f.artifact})
        periods = tuple((p, f.period) for p, f in sorted(o.fields.items()) if f.period is not None)
        zeros = tuple(p for p, f in sorted(o.fields.items()) if f.zero)
        return Tolerances(
            atol=o.atol,
            rtol=o.rtol,
            ignore=tuple(o.ignore),
            fields=fields,
            artifacts=arts,
            periods=periods,
            zeros=zeros,
        )

    @cached_property
    def content_hash(self) -> str:
        """Hash of every file in the workflow directory: the cache key of its executions."""
        return hash_tree(self.directory)

    def input_files(self) -> list[str]:
        """The files path inputs choose from (relative to the directory): they travel with every task."""
        return sorted({str(c) for i in self.inputs.values() if i.type == "path" for c in i.choices or ()})

    def describe_command(self) -> str:
        return shlex.join(self.command) if self.command else f"entry {self.entry}"


def hash_tree(root: Path) -> str:
    """Content hash of a workflow directory (relative paths + bytes, not mtimes) without trees.JUNK: what a
    copy of it into a task keeps."""
    return tree_hash(root, JUNK)


def _field_of(err: ErrorDetails) -> str:
    return ".".join(str(x) for x in err["loc"] if not str(x).startswith("function-after"))


def load_spec(directory: str | Path) -> WorkflowSpec:
    """Read and validate `DIR/workflow.toml`; any problem is one SwrError naming file and field."""
    d = Path(directory)
    path = d / SPEC_FILE
    if not path.is_file():
        raise SwrError(f"no {SPEC_FILE} here", file=d)
    raw = load_toml(path)
    try:
        spec = WorkflowSpec.model_validate({**raw, "directory": d.resolve()})
    except ValidationError as e:
        err = e.errors()[0]
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "missing":
            msg = "is required but missing"
        elif err["type"] == "extra_forbidden":
            msg = "is not a known field"
        raise SwrError(msg, file=path, field=_field_of(err)) from None
    _check_paths(spec, path)
    return spec


def _check_paths(spec: WorkflowSpec, path: Path) -> None:
    """Path choices must be files inside the workflow directory."""
    root = spec.directory
    for name, inp in spec.inputs.items():
        if inp.type != "path":
            continue
        for choice in inp.choices or ():
            target = (root / str(choice)).resolve()
            if not target.is_file() or not target.is_relative_to(root):
                raise SwrError(
                    f"path choice {choice!r} is not a file inside the workflow directory",
                    file=path,
                    field=f"inputs.{name}.choices",
                )

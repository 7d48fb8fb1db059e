"""A revival task's private/build.json, typed: what its build recorded natively and the gates it checked (the
broken project fails, the reference passes, ./feedback passes), a deleted module's copied_original calibration
and honest rebuild, and for an obfuscated variant what it was made from and what of the original it still
gives away. Written once per task (revival/build.py, revival/obfuscate_task.py); read by RevivalTask.verifier
(the calibrated threshold) and kinds.sibling_group (the variant's original)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from swr.core.recordfile import Number, parse_record, read_record, write_record


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid", strict=True)


class Outcome(_Record):
    """A candidate's verdict in brief (revival/build.py _brief)."""

    passed: bool | None = Field(alias="pass")
    score: str = Field(pattern=r"^\d+/\d+$")
    labels: list[str]


class Measures(_Record):
    """A text's similarity to the original module (swr.kinds.revival.copied.measure)."""

    ratio: Number
    coverage: Number
    ratio_canonical: Number
    coverage_canonical: Number
    score: Number


class Calibration(_Record):
    """copied_original's threshold for the task and the honest values it was chosen from (copied.calibrate)."""

    honest: dict[str, Measures]
    threshold: Number
    floor: Number
    margin: Number
    original: Measures


class Rebuild(Outcome):
    """The honest rebuild graded as an agent's candidate: it must pass with no finding."""

    similarity: dict[str, Number] | None


class OrderKept(_Record):
    kept: int
    pairs: int
    order_kept: Number


class Identifiability(_Record):
    """What of the original an obfuscated variant's workspace still gives away (obfuscate_task._identifiability)."""

    needles: int
    mentions: dict[str, int]
    public_names: int
    names_kept: list[str]
    order_kept_workspace: OrderKept
    order_kept_module: OrderKept
    similarity_to_original: Measures


class RevivalBuildFile(_Record):
    """The file; keys a build did not record stay out of it."""

    native_tests: int
    probes: list[str]
    nop: Outcome
    reference: Outcome
    feedback: Outcome | None = None  # a task with public tests
    similarity: Calibration | None = None  # a deleted-module task
    rebuild: Rebuild | None = None  # ... with an honest rebuild in its revival folder
    obfuscated_from: str | None = None  # an obfuscated variant: its original's task id
    seed: int | None = None
    renamed: int | None = None
    identifiability: Identifiability | None = None


def write_build_file(path: Path, record: dict[str, Any]) -> None:
    """The build's record as the file's model (a record that is not one fails the build, naming the field)."""
    write_record(path, parse_record(RevivalBuildFile, record, path))


def read_build_file(path: Path) -> RevivalBuildFile | None:
    """The file as its model; None where there is none (a public-only workspace copy has no private/)."""
    return read_record(RevivalBuildFile, path) if path.is_file() else None

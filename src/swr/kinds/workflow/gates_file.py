"""private/gates.json, typed: every release gate's result as the build recorded it (DESIGN.md "Release
gates"), the oracle's r_hid and the replay controls' scores. Written once by the build (task.write_gates), read
by Task.gates, the baselines and the replay audit."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from swr.core.recordfile import Number


class Control(BaseModel):
    """One replay control graded as a candidate (swr.kinds.workflow.gates.replay_controls): it must fail."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid", strict=True)
    passed: bool = Field(alias="pass")
    r_hid: Number | None
    field_agreement: Number
    label: str | None


class Gate(BaseModel):
    """One gate: it held (a task is written only when every gate holds), with what it measured."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid", strict=True)
    passed: bool = Field(alias="pass")
    r_hid: Number | None = None  # oracle_passes: the wrapped reference's share of hidden scenarios
    controls: dict[str, Control] | None = None  # replay_controls_fail: each control's score


class GatesFile(BaseModel):
    """The file: {"gates": {name: Gate}}."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    gates: dict[str, Gate]

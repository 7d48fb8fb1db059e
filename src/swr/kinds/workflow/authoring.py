"""The authoring kit behind `swr new workflow` and `swr new tune`: scaffold a workflow for a function or a command
line, measure its outputs in the sandbox (schema and per-field tolerances), then run every gate of `swr check` and
the lints, and say what to fix, one line each."""

from __future__ import annotations

import math
import shlex
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from swr.core.errors import SwrError
from swr.kinds.workflow.build import BuildOptions
from swr.kinds.workflow.check import check
from swr.kinds.workflow.scaffold import TARGET, Draft, destination, from_command, from_signature, probe
from swr.kinds.workflow.scaffold_files import MARKER, command_run_py, function_run_py, workflow_toml
from swr.kinds.workflow.spec import SPEC_FILE, InputSpec, WorkflowSpec, load_spec
from swr.kinds.workflow.tolerances import FieldReport, fields, measure, render_outputs
from swr.sandbox import get_sandbox

RUN_PY = "run.py"
# A lint over the tasks `swr check` built (a release-shaped directory): one line per finding to fix. It is handed
# in by the caller (the CLI passes `swr audit lint`'s), as the audits sit above the task kinds.
Lint = Callable[[Path], list[str]]


@dataclass
class Outcome:
    """What the kit did and found: the notes on its guesses, the measured schema, and what to fix."""

    directory: Path
    notes: list[str] = field(default_factory=list)
    schema: list[str] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    measured: list[FieldReport] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.fixes


@dataclass
class Settings:
    sandbox: str = "bwrap"
    jobs: int = 2
    seed: int = 0
    samples: int = 6


def new_workflow(
    root: Path,
    target: str,
    *,
    function: str | None = None,
    cli: str | None = None,
    domain: str | None = None,
    data: list[Path] | None = None,
    settings: Settings | None = None,
    lint: Lint | None = None,
) -> Outcome:
    """Scaffold FAMILY/NAME under the catalog `root` from `function` (module:function) or `cli` (a command line
    with {name:type} placeholders), then tune it. Nothing is written when the input is bad."""
    s = settings or Settings()
    if (function is None) == (cli is None):
        raise SwrError("give one of --from module:function or --from-cli 'command {input}'", field="--from")
    if function is not None and not TARGET.match(function):
        raise SwrError(f"{function!r} is not module:function", field="--from")
    directory, dom, family, name = destination(root, target, domain)
    if function is not None:
        draft = from_signature(probe(function, get_sandbox(s.sandbox)))
        runner, source, run_py = 'entry = "run:main"', function, function_run_py(function, draft)
        summary = (
            f"Call {function.replace(':', '.')} with the scenario's inputs as its arguments; report what it returns."
        )
    else:
        draft = from_command(cli or "", data or [])
        argv = shlex.split(cli or "")
        runner, source = 'command = ["python3", "run.py"]', f"the command line `{cli}`"
        run_py = command_run_py(argv, 25.0)
        summary = f"Run `{cli}` with the scenario's values in its placeholders; report what it prints."
    text = workflow_toml(
        name=name, family=family, domain=dom, source=source, runner=runner, draft=draft, summary=summary, outputs=""
    )
    if not draft.inputs:
        raise SwrError(f"no parameter of {source} can be a scenario value: wrap it in a function that takes some")
    _validate(text, directory)
    _write(directory, text, run_py, draft)
    out = tune(directory, settings=s, lint=lint)
    out.notes = [
        *draft.notes,
        *out.notes,
        "describe the inputs, the outputs and the summary in workflow.toml: the instructions are written from them",
    ]
    return out


def _validate(text: str, directory: Path) -> None:
    """The scaffold as `swr check` will read it, before a byte is written: a proposal swr cannot load is swr's
    bug to report, not a half-made workflow to leave behind."""
    try:
        WorkflowSpec.model_validate({**tomllib.loads(text), "directory": directory})
    except (tomllib.TOMLDecodeError, ValidationError) as e:
        raise SwrError(f"internal: the scaffold does not validate ({e}); nothing was written") from None


def _write(directory: Path, text: str, run_py: str, draft: Draft) -> None:
    directory.mkdir(parents=True)  # destination() saw nothing there; a race loses with an error, not an overwrite
    (directory / SPEC_FILE).write_text(text)
    (directory / RUN_PY).write_text(run_py)
    if draft.data:
        (directory / "data").mkdir()
        for p in draft.data:
            shutil.copyfile(p, directory / "data" / p.name)


def tune(directory: Path, *, settings: Settings | None = None, lint: Lint | None = None) -> Outcome:
    """Measure a kit-made workflow's outputs, rewrite its measured block (below MARKER: only what the kit wrote),
    then gate and lint it. A workflow.toml without the marker was not made by the kit and is refused."""
    s = settings or Settings()
    path = directory / SPEC_FILE
    text = path.read_text() if path.is_file() else ""
    if MARKER not in text:
        raise SwrError("not made by `swr new` (no measured block): its [outputs] are edited by hand", file=path)
    head = text[: text.index(MARKER)]
    spec = load_spec(directory)
    out = Outcome(directory)
    m = measure(spec, get_sandbox(s.sandbox), samples=s.samples, seed=s.seed, jobs=s.jobs)
    if not any(o is not None for runs in m.outputs for o in runs):
        out.fixes = [f"fix: {f}" for f in m.failures[:3]] or ["fix: the reference produced no output"]
        return out
    out.fixes += [f"fix: {f}" for f in m.failures[:3]]
    out.measured = fields(m)
    carried = {"description", "units", "period", "zero", "artifact"}
    keep = {p: f.model_dump(include=carried) for p, f in spec.outputs.fields.items()}
    path.write_text(head + MARKER + "\n" + render_outputs(out.measured, m, keep, spec.outputs.ignore))
    out.schema = [_schema_line(r) for r in out.measured]
    out.notes += [f"outputs.{r.pattern}: {r.how}" for r in out.measured if r.ignore]
    out.fixes += space_fixes(spec) + gate_and_lint(directory, s, lint)
    return out


def space_fixes(spec: WorkflowSpec) -> list[str]:
    """`swr check` builds one variant; a release draws variants x (public + hidden) distinct scenarios (gate
    disjoint): an input space smaller than that passes the check and fails the build."""
    o = BuildOptions()
    need = o.variants * (o.public + o.hidden)
    size = 1.0
    for inp in spec.inputs.values():
        size *= _cardinality(inp)
    if size >= need:
        return []
    return [
        f"fix: the inputs allow only {size:.0f} distinct scenarios and a release of {o.variants} variants draws "
        f"{need}: widen the integer ranges or add choices"
    ]


def _cardinality(inp: InputSpec) -> float:
    if inp.type == "array":
        lo, hi = inp.length or (0, 0)
        one = _cardinality(inp.model_copy(update={"type": inp.items, "length": None, "items": None}))
        return sum(one**n for n in range(lo, min(hi, 50) + 1))
    if inp.type == "integer":
        return float(max(0, math.floor(inp.max or 0) - math.ceil(inp.min or 0) + 1))
    if inp.type == "boolean":
        return 2.0
    if inp.type in ("categorical", "path"):
        return float(len(inp.choices or ()))
    return float("inf")


def _schema_line(r: FieldReport) -> str:
    shape = f", {r.shape}" if r.shape else ""
    if r.ignore:
        return f"{r.pattern}: {r.kind}{shape}; ignored (volatile)"
    if r.exact:
        return f"{r.pattern}: {r.kind}{shape}; exact"
    return f"{r.pattern}: {r.kind}{shape}; atol {r.atol:.3g}, rtol {r.rtol:.3g} (scale {r.scale:.3g})"


def gate_and_lint(directory: Path, s: Settings, lint: Lint | None) -> list[str]:
    """Every gate, as `swr check` runs them, then the lints on the tasks it built: one `fix:` line each."""
    found: list[str] = []

    def inspect(staging: Path) -> None:
        found.extend(lint(staging) if lint else [])

    try:
        check(directory, sandbox=s.sandbox, jobs=s.jobs, seed=s.seed, inspect=inspect)
    except SwrError as e:
        return [f"fix: {_relative(e.message, directory)}"]
    return [f"fix: {line}" for line in found]


def _relative(message: str, directory: Path) -> str:
    return message.replace(f"{directory / SPEC_FILE}: ", "")


def lint_lines(findings: list[dict[str, Any]]) -> list[str]:
    """`swr audit lint` findings (warnings and errors; accepted ones are not to fix) as one line each."""
    seen: dict[tuple[str, str, str], None] = {}
    for f in findings:
        seen.setdefault((f["check"], f["field"], f["message"]), None)
    return [f"lint {c}{f' `{fld}`' if fld else ''}: {msg}" for c, fld, msg in seen]

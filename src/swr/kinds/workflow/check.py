"""`swr check`: the loop for wrapping new software — validate, try a few scenarios, run every gate."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.assemble import BuildOptions, build_workflow
from swr.core.errors import SwrError
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.gates import parse_output
from swr.kinds.workflow.reference import Runner, command_exists
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import SPEC_FILE, WorkflowSpec, load_spec
from swr.sandbox import get_sandbox


@dataclass
class Trial:
    scenario: dict[str, Any]
    output: Any
    wall_s: float


@dataclass
class CheckReport:
    spec: WorkflowSpec
    trials: list[Trial]
    tasks: list[str]


def check(
    directory: Path,
    *,
    sandbox: str = "bwrap",
    jobs: int = 2,
    seed: int = 0,
    trials: int = 3,
    inspect: Callable[[Path], None] | None = None,
) -> CheckReport:
    """Raise SwrError naming the file, field or gate that fails; otherwise report what ran. `inspect` sees the
    built tasks (a release-shaped directory) before they are removed: `swr new` lints them there."""
    spec = load_spec(directory)
    if not command_exists(spec):
        assert spec.command is not None  # command_exists is True for a spec without a command
        raise SwrError(
            f"program `{spec.command[0]}` not found",
            file=spec.directory / SPEC_FILE,
            field="command",
        )
    sb = get_sandbox(sandbox)
    runner = Runner(spec, sb)
    done = []
    try:
        for i in range(trials):
            sc = sample_scenario(spec, seed, 0, i)
            res = runner.run(sc)
            out, fail = parse_output(res, sc)
            if fail:
                raise SwrError(str(fail), file=spec.directory / SPEC_FILE)
            done.append(Trial(sc, out, res.wall_s))
    finally:
        runner.close()
    opts = BuildOptions(
        variants=1,
        public=3,
        hidden=2,
        seed=seed,
        jobs=jobs,
        sandbox=sandbox,
        max_rounds=2,
        cache=ExecutionCache(enabled=False),
    )
    staging = Path(tempfile.mkdtemp(prefix="swr-check-"))
    try:
        with ThreadPoolExecutor(jobs) as pool:
            built = build_workflow(spec, staging, opts, sb, pool, lambda a, t: None)
        if inspect and not built.failure:
            inspect(staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if built.failure:
        raise SwrError(built.message)
    return CheckReport(spec, done, built.tasks)


def trial_text(t: Trial, width: int = 200) -> tuple[str, str]:
    sc, out = json.dumps(t.scenario, sort_keys=True), json.dumps(t.output, sort_keys=True)
    return (sc if len(sc) <= width else sc[: width - 1] + "…", out if len(out) <= width else out[: width - 1] + "…")

"""One workflow into its variant tasks: sample scenarios, run the reference twice, hold every gate (a variant
that fails one is drawn afresh), write the tasks that pass."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.hashing import content_hash
from swr.core.release_dir import task_dir
from swr.core.trees import KEEP_ALL, copy_tree
from swr.judge import Tolerances
from swr.judge.artifacts import ArtifactConfigError, artifact_kind
from swr.judge.artifacts.fields import Reference, artifact_leaves
from swr.judge.compare import dotted
from swr.judge.decision import reference_view
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.coverage import coverage_scenarios, record, write_coverage
from swr.kinds.workflow.fork_pool import Fresh
from swr.kinds.workflow.gates import (
    GATES,
    GateFailure,
    check_deterministic,
    insensitive_failure,
    insensitive_pairs,
    parse_output,
    replay_controls,
    schema_outliers,
    strip_ignored,
)
from swr.kinds.workflow.grading import oracle_verdict
from swr.kinds.workflow.instructions import render, schema
from swr.kinds.workflow.reference import Runner, command_exists, limits_for
from swr.kinds.workflow.scenario import sample_scenario
from swr.kinds.workflow.spec import SPEC_FILE, WorkflowSpec
from swr.kinds.workflow.task import Example, Task, task_meta, write_gates, write_task
from swr.sandbox import RunResult, Sandbox

Progress = Callable[[int, int], None]  # (advance, add_to_total)
MAX_DRAWS = 1000
VARIANT_REDRAWS = 2  # fresh draws for a variant that fails a gate, before it alone is dropped


@dataclass
class BuildOptions:
    variants: int = 6
    public: int = 5
    hidden: int = 3
    seed: int = 0
    jobs: int = 2
    sandbox: str = "bwrap"
    max_rounds: int = 4
    cache: ExecutionCache = field(default_factory=ExecutionCache)
    executor: str = "local"  # or "dask": workflows on Dask workers (distributed.py); never in the release
    scheduler: str | None = None  # a Dask scheduler's address; None: a local cluster of `jobs` workers

    def summary(self) -> dict[str, Any]:
        return {"variants": self.variants, "public": self.public, "hidden": self.hidden, "max_rounds": self.max_rounds}


@dataclass
class Slot:
    """One scenario position of one variant; replaced by a fresh draw when a gate rejects it."""

    variant: int
    scenario: dict[str, Any]
    hidden: bool  # a hidden scenario's second run is the oracle candidate's, which gate 6 grades
    output: Any = None
    files: Path | None = None  # the reference's artifact directory
    view: Any = None  # the output as equality gates see it: artifact names replaced by file digests
    failure: GateFailure | None = None
    second: RunResult | None = None  # a hidden slot's second run, for gate 6

    def reset(self, scenario: dict[str, Any]) -> None:
        self.scenario, self.output, self.files, self.view, self.failure = scenario, None, None, None, None
        self.second = None

    def example(self, index: int, tol: Tolerances) -> Example:
        names = tuple(sorted({n for _, n in artifact_leaves(Reference(self.output, self.files), tol)}))
        return Example(index, self.scenario, self.output, self.files, names)


@dataclass
class WorkflowResult:
    spec: WorkflowSpec
    tasks: list[str] = field(default_factory=list)
    failure: str | None = None
    dropped: dict[int, str] = field(default_factory=dict)  # variants that never passed their gates, and why
    wall_s: float = 0.0  # for progress lines only; never written to the release

    @property
    def message(self) -> str:
        """The failure as one line naming the workflow's file (the release keeps it path-free)."""
        return f"{self.spec.directory / SPEC_FILE}: {self.failure}"

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.spec.name,
            "family": self.spec.family,
            "domain": self.spec.domain,
            "workflow_hash": self.spec.content_hash,
            "status": "failed" if self.failure else "ok",
            "reason": self.failure,
            "tasks": self.tasks,
            **({"dropped_variants": {str(v): why for v, why in self.dropped.items()}} if self.dropped else {}),
        }


class WorkflowBuild:
    """The gated build of one workflow into K variant tasks."""

    def __init__(self, spec: WorkflowSpec, opts: BuildOptions, sandbox: Sandbox, pool: Executor, progress: Progress):
        self.spec, self.opts, self.sandbox, self.pool, self.progress = spec, opts, sandbox, pool, progress
        self.tol = spec.tolerances
        self.seen: set[str] = set()
        self.next_draw = dict.fromkeys(range(1, opts.variants + 1), 0)
        self.runner = Runner(spec, sandbox, workers=opts.jobs)

    def draw(self, variant: int) -> dict[str, Any]:
        """The next scenario of this variant that no slot of this workflow has used (gate 1)."""
        for _ in range(MAX_DRAWS):
            d = self.next_draw[variant]
            self.next_draw[variant] += 1
            sc = sample_scenario(self.spec, self.opts.seed, variant, d)
            h = content_hash(sc)
            if h not in self.seen:
                self.seen.add(h)
                return sc
        raise GateFailureError(
            GateFailure(
                "disjoint",
                "the input space is too small for distinct public and "
                "hidden scenarios; widen the input ranges or choices",
            )
        )

    def execute(self, scenario: dict[str, Any], run: int) -> RunResult:
        """Run 1: the reference; 2: its second run; 3: the oracle candidate's (Runner.run_oracle)."""
        cache = self.opts.cache
        key = cache.key(self.spec, scenario, run)
        res = cache.get(key)
        if res is None:
            res = (self.runner.run, self.runner.run_second, self.runner.run_oracle)[run - 1](scenario)
            cache.put(key, res)
        self.progress(1, 0)
        return res

    def evaluate(self, pending: list[Slot]) -> None:
        """Gates 2 and 3: every slot runs twice, the second time on other processes in reverse order; a
        hidden slot's second time as the oracle candidate, which gate 6 grades. The hidden ones go first:
        fresh children of the oracle's fork server, which then serves the public ones warm."""
        firsts = list(self.pool.map(lambda s: self.execute(s.scenario, 1), pending))
        order = sorted(range(len(pending))[::-1], key=lambda i: not pending[i].hidden)  # stable
        ran = self.pool.map(lambda i: self.execute(pending[i].scenario, 3 if pending[i].hidden else 2), order)
        seconds = dict(zip(order, ran))
        for i, (slot, first) in enumerate(zip(pending, firsts)):
            self.judge_twice(slot, first, seconds[i])

    def judge_twice(self, slot: Slot, first: RunResult, second: RunResult) -> None:
        slot.second = second if slot.hidden else None
        out1, fail = parse_output(first, slot.scenario)
        out2, fail2 = parse_output(second, slot.scenario) if fail is None else (None, None)
        if fail2 and (slot.hidden or self.runner.seconds_as_oracle):  # the second run was the oracle candidate's
            fail2 = GateFailure("oracle_passes", f"the wrapped reference fails as a candidate: {fail2.reason}")
        slot.failure = fail or fail2
        if slot.failure is None:
            slot.output, slot.files = strip_ignored(out1, self.tol), first.artifacts
            slot.view = reference_view(Reference(slot.output, slot.files), self.tol)
            try:
                slot.failure = check_deterministic(
                    Reference(slot.output, slot.files),
                    Reference(strip_ignored(out2, self.tol), second.artifacts),
                    self.tol,
                    slot.scenario,
                )
            except ArtifactConfigError as e:
                slot.failure = GateFailure("deterministic", f"artifact options in [outputs.fields]: {e}")

    def gated_slots(self, variants: list[int]) -> tuple[dict[int, list[Slot]], dict[int, GateFailure]]:
        """Resample rejected scenarios for a bounded number of rounds: the variants whose slots all hold,
        and the first failure of each that never did. A workflow most of whose first draws fail is broken."""
        n = self.opts.public + self.opts.hidden
        slots = {v: [Slot(v, self.draw(v), i >= self.opts.public) for i in range(n)] for v in variants}
        pending = [s for ss in slots.values() for s in ss]
        for rnd in range(1, self.opts.max_rounds + 1):
            self.progress(0, 2 * len(pending))
            self.evaluate(pending)
            everything = [s for ss in slots.values() for s in ss]
            self._cross_checks(slots, everything)
            bad = [s for s in everything if s.failure]
            if not bad or rnd == self.opts.max_rounds:
                break
            if rnd == 1 and 2 * len(bad) > len(everything):
                raise GateFailureError(bad[0].failure)  # type: ignore[arg-type]
            for s in bad:
                s.reset(self.draw(s.variant))
            pending = bad
        failed = {v: f for v, ss in slots.items() if (f := next((s.failure for s in ss if s.failure), None))}
        return {v: ss for v, ss in slots.items() if v not in failed}, failed

    def _cross_checks(self, slots: dict[int, list[Slot]], everything: list[Slot]) -> None:
        """Gates 4 and 5, which compare scenarios with each other."""
        good = [s for s in everything if not s.failure]
        if good:
            outliers, fail = schema_outliers([s.view for s in good], self.tol)
            for i in outliers:
                good[i].failure = fail
        for ss in slots.values():
            ok = [s for s in ss if not s.failure]
            for i, j in insensitive_pairs([s.view for s in ok], self.tol):
                if not ok[j].failure:
                    ok[j].failure = insensitive_failure(ok[i].scenario, ok[j].scenario)

    def write(self, staging: Path) -> tuple[list[str], dict[int, str]]:
        """Every variant that passes its gates, as a task; a variant that fails one is drawn afresh (up to
        VARIANT_REDRAWS times) and only then dropped, with its reason. No variant at all fails the workflow."""
        slots, failed = self.gated_slots(list(self.next_draw))
        written: list[str] = []
        redraws = dict.fromkeys(self.next_draw, 0)
        while True:
            for v, ss in sorted(slots.items()):
                task = self._write_variant(staging, v, ss)
                if (fail := self._final_gates(task, ss)) is None:
                    written.append(task.id)
                else:
                    shutil.rmtree(task.root)
                    failed[v] = fail
            retry = sorted(v for v in failed if redraws[v] < VARIANT_REDRAWS)
            if not retry:
                break
            for v in retry:
                redraws[v] += 1
            try:
                slots, again = self.gated_slots(retry)
            except GateFailureError as e:  # most fresh draws failed too: these variants are done
                slots, again = {}, {v: e.failure for v in retry}
            failed = {v: f for v, f in failed.items() if v not in retry} | again
        if not written:
            raise GateFailureError(failed[min(failed)])
        return sorted(written, key=lambda t: int(t.rsplit("-v", 1)[1])), {v: str(f) for v, f in sorted(failed.items())}

    def _write_variant(self, staging: Path, v: int, ss: list[Slot]) -> Task:
        limits = limits_for(self.spec)
        public = [s.example(i, self.tol) for i, s in enumerate(ss[: self.opts.public])]
        hidden = [s.example(i, self.tol) for i, s in enumerate(ss[self.opts.public :])]
        tid = f"{self.spec.name}-v{v}"
        arts = {
            dotted(path): artifact_kind(Path(name))
            for ex in public
            for path, name in artifact_leaves(Reference(ex.output, ex.files), self.tol)
        }
        out_schema = schema(self.spec, [ex.output for ex in public], arts)
        instruction = render(self.spec, out_schema["outputs"], limits, len(public), arts)
        return write_task(
            task_dir(staging, tid),
            task_meta(self.spec, tid, v, limits),
            instruction,
            out_schema,
            public,
            hidden,
            self.spec.directory,
            self.spec.input_files(),
        )

    def _final_gates(self, task: Task, slots: list[Slot]) -> GateFailure | None:
        """Gates 6 and 7 on the task as written (handed over, not read back), then its gates.json. Gate 6
        grades the hidden scenarios' second runs: the oracle candidate's executions."""
        try:  # the gate is about r_hid
            v = oracle_verdict(
                task, self.sandbox, jobs=self.opts.jobs, split="hidden", spec=self.spec, fresh=replayed(slots)
            )
        except SwrError as e:  # an artifact option the comparator rejects
            return GateFailure("oracle_passes", e.message)
        if not v.passed:
            bad = next((s.stderr_tail for s in v.scenarios if not s.passed), "")
            return GateFailure(
                "oracle_passes", f"the wrapped reference fails as a candidate ({v.label}, {bad[-200:].strip()})"
            )
        try:
            controls = replay_controls(self.spec, task.public, task.hidden)
        except ArtifactConfigError as e:  # options naming what only some scenarios write: the first gate that
            return GateFailure("replay_controls_fail", f"artifact options in [outputs.fields]: {e}")  # compares two
        if passing := [k for k, c in controls.items() if c["pass"]]:
            return GateFailure("replay_controls_fail", f"the {passing[0]} replay control passes")
        gates: dict[str, Any] = {g: {"pass": True} for g in GATES}
        gates["oracle_passes"]["r_hid"] = v.r_hid
        gates["replay_controls_fail"]["controls"] = controls
        write_gates(task.root, gates)
        return None

    def close(self) -> None:
        self.runner.close()


def replayed(slots: list[Slot]) -> Fresh:
    """The second runs of these slots, handed to grading as the oracle's executions (its artifacts copied
    where grading wants them); a scenario not among them is executed (None)."""
    seconds = {content_hash(s.scenario): s.second for s in slots if s.hidden and s.second is not None}

    def fresh(stdin: bytes, files: Path) -> RunResult | None:
        res = seconds.get(content_hash(json.loads(stdin)))
        if res is None:
            return None
        if res.artifacts:
            copy_tree(res.artifacts, files, ignore=KEEP_ALL, merge=True)
        return replace(res, artifacts=files)

    return fresh


class GateFailureError(Exception):
    def __init__(self, failure: GateFailure):
        self.failure = failure
        super().__init__(str(failure))


def build_workflow(
    spec: WorkflowSpec, staging: Path, opts: BuildOptions, sandbox: Sandbox, pool: Executor, progress: Progress
) -> WorkflowResult:
    res = WorkflowResult(spec)
    if not command_exists(spec):
        res.failure = f"field `command`: program `{spec.command[0]}` not found"  # type: ignore[index]
        return res
    wb = WorkflowBuild(spec, opts, sandbox, pool, progress)
    try:
        res.tasks, res.dropped = wb.write(staging)
        cov = record(wb.runner, opts.cache, coverage_scenarios(spec, opts.seed, opts.variants))
        write_coverage((task_dir(staging, t) for t in res.tasks), cov)  # the workflow's, in each of its tasks
    except GateFailureError as e:
        res.failure = str(e.failure)
        for v in range(1, opts.variants + 1):
            shutil.rmtree(task_dir(staging, f"{spec.name}-v{v}"), ignore_errors=True)
    finally:
        wb.close()
    return res

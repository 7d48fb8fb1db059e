"""Running a workflow's reference: one sandboxed process per scenario, or warm workers for `entry`."""

from __future__ import annotations

import itertools
import json
import os
import shlex
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from swr.core.layout import CANDIDATE_RUN
from swr.core.trees import copy_tree
from swr.kinds.workflow import fork_pool as forkserver
from swr.kinds.workflow.fork_pool import ForkPool, preload_of, python_argv
from swr.kinds.workflow.spec import WorkflowSpec
from swr.kinds.workflow.warm_pool import Pool, Served, with_call_mount
from swr.sandbox import WORKDIR, Job, Limits, MiB, Mount, RunResult, Sandbox, run

WORKER_SCRIPT = Path(__file__).with_name("warm_worker.py")
WORKER_DST = "/sandbox/swr/worker.py"
# The determinism gate's second execution runs under another hash seed: set and dict-of-set order
# that leaks into an output shows up as a difference instead of hiding behind PYTHONHASHSEED=0.
SECOND_ENV = {"PYTHONHASHSEED": "1"}


def limits_for(spec: WorkflowSpec, base: Limits | None = None) -> Limits:
    """The task's limits: the workflow's overrides on top of the sandbox defaults."""
    b = base or Limits()
    lim = spec.limits
    return Limits(
        time_s=spec.timeout_s,
        memory_bytes=lim.memory_mb * MiB if lim.memory_mb else b.memory_bytes,
        pids=lim.pids or b.pids,
        stdout_bytes=lim.stdout_mb * MiB if lim.stdout_mb else b.stdout_bytes,
        tmp_bytes=b.tmp_bytes,
    )


def resolve_command(command: list[str]) -> list[str]:
    """A bare `python3`/`python` means the interpreter swr runs in."""
    head = command[0]
    if head in ("python3", "python"):
        return [sys.executable, *command[1:]]
    return list(command)


def command_exists(spec: WorkflowSpec) -> bool:
    if not spec.command:
        return True
    head = resolve_command(spec.command)[0]
    if "/" in head:
        p = head if os.path.isabs(head) else str(spec.directory / head)
        return os.access(p, os.X_OK)
    return shutil.which(head) is not None


def _encode(scenario: dict[str, Any]) -> bytes:
    return (json.dumps(scenario, sort_keys=True) + "\n").encode()


class Runner:
    """Executes the reference of one workflow inside a sandbox backend."""

    def __init__(
        self,
        spec: WorkflowSpec,
        sandbox: Sandbox,
        workers: int = 1,
        limits: Limits | None = None,
        fork: bool | None = None,
    ):
        self.spec = spec
        self.sandbox = sandbox
        self.limits = limits or limits_for(spec)
        # artifact directories, removed by close()
        self.scratch = Path(tempfile.mkdtemp(prefix=f"swr-runs-{os.getpid()}-"))
        self._count = itertools.count()
        self.fork = forkserver.enabled() if fork is None else fork  # fresh executions from a fork server
        self.workers = workers
        self.forks: dict[Any, ForkPool | None] = {}
        self._forks_lock = threading.Lock()
        self.pool = WorkerPool(self, workers) if spec.entry else None
        self.second: WorkerPool | None = None  # warm seed-1 workers, where no fork server turns warm
        self._oracle: tuple[Path, Path | None] | None = None  # the oracle candidate and its files, made once
        self._oracle_lock = threading.Lock()

    def new_dir(self) -> Path:
        d = self.scratch / str(next(self._count))
        d.mkdir()
        return d

    def job(
        self,
        argv: list[str],
        limits: Limits | None = None,
        artifacts: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> Job:
        extra = with_call_mount([Mount(WORKER_SCRIPT, WORKER_DST)]) if self.spec.entry else ()
        return Job(
            argv,
            Mount(self.spec.directory, WORKDIR, "overlay"),
            limits or self.limits,
            artifacts=artifacts,
            extra_mounts=extra,
            env=dict(env or {}),
            fixed_addresses=True,
        )

    def run(self, scenario: dict[str, Any]) -> RunResult:
        """The fast path: a warm worker for `entry` workflows, a fresh process otherwise."""
        if self.pool:
            return self.pool.run(scenario)
        return self.run_fresh(scenario)

    def run_second(self, scenario: dict[str, Any]) -> RunResult:
        """The determinism gate's second execution: other processes than run()'s, under another hash seed
        and with another call history (the build feeds them in reverse order), so leaked state shows. For
        `entry`, a warm call in the oracle's fork server (which has imported the package already: the build
        asks for the fresh, hidden, runs first); a `command` reference runs fresh as the oracle candidate."""
        if not self.spec.entry:
            return self.run_oracle(scenario)
        art = self.new_dir()
        pool = self._fork_pool("oracle", self._oracle_pool)
        if pool and (res := pool.run(_encode(scenario), art, warm=True)) is not None:
            return res
        with self._forks_lock:
            self.second = self.second or WorkerPool(self, self.workers, SECOND_ENV)
        return self.second.run(scenario)

    @property
    def seconds_as_oracle(self) -> bool:
        """Whether second runs ran as the oracle candidate (its files, limits and hidden packages): always for
        `command`; for `entry` unless warm seed-1 workers had to serve them (no fork server)."""
        return self.second is None

    def run_oracle(self, scenario: dict[str, Any]) -> RunResult:
        """The reference as the oracle candidate (`./run` over the task's files, the task's limits, forbidden
        packages hidden), a fresh process under the second run's hash seed: a hidden scenario's second
        execution, which gate 6 then grades as the oracle's."""
        art, stdin = self.new_dir(), _encode(scenario)
        pool = self._fork_pool("oracle", self._oracle_pool)
        if pool and (res := pool.run(stdin, art)) is not None:
            return res
        return replace(run(self.sandbox, replace(self.candidate_job(), artifacts=art), stdin), artifacts=art)

    def run_fresh(self, scenario: dict[str, Any], env: dict[str, str] | None = None) -> RunResult:
        """Always a new process: a fork server's clean child where the command is a Python script."""
        if self.spec.command:
            art = self.new_dir()
            pool = self._fork_pool(("fresh", *sorted((env or {}).items())), lambda: self._command_pool(env))
            if pool and (res := pool.run(_encode(scenario), art)) is not None:
                return res
            job = self.job(resolve_command(self.spec.command), artifacts=art, env=env)
            return replace(run(self.sandbox, job, _encode(scenario)), artifacts=art)
        w = Worker(self, env)
        try:
            return w.call(scenario)
        finally:
            w.close()

    def candidate_job(self) -> Job:
        """The oracle candidate's job, as grading runs a candidate (under the second run's hash seed)."""
        with self._oracle_lock:
            if self._oracle is None:
                d, names = self.new_dir(), self.spec.input_files()
                cand = write_oracle(self.spec, self.spec.directory, d / "candidate")
                files = d / "files" if names else None
                if files:
                    copy_files(self.spec.directory, names, files)
                self._oracle = cand, files
        cand, files = self._oracle
        return Job(
            [f"./{CANDIDATE_RUN}"],
            Mount(cand, WORKDIR, "overlay", (files,) if files else ()),
            self.limits,
            env=dict(SECOND_ENV),
            hidden=tuple(self.spec.forbidden_packages),
            fixed_addresses=True,
        )

    def _fork_pool(self, key: Any, make: Callable[[], ForkPool | None]) -> ForkPool | None:
        if not self.fork:
            return None
        with self._forks_lock:
            if key not in self.forks:
                self.forks[key] = make()
            return self.forks[key]

    def _command_pool(self, env: dict[str, str] | None) -> ForkPool | None:
        argv = python_argv(resolve_command(self.spec.command or []))
        if argv is None:
            return None
        preload = preload_of(self.spec.directory / argv[0], (self.spec.directory,))
        return ForkPool(self.sandbox, self.job([], env=env), argv, preload, self.workers)

    def _oracle_pool(self) -> ForkPool | None:
        """The fork server of the oracle candidate: the wrapper script for `entry` (the server imports the
        entry's module, which a child's wrapper then finds imported), the command's script for `command`
        (the wrapper execs the command)."""
        job = self.candidate_job()
        entry: list[list[Any]] = []
        if self.spec.entry:
            argv: list[str] | None = [f"./{CANDIDATE_RUN}"]
            module, func = self.spec.entry.split(":")
            script, entry = Path(*module.split(".")).with_suffix(".py"), [[module, [func]]]
        else:
            argv = python_argv(resolve_command(self.spec.command or []))
            script = Path(argv[0] if argv else ".")
        if argv is None:
            return None
        roots = (job.workdir.src, *job.workdir.lower)
        preload = [*preload_of(job.workdir.src / script, roots), *entry]  # the entry's module too: its own set-up
        return ForkPool(self.sandbox, job, argv, preload, self.workers, self.spec.entry)

    def close(self) -> None:
        for pool in (self.pool, self.second, *self.forks.values()):
            if pool:
                pool.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


class Worker(Served):
    """One warm process serving scenarios over a line protocol; restarted after any failure."""

    def __init__(self, runner: Runner, env: dict[str, str] | None = None):
        lim = runner.limits
        # the import is part of the first call's budget; afterwards each call has its own deadline
        self.limits = lim
        self.files = runner.new_dir()  # each call writes its artifacts into a fresh subdirectory of this
        self.calls = itertools.count()
        argv = [sys.executable, WORKER_DST, runner.spec.entry or ""]
        super().__init__(runner.sandbox.spawn(runner.job(argv, replace(lim, time_s=float("inf")), self.files, env)))

    def call(self, scenario: dict[str, Any]) -> RunResult:
        t0 = time.monotonic()
        p = self.h.proc
        sub = str(next(self.calls))
        try:
            assert p.stdin is not None
            p.stdin.write(_encode({"scenario": scenario, "artifacts": sub}))
            p.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._failed(t0, None)
        line, limit = self.read_line(t0 + self.limits.time_s, cap=self.limits.stdout_bytes)
        if line is None:
            return self._failed(t0, limit)
        try:
            reply = json.loads(line)
        except ValueError:
            return self._failed(t0, None)
        err = self.take_stderr()
        if reply.get("ok"):
            return RunResult(0, reply["output"].encode(), err, None, time.monotonic() - t0, self.files / sub)
        return RunResult(1, b"", err + str(reply.get("error", "")).encode(), None, time.monotonic() - t0)

    def _failed(self, t0: float, limit: str | None) -> RunResult:
        self.dead = True
        self.h.kill()
        rc = self.h.proc.wait()
        limit = limit or self.h.breach()
        self._drainer.join(timeout=2)
        return RunResult(None if limit else rc, b"", b"".join(self.stderr), limit, time.monotonic() - t0)


class WorkerPool(Pool[Worker]):
    """Up to `size` warm workers shared by threads; a failed worker is replaced lazily."""

    def __init__(self, runner: Runner, size: int, env: dict[str, str] | None = None):
        super().__init__(size)
        self.runner, self.env = runner, env

    def run(self, scenario: dict[str, Any]) -> RunResult:
        with self.slots:
            w = self.take() or self.add(Worker(self.runner, self.env))
            res = w.call(scenario)
            self.release(w)
            return res


def write_oracle(spec: WorkflowSpec, reference_dir: Path, dest: Path) -> Path:
    """A candidate directory that wraps the reference: the oracle of gate 6 and of `-a oracle`."""
    copy_reference(reference_dir, dest)
    run_file = dest / CANDIDATE_RUN
    if spec.command:
        script = f"#!/bin/sh\nexec {shlex.join(spec.command)}\n"  # a bare python3: the sandbox PATH finds it
    else:
        module, func = (spec.entry or ":").split(":")
        script = (
            "#!/usr/bin/env python3\nimport json, os, sys\nsys.path.insert(0, os.getcwd())\n"
            f"from {module} import {func}\njson.dump({func}(json.load(sys.stdin)), sys.stdout)\n"
        )
    run_file.write_text(script)
    run_file.chmod(run_file.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return dest


def copy_reference(src: Path, dst: Path) -> None:
    """The reference as a task carries it: no bytecode."""
    copy_tree(src, dst, merge=True)


def copy_files(src: Path, files: list[str], dst: Path) -> None:
    """The path inputs' files, as a task carries them beside its reference (mounted beneath a candidate)."""
    for rel in files:
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, dst / rel)

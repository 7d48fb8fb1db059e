"""Fresh executions without the import bill: a fork server per workflow (fork_server.py, inside the sandbox,
same limits, seccomp and uid) imports the reference's top-level modules once and forks a clean child per
scenario. Only a workflow's own Python reference is served this way, never a candidate. SWR_FORK_SERVER=0
turns it off (every fresh execution is then a new sandboxed process, as before)."""

from __future__ import annotations

import ast
import base64
import contextlib
import json
import os
import queue
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from swr.kinds.workflow.warm_pool import Pool, Served, with_call_mount
from swr.sandbox import WORKDIR, Job, Mount, RunResult, Sandbox, tree
from swr.sandbox.base import disk_used
from swr.sandbox.capped import capped_dir

SERVER_SCRIPT = Path(__file__).with_name("fork_server.py")
SERVER_DST = "/sandbox/swr/forkserve.py"
WATCH = ("/tmp", WORKDIR, "/dev/shm")  # where a child may leave files: emptied of them after each child
GRACE_S = 5.0  # past a call's own deadline, which the server enforces, the host kills the server
DISK_POLL_S = 0.2
Fresh = Callable[[bytes, Path], "RunResult | None"]  # one stdin through a fork server's child; None: not served


def enabled() -> bool:
    """The off switch: SWR_FORK_SERVER=0 makes every fresh execution a new process."""
    return os.environ.get("SWR_FORK_SERVER", "1") not in ("0", "off", "no", "false")


class ForkUnavailable(Exception):
    """The server could not start (a preload that starts threads, a crash): run per process instead."""


def python_argv(command: list[str]) -> list[str] | None:
    """The script and its arguments when `command` is `<swr's python> script args...`, else None."""
    if len(command) < 2 or command[0] != sys.executable or command[1].startswith("-"):
        return None
    return list(command[1:])


def _local(name: str, roots: tuple[Path, ...]) -> Path | None:
    """Where a module of the reference's own directories lives (its directory or file), else None."""
    top = name.split(".")[0]
    return next((p for root in roots for p in (root / f"{top}.py", root / top) if p.exists()), None)


def _source(name: str, roots: tuple[Path, ...]) -> Path | None:
    """The source file of a local module, to read its own imports."""
    rel = Path(*name.split("."))
    return next(
        (p for root in roots for p in (root / rel.with_suffix(".py"), root / rel / "__init__.py") if p.is_file()), None
    )


def _imports(source: str) -> list[ast.Import | ast.ImportFrom]:
    """Import statements that run at module load: top level, or inside a top-level try/if."""
    body, found = list(ast.parse(source).body), []
    while body:
        node = body.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, (ast.Try, ast.If)):
            body[:0] = [*node.body, *node.orelse]
    return found


def preload_of(script: Path, roots: tuple[Path, ...]) -> list[list[Any]]:
    """The third-party modules a script (and the local modules it imports) import when loaded, as
    [module, fromlist] pairs, in order of first appearance."""
    out: list[list[Any]] = []
    seen_files: set[Path] = set()
    todo = [script]
    while todo:
        f = todo.pop(0)
        if f in seen_files or not f.is_file():
            continue
        seen_files.add(f)
        try:
            nodes = _imports(f.read_text(errors="replace"))
        except SyntaxError:
            continue
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.level:
                continue
            pairs: list[list[Any]] = (
                [[a.name, []] for a in node.names]
                if isinstance(node, ast.Import)
                else [[node.module or "", sorted(a.name for a in node.names if a.name != "*")]]
            )
            for name, fromlist in pairs:
                if _local(name, roots) is None:
                    if [name, fromlist] not in out:
                        out.append([name, fromlist])
                elif src := _source(name, roots):
                    todo.append(src)
    return out


class ForkServer(Served):
    """One server in its own sandbox; serves one scenario at a time. Artifacts land in a (capped) directory
    of its own, copied out after each child as a fresh process's are."""

    def __init__(
        self,
        sandbox: Sandbox,
        job: Job,
        argv: list[str],
        preload: list[list[Any]],
        learn: bool = True,
        entry: str | None = None,
    ):
        self.limits = job.limits
        self.unlearnable = False  # its learned imports started threads: servers after it do not learn
        self.warm = False  # it has called the entry itself: it forks no fresh child any more
        self.dir = Path(tempfile.mkdtemp(prefix=f"swr-fork-{os.getpid()}-"))
        self.files = self.dir / "artifacts"
        self.stack = contextlib.ExitStack()
        self.capped = self.stack.enter_context(capped_dir(self.files, self.limits.disk_bytes))
        cfg = {"argv": argv, "preload": preload, "watch": list(WATCH), "learn": learn, "entry": entry}
        lim = replace(self.limits, time_s=float("inf"), pids=self.limits.pids + 1)  # +1: the server
        try:
            h = sandbox.spawn(
                replace(
                    job,
                    argv=[sys.executable, SERVER_DST, json.dumps(cfg)],
                    limits=lim,
                    artifacts=self.files,
                    extra_mounts=with_call_mount((*job.extra_mounts, Mount(SERVER_SCRIPT, SERVER_DST))),
                )
            )
        except BaseException:
            self.stack.close()
            shutil.rmtree(self.dir, ignore_errors=True)
            raise
        super().__init__(h)
        self.info = self._ready(lim.pids)

    def _ready(self, pids: int) -> dict[str, Any]:
        """The server's ready line (its preload within the time a fresh process has), else ForkUnavailable."""
        line = self._line(time.monotonic() + self.limits.time_s)
        try:
            ready = json.loads(line) if line else {"why": f"the server exited ({b''.join(self.stderr)[-300:]!r})"}
        except ValueError:
            ready = {"why": "a garbled ready line"}
        if not ready.get("ready"):
            self.close()
            raise ForkUnavailable(ready.get("why", "no ready line"))
        self.pids = pids
        self._budget(int(ready["rss"]))
        return ready

    def _budget(self, rss: int) -> None:
        """The imported modules are the server's: the child keeps its own memory budget beside them."""
        cg = getattr(self.h, "cg", None)
        if cg is not None:
            cg.set_limits(self.pids, self.limits.memory_bytes + rss)

    def _line(self, deadline: float) -> bytes | None:
        """One protocol line, or None when the server is gone, past the deadline or past the disk cap."""
        line, _ = self.read_line(deadline, poll_s=DISK_POLL_S, over=self._over_disk)
        return line

    def _over_disk(self) -> bool:
        return not self.capped and disk_used((self.files,)) > self.limits.disk_bytes

    def call(self, stdin: bytes, files: Path, warm: bool = False) -> RunResult | None:
        """One scenario in a forked child: what a fresh `run(sandbox, job, stdin)` would return; None if the
        server itself ended without a limit to blame (the caller runs that scenario per process). Warm: the
        entry called in the server itself, as a warm Worker's call (the server is warm from then on)."""
        t0 = time.monotonic()
        req = {
            "warm" if warm else "stdin": stdin.decode(),
            "time_s": self.limits.time_s,
            "stdout_bytes": self.limits.stdout_bytes,
        }
        self.warm = self.warm or warm
        try:
            os.write(self.h.proc.stdin.fileno(), (json.dumps(req) + "\n").encode())  # type: ignore[union-attr]
        except OSError:
            return self._failed(t0, None)
        allowed = self.limits.time_s + (0.0 if warm else GRACE_S)  # a warm call has no child to time it
        line = self._line(t0 + allowed)
        if line is None:
            if time.monotonic() - t0 >= allowed:
                return self._failed(t0, "timeout")
            return self._failed(t0, "disk" if disk_used((self.files,)) > self.limits.disk_bytes else None)
        try:
            rep = json.loads(line)
        except ValueError:
            return self._failed(t0, None)
        limit = rep["limit"] or self.h.breach()
        if disk_used((self.files,)) > self.limits.disk_bytes:
            limit = "disk"
        if limit != "disk":  # as run() does: what a run past its disk cap wrote is not read
            tree.export(self.files, files, tree.Bounds(bytes=self.limits.disk_bytes), strict=False)
        self._empty_files()
        if "rss" in rep:  # the server imported what the first child's program imported on first use
            self._budget(int(rep["rss"]))
        self.unlearnable = "unlearnable" in rep
        if self.h.breach() or limit == "disk" or not rep["clean"]:
            self.dead = True  # its cgroup's counters keep the breach; a changed file stays: start afresh
        out, err = base64.b64decode(rep["stdout"]), base64.b64decode(rep["stderr"])
        if warm:  # what the entry printed went to the server's own stderr
            err = self.take_stderr() + err
        return RunResult(None if limit else rep["rc"], out, err, limit, time.monotonic() - t0, files)

    def _empty_files(self) -> None:
        for p in self.files.iterdir():
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)

    def _failed(self, t0: float, limit: str | None) -> RunResult | None:
        """The server hung past the grace or broke a limit during a call: that call fails. Ended otherwise
        (a child killed it): None. Either way the server is replaced."""
        self.dead = True
        self.h.kill()
        self.h.proc.wait()
        limit = limit or self.h.breach()
        if limit is None:
            return None
        err = b"".join(self.stderr) + b"\nswr: the fork server ended during this scenario"
        return RunResult(None, b"", err, limit, time.monotonic() - t0)

    def close(self) -> None:
        super().close()
        self.stack.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class ForkPool(Pool[ForkServer]):
    """Up to `size` fork servers of one job shared by threads, started lazily; a dead one is replaced.
    If a server cannot start, the pool is off for good and run() returns None (run per process). A warm
    call takes a warm server, else turns a fresh one warm: the import is paid once for both kinds of run."""

    def __init__(
        self,
        sandbox: Sandbox,
        job: Job,
        argv: list[str],
        preload: list[list[Any]],
        size: int = 1,
        entry: str | None = None,
    ):
        super().__init__(size)
        self.sandbox, self.job, self.argv, self.preload, self.entry = sandbox, job, argv, preload, entry
        self.warm: queue.LifoQueue[ForkServer] = queue.LifoQueue()
        self.broken: str | None = None
        self.learn = True

    def run(self, stdin: bytes, files: Path, warm: bool = False) -> RunResult | None:
        """A fresh child's run, or (warm) a call of the entry in a server; None: run it per process."""
        assert self.entry or not warm, "a warm call needs the entry"
        with self.slots:
            if self.broken:
                return None
            s = self.take(self.warm, self.idle) if warm else self.take(self.idle)
            if s is None:
                try:
                    s = self.add(ForkServer(self.sandbox, self.job, self.argv, self.preload, self.learn, self.entry))
                except ForkUnavailable as e:
                    self.broken = str(e)
                    return None
            res = s.call(stdin, files, warm)
            if s.dead:
                self.learn = self.learn and not s.unlearnable
            self.release(s, self.warm if s.warm else self.idle)
            return res

"""The run's clock, kept from outside the agent: at the deadline every sandboxed process of the run is
killed, whatever the agent does with its own time."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from swr.sandbox import Handle, Job, Sandbox

from .base import Agent, Context, Outcome

GRACE_S = 10.0  # how long a stopped agent has to hand back what it has


class Stopped(BaseException):
    """Raised in an agent that starts a process after its run's time is up; a BaseException, so that
    an agent's own error handling does not carry on regardless."""


class Watched:
    """The run's sandbox as its agent sees it: every process tree it starts is known, so the harness
    can end them all when the run's time is up, and none starts after."""

    def __init__(self, inner: Sandbox):
        self.inner = inner
        self.name = inner.name
        self._handles: list[Handle] = []
        self._lock = threading.Lock()
        self._stopped = False

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)

    def spawn(self, job: Job) -> Handle:
        if self._stopped:
            raise Stopped()
        h = self.inner.spawn(job)
        with self._lock:
            self._handles = [x for x in self._handles if x.proc.returncode is None] + [h]
            stopped = self._stopped
        if stopped:
            h.kill()
        return h

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            live = [h for h in self._handles if h.proc.returncode is None]
        for h in live:
            try:
                h.kill()
            except Exception:  # noqa: BLE001 - a tree ending on its own meanwhile
                pass


def supervise(agent: Agent, ctx: Context) -> Outcome:
    """agent.solve(ctx) bounded by the budget's time limit from outside the agent: at the deadline
    every sandboxed process of the run is killed and the run ends as `time_limit`, whether or not the
    agent keeps its own clock (an agent stuck on the host is left behind after GRACE_S)."""
    watched = Watched(ctx.sandbox)
    ctx = dataclasses.replace(ctx, sandbox=watched)
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["out"] = agent.solve(ctx)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["err"] = e

    t = threading.Thread(target=work, name=f"swr-agent-{ctx.task.id}", daemon=True)
    t.start()
    t.join(ctx.budget.time_limit_s)
    if not t.is_alive():
        if "err" in box:
            raise box["err"]
        return box["out"]
    ctx.stop.set()
    watched.stop()
    t.join(GRACE_S)
    out = box.get("out") or Outcome()
    if t.is_alive():
        out.notes.append({"kind": "agent_unresponsive", "grace_s": GRACE_S})
    elif "err" in box:
        out.notes.append({"kind": "agent_stopped", "error": f"{type(box['err']).__name__}: {box['err']}"[:300]})
    out.limit = "time_limit"
    return out

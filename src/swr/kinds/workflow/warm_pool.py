"""The host side shared by the two kinds of long-lived sandboxed servers of a workflow's reference: warm
workers (reference.Worker, warm_worker.py inside) and fork servers (fork_pool.ForkServer, fork_server.py
inside). Both speak one JSON line per request and reply, keep the tail of their stderr, are shared by
threads through a pool of at most `size`, and are replaced when they die. The in-sandbox half they share is
warm_call.py, mounted by `call_mount()`."""

from __future__ import annotations

import io
import os
import queue
import select
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Generic, TypeVar, cast

from swr.kinds.workflow.warm_call import CALL_DST
from swr.sandbox import Handle, Mount

CALL_SCRIPT = Path(__file__).with_name("warm_call.py")
STDERR_CHUNKS = 64  # chunks of a server's stderr kept: what its failures show


def with_call_mount(mounts: Iterable[Mount]) -> tuple[Mount, ...]:
    """mounts plus warm_call.py beside the server script, once (a fork server's job may carry the worker's)."""
    mounts = tuple(mounts)
    if any(m.dst == CALL_DST for m in mounts):
        return mounts
    return (*mounts, Mount(CALL_SCRIPT, CALL_DST))


class Served:
    """One server process: its handle, its stderr drained by a thread (so it never blocks on a full pipe),
    and reply lines read against a deadline."""

    def __init__(self, h: Handle):
        self.h = h
        self.dead = False
        self.stderr: deque[bytes] = deque(maxlen=STDERR_CHUNKS)
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        f = cast("io.BufferedReader | None", self.h.proc.stderr)  # Popen's default buffering: a BufferedReader
        assert f is not None
        for chunk in iter(lambda: f.read1(1 << 16), b""):
            self.stderr.append(chunk)

    def take_stderr(self) -> bytes:
        """The stderr kept so far, which the next reply no longer shows."""
        err = b"".join(self.stderr)
        self.stderr.clear()
        return err

    def read_line(
        self,
        deadline: float,
        cap: int | None = None,
        poll_s: float | None = None,
        over: Callable[[], bool] | None = None,
    ) -> tuple[bytes | None, str | None]:
        """One reply line, or (None, why): "timeout" past the deadline, "output" past `cap` bytes without a
        newline, "disk" when `over()` says so (asked every `poll_s` of silence), None if the server ended."""
        f = self.h.proc.stdout
        assert f is not None
        fd, buf = f.fileno(), bytearray()
        while not buf.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None, "timeout"
            ready, _, _ = select.select([fd], [], [], remaining if poll_s is None else min(remaining, poll_s))
            if not ready:
                if over is not None and over():
                    return None, "disk"
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None, None
            buf += chunk
            if cap is not None and len(buf) > cap and not buf.endswith(b"\n"):
                return None, "output"
        return bytes(buf), None

    def close(self) -> None:
        self.h.close()


S = TypeVar("S", bound=Served)


class Pool(Generic[S]):
    """Up to `size` servers shared by threads: a caller holds a slot for its whole call, takes an idle
    server (the most recently used first) or starts one, and puts it back, or retires it if it died."""

    def __init__(self, size: int):
        self.idle: queue.LifoQueue[S] = queue.LifoQueue()
        self.slots = threading.Semaphore(max(1, size))
        self.all: list[S] = []
        self.lock = threading.Lock()

    def take(self, *queues: queue.LifoQueue[S]) -> S | None:
        """An idle server from the first queue that has one (default: `idle`), else None."""
        for q in queues or (self.idle,):
            try:
                return q.get_nowait()
            except queue.Empty:
                pass
        return None

    def add(self, s: S) -> S:
        with self.lock:
            self.all.append(s)
        return s

    def release(self, s: S, into: queue.LifoQueue[S] | None = None) -> None:
        """Back into `into` (default: `idle`) after a call, or closed and forgotten if it died."""
        if s.dead:
            with self.lock:
                if s in self.all:
                    self.all.remove(s)
            s.close()
        else:
            (self.idle if into is None else into).put(s)

    def close(self) -> None:
        with self.lock:
            for s in self.all:
                s.close()
            self.all.clear()

"""The warm call, shared by the two programs that serve a workflow's `entry` inside the sandbox: the warm
worker (warm_worker.py) and the fork server turned warm (fork_server.py). Stdlib only: it is mounted beside
them as /sandbox/swr/swr_warm_call.py (CALL_DST) and imported from there; on the host (tests) it is
swr.kinds.workflow.warm_call.

What both do the same way: the protocol keeps the process's original stdout and the entry's own prints go to
stderr (so they cannot corrupt a reply); the reference's directory (the working directory) comes first on
sys.path, as for `python run.py` there; the entry is `module:func`, called on the scenario; its result is
sent as JSON text, a failure (any BaseException: the server survives) as the tail of its traceback; one JSON
reply per line."""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

CALL_DST = "/sandbox/swr/swr_warm_call.py"  # a name no reference module takes: the fork server's children inherit it
ERROR_TAIL = 4000  # characters of a failed call's traceback kept in the reply


def keep_protocol() -> IO[str]:
    """The original stdout as the reply stream; fd 1 and sys.stdout become stderr from here on."""
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    quiet_prints()
    return proto


def quiet_prints() -> None:
    """The entry's prints into stderr (a fork server keeps fd 1 as stderr already, and swaps sys.stdout only
    once it calls the entry: its forked children make their own streams until then)."""
    sys.stdout = sys.stderr


def load_entry(entry: str) -> Callable[[Any], Any]:
    """The entry function (`module:func`), imported from the reference's directory (the working directory)."""
    module, func = entry.split(":")
    if os.getcwd() not in sys.path:  # a fork server's preload took it out again; a worker's path lacks it
        sys.path.insert(0, os.getcwd())
    return getattr(importlib.import_module(module), func)  # type: ignore[no-any-return]


def call(entry: str | Callable[[Any], Any], scenario: Any) -> tuple[str | None, str]:
    """(output as JSON text, "") or (None, traceback tail): the entry on one scenario; every failure,
    the entry's import included when given by name, is reported and the caller survives."""
    try:
        func = load_entry(entry) if isinstance(entry, str) else entry
        return json.dumps(func(scenario)), ""
    except BaseException:  # noqa: BLE001 - every failure is reported, the server survives
        return None, failure()


def failure() -> str:
    """The tail of the traceback being handled (call it in an except block)."""
    return traceback.format_exc()[-ERROR_TAIL:]


def send(proto: IO[str], reply: dict[str, Any]) -> None:
    """One reply line, flushed (the host waits for it)."""
    proto.write(json.dumps(reply) + "\n")
    proto.flush()

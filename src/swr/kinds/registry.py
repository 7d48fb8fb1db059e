"""The task kinds swr knows, by name: the three built-ins, then those of installed distributions (entry-point
group `swr.kinds`, each naming a TaskKind object) and those named by the environment variable SWR_KINDS
("module:attr,..."; a subprocess, a test, a checkout can add a kind without installing anything). Kinds load
on first use, so that importing a kind's package never imports the others'."""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points

from swr.core.errors import SwrError
from swr.kinds.protocol import TaskKind

BUILTIN = ("swr.kinds.workflow.kind:KIND", "swr.kinds.engine.kind:KIND", "swr.kinds.revival.kind:KIND")
GROUP = "swr.kinds"
ENV = "SWR_KINDS"

_kinds: dict[str, TaskKind] = {}
_loaded: list[str] = []  # the SWR_KINDS value the registry was filled with ("" before the first fill)


def register(kind: TaskKind, origin: str = "swr") -> TaskKind:
    """Add a kind under a name no other kind has: a plug-in may add a kind, never replace one (a kind decides
    how its tasks are graded, so a second "workflow" would re-grade every workflow task by its own rules)."""
    known = _kinds.get(kind.name)
    if known is not None and known is not kind:
        raise SwrError(
            f"task kind {kind.name!r} is already registered; a plug-in may add a kind, not replace one", field=origin
        )
    _kinds[kind.name] = kind
    return kind


def _resolve(ref: str, origin: str) -> TaskKind:
    """`module:attr` as the object it names; a bad reference is a one-line error naming where it came from."""
    module, _, attr = ref.strip().partition(":")
    try:
        obj: TaskKind = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError, ValueError) as e:
        raise SwrError(f"cannot load task kind {ref.strip()!r}: {e}", field=origin) from None
    return obj


def _fill() -> None:
    """Load the built-ins, the entry points and SWR_KINDS once (again when SWR_KINDS changes)."""
    env = os.environ.get(ENV, "")
    if _loaded and _loaded[0] == env:
        return
    _kinds.clear()  # from scratch: a kind SWR_KINDS named before is gone with it
    for ref in BUILTIN:
        register(_resolve(ref, "swr"))
    for ep in entry_points(group=GROUP):
        register(_resolve(ep.value, f"entry point {ep.name}"), f"entry point {ep.name}")
    for ref in filter(str.strip, env.split(",")):
        register(_resolve(ref, ENV), ENV)
    _loaded[:] = [env]


def kinds() -> list[TaskKind]:
    """Every kind, the built-ins first (workflow, engine, revival): the order a release is built in."""
    _fill()
    return list(_kinds.values())


def get(name: str) -> TaskKind | None:
    """The kind of that name, or None (callers say where the unknown name came from)."""
    _fill()
    return _kinds.get(name)


def named(name: str) -> TaskKind:
    """The kind of that name, which a task.toml read through the registry names (so it is known)."""
    kind = get(name)
    if kind is None:
        raise SwrError(f"unknown task kind {name!r} (one of {', '.join(names())})", field="kind")
    return kind


def names() -> list[str]:
    """The known kinds' names, for error messages."""
    return [k.name for k in kinds()]

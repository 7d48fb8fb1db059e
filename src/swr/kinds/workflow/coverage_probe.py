"""Coverage probe, run inside the sandbox (stdlib only): which functions of the wrapped package a workflow's
reference executes on a few scenarios (swr.kinds.workflow.coverage, the host side).

argv[1] is JSON: {"packages": [import names or dotted prefixes], "entry": "module:func" or null,
"argv": [script, *args] or null, "preload": [[module, [names]], ...]}. stdin: one scenario per line.
The reference's modules are imported first, untraced (what every workflow of a family pays alike is not what
tells two apart); then each scenario is run in this one process (one import for all: the probe costs one
execution, not K) under a global trace hook. The hook is sys.settrace returning None: it is called once per
Python frame ("call" events only, no line events), the cheapest Python-level hook on 3.11 (sys.monitoring
is 3.12's). Frames inside an import (importlib's _load_unlocked) are skipped, so a lazy submodule's
import-time calls do not count. Compiled functions (C, Cython, pybind11) have no Python frame: they are not
seen. Every random generator a module holds is seeded before each scenario (generators), so a library's
draws follow the same code path in every build. One JSON line on the original stdout: {"functions":
["module:qualname", ...] (sorted), "modules": {module: functions it defines}, "failed": scenarios that raised};
the reference's prints go to stderr."""

from __future__ import annotations

import io
import json
import os
import random
import runpy
import sys
import threading
from types import CodeType, FrameType
from typing import Any

if __package__:  # imported on the host (tests)
    from swr.kinds.workflow import warm_call
else:  # run inside the sandbox: warm_call.py is mounted beside this script
    import swr_warm_call as warm_call  # type: ignore[no-redef]


def in_packages(name: str, packages: list[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def is_function(code: CodeType) -> bool:
    """A def's code: not a module body, class body's <...> helpers, lambda or comprehension."""
    return not code.co_name.startswith("<")


class Tracer:
    """The set of package functions whose frames were entered outside imports."""

    def __init__(self, packages: list[str]):
        self.packages = packages
        self.seen: dict[CodeType, str | None] = {}  # code -> its module if the package's, else None
        self.importing = 0
        boot = sys.modules.get("_frozen_importlib")  # the import system itself (importlib._bootstrap)
        fn = getattr(boot, "_load_unlocked", None)
        self.load: CodeType | None = getattr(fn, "__code__", None)

    def call(self, frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if code is self.load:
            self.importing += 1
            return self.left_import
        if self.importing or code in self.seen:
            return None
        name = frame.f_globals.get("__name__")
        self.seen[code] = name if isinstance(name, str) and in_packages(name, self.packages) else None
        return None

    def left_import(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "return":
            self.importing -= 1
        return self.left_import

    def __enter__(self) -> Tracer:
        threading.settrace(self.call)
        sys.settrace(self.call)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(None)
        threading.settrace(None)

    def functions(self) -> list[str]:
        return sorted({f"{m}:{c.co_qualname}" for c, m in self.seen.items() if m is not None and is_function(c)})


def defined(code: CodeType, out: set[str]) -> None:
    """Every function a module's code defines, nested ones too, by qualified name."""
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if is_function(const):
                out.add(const.co_qualname)
            defined(const, out)


def reached(packages: list[str]) -> dict[str, int]:
    """The package's modules this process imported, with the number of functions each defines (from its
    bytecode; an extension module defines none that a trace could see)."""
    out = {}
    for name, mod in sorted(sys.modules.items()):
        loader = getattr(getattr(mod, "__spec__", None), "loader", None)
        if not in_packages(name, packages) or not hasattr(loader, "get_code"):
            continue
        try:
            code = loader.get_code(name)  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - no bytecode to read: no Python function either
            code = None
        names: set[str] = set()
        if code is not None:
            defined(code, names)
        out[name] = len(names)
    return out


def generators() -> list[Any]:
    """Every random generator the imported modules hold, and numpy's global one: libraries draw from them to
    pick a code path (sympy shuffles the order it asks assumption rules in, from a `random.Random()` of its
    own seeded from os.urandom), and the record must be the same in every build. Found before tracing, as
    reading a module's globals could call its code."""
    found: dict[int, Any] = {}
    for mod in list(sys.modules.values()):
        try:
            found.update((id(v), v) for v in list(vars(mod).values()) if isinstance(v, random.Random))
        except Exception:  # noqa: BLE001 - a module object without a plain namespace holds none we can reach
            continue
    legacy = sys.modules.get("numpy.random")
    if legacy is not None and hasattr(legacy, "seed"):
        found[id(legacy)] = legacy  # numpy's global RandomState, through its module-level seed()
    return list(found.values())


def run_script(argv: list[str], scenario: Any) -> None:
    """The script as `python script args` runs it, on this scenario's stdin; its stdout is dropped."""
    data = (json.dumps(scenario, sort_keys=True) + "\n").encode()
    sys.argv = list(argv)
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            raise
    finally:
        sys.stdout = sys.stderr


def main() -> None:
    cfg = json.loads(sys.argv[1])
    scenarios = [json.loads(line) for line in sys.stdin if line.strip()]
    proto = warm_call.keep_protocol()
    packages, root = cfg["packages"], os.environ.get("SWR_ARTIFACTS", "/tmp")
    if cfg["entry"]:
        func = warm_call.load_entry(cfg["entry"])
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(cfg["argv"][0])))
        for name, fromlist in cfg["preload"]:
            try:
                __import__(name, fromlist=fromlist or ())
            except BaseException:  # noqa: BLE001 - the script will meet it again, traced
                pass
    failed, seeded = 0, generators()
    with Tracer(packages) as tracer:
        for i, scenario in enumerate(scenarios):
            os.environ["SWR_ARTIFACTS"] = os.path.join(root, f"coverage-{i}")
            os.makedirs(os.environ["SWR_ARTIFACTS"], exist_ok=True)
            for gen in seeded:
                gen.seed(i)
            try:
                if cfg["entry"]:
                    func(scenario)
                else:
                    run_script(cfg["argv"], scenario)
            except BaseException:  # noqa: BLE001 - what ran until then still counts
                failed += 1
    warm_call.send(proto, {"functions": tracer.functions(), "modules": reached(packages), "failed": failed})


if __name__ == "__main__":
    main()

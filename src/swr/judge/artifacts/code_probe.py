"""The probe: a standalone script (stdlib only) that swr copies into a task's sandbox beside one generated code
file and its plan, and runs there. It never runs in swr's own process: the judge reads its text
(code.probe_files), a task kind's sandbox runs it, and the judge compares what it printed.

It loads the code (Python: imported from its file; C: compiled with the sandbox's gcc into a shared library and
loaded with ctypes), calls the plan's entry function on every input, and prints one JSON line: the values
returned, or the error an input raised, or why the code did not compile or load. The code's own writes to
stdout go to /dev/null (fd 1 is redirected before it is loaded), so printing is never mistaken for returning."""

from __future__ import annotations

import ctypes
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
from typing import Any

C_TYPES = {"double": ctypes.c_double, "float": ctypes.c_float, "int": ctypes.c_int, "long": ctypes.c_long}


def norm(value: Any, depth: int = 0) -> Any:
    """A JSON-safe copy of a returned value: numbers kept, sequences and arrays (anything with tolist) as lists,
    non-finite floats spelled as strings; anything else by its type's name (a value of no comparable kind)."""
    if depth > 32:
        return {"type": "too deep"}
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, complex):
        return [norm(value.real), norm(value.imag)]
    if hasattr(value, "tolist") and callable(value.tolist):
        return norm(value.tolist(), depth + 1)
    if isinstance(value, (list, tuple)):
        return [norm(v, depth + 1) for v in value]
    try:
        return norm(float(value), depth + 1)  # a numpy/sympy scalar and the like
    except (TypeError, ValueError, OverflowError):
        return {"type": type(value).__name__}


def first_line(text: object) -> str:
    """The first non-empty line of a message (a compiler's first error), shortened."""
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    return (lines[0] if lines else "")[:300]


def load_python(path: str, plan: dict[str, Any]) -> Any:
    spec = importlib.util.spec_from_file_location("generated", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, plan["entry"], None)
    if not callable(fn):
        raise LookupError(f"no function {plan['entry']!r} in the code")
    return fn


def load_c(path: str, plan: dict[str, Any]) -> Any:
    lib = os.path.join(tempfile.mkdtemp(), "generated.so")
    cmd = ["gcc", "-std=c99", "-O1", "-shared", "-fPIC", "-o", lib, path, "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        errors = [ln for ln in proc.stderr.splitlines() if "error" in ln] or proc.stderr.splitlines()
        raise SyntaxError("gcc: " + first_line("\n".join(errors) or f"exit {proc.returncode}"))
    fn = getattr(ctypes.CDLL(lib), plan["entry"])
    fn.argtypes = [C_TYPES[t] for t in plan["args"]]
    fn.restype = None if plan["returns"] == "void" else C_TYPES[plan["returns"]]
    return fn


def call_all(fn: Any, inputs: list[list[Any]]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for args in inputs:
        try:
            results.append({"value": norm(fn(*args))})
        except Exception as exc:  # an input the function rejects: recorded, compared with the reference's
            results.append({"error": type(exc).__name__})
    return results


def main() -> None:
    with open("plan.json", encoding="utf-8") as fh:
        plan = json.load(fh)
    out = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the code's prints (Python's and C's) are not the probe's answer
    sys.stdout = open(os.devnull, "w")
    try:
        load = load_c if plan["language"] == "c" else load_python
        fn = load(os.path.abspath(plan["source"]), plan)
    except SyntaxError as exc:  # Python's own, or gcc's raised by load_c
        where = f" (line {exc.lineno})" if exc.lineno else ""
        doc: dict[str, Any] = {"compile_error": first_line(exc.msg or exc) + where}
    except BaseException as exc:  # noqa: BLE001 - whatever the code does on load is its failure to load
        doc = {"load_error": f"{type(exc).__name__}: {first_line(exc)}"}
    else:
        doc = {"results": call_all(fn, plan["inputs"])}
    out.write(json.dumps(doc) + "\n")
    out.flush()
    os._exit(0)  # no atexit hook of the loaded code runs after the answer


if __name__ == "__main__":
    main()

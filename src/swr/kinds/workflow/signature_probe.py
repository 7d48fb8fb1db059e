"""Run inside the sandbox by `swr new workflow --from module:function`: import the function and describe its
signature as JSON on stdout, so that the author's module is imported under the sandbox's rules (as its reference
will run), never in swr's own process.

Stdlib only. Argument: `module:function` (the function may be dotted: `module:Class.method`). Output: one JSON
object {"params": [...], "dist": [name, version] | null, "stdlib": bool} or {"error": "<one line>"}.
"""

import contextlib
import importlib
import inspect
import json
import math
import sys
import typing
from importlib import metadata
from typing import Any

SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string"}
ARRAYS = {list, tuple, typing.Sequence, typing.MutableSequence}


def _jsonable(x: Any) -> bool:
    """A default as JSON: scalars and lists of scalars; anything else cannot be a scenario value."""
    if x is None or isinstance(x, (bool, int, str)) or (isinstance(x, float) and math.isfinite(x)):
        return True
    return isinstance(x, (list, tuple)) and all(_jsonable(v) and not isinstance(v, (list, tuple)) for v in x)


def _hint(h: Any) -> dict[str, Any]:
    """A type hint as the scaffold reads it: {"type": ..., "items": ..., "choices": ..., "length": ...}."""
    origin, args = typing.get_origin(h), typing.get_args(h)
    if origin is typing.Union or type(h).__name__ == "UnionType":
        kept = [a for a in args if a is not type(None)]
        return _hint(kept[0]) if len(kept) == 1 else {"type": "unknown"}
    if origin is typing.Literal:
        return {"type": "categorical", "choices": [a for a in args if _jsonable(a)]}
    if h in SCALARS:
        return {"type": SCALARS[h]}
    if origin in ARRAYS or getattr(origin, "__name__", "") in ("Sequence", "list", "tuple"):
        fixed = origin is tuple and args and Ellipsis not in args
        inner = [a for a in args if a is not Ellipsis]
        item = SCALARS.get(inner[0]) if inner else "number"
        if item in (None, "string"):
            return {"type": "unknown"}
        return {"type": "array", "items": item, "length": len(inner) if fixed else None}
    name = getattr(h, "__name__", "") or str(h)
    if "ArrayLike" in str(h) or name in ("ndarray", "NDArray"):
        return {"type": "array", "items": "number", "length": None}
    return {"type": "unknown"}


def _param(p: inspect.Parameter, hints: dict[str, Any]) -> dict[str, Any]:
    h = hints.get(p.name, p.annotation)
    described = _hint(h) if h is not inspect.Parameter.empty else {"type": "unknown"}
    has_default = p.default is not inspect.Parameter.empty
    default = p.default if has_default and _jsonable(p.default) else None
    return {
        "name": p.name,
        "kind": p.kind.name,
        "has_default": has_default,
        "default": list(default) if isinstance(default, tuple) else default,
        "hint": described,
        "annotation": "" if p.annotation is inspect.Parameter.empty else str(p.annotation),
    }


def _dist(module: str) -> tuple[list[str] | None, bool]:
    top = module.split(".")[0]
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return None, True
    names = metadata.packages_distributions().get(top) or []
    for name in names:
        try:
            return [name, metadata.version(name)], False
        except metadata.PackageNotFoundError:
            continue
    return None, False


def describe(target: str) -> dict[str, Any]:
    module, _, attr = target.partition(":")
    try:
        obj = importlib.import_module(module)
    except Exception as e:  # noqa: BLE001 - any import failure is the author's to fix
        return {"error": f"cannot import module {module!r}: {type(e).__name__}: {e}"}
    for part in attr.split("."):
        if not hasattr(obj, part):
            return {"error": f"module {module!r} has no attribute {attr!r}"}
        obj = getattr(obj, part)
    if not callable(obj):
        return {"error": f"{target} is a {type(obj).__name__}, not a function"}
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return {"error": f"{target} has no signature Python can read (a builtin without one): wrap it in a function"}
    try:
        hints = typing.get_type_hints(obj)
    except Exception:  # noqa: BLE001 - unresolvable forward references: fall back to the raw annotations
        hints = {}
    dist, stdlib = _dist(module)
    return {"params": [_param(p, hints) for p in sig.parameters.values()], "dist": dist, "stdlib": stdlib}


if __name__ == "__main__":
    with contextlib.redirect_stdout(sys.stderr):  # a package's import-time banner must not garble the answer
        doc = describe(sys.argv[1])
    json.dump(doc, sys.stdout)

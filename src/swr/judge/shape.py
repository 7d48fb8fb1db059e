"""Graded-structure helpers: leaf counting, the schema signature used by release gates, and the
projection of a candidate output onto its reference's structure (what anti-shortcut compares)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .leaves import kind
from .tolerance import Path, Tolerances

_SCALAR_SIG = {float: "number", int: "number", str: "string", bool: "bool", type(None): "null"}


def _graded_elements(v: Any, p: Path, tol: Tolerances) -> list[tuple[Any, Path]]:
    """(element, abstract path) for the non-ignored elements of a list."""
    if not tol.literal_index:
        ep = tol.child(p, tol.index_segment(0))
        return [] if tol.resolve(ep) is None else [(w, ep) for w in v]
    return [(w, tol.child(p, i)) for i, w in enumerate(v) if tol.resolve(tol.child(p, i)) is not None]


def _scalar_list(v: Any, p: Path, tol: Tolerances) -> bool:
    """A list of JSON scalars whose elements share one tolerance path (the common case)."""
    return not tol.literal_index and set(map(type, v)) <= _SCALAR_SIG.keys()


def count_leaves(x: Any, ap: Path, tol: Tolerances) -> int:
    """Number of graded (non-ignored) leaves under `x`; iterative, never recursion-limited."""
    n = 0
    stack: list[tuple[Any, Path]] = [(x, ap)]
    resolve = tol.resolve
    while stack:
        v, p = stack.pop()
        k = kind(v)
        if k == "dict":
            for key, w in v.items():
                cp = tol.child(p, key)
                if resolve(cp) is not None:
                    stack.append((w, cp))
        elif k == "list":
            if _scalar_list(v, p, tol):
                n += len(v) if resolve(tol.child(p, tol.index_segment(0))) is not None else 0
            else:
                stack.extend(_graded_elements(v, p, tol))
        else:
            n += 1
    return n


def structure(doc: Any, tol: Tolerances) -> Any:
    """Hashable signature of graded structure and leaf kinds (list lengths ignored)."""
    out: list[Any] = []
    stack: list[tuple[Any, Path, tuple[str, list[Any]] | None]] = [(doc, (), None)]
    resolve = tol.resolve
    while stack:
        node, ap, pending = stack.pop()
        if pending is not None:
            _close(pending, out)
            continue
        k = kind(node)
        if k == "dict":
            kids = [(key, v, tol.child(ap, key)) for key, v in node.items() if resolve(tol.child(ap, key)) is not None]
            stack.append((node, ap, ("dict", [key for key, _, _ in kids])))
            stack.extend((v, cap, None) for _, v, cap in reversed(kids))
        elif k == "list":
            if _scalar_list(node, ap, tol):
                graded = resolve(tol.child(ap, tol.index_segment(0))) is not None
                sigs = {_SCALAR_SIG[t] for t in set(map(type, node))} if graded else set()
                out.append(("list", frozenset(sigs)))
                continue
            elems = _graded_elements(node, ap, tol)
            stack.append((node, ap, ("list", [None] * len(elems))))
            stack.extend((w, ep, None) for w, ep in reversed(elems))
        else:
            out.append(k if k != "other" else type(node).__name__)
    return out[0]


def _close(pending: tuple[str, list[Any]], out: list[Any]) -> None:
    """Replace a container's children signatures on `out` by the container's signature."""
    kind_, keys = pending
    n = len(keys)
    sigs = out[len(out) - n :] if n else []
    del out[len(out) - n :]
    if kind_ == "dict":
        out.append(("dict", tuple(sorted(zip(keys, sigs), key=lambda kv: str(kv[0])))))
    else:
        out.append(("list", frozenset(sigs)))


def project(doc: Any, ref: Any) -> Any:
    """`doc` restricted to the keys its reference has (extra keys are not graded, so they can neither hide
    nor cost an anti-shortcut comparison); a container of the wrong kind becomes a digest of its content.
    Iterative: as deep as the reference, never recursion-limited."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, Any]] = [(doc, ref, root, 0)]
    while stack:
        d, r, parent, slot = stack.pop()
        kd, kr = kind(d), kind(r)
        if kd == "dict" and kr == "dict":
            out: dict[Any, Any] = {}
            parent[slot] = out
            for k, rv in r.items():
                if k in d:
                    out[k] = None
                    stack.append((d[k], rv, out, k))
        elif kd == "list" and kr == "list" and len(d) == len(r):
            parent[slot] = items = [None] * len(d)
            stack.extend((d[i], r[i], items, i) for i in range(len(d)))
        elif kd in ("dict", "list"):
            text = json.dumps(d, sort_keys=True, default=str).encode()
            parent[slot] = f"<{kd} {hashlib.sha256(text).hexdigest()[:32]}>"
        else:
            parent[slot] = d
    return root[0]

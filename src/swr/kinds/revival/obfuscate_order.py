"""Order in an obfuscated project: renaming leaves every name in its place, so a list of names in the original's
order (a module's definitions, `__all__`, an import's names, a curried namespace written alphabetically) still
lines up the renamed names with the originals the few kept names anchor. The rewrite shuffles what can move
without changing what the code does, and `order_kept` measures how much order survives (chance: 0.5).

What moves: the names of a `from m import a, b` and the entries of `__all__`; and top-level definitions and
assignments, within each run between statements that stay put (imports, which may be circular, and anything
else with effects: expressions, `if`, `try`, `del`, ...), in a seeded random order that keeps every statement
after those it reads at import time (decorators, defaults, bases, a class body, an assigned value, and the
bodies of this module's functions such a statement may call) and every rebinding of a name in its order."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator, Sequence

MOVABLE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign)


def _binds(s: ast.stmt) -> set[str]:
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {s.name}
    targets = s.targets if isinstance(s, ast.Assign) else [s.target]  # type: ignore[attr-defined]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _loads(nodes: Sequence[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def _reads(s: ast.stmt) -> set[str]:
    """Names a statement reads when the module runs (a function's body only when called: not here)."""
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = s.args
        return _loads(
            [
                *s.decorator_list,
                *a.defaults,
                *filter(None, a.kw_defaults),
                *filter(None, [s.returns]),
                *(
                    x.annotation
                    for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                    if x is not None and x.annotation is not None
                ),
            ]
        )
    return _loads([s])  # a class body, an assignment: all of it (conservative)


def _closure(reads: set[str], bodies: dict[str, set[str]]) -> set[str]:
    """reads, plus what the module's functions among them read when called, transitively."""
    out, todo = set(reads), [n for n in reads if n in bodies]
    while todo:
        for n in bodies[todo.pop()] - out:
            out.add(n)
            if n in bodies:
                todo.append(n)
    return out


def _segments(body: list[ast.stmt]) -> Iterator[tuple[int, int]]:
    """[start, end) runs of movable statements."""
    start = None
    for i, s in enumerate([*body, None]):
        if isinstance(s, MOVABLE):
            start = i if start is None else start
        elif start is not None:
            yield start, i
            start = None


def shuffle_module(tree: ast.Module, rng: random.Random) -> ast.Module:
    """The module with its import name lists, `__all__` and movable top-level runs in a seeded random order."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and len(node.names) > 1:
            rng.shuffle(node.names)
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, (ast.List, ast.Tuple))
        ):
            rng.shuffle(node.value.elts)
    bodies = {s.name: _loads(s.body) for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for start, end in _segments(tree.body):
        tree.body[start:end] = _random_order(tree.body[start:end], bodies, rng)
    return tree


def _random_order(run: list[ast.stmt], bodies: dict[str, set[str]], rng: random.Random) -> list[ast.stmt]:
    """A random topological order of run: j stays after i (i < j) when j reads what i binds, i reads what j
    binds, or both bind the same name."""
    binds = [_binds(s) for s in run]
    reads = [_closure(_reads(s), bodies) for s in run]
    after = {
        j: {i for i in range(j) if binds[i] & (reads[j] | binds[j]) or reads[i] & binds[j]} for j in range(len(run))
    }
    done: list[int] = []
    left = set(range(len(run)))
    while left:
        ready = sorted(j for j in left if after[j] <= set(done))
        pick = rng.choice(ready)
        done.append(pick)
        left.remove(pick)
    return [run[i] for i in done]


def name_lists(tree: ast.Module) -> dict[tuple[str, ...], list[str]]:
    """The lists of names whose order could give a module away: its top-level definitions, `__all__`, and each
    `from m import ...` (keyed by module and occurrence)."""
    out: dict[tuple[str, ...], list[str]] = {
        ("defs",): [n for s in tree.body if isinstance(s, MOVABLE) for n in sorted(_binds(s))]
    }
    seen: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            key = f"{'.' * node.level}{node.module or ''}"
            seen[key] = seen.get(key, 0) + 1
            out[("from", key, str(seen[key]))] = [a.asname or a.name for a in node.names]
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, (ast.List, ast.Tuple))
        ):
            out[("all",)] = [
                e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
    return out


def concordant(original: list[str], renamed: list[str]) -> tuple[int, int]:
    """(pairs in the same relative order, pairs) over the names both lists hold (renamed mapped back)."""
    pos = {n: i for i, n in enumerate(renamed)}
    common = [n for n in dict.fromkeys(original) if n in pos]
    pairs = same = 0
    for i, a in enumerate(common):
        for b in common[i + 1 :]:
            pairs += 1
            same += pos[a] < pos[b]
    return same, pairs

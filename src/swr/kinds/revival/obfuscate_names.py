"""Which identifiers of a project may be renamed: one global map, name -> new name, used in every file.

One map for every scope is what keeps keyword arguments, attributes, pytest fixtures and `import *` consistent
without type inference; the price is that a name is renamed everywhere or nowhere. So a name is renamed only
if the project defines it (a module, class, function, argument, assigned name, or an attribute assigned on
self/cls or in a class body) and it is never external: builtins, keywords, dunders, names imported from
outside the project, attributes reached from an external import, keywords passed to a call we cannot tell
is the project's own, and every attribute of the external modules the project imports (and of their classes),
listed by importing them in a separate interpreter. Left alone is always consistent; renaming is the risk.
"""

from __future__ import annotations

import ast
import builtins
import json
import keyword
import random
import subprocess
import sys
from dataclasses import dataclass, field

# Always scanned: their types' attributes (`.append`, `.read`, `.items`) reach every project.
_ALWAYS_SCANNED = ("builtins", "io", "collections", "collections.abc", "pathlib", "types")
_KEEP = {"self", "cls", "mcs", "metacls"}
_SCAN = r"""
import importlib, inspect, json, sys
names = set()
def grab(obj, depth):
    try:
        attrs = dir(obj)
    except Exception:
        return
    names.update(attrs)
    for a in attrs:
        try:
            v = getattr(obj, a)
        except Exception:
            continue
        if isinstance(v, type):
            try:
                names.update(dir(v))
            except Exception:
                pass
        elif depth and inspect.ismodule(v) and getattr(v, "__name__", "").startswith(obj.__name__ + "."):
            grab(v, depth - 1)
failed = []
for mod in json.loads(sys.stdin.read()):
    obj = None
    try:
        obj = importlib.import_module(mod)
    except Exception:
        head, _, tail = mod.rpartition(".")
        try:
            obj = getattr(importlib.import_module(head), tail) if head else None
        except Exception:
            obj = None
    if obj is None:
        failed.append(mod)
    elif inspect.ismodule(obj):
        grab(obj, 1)
    else:
        names.update(dir(obj))
print(json.dumps({"names": sorted(names), "failed": failed}))
"""


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def external_api_names(modules: set[str], python: str | None) -> tuple[set[str], list[str]]:
    """Attribute names of the given external modules and their classes, imported in a separate interpreter
    (the project's native one when given); also the modules that would not import (their names stay unknown)."""
    wanted = sorted(modules | set(_ALWAYS_SCANNED))
    proc = subprocess.run(
        [python or sys.executable, "-I", "-c", _SCAN],
        input=json.dumps(wanted),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"scanning external names failed: {proc.stderr.strip().splitlines()[-1:]}")
    data = json.loads(proc.stdout)
    return set(data["names"]), [m for m in data["failed"] if m.split(".")[0] not in _ALWAYS_SCANNED]


@dataclass
class Names:
    """What the collector learned about every file of a project (tests included)."""

    internal_tops: set[str]
    defined: set[str] = field(default_factory=set)
    attrs: set[str] = field(default_factory=set)
    params: set[str] = field(default_factory=set)
    callables: set[str] = field(default_factory=set)
    external: set[str] = field(default_factory=set)
    external_modules: set[str] = field(default_factory=set)
    test_params: set[str] = field(default_factory=set)
    parametrized: set[str] = field(default_factory=set)
    calls: list[tuple[ast.expr, list[str]]] = field(default_factory=list)

    def is_internal(self, module: str | None, level: int) -> bool:
        return level > 0 or (module or "").split(".")[0] in self.internal_tops


def _root_name(node: ast.expr) -> str | None:
    """The Name an attribute/call/subscript chain starts from (`np` in `np.random.rng(0).normal`)."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_fixture(dec: ast.expr) -> bool:
    target = dec.func if isinstance(dec, ast.Call) else dec
    return isinstance(target, (ast.Name, ast.Attribute)) and (
        getattr(target, "id", None) == "fixture" or getattr(target, "attr", None) == "fixture"
    )


def parametrize_names(dec: ast.expr) -> ast.Constant | None:
    """The argnames literal of `@pytest.mark.parametrize("a, b", ...)`, if that is what `dec` is."""
    if (
        isinstance(dec, ast.Call)
        and isinstance(dec.func, ast.Attribute)
        and dec.func.attr == "parametrize"
        and dec.args
        and isinstance(dec.args[0], ast.Constant)
        and isinstance(dec.args[0].value, str)
    ):
        return dec.args[0]
    return None


class Collector(ast.NodeVisitor):
    """One pass over one module: what it defines, what it takes from outside, and its calls' keywords."""

    def __init__(self, names: Names, is_test: bool):
        self.n = names
        self.is_test = is_test
        self.depth = 0  # 0 at module level
        self.external_bound: set[str] = set()

    def collect(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):  # bindings first: an import inside a function still marks its roots
            if isinstance(node, ast.Import):
                self._import(node)
            elif isinstance(node, ast.ImportFrom):
                self._import_from(node)
        self.visit(tree)

    def _import(self, node: ast.Import) -> None:
        for a in node.names:
            if self.n.is_internal(a.name, 0):
                if a.asname:
                    self._define(a.asname)
                continue
            self.n.external_modules.add(a.name)
            self.n.external.update(a.name.split("."))
            bound = a.asname or a.name.split(".")[0]
            self.n.external.add(bound)
            self.external_bound.add(bound)

    def _import_from(self, node: ast.ImportFrom) -> None:
        if self.n.is_internal(node.module, node.level):
            for a in node.names:
                if a.asname:
                    self._define(a.asname)
            return
        module = node.module or ""
        self.n.external_modules.add(module)
        self.n.external.update(module.split("."))
        for a in node.names:
            if a.name != "*":
                self.n.external_modules.add(f"{module}.{a.name}")
                self.n.external.update({a.name, a.asname or a.name})
                self.external_bound.add(a.asname or a.name)

    def _define(self, name: str, *, attr: bool = False) -> None:
        self.n.defined.add(name)
        if attr or self.depth == 0:
            self.n.attrs.add(name)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        args = node.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, [args.vararg, args.kwarg])]
        for a in every:
            self.n.defined.add(a.arg)
            self.n.params.add(a.arg)
        if isinstance(node, ast.Lambda):
            return
        self._define(node.name, attr=True)
        self.n.callables.add(node.name)
        if self.is_test and (node.name.startswith("test") or any(map(_is_fixture, node.decorator_list))):
            self.n.test_params.update(a.arg for a in every)
        self._parametrized(node.decorator_list)

    def _parametrized(self, decorators: list[ast.expr]) -> None:
        for dec in decorators:
            if (lit := parametrize_names(dec)) is not None:
                self.n.parametrized.update(s.strip() for s in str(lit.value).split(",") if s.strip())

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._function(node)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._function(node)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._define(node.name, attr=True)
        self.n.callables.add(node.name)
        self._parametrized(node.decorator_list)
        for stmt in node.body:  # class-body names are attributes; annotated ones are dataclass-style fields
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
            for t in targets:
                if isinstance(t, ast.Name):
                    self._define(t.id, attr=True)
                    if isinstance(stmt, ast.AnnAssign):
                        self.n.params.add(t.id)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._define(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id in _KEEP:
            self._define(node.attr, attr=True)
        if _root_name(node.value) in self.external_bound:
            self.n.external.add(node.attr)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        kws = [k.arg for k in node.keywords if k.arg]
        if kws:
            self.n.calls.append((node.func, kws))
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            self._define(node.args[1].value, attr=True)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            if isinstance(t, ast.Name) and t.id == "__slots__" and isinstance(node.value, (ast.Tuple, ast.List)):
                for e in node.value.elts:
                    if isinstance(e, ast.Constant) and isinstance(e.value, str):
                        self._define(e.value, attr=True)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self._define(node.name)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        for name in node.names:
            self.n.defined.add(name)
            self.n.attrs.add(name)

    visit_Nonlocal = visit_Global

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name:
            self._define(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self._define(node.name)


def _call_is_internal(func: ast.expr, n: Names) -> bool:
    """A call we can tell targets the project's own function or class: only then are its keywords renamed."""
    if isinstance(func, ast.Name):
        return func.id in n.callables and func.id not in n.external
    if isinstance(func, ast.Attribute):
        return (
            func.attr in n.callables
            and func.attr not in n.external
            and not is_dunder(func.attr)
            and _root_name(func.value) not in n.external
        )
    return False


def renameable(n: Names, api_names: set[str], package: str, modules: set[str]) -> set[str]:
    """The names to rename: defined by the project and never external (see the module docstring)."""
    ext = set(n.external) | api_names | set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist) | _KEEP
    for func, kws in n.calls:
        if not _call_is_internal(func, n):
            ext.update(kws)
    # a test's or fixture's parameter is a fixture pytest must find by name: ours (renamed with it) or pytest's
    ext.update(n.test_params - n.callables - n.parametrized)
    names = {d for d in n.defined | modules if not is_dunder(d) and not d.startswith("pytest_")} - ext
    names.add(package)
    return {x for x in names if x.isidentifier() and x not in {"conftest", "__init__", "__main__"}}


def new_names(names: set[str], taken: set[str], seed: int, package: str, modules: set[str]) -> dict[str, str]:
    """Seeded, order-independent names. Tokens are drawn from the seed and dealt out in a seeded shuffle, so
    the seed alone does not let anyone hash a dictionary of words back to the originals."""
    rng = random.Random(seed)
    order = sorted(names)
    rng.shuffle(order)
    used = set(taken)
    result: dict[str, str] = {}
    for name in order:
        core = name.lstrip("_")
        lead = name[: len(name) - len(core)]
        if name == package:
            prefix = "p_"
        elif name in modules and not core.startswith("test"):
            prefix = "m_"
        elif core.startswith("test"):
            prefix = "test_"
        elif core.startswith("Test"):
            prefix = "Test_"
        elif core[:1].isupper():
            prefix = "K_" if core.isupper() else "C_"
        else:
            prefix = "n_"
        while True:
            candidate = f"{lead}{prefix}{rng.getrandbits(24):06x}"
            if candidate not in used:
                break
        used.add(candidate)
        result[name] = candidate
    return result

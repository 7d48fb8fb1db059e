"""`swr revive obfuscate`: a syntax-tree rewrite of a project and its tests that renames every identifier the
project defines (package, modules and their files, classes, functions, methods, arguments and the keywords
that pass them, attributes, module-level and local names), drops docstrings and comments (ast.unparse keeps
none), and replaces the package's name and any given extra text (title, authors) in strings and other files.
Definitions, `__all__` and imported names are shuffled where the code allows (swr.kinds.revival.obfuscate_order): the
original's order would otherwise line the renamed names up with the originals.
It is a contamination control: a model that memorised the original should not recognise it.

Which names are renamed is decided in swr.kinds.revival.obfuscate_names (one global map; external names never).
String literals are rewritten where they name code: `__all__`/`__slots__` entries, the attribute of
getattr/setattr/hasattr/delattr, pytest parametrize argnames, and dotted paths into the project
("pkg.mod.func", as in mock.patch). Out of reach, by design or for now: other strings that name code (dict
keys fed to `**kwargs`, namedtuple field lists, `__name__` compared with a literal, entry points' object
names in setup.cfg), doctests (docstrings are dropped), code built at run time (exec, eval), names that are
both the project's and an external API's (kept, so they are still readable), and binary files. The output
is the unparse of Python 3.11's parser: a project that only runs on an old interpreter may need checking.
"""

from __future__ import annotations

import ast
import json
import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from swr.core.errors import SwrError
from swr.kinds.revival.obfuscate_names import (
    Collector,
    Names,
    external_api_names,
    is_dunder,
    new_names,
    parametrize_names,
    renameable,
)
from swr.kinds.revival.obfuscate_order import shuffle_module

_SKIP_DIRS = {
    "__pycache__",
    ".git",
    ".hg",
    ".tox",
    ".nox",
    ".pytest_cache",
    ".mypy_cache",
    ".venv",
    "build",
    "dist",
    ".eggs",
}
_KEEP_STEMS = {"__init__", "__main__", "conftest", "setup"}
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
# calls whose second argument names an attribute (mock.patch.object's too)
_REFLECTING = {"getattr", "setattr", "hasattr", "delattr", "object"}


@dataclass(frozen=True)
class ObfuscateOptions:
    """How to obfuscate: the seed fixes the names; `strip` is extra text (title, authors) to replace."""

    seed: int = 0
    strip: tuple[str, ...] = ()
    package: str | None = None
    tests: tuple[Path, ...] = ()
    tests_out: Path | None = None
    python: str | None = None


@dataclass
class ObfuscateResult:
    """Counts for the CLI line, the map (also written to the map file) and the modules we could not scan."""

    files: int
    renamed: int
    mapping: dict[str, str]
    paths: dict[str, str] = field(default_factory=dict)
    unscanned: list[str] = field(default_factory=list)


@dataclass
class _Source:
    path: Path  # where it was read
    dest: Path  # where it goes, before renaming its own path components
    rel: Path  # relative to the root it came from
    is_test: bool
    in_package: bool


class _Rewriter(ast.NodeTransformer):
    """Applies the map to one module's tree and drops its docstrings and other bare string statements."""

    def __init__(
        self, mapping: dict[str, str], attrs: set[str], params: set[str], names: Names, replace_text: _TextReplacer
    ):
        self.m, self.attrs, self.params, self.n, self.text = mapping, attrs, params, names, replace_text

    def _name(self, name: str) -> str:
        return self.m.get(name, name)

    def _dotted(self, dotted: str) -> str:
        return ".".join(self._name(p) for p in dotted.split("."))

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self._name(node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self._name(node.arg)
        return self.generic_visit(node)  # type: ignore[return-value]

    def _def(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        node.name = self._name(node.name)
        for dec in node.decorator_list:
            if (lit := parametrize_names(dec)) is not None:
                lit.value = ",".join(self._name(s.strip()) for s in str(lit.value).split(",") if s.strip())
        if not isinstance(node, ast.ClassDef):
            node.returns = self._annotation(node.returns)
        return self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _def

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        if node.attr in self.attrs:
            node.attr = self.m[node.attr]
        return self.generic_visit(node)  # type: ignore[return-value]

    def visit_keyword(self, node: ast.keyword) -> ast.keyword:
        if node.arg in self.params:
            node.arg = self.m[node.arg]
        return self.generic_visit(node)  # type: ignore[return-value]

    def visit_Import(self, node: ast.Import) -> ast.Import:
        for a in node.names:
            if self.n.is_internal(a.name, 0):
                a.name = self._dotted(a.name)
                a.asname = a.asname and self._name(a.asname)
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.ImportFrom:
        if self.n.is_internal(node.module, node.level):
            node.module = node.module and self._dotted(node.module)
            for a in node.names:
                a.name, a.asname = self._name(a.name), a.asname and self._name(a.asname)
        return node

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        node.name = node.name and self._name(node.name)
        return self.generic_visit(node)

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> ast.AST:
        node.names = [self._name(x) for x in node.names]
        return node

    visit_Nonlocal = visit_Global

    def visit_MatchAs(self, node: ast.MatchAs) -> ast.AST:
        node.name = node.name and self._name(node.name)
        return self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> ast.AST:
        node.name = node.name and self._name(node.name)
        return node

    def visit_MatchClass(self, node: ast.MatchClass) -> ast.AST:
        node.kwd_attrs = [self.m[a] if a in self.attrs else a for a in node.kwd_attrs]
        return self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        if any(isinstance(t, ast.Name) and t.id in ("__all__", "__slots__") for t in node.targets) and isinstance(
            node.value, (ast.List, ast.Tuple)
        ):
            self._literals(node.value.elts)
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in _REFLECTING and len(node.args) > 1:  # getattr(o, "x"), monkeypatch.setattr(o, "x", v)
            self._literals(node.args[1:2], self.attrs)
        return self.generic_visit(node)

    def _literals(self, elts: list[ast.expr], allowed: set[str] | None = None) -> None:
        for e in elts:
            if isinstance(e, ast.Constant) and isinstance(e.value, str) and (allowed is None or e.value in allowed):
                e.value = self._name(e.value)

    def _annotation(self, node: ast.expr | None) -> ast.expr | None:
        """A string annotation ("Widget") is code too: parse, rewrite, unparse it."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                inner = ast.parse(node.value, mode="eval")
            except SyntaxError:
                return node
            node.value = ast.unparse(self.visit(inner))
            return node
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        node.annotation = self._annotation(node.annotation)  # type: ignore[assignment]
        return self.generic_visit(node)

    def visit_arguments(self, node: ast.arguments) -> ast.AST:
        for a in [*node.posonlyargs, *node.args, *node.kwonlyargs, *filter(None, [node.vararg, node.kwarg])]:
            a.annotation = self._annotation(a.annotation)
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        if isinstance(node.value, str):
            value = node.value
            if _DOTTED.fullmatch(value) and value.split(".")[0] in self.n.internal_tops:
                value = self._dotted(value)
            node.value = self.text(value)
        return node


class _TextReplacer:
    """Rewrites dotted paths into the package (`pkg.mod.func` in a README or a message) through the map, then
    replaces the package's name (any case, `-` or `_`) and each extra text with its new name."""

    def __init__(self, package: str, mapping: dict[str, str], extras: dict[str, str]):
        self.mapping = mapping
        self.dotted = re.compile(rf"\b{re.escape(package)}(?:\.[A-Za-z_]\w*)+")
        replacements = {package: mapping[package], **extras}
        self.subs = [
            (re.compile(re.escape(old).replace(r"_", "[-_]").replace(r"\-", "[-_]"), re.IGNORECASE), new)
            for old, new in sorted(replacements.items(), key=lambda kv: -len(kv[0]))
        ]

    def __call__(self, text: str) -> str:
        text = self.dotted.sub(lambda m: ".".join(self.mapping.get(p, p) for p in m.group(0).split(".")), text)
        for pattern, new in self.subs:
            text = pattern.sub(new, text)
        return text


def _ensure_bodies(tree: ast.AST) -> None:
    """Dropping a docstring can empty a body; `pass` keeps it valid."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.Interactive)):
            continue
        if hasattr(node, "body") and isinstance(node.body, list) and not node.body:
            node.body = [ast.Pass()]


def _find_package(project: Path, wanted: str | None) -> Path:
    """The project's one top-level package (flat or src/ layout), or the one named."""
    roots = [project, project / "src"]
    found = [
        d
        for r in roots
        if r.is_dir()
        for d in sorted(r.iterdir())
        if d.is_dir() and (d / "__init__.py").is_file() and d.name not in {"tests", "test", "docs"}
    ]
    if wanted:
        found = [d for d in found if d.name == wanted]
        if not found:
            raise SwrError(f"no package `{wanted}` (a folder with __init__.py) here or under src/", file=project)
    if len(found) != 1:
        names = ", ".join(d.name for d in found) or "none"
        raise SwrError(f"expected one top-level package, found {names}; name it with --package", file=project)
    return found[0]


def _walk(root: Path) -> list[Path]:
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file()
        and not (set(p.relative_to(root).parts) & _SKIP_DIRS)
        and not any(part.endswith(".egg-info") for part in p.relative_to(root).parts)
        and p.suffix not in {".pyc", ".pyo"}
    )


def _is_test_file(rel: Path) -> bool:
    return (
        bool(set(rel.parts[:-1]) & {"tests", "test", "testing"})
        or rel.name == "conftest.py"
        or (rel.suffix == ".py" and (rel.stem.startswith("test_") or rel.stem.endswith("_test")))
    )


def _sources(project: Path, package: Path, opts: ObfuscateOptions, out: Path) -> list[_Source]:
    """Every file to write: the project's, then each test path outside it (under tests_out)."""
    srcs = [
        _Source(
            p,
            out / p.relative_to(project),
            p.relative_to(project),
            _is_test_file(p.relative_to(project)),
            package in p.parents,
        )
        for p in _walk(project)
    ]
    tests_out = opts.tests_out or out
    inside = {s.path.resolve(): s for s in srcs}
    for t in opts.tests:
        if not t.exists():
            raise SwrError("no such test file or folder", file=t)
        files = _walk(t) if t.is_dir() else [t]
        base = t.parent
        for p in files:
            if p.resolve() in inside:
                inside[p.resolve()].is_test = True
                continue
            dest = tests_out / p.relative_to(base) if t.is_dir() else tests_out / p.name
            srcs.append(_Source(p, dest, p.relative_to(base), True, False))
    return srcs


def _parse(src: _Source) -> ast.Module:
    try:
        return ast.parse(src.path.read_text(encoding="utf-8"), filename=str(src.path))
    except SyntaxError as e:
        raise SwrError(f"line {e.lineno}: not Python this interpreter parses: {e.msg}", file=src.path) from None
    except UnicodeDecodeError:
        raise SwrError("not UTF-8 text", file=src.path) from None


def _module_names(srcs: list[_Source]) -> tuple[set[str], set[str]]:
    """Renameable file-level names (package dirs and module stems) and the top-level import names that mean
    the project (its package; test folders and bare test modules, which pytest puts on sys.path)."""
    modules: set[str] = set()
    tops: set[str] = set()
    for s in srcs:
        if s.path.suffix != ".py":
            continue
        if s.in_package or s.is_test:
            if s.path.stem not in _KEEP_STEMS:
                modules.add(s.path.stem)
            if s.is_test and not s.in_package:
                tops.add(s.rel.parts[0] if len(s.rel.parts) > 1 else s.path.stem)
        if s.in_package:
            modules.update(p for p in s.rel.parts[:-1] if p not in {"src"})
    return modules, tops


def _check_paths(project: Path, out: Path, map_file: Path) -> None:
    if not project.is_dir():
        raise SwrError("no such project folder", file=project)
    if out.exists() and any(out.iterdir()):
        raise SwrError("output folder exists and is not empty", file=out)
    if out.resolve() == project.resolve() or project.resolve() in out.resolve().parents:
        raise SwrError("output folder must lie outside the project", file=out)
    if out.resolve() in map_file.resolve().parents:
        raise SwrError("the map is the key to the obfuscation: write it outside the output folder", file=map_file)


def obfuscate_project(project: Path, out: Path, map_file: Path, opts: ObfuscateOptions) -> ObfuscateResult:
    """Write the obfuscated project (and its tests) to `out` and the name map to `map_file`."""
    _check_paths(project, out, map_file)
    package = _find_package(project, opts.package)
    srcs = _sources(project, package, opts, out)
    modules, tops = _module_names(srcs)
    modules.add(package.name)
    names = Names(internal_tops=tops | {package.name})
    trees = {s.path: _parse(s) for s in srcs if s.path.suffix == ".py"}
    for s in srcs:
        if s.path in trees:
            Collector(names, s.is_test).collect(trees[s.path])
    api, unscanned = external_api_names(names.external_modules - {""}, opts.python)
    rename = renameable(names, api, package.name, modules)
    taken = names.defined | names.external | api
    mapping = new_names(rename, taken, opts.seed, package.name, modules)
    extras = new_names({x for x in opts.strip if x.strip()}, taken | set(mapping.values()), opts.seed + 1, "", set())
    text = _TextReplacer(package.name, mapping, extras)
    attrs = {a for a in rename if a in names.attrs or a in modules}
    params = {p for p in rename if p in names.params}
    paths: dict[str, str] = {}
    for s in srcs:
        dest = _dest(s, out, mapping, modules, text)
        paths[str(s.path)] = str(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if s.path in trees:
            tree = _Rewriter(mapping, attrs, params, names, text).visit(trees[s.path])
            _ensure_bodies(tree)
            shuffle_module(tree, random.Random(f"{opts.seed}:{s.rel.as_posix()}"))
            dest.write_text(ast.unparse(ast.fix_missing_locations(tree)) + "\n", encoding="utf-8")
        else:
            _copy_text_or_binary(s.path, dest, text)
    map_file.parent.mkdir(parents=True, exist_ok=True)
    map_file.write_text(
        json.dumps(
            {
                "seed": opts.seed,
                "package": {package.name: mapping[package.name]},
                "names": dict(sorted(mapping.items())),
                "strip": extras,
                "paths": paths,
                "unscanned_modules": unscanned,
            },
            indent=1,
        )
        + "\n"
    )
    return ObfuscateResult(files=len(srcs), renamed=len(mapping), mapping=mapping, paths=paths, unscanned=unscanned)


def _dest(s: _Source, out: Path, mapping: dict[str, str], modules: set[str], text: _TextReplacer) -> Path:
    """The output path: package folders and module stems renamed, the package name replaced anywhere else.
    A module's folder or stem that imports name goes by the map alone: one the map keeps (an external name
    too) keeps its name, even with the package's in it (`functoolz`), for the imports still say so."""
    base = s.dest.parents[len(s.rel.parts) - 1]
    parts = list(s.rel.parts)
    code = s.in_package or s.is_test
    for i, part in enumerate(parts[:-1]):
        parts[i] = mapping.get(part, part) if code and part in modules else text(part)
    stem, suffix = Path(parts[-1]).stem, Path(parts[-1]).suffix
    if suffix == ".py" and stem in modules and (code or stem in mapping):
        parts[-1] = (stem if is_dunder(stem) else mapping.get(stem, stem)) + suffix
    else:
        parts[-1] = text(parts[-1])
    return base.joinpath(*parts)


def _copy_text_or_binary(src: Path, dest: Path, text: _TextReplacer) -> None:
    try:
        dest.write_text(text(src.read_text(encoding="utf-8")), encoding="utf-8")
    except UnicodeDecodeError:
        shutil.copyfile(src, dest)

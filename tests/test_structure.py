"""The code's shape: no import cycles among swr's modules (counting imports made inside functions too), imports only
downward through the layers, one module naming the on-disk layout, no reach into Tolerances' private parts, and
pages (README, docs/) that name only modules and paths that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def _modules() -> dict[str, Path]:
    """Every swr module by dotted name (a package by its own name, from its __init__.py)."""
    found = {}
    for path in sorted((SRC / "swr").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement at any depth, except those under `if TYPE_CHECKING:` (never run)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _targets(name: str, is_package: bool, node: ast.Import | ast.ImportFrom, modules: set[str]) -> set[str]:
    """The swr modules one import statement loads by name (`from p import m` loads p.m when m is a module)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in modules}
    base = node.module or ""
    if node.level:
        package = name.split(".") if is_package else name.split(".")[:-1]
        anchor = package[: len(package) - (node.level - 1)]
        base = ".".join(anchor + ([base] if base else []))
    hits = {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules}
    if base in modules and len(hits) < len(node.names):
        hits.add(base)
    return hits


def import_graph() -> dict[str, set[str]]:
    """Module -> the swr modules it imports, anywhere in its body."""
    modules = _modules()
    names = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        is_package = path.name == "__init__.py"
        graph[name] = {t for n in _import_nodes(tree) for t in _targets(name, is_package, n, names)} - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_cycle_finder_reports_a_cycle_once_and_nothing_for_a_chain() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_counts_imports_inside_functions_and_skips_type_checking_blocks() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import swr.x\n"
        "def f():\n    from swr import y\n    from . import z\n"
    )
    nodes = _import_nodes(tree)
    found = set().union(*(_targets("swr.w", False, n, {"swr.x", "swr.y", "swr.z"}) for n in nodes))
    assert found == {"swr.y", "swr.z"}


def test_graph_covers_the_known_modules() -> None:
    graph = import_graph()
    assert "swr.cli" in graph and "swr.harness.agents" in graph and "swr.assemble" in graph
    assert "swr.core.errors" in graph["swr.cli.main"]


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert found == [], "import cycles among swr modules: " + "; ".join(" <-> ".join(c) for c in found)


LAYOUT_NAMES = {
    "task.toml",
    "instruction.md",
    "release.json",
    "swr.db",
    "gates.json",
    "coverage.json",
    "engine.toml",
    "workflow.toml",
    "spec.md",
    "trajectory.json",
    "defects.json",
    "defects.toml",
    "freeze.json",
    "build.json",
    "schema.json",
    "scenario.json",
    "output.json",
    "input.json",
    "expected.json",
    "diff.patch",
}


def test_only_the_layout_module_names_files_of_the_on_disk_layout() -> None:
    """One module knows where files live (swr.core.layout): a file name of a release, task, job or run written
    anywhere else is a second place that must change with it."""
    found = []
    for name, path in _modules().items():
        if name == "swr.core.layout":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in LAYOUT_NAMES:
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {node.value}")
    assert not found, found


def _private_uses(names: set[str], home: Path) -> list[str]:
    """`x._name` (x not self/cls) for a name in `names`, in every swr, test and bench file except `home`."""
    root = SRC.parent
    found = []
    for path in sorted([*(SRC / "swr").rglob("*.py"), *(root / "tests").glob("*.py"), *(root / "bench").glob("*.py")]):
        if path == home:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in names
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno}: .{node.attr}")
    return found


def test_no_file_reaches_into_the_private_parts_of_tolerances() -> None:
    """The judge's walkers (compare, shape, fastpath) use Tolerances' public abstract-path API: a private name
    read from another file is a contract nobody wrote down, broken by the next edit of tolerance.py."""
    import dataclasses

    from swr.judge import tolerance
    from swr.judge.tolerance import Tolerances

    private = {n for n in vars(Tolerances) if n.startswith("_") and not n.endswith("__")}
    private |= {f.name for f in dataclasses.fields(Tolerances) if f.name.startswith("_")}
    assert "_cache" in private and "_resolve_uncached" in private
    found = _private_uses(private, Path(tolerance.__file__).resolve())
    assert not found, found


# The packages as the pipeline, lowest first. A module imports its own package, a lower layer, or a peer of its own
# layer; sandbox/ and judge/ (the ground the kinds stand on) import only core/ (swr/__init__.py is core's too).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"core", ""}),
    frozenset({"sandbox", "judge"}),
    frozenset({"kinds"}),
    frozenset({"assemble", "harness"}),
    frozenset({"audit", "export", "report"}),
    frozenset({"cli"}),
)
NO_PEERS = frozenset({"sandbox", "judge"})
# Upward imports found when the rule was written (issue 24): each is to go, and then its line here. The test fails
# on any other violation, and on a line here that no longer is one (so this list only shrinks).
KNOWN_VIOLATIONS = frozenset(
    {
        ("swr.assemble", "swr.audit.defects"),  # the assembler carries a release's defect register forward
        ("swr.kinds.engine.check", "swr.audit.adequacy"),  # the engine check runs the adequacy audit
        ("swr.kinds.engine.task", "swr.audit.adequacy"),
        ("swr.kinds.workflow.catalog", "swr.assemble"),  # the catalog and check commands build with the assembler
        ("swr.kinds.workflow.check", "swr.assemble"),
    }
)


def _package(module: str) -> str:
    """The top package under swr of a module ("" for swr itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _rank(package: str) -> int:
    for i, layer in enumerate(LAYERS):
        if package in layer:
            return i
    raise AssertionError(f"swr.{package} is in no layer of LAYERS: place it there")


def layer_violations(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(importer, imported) pairs that import upward, or sideways from sandbox/ or judge/."""
    found = set()
    for module, targets in graph.items():
        a = _package(module)
        for target in targets:
            b = _package(target)
            if a == b:
                continue
            ra, rb = _rank(a), _rank(b)
            if rb > ra or (rb == ra and a in NO_PEERS):
                found.add((module, target))
    return found


def test_the_layer_rule_flags_upward_and_ground_floor_sideways_imports() -> None:
    graph = {
        "swr.judge.x": {"swr.core.a", "swr.sandbox.b"},
        "swr.core.a": {"swr.kinds.k"},
        "swr.audit.m": {"swr.report.r", "swr.kinds.k"},
        "swr.cli.c": {"swr.audit.m", "swr"},
    }
    assert layer_violations(graph) == {("swr.judge.x", "swr.sandbox.b"), ("swr.core.a", "swr.kinds.k")}


def test_nothing_below_imports_above() -> None:
    """core < sandbox, judge < kinds < assemble, harness < audit, export, report < cli: a lower package that
    imports a higher one drags the whole pipeline into the code every kind and backend stands on."""
    found = layer_violations(import_graph())
    new = sorted(found - KNOWN_VIOLATIONS)
    assert not new, "imports against the layers (docs/architecture.md): " + "; ".join(f"{a} -> {b}" for a, b in new)
    gone = sorted(KNOWN_VIOLATIONS - found)
    assert not gone, "fixed: remove from KNOWN_VIOLATIONS: " + "; ".join(f"{a} -> {b}" for a, b in gone)


DOCS = (SRC.parent / "README.md", *sorted((SRC.parent / "docs").glob("*.md")))
_DOTTED = re.compile(r"\bswr(?:\.[A-Za-z_]\w*)+")
# src/swr/<path> (a module or a folder), or a module path from a top package (`sandbox/seccomp.py`)
_PATH = re.compile(
    r"\bsrc/swr/([\w/]+(?:\.py)?)"
    r"|(?<![\w/.])((?:core|sandbox|judge|kinds|assemble|harness|audit|export|report|cli)/[\w/]+\.py)\b"
)
NOT_MODULES = {"swr.db"}  # the results store's file name (swr.core.layout.DB_FILE)
# Named by docs/architecture.md ahead of the kinds protocol landing (issue 24): remove each once it exists.
FORWARD = {"swr.kinds.protocol", "swr.kinds.registry"}


def _resolves(dotted: str) -> bool:
    """A module, or an attribute of the longest module prefix of the name."""
    import importlib
    import importlib.util

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            obj = importlib.import_module(name)
            for attr in parts[cut:]:
                if not hasattr(obj, attr):
                    return False
                obj = getattr(obj, attr)
            return True
    return False


def stale_references(text: str) -> set[str]:
    """The swr module names and src/swr paths a page names that do not exist."""
    names = {m for m in _DOTTED.findall(text) if m not in NOT_MODULES and not _resolves(m)}
    paths = {f"src/swr/{p}" for m in _PATH.findall(text) for p in m if p and not (SRC / "swr" / p).exists()}
    return names | paths


def test_the_stale_reference_finder_sees_moved_modules_and_paths() -> None:
    assert stale_references("src/swr/spec.py and swr.grade and sandbox/seccomp.py, judge/verdict.py") == {
        "src/swr/spec.py",
        "swr.grade",
        "src/swr/judge/verdict.py",
    }
    assert (
        stale_references(
            "swr.harness.results.job_results, `judge/artifacts/__init__.py`, src/swr/kinds/, "
            "`audit/freeze.json` of a release"
        )
        == set()
    )
    assert stale_references("swr.harness.results.no_such_function") == {"swr.harness.results.no_such_function"}


def test_the_readme_and_docs_name_only_modules_and_paths_that_exist() -> None:
    """A page that names a module the code no longer has sends the next engineer to nothing."""
    found = {f"{page.name}: {ref}" for page in DOCS for ref in stale_references(page.read_text()) - FORWARD}
    assert not found, sorted(found)

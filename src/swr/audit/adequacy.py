"""`swr audit adequacy`: do an engine's hidden cases exercise every rule its spec states? Each declared rule
(`[[rules]]` in engine.toml) comes with a mutant of the reference that breaks that rule alone (a patch of it,
swr.kinds.engine.mutants); graded on the
hidden cases it must fail, else no case tells the rule from its violation and a candidate that ignores the
rule passes. Beside them, a small seeded set of operator mutants generated from the reference's Python source
(a comparison loosened, an operator swapped, a `not` dropped, a constant changed, a rounding removed) gives a
kill rate over mutants nobody chose. A surviving rule mutant is a build problem; a surviving operator mutant is
reported, since it may be equivalent (no input tells it apart)."""

from __future__ import annotations

import ast
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.layout import ENGINE_TOML
from swr.kinds.engine.grading import Case, Ran, case_items, grade_case, item_failures, verdict
from swr.kinds.engine.mutants import BadPatch, materialise
from swr.kinds.engine.spec import EngineSpec, load_engine, read_cases
from swr.kinds.engine.verdict import EngineVerdict
from swr.sandbox import Sandbox

OPERATORS = 12  # operator mutants per engine that `swr audit adequacy` grades by default (bounded: cost)
# The engine build grades fewer: they refuse nothing (only a surviving rule mutant does), they give the build record
# its kill rate, and a surviving one is graded on every hidden case: 12 were 40% of `swr build engines`.
BUILD_OPERATORS = 4
SEED = 0

_SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.And: ast.Or,
    ast.Or: ast.And,
}


@dataclass(frozen=True)
class Site:
    """One operator mutant: in `file` (relative to the reference) at `line`, `operator` applied to the
    `index`-th mutable node of that file (in ast.walk order, which a re-parse reproduces)."""

    file: str
    line: int
    operator: str
    klass: str  # comparison | arithmetic | boolean | negation | constant | rounding
    index: int


def _mutations(tree: ast.AST) -> Iterator[tuple[ast.AST, str, str, Callable[[], ast.AST | None]]]:
    """Every single-point mutation of a module: (node, operator, class, apply). `apply` changes the tree in
    place and returns a node to put where `node` was (None: the node itself, changed)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in _SWAPS:
                    yield (
                        node,
                        f"{type(op).__name__}->{_SWAPS[type(op)].__name__}",
                        "comparison",
                        _setter(node.ops, i, _SWAPS[type(op)]()),
                    )
        elif isinstance(node, ast.BinOp) and type(node.op) in _SWAPS:
            yield (
                node,
                f"{type(node.op).__name__}->{_SWAPS[type(node.op)].__name__}",
                "arithmetic",
                _attr(node, "op", _SWAPS[type(node.op)]()),
            )
        elif isinstance(node, ast.BoolOp):
            yield (
                node,
                f"{type(node.op).__name__}->{_SWAPS[type(node.op)].__name__}",
                "boolean",
                _attr(node, "op", _SWAPS[type(node.op)]()),
            )
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop not", "negation", (lambda n=node: n.operand)  # type: ignore[misc]  # mypy cannot infer a lambda with a default argument
        elif isinstance(node, ast.Constant) and type(node.value) is int and node.value in (0, 1):
            yield node, f"{node.value}->{1 - node.value}", "constant", _attr(node, "value", 1 - node.value)
        elif (
            isinstance(node, ast.Call)
            and node.args
            and (_callee(node) in ("quantize", "Decimal", "Fraction") or "round" in _callee(node).lower())
        ):
            name = _callee(node)
            if name == "quantize" and isinstance(node.func, ast.Attribute):
                yield node, "drop .quantize()", "rounding", (lambda n=node: n.func.value)  # type: ignore[misc]  # mypy cannot infer a lambda with a default argument
            elif name in ("Decimal", "Fraction"):
                yield node, f"{name}()->float()", "rounding", _attr(node, "func", ast.Name("float", ast.Load()))
            else:  # round(), or the reference's own rounding function
                yield node, f"drop {name}()", "rounding", (lambda n=node: n.args[0])  # type: ignore[misc]  # mypy cannot infer a lambda with a default argument


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _setter(seq: list[Any], i: int, value: Any) -> Callable[[], None]:
    def apply() -> None:
        seq[i] = value

    return apply


def _attr(node: ast.AST, name: str, value: Any) -> Callable[[], None]:
    def apply() -> None:
        setattr(node, name, value)

    return apply


def _python_files(reference: Path) -> list[Path]:
    """The Python source the reference runs: `run` when it is a Python script and the reference's modules it
    imports, transitively (a build-time helper beside them is never run: its mutants would all survive);
    every *.py when `run` is not Python."""
    reference = reference.resolve()
    run = reference / "run"
    head = run.read_bytes()[:128].split(b"\n")[0] if run.is_file() else b""
    if not (head.startswith(b"#!") and b"python" in head):
        return sorted(p for p in reference.rglob("*.py") if "__pycache__" not in p.parts)
    seen, todo = {run}, [run]
    while todo:
        here = todo.pop()
        try:
            tree = ast.parse(here.read_text())
        except (SyntaxError, UnicodeDecodeError):
            continue
        for f in _imported(reference, here, tree):
            if f not in seen:
                seen.add(f)
                todo.append(f)
    return sorted(seen)


def _imported(reference: Path, here: Path, tree: ast.AST) -> list[Path]:
    """The reference's own files a module imports: `import m`, `from m import n` (n may be a submodule),
    `from . import n` and `from .m import n` inside a package."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods: list[tuple[Path, list[str]]] = [(reference / a.name.replace(".", "/"), []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = reference if not node.level else here.parents[node.level - 1]
            mods = [(base / (node.module or "").replace(".", "/"), [a.name for a in node.names])]
        else:
            continue
        for m, names in mods:
            out += [
                f
                for f in (m.with_suffix(".py"), m / "__init__.py", *(m / f"{n}.py" for n in names))
                if f.is_file() and reference in f.resolve().parents
            ]
    return out


def operator_sites(reference: Path, cap: int = OPERATORS, seed: int = SEED) -> list[Site]:
    """A deterministic sample of `cap` operator mutants, spread over the classes (round-robin over each
    class's seeded shuffle) so that no one class (constants are the most numerous) crowds out the rest."""
    by_class: dict[str, list[Site]] = {}
    reference = reference.resolve()
    for f in _python_files(reference):
        try:
            tree = ast.parse(f.read_text(), str(f))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for i, (node, op, klass, _) in enumerate(_mutations(tree)):
            by_class.setdefault(klass, []).append(
                Site(f.relative_to(reference).as_posix(), getattr(node, "lineno", 0), op, klass, i)
            )
    rng = random.Random(seed)
    queues = []
    for klass in sorted(by_class):
        sites = by_class[klass]
        rng.shuffle(sites)
        queues.append(sites)
    picked: list[Site] = []
    while len(picked) < cap and any(queues):
        for q in queues:
            if q and len(picked) < cap:
                picked.append(q.pop())
    return sorted(picked, key=lambda s: (s.file, s.line, s.index))


def write_operator_mutant(reference: Path, site: Site, dest: Path) -> None:
    """The one file `site` changes, mutated, at its place under dest (a directory layered over the reference)."""
    src = reference / site.file
    text = src.read_text()
    tree = ast.parse(text)
    node, _, _, apply = next(m for i, m in enumerate(_mutations(tree)) if i == site.index)
    new = apply()
    if new is not None:
        _replace(tree, node, new)
    body = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    if text.startswith("#!"):
        body = text.splitlines()[0] + "\n" + body
    out = dest / site.file
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(body)
    shutil.copymode(src, out)


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    """Put `new` where `old` is, in its parent's field or list."""
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(v is old for v in value):
                value[[v is old for v in value].index(True)] = new
                return


def adequacy(
    spec: EngineSpec,
    reference: Path,
    verifier: Path,
    cases: list[Case],
    sandbox: Sandbox,
    jobs: int = 2,
    operators: int = OPERATORS,
    seed: int = SEED,
) -> dict[str, Any]:
    """Every declared rule mutant and `operators` operator mutants graded on `cases` (the hidden ones, with
    their expected values); killed = the verdict fails. `problems`: what makes the build refuse the engine."""

    def graded(mutant: Path) -> dict[str, Any]:
        v = grade_until_failed(spec, verifier, mutant, reference, cases, sandbox, jobs)
        return {"killed": not v.passed, "labels": v.labels, "score": v.score}

    if not cases:
        raise SwrError("no hidden cases to grade mutants on (a public-only copy of the task?)", file=spec.directory)
    rules = []
    with tempfile.TemporaryDirectory(prefix="swr-rule-mutants-") as d:
        made = rule_mutants(spec, reference, Path(d))  # every patch applied before any is graded
        for r in spec.rules:
            rules.append(
                {
                    "id": r.id,
                    "kind": "rule",
                    "spec_section": r.spec_section,
                    "summary": r.summary,
                    "equivalent": r.equivalent,
                    **graded(made[r.id]),
                }
            )
    ops = []
    for s in operator_sites(reference, operators, seed):
        with tempfile.TemporaryDirectory(prefix="swr-mutant-") as d:
            write_operator_mutant(reference, s, Path(d))
            ops.append(
                {
                    "id": f"{s.file}:{s.line}:{s.operator}",
                    "kind": "operator",
                    "file": s.file,
                    "line": s.line,
                    "operator": s.operator,
                    "class": s.klass,
                    **graded(Path(d)),
                }
            )
    return summarize(spec.name, len(cases), rules, ops)


def rule_mutants(spec: EngineSpec, reference: Path, scratch: Path) -> dict[str, Path]:
    """Each rule's mutant: its patch applied to a copy of the reference under scratch/<rule id>. A patch that
    no longer applies exactly (the reference changed under it) is a build error naming the rule and the patch,
    not a mutant silently graded as something else."""
    made = {}
    for i, r in enumerate(spec.rules):
        try:
            made[r.id] = materialise(reference, spec.directory / r.mutant, scratch / r.id)
        except BadPatch as e:
            raise SwrError(
                f"rule {r.id}: {r.mutant}: {e}", file=spec.directory / ENGINE_TOML, field=f"rules.{i}.mutant"
            ) from None
    return made


def grade_until_failed(
    spec: EngineSpec, verifier: Path, mutant: Path, reference: Path, cases: list[Case], sandbox: Sandbox, jobs: int
) -> EngineVerdict:
    """grade_engine's verdict on the mutant layered over the reference, cases taken `jobs` at a time and the
    rest left ungraded once the verdict is sure to fail (more items failed than the N - pass_at the score
    may miss): a killed mutant costs a case or two, not the whole hidden set, which bounds what the audit
    adds to the engine build. The verdict over the graded cases fails exactly when the full one would; its
    score counts the graded cases' items only."""
    results: list[tuple[Ran, list[dict[str, Any]]]] = []
    n, step = len(cases), max(1, jobs)
    may_miss = sum(len(case_items(c)) or 1 for c in cases) - spec.score.pass_at
    with ThreadPoolExecutor(step) as pool:
        for start in range(0, n, step):
            results += pool.map(
                lambda c: grade_case(spec, verifier, mutant, c, sandbox, (reference,)), cases[start : start + step]
            )
            if sum(bool(f) for ran, recs in results for f in item_failures(spec, ran, recs).values()) > may_miss:
                break
    return verdict(spec, spec.name, results)


def summarize(engine: str, n_cases: int, rules: list[dict[str, Any]], ops: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, the kill rate (killed over every mutant not declared equivalent) and the problems."""
    problems = [
        f"adequacy: rule mutant {r['id']} (spec {r['spec_section']}: {r['summary']}) survives the hidden "
        f"cases: none of them exercises the rule"
        for r in rules
        if not r["killed"] and not r["equivalent"]
    ]
    problems += [
        f"adequacy: rule {r['id']} is declared equivalent ({r['equivalent']}) but the hidden cases kill "
        f"its mutant ({r['labels']})"
        for r in rules
        if r["killed"] and r["equivalent"]
    ]
    counted = [m for m in [*rules, *ops] if not m.get("equivalent")]
    killed = sum(m["killed"] for m in counted)
    return {
        "engine": engine,
        "cases": n_cases,
        "rules_declared": len(rules),
        "rules_killed": sum(r["killed"] for r in rules),
        "rules_equivalent": sum(bool(r["equivalent"]) for r in rules),
        "operators_total": len(ops),
        "operators_killed": sum(o["killed"] for o in ops),
        "kill_rate": killed / len(counted) if counted else None,
        "survivors": [
            {"id": m["id"], "kind": m["kind"], "reason": m.get("equivalent") or "no hidden case fails it"}
            for m in [*rules, *ops]
            if not m["killed"]
        ],
        "rules": rules,
        "operators": ops,
        "problems": problems,
    }


def adequacy_line(a: dict[str, Any]) -> str:
    """The build's one-line account: rule mutants killed, operator mutants killed, kill rate."""
    rate = "n/a" if a["kill_rate"] is None else f"{100 * a['kill_rate']:.0f}%"
    return (
        f"rules {a['rules_killed']}/{a['rules_declared']} killed, operators {a['operators_killed']}/"
        f"{a['operators_total']}, kill rate {rate}"
    )


def adequacy_audit(
    release: Path, *, jobs: int = 2, sandbox: str = "bwrap", operators: int = OPERATORS, seed: int = SEED
) -> dict[str, Any]:
    """The audit over a release's engine tasks, each from what its private/ holds (engine.toml, reference,
    verifier, mutants, the hidden cases with their expected values). Read through the engine's own loaders
    (the engine build imports this module); which tasks it covers, each task's kind says (swr.kinds.covered)."""
    from swr.core.layout import REFERENCE, VERIFIER, TaskPaths
    from swr.core.release_dir import list_tasks
    from swr.kinds import covered
    from swr.sandbox import get_sandbox

    sb = get_sandbox(sandbox)
    rows = []
    roots, not_applicable = covered(list_tasks(release), "adequacy")
    for root in roots:
        at = TaskPaths(root)
        private, hidden = at.private, at.hidden_examples
        spec = load_engine(private)
        cases = read_cases(hidden.parent, hidden.name)
        rows.append(adequacy(spec, private / REFERENCE, private / VERIFIER, cases, sb, jobs, operators, seed))
    counted = [m for r in rows for m in [*r["rules"], *r["operators"]] if not m.get("equivalent")]
    return {
        "release": str(release),
        "engines": rows,
        "not_applicable": not_applicable,
        "surviving_rules": [
            f"{r['engine']}/{m['id']}" for r in rows for m in r["rules"] if not m["killed"] and not m["equivalent"]
        ],
        "problems": [p for r in rows for p in r["problems"]],
        "kill_rate": sum(m["killed"] for m in counted) / len(counted) if counted else None,
    }

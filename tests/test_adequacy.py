"""`swr audit adequacy`: every declared spec-rule mutant of every shipped engine fails its hidden cases; a hidden
set that lacks the case exercising a rule lets that rule's mutant survive, which the build refuses and the
release audit reports (exit 1); operator mutants are seeded, capped and each one a real change."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, release_slice, swr

from swr.audit.adequacy import operator_sites, write_operator_mutant
from swr.core.errors import SwrError
from swr.kinds.engine.check import check_engine
from swr.kinds.engine.mutants import materialise
from swr.kinds.engine.spec import load_engine
from swr.sandbox import Sandbox

ENGINES = ROOT / "engines"
# (engine, the rule mutants that survive once its hidden cases lose the events that exercise them)
KEY_RULES = ("mes", {"hold-completed", "op-as-string"})
# The same, as a generator layered over mes's own: its cases without any `hold` event or string `op` (the
# events those two rules decide), their expected values recomputed by its expect.py.
WEAK_GENERATOR = """import json, sys
from expect import expected
from generate_full import cases
out = []
for c in cases(int(json.load(sys.stdin)["seed"])):
    events = [e for e in c["input"]["events"]
              if not (isinstance(e, dict) and (e.get("type") == "hold" or isinstance(e.get("op"), str)))]
    inp = {**c["input"], "events": events}
    out.append({"id": c["id"], "input": inp, "expected": expected(inp)})
print(json.dumps({"cases": out}))
"""


def weaken(case: dict) -> dict:
    """A mes hidden case without its holds and string ops, its expected output recomputed by the reference."""
    import importlib.util

    loader = importlib.util.spec_from_file_location("mes_reference", ENGINES / "mes" / "reference" / "mes.py")
    assert loader is not None and loader.loader is not None
    mes = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(mes)
    events = [
        e
        for e in case["input"]["events"]
        if not (isinstance(e, dict) and (e.get("type") == "hold" or isinstance(e.get("op"), str)))
    ]
    inp = {**case["input"], "events": events}
    return {**case, "input": inp, "expected": mes.run(inp)}


def engine_dirs() -> list[Path]:
    return sorted(d for d in ENGINES.iterdir() if (d / "engine.toml").is_file())


def test_every_engine_declares_rules_with_mutants() -> None:
    """The issue's named rules are declared, and every engine declares at least two."""
    rules = {d.name: {r.id for r in load_engine(d).rules} for d in engine_dirs()}
    for name, ids in rules.items():
        assert len(ids) >= 2, (name, ids)
    assert {"binary-floats", "journal-into-closed"} <= rules["erp-ledger"]
    assert {"hold-completed", "all-scrapped"} <= rules["mes"] and len(rules["mes"]) >= 3
    assert {"ctu-saturation", "assign-to-input"} <= rules["plc-runtime"] and len(rules["plc-runtime"]) >= 4
    assert {"exact-zero", "uncentred-tss", "sample-sd", "nonlinear-residual-df"} <= rules["statistics"]
    assert {"bulge-start-vertex", "closed-flag-bit", "open-entity-error", "offset-round-joins"} <= rules["cad-2d"]


def test_the_build_kills_every_declared_rule_mutant(engines_release: Path) -> None:
    """The engine build graded every rule mutant on the hidden cases: each one failed them, or is declared
    equivalent with a reason; the record keeps the operator mutants and the kill rate."""
    seen = set()
    for task in sorted((engines_release / "tasks").iterdir()):
        a = json.loads((task / "private" / "build.json").read_text())["adequacy"]
        seen.add(task.name)
        assert not a["problems"], (task.name, a["problems"])
        for r in a["rules"]:
            assert r["killed"] or r["equivalent"], (task.name, r)
        assert a["rules_killed"] + a["rules_equivalent"] == a["rules_declared"], (task.name, a)
        assert a["operators_total"] > 0 and a["kill_rate"] is not None, (task.name, a)
        assert (task / "private" / "mutants").is_dir() == bool(a["rules"]), task.name
    assert seen == {d.name for d in engine_dirs()}


def test_cli_adequacy_on_a_release_and_a_weakened_one(engines_release: Path, tmp_path: Path) -> None:
    """`swr audit adequacy RELEASE`: exit 0 with every rule killed; with the events that exercise two of mes's
    rules removed from the release's hidden cases, exit 1, those two mutants reported as survivors."""
    engine, rules = KEY_RULES
    rel = release_slice(engines_release, (engine,), tmp_path / "rel")
    res = swr("audit", "adequacy", str(rel), "--json", "--operators", "2", timeout=1200)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    doc = json.loads(res.stdout)
    (row,) = doc["engines"]
    assert row["rules_killed"] == row["rules_declared"] >= 4 and row["operators_total"] == 2
    assert not doc["surviving_rules"] and (rel / "audit" / "adequacy.json").is_file()

    for f in sorted((rel / "tasks" / engine / "private" / "hidden").glob("*.json")):
        f.write_text(json.dumps(weaken(json.loads(f.read_text()))))
    res = swr("audit", "adequacy", str(rel), "--operators", "0", timeout=1200)
    assert res.returncode == 1, res.stdout[-2000:] + res.stderr[-2000:]
    assert "2 surviving rule mutants" in res.stdout
    for r in rules:
        assert r in res.stdout
    res = swr("audit", "adequacy", str(rel), "--json", "--operators", "0", timeout=1200)
    assert res.returncode == 1 and {s.split("/")[1] for s in json.loads(res.stdout)["surviving_rules"]} == rules


def test_a_release_whose_rule_patch_went_stale_is_refused_by_the_audit(engines_release: Path, tmp_path: Path) -> None:
    """`swr audit adequacy` on a release whose private reference no longer matches a rule's patch (a line
    inserted above its hunk): one line naming the rule and the patch, exit 2, no mutant graded."""
    rel = release_slice(engines_release, ("mes",), tmp_path / "rel")
    ref = rel / "tasks" / "mes" / "private" / "reference" / "mes.py"
    ref.write_text("# a new first line\n" + ref.read_text())
    res = swr("audit", "adequacy", str(rel), "--operators", "0", timeout=600)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stdout[-2000:] + res.stderr[-2000:]
    (line,) = res.stderr.strip().splitlines()
    assert "rule hold-completed: mutants/hold-completed.patch" in line and "offset" in line, line


def test_a_weak_hidden_set_is_refused_by_the_build(tmp_path: Path, sandbox: Sandbox) -> None:
    """A copy of mes whose generator leaves out the events that exercise two rules: both mutants survive, and
    that is a build problem (`swr build` leaves the engine out, naming them); surviving operator mutants are
    not."""
    engine, rules = KEY_RULES
    src = tmp_path / engine
    shutil.copytree(ENGINES / engine, src, ignore=shutil.ignore_patterns("__pycache__"))
    (src / "verifier" / "generate.py").rename(src / "verifier" / "generate_full.py")
    (src / "verifier" / "generate.py").write_text(WEAK_GENERATOR)
    checked = check_engine(src, sandbox)
    a = checked.report["adequacy"]
    survived = {r["id"] for r in a["rules"] if not r["killed"]}
    assert survived == rules, a["rules"]
    assert {p.split("rule mutant ")[1].split(" ")[0] for p in checked.problems if "adequacy" in p} == rules
    assert all("rule mutant" in p or "declared equivalent" in p for p in a["problems"])
    res = swr("build", str(src), "--out", str(tmp_path / "rel"), "--jobs", "2", timeout=1200)
    assert res.returncode != 0
    assert all(r in res.stdout + res.stderr for r in rules), res.stdout[-2000:] + res.stderr[-2000:]
    assert not (tmp_path / "rel" / "tasks" / engine).exists()


def test_a_rule_declared_equivalent_but_killed_is_a_problem(tmp_path: Path, sandbox: Sandbox) -> None:
    """An `equivalent` declaration is a claim the audit checks: a mutant the cases kill is not equivalent."""
    src = tmp_path / "mes"
    shutil.copytree(ENGINES / "mes", src, ignore=shutil.ignore_patterns("__pycache__"))
    toml = src / "engine.toml"
    toml.write_text(
        toml.read_text().replace(
            'mutant = "mutants/op-as-string.patch"\n',
            'mutant = "mutants/op-as-string.patch"\nequivalent = "no input tells"\n',
        )
    )
    checked = check_engine(src, sandbox)
    assert any("op-as-string is declared equivalent" in p for p in checked.problems), checked.problems


def _hunk_context(engine: Path, rule: str) -> tuple[str, str]:
    """(reference file, a context line) of a rule's patch: the first unchanged line its first hunk shows."""
    text = (engine / "mutants" / f"{rule}.patch").read_text()
    rel = text.split("\n", 1)[0].removeprefix("--- a/")
    line = next(ln for ln in text.split("@@", 2)[2].split("\n")[1:] if ln.startswith(" ") and ln.strip())
    return rel, line[1:]


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: (d / "mutants" / "hold-completed.patch").unlink(), "is not a patch file"),
        (
            lambda d: _rewrite(d / "mutants" / "hold-completed.patch", "+++ b/mes.py", "+++ b/other.py"),
            "name two different files",
        ),
        (
            lambda d: [
                _rewrite(d / "mutants" / "hold-completed.patch", f"{s} {p}/mes.py", f"{s} {p}/other.py")
                for s, p in (("---", "a"), ("+++", "b"))
            ],
            "other.py is no file of reference/",
        ),
        (
            lambda d: [
                _rewrite(d / "mutants" / "hold-completed.patch", f"{s} {p}/mes.py", f"{s} {p}/../mes.py")
                for s, p in (("---", "a"), ("+++", "b"))
            ],
            "is not a plain path inside reference/",
        ),
        (
            lambda d: _rewrite(d / "mutants" / "hold-completed.patch", "--- a/mes.py", "--- /dev/null"),
            "not a/PATH relative to reference/",
        ),
        (
            lambda d: (d / "mutants" / "hold-completed.patch").write_text(
                "diff --git a/mes.py b/mes.py\nold mode 100644\nnew mode 100755\n"
            ),
            "is not a `--- a/PATH` header",
        ),
        (
            lambda d: (d / "mutants" / "hold-completed.patch").write_text(
                "--- a/mes.py\n+++ b/mes.py\n@@ -1,1 +1,1 @@\n"
                + (d / "reference" / "mes.py").read_text().split("\n")[0].join([" ", "\n"])
            ),
            "changes no line",
        ),
        (
            lambda d: (
                _rewrite(d / "engine.toml", 'mutant = "mutants/hold-completed.patch"', 'mutant = "mutants/old"')
                or (d / "mutants" / "old").mkdir()
                or shutil.copyfile(d / "reference" / "mes.py", d / "mutants/old/mes.py")
            ),
            "directory of whole files, the former format: convert it with `python -m swr.kinds.engine.mutants",
        ),
    ],
)
def test_a_bad_rule_declaration_is_one_line_exit_2(
    tmp_path: Path, edit: Callable[[Path], object], message: str
) -> None:
    """A rule whose mutant is missing, a directory (the former format), or a patch that creates, renames or
    leaves the tree, names two files or changes nothing is refused when the engine loads."""
    src = tmp_path / "mes"
    shutil.copytree(ENGINES / "mes", src, ignore=shutil.ignore_patterns("__pycache__"))
    edit(src)
    with pytest.raises(SwrError) as e:
        load_engine(src)
    assert message in str(e.value) and "engine.toml" in str(e.value) and "rules.0.mutant" in str(e.value)
    res = subprocess.run(
        [sys.executable, "-m", "swr.kinds.engine", "check", str(src)], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 2 and message in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("how, said", [("context", "FAILED"), ("offset", "offset"), ("applied", "Reversed")])
def test_a_patch_that_no_longer_applies_exactly_is_a_build_error(tmp_path: Path, how: str, said: str) -> None:
    """The reference changed under a rule's patch: a line of its hunk's context edited, a line inserted above
    the hunk (patch would apply it at an offset), or the mutation itself made in the reference. The engine
    check stops before any grading with one line naming engine.toml, the rule and the patch; exit 2."""
    src = tmp_path / "erp-ledger"
    shutil.copytree(ENGINES / "erp-ledger", src, ignore=shutil.ignore_patterns("__pycache__"))
    rule = load_engine(src).rules[0].id  # the first the check applies
    rel, context = _hunk_context(src, rule)
    ref = src / "reference" / rel
    if how == "context":
        _rewrite(ref, context + "\n", context + "  # edited\n")
    elif how == "offset":
        ref.write_text("# a new first line\n" + ref.read_text())
    else:
        with tempfile.TemporaryDirectory() as d:
            shutil.copyfile(materialise(src / "reference", src / "mutants" / f"{rule}.patch", Path(d) / "m") / rel, ref)
    load_engine(src)  # the declaration itself is sound: only applying it tells
    res = subprocess.run(
        [sys.executable, "-m", "swr.kinds.engine", "check", str(src)], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    (line,) = res.stderr.strip().splitlines()
    assert "engine.toml: field `rules.0.mutant`" in line and f"rule {rule}: mutants/{rule}.patch" in line, line
    assert said in line, line
    assert "does not apply cleanly to reference/" in line


def test_a_rule_patch_materialises_exactly_what_it_says(tmp_path: Path) -> None:
    """The patch applied to a copy of the reference changes the files it names and nothing else (modes kept,
    no backup or reject file left), and leaves the reference itself untouched."""
    engine = ENGINES / "spice"
    before = {p: p.read_bytes() for p in (engine / "reference").rglob("*") if p.is_file()}
    made = materialise(engine / "reference", engine / "mutants" / "scale-mil.patch", tmp_path / "m")
    files = {p.relative_to(made).as_posix() for p in made.rglob("*") if p.is_file()}
    assert files == {p.relative_to(engine / "reference").as_posix() for p in before if "__pycache__" not in p.parts}
    changed = {f for f in files if (made / f).read_bytes() != (engine / "reference" / f).read_bytes()}
    assert changed == {"netlist.py"} and not [p for p in made.rglob("*") if p.suffix in (".orig", ".rej")]
    assert all((made / f).stat().st_mode & 0o111 == (engine / "reference" / f).stat().st_mode & 0o111 for f in files)
    assert {p: p.read_bytes() for p in before} == before


def test_the_converter_turns_a_directory_of_copies_into_an_identical_patch(tmp_path: Path) -> None:
    """`python -m swr.kinds.engine.mutants ENGINE`: a mutant in the former format (whole-file copies) becomes
    mutants/<id>.patch, engine.toml names it, the directory is gone, and the patch gives back the copy byte
    for byte; the engine loads and the patch applies."""
    src = tmp_path / "mes"
    shutil.copytree(ENGINES / "mes", src, ignore=shutil.ignore_patterns("__pycache__"))
    with tempfile.TemporaryDirectory() as d:
        old = materialise(src / "reference", src / "mutants" / "all-scrapped.patch", Path(d) / "m") / "mes.py"
        (src / "mutants" / "all-scrapped.patch").unlink()
        (src / "mutants" / "all-scrapped").mkdir()
        shutil.copyfile(old, src / "mutants" / "all-scrapped" / "mes.py")
    _rewrite(src / "engine.toml", 'mutant = "mutants/all-scrapped.patch"', 'mutant = "mutants/all-scrapped"')
    copy = (src / "mutants" / "all-scrapped" / "mes.py").read_bytes()
    with pytest.raises(SwrError, match="former format"):
        load_engine(src)
    res = subprocess.run(
        [sys.executable, "-m", "swr.kinds.engine.mutants", str(src)], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0 and "all-scrapped.patch" in res.stdout, res.stdout + res.stderr
    assert not (src / "mutants" / "all-scrapped").exists()
    assert 'mutant = "mutants/all-scrapped.patch"' in (src / "engine.toml").read_text()
    assert (src / "mutants" / "all-scrapped.patch").read_bytes() == (
        ENGINES / "mes" / "mutants" / "all-scrapped.patch"
    ).read_bytes()
    assert {r.mutant for r in load_engine(src).rules} == {r.mutant for r in load_engine(ENGINES / "mes").rules}
    made = materialise(src / "reference", src / "mutants" / "all-scrapped.patch", tmp_path / "m")
    assert (made / "mes.py").read_bytes() == copy


def test_operator_mutants_are_seeded_capped_and_real_changes(tmp_path: Path) -> None:
    """The same seed gives the same sites; the cap holds; the classes are spread; every mutant parses and
    differs from the reference file it replaces, at the recorded line's file."""
    ref = ENGINES / "erp-ledger" / "reference"
    sites = operator_sites(ref, 12, seed=0)
    assert sites == operator_sites(ref, 12, seed=0) and len(sites) == 12
    assert sites != operator_sites(ref, 12, seed=1)
    assert len({s.klass for s in sites}) >= 4
    assert any(s.klass == "rounding" for s in operator_sites(ref, 40, seed=0))
    for i, s in enumerate(sites):
        out = tmp_path / str(i)
        write_operator_mutant(ref, s, out)
        (changed,) = [p for p in out.rglob("*") if p.is_file()]
        assert changed.relative_to(out).as_posix() == s.file
        original = (ref / s.file).read_text()
        mutated = changed.read_text()
        assert ast.dump(ast.parse(mutated)) != ast.dump(ast.parse(original)), s
        if original.startswith("#!"):
            assert mutated.splitlines()[0] == original.splitlines()[0]
    assert len(operator_sites(ref, 0)) == 0
    cfd = {s.file for s in operator_sites(ENGINES / "cfd-2d" / "reference", 500)}  # what `run` never imports
    assert "ns2d.py" in cfd and "make_expected.py" not in cfd
    stats = {s.file for s in operator_sites(ENGINES / "statistics" / "reference", 500)}  # a package's modules
    assert {"strdlib/linear.py", "strdlib/nls.py"} <= stats


def test_statistics_hidden_sessions_exercise_each_rule_whatever_the_draws() -> None:
    """Whatever the seed, statistics' hidden set holds four exact fits (certified residual ss 0 and f null, as
    spec.md section 2 rules), four regressions through the origin and four ANOVAs at 7 constant leading digits:
    the analyses that kill exact-zero, uncentred-tss and ssw-from-deviations, which the drawn sessions may lack,
    each on more analyses than the 43 - 40 a passing candidate may miss (engine.toml [score]).
    The verifier matches a certified null with null only: a finite F or a missing one scores 0 digits."""
    sys.path.insert(0, str(ENGINES / "statistics" / "verifier"))
    try:
        import fresh
        import verify
    finally:
        sys.path.pop(0)
    for seed in (0, 7):
        analyses = [
            (a, r) for c in fresh.hidden(seed) for a, r in zip(c["input"]["analyses"], c["expected"]["results"])
        ]
        exact = [(a, r) for a, r in analyses if a["procedure"] == "linear" and r["anova"]["f"] is None]
        assert len(exact) == 4 and all(r["anova"]["residual"]["ss"] == 0 == r["residual_sd"] for _, r in exact)
        assert sum(a["procedure"] == "linear" and not a["intercept"] for a, _ in analyses) >= 4
        assert sum(a["procedure"] == "anova" and min(map(min, a["groups"])) > 999_999 for a, _ in analyses) >= 4
    a, cert = exact[0]
    mine = {**cert, "id": a["id"]}
    assert verify.worst({"results": [cert]}, {a["id"]: mine})["linear"][0] == 15
    finite = {**mine, "anova": {**mine["anova"], "f": 1e33}}
    missing = {**mine, "anova": {k: v for k, v in mine["anova"].items() if k != "f"}}
    for got in (finite, missing):
        assert verify.worst({"results": [cert]}, {a["id"]: got})["linear"][0] == 0

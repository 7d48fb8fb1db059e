"""`swr audit adequacy`: every declared spec-rule mutant of every shipped engine fails its hidden cases; a hidden
set that lacks the case exercising a rule lets that rule's mutant survive, which the build refuses and the
release audit reports (exit 1); operator mutants are seeded, capped and each one a real change."""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import ROOT, release_slice, swr
from swr.audit.adequacy import operator_sites, write_operator_mutant
from swr.engine.check import check_engine
from swr.engine.spec import load_engine
from swr.errors import SwrError
from swr.sandbox import Sandbox

ENGINES = ROOT / "engines"
WITHOUT_RULES = {"statistics", "cad-2d"}  # helper F's engines: their rules come with their own change
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
    events = [e for e in case["input"]["events"]
              if not (isinstance(e, dict) and (e.get("type") == "hold" or isinstance(e.get("op"), str)))]
    inp = {**case["input"], "events": events}
    return {**case, "input": inp, "expected": mes.run(inp)}


def engine_dirs() -> list[Path]:
    return sorted(d for d in ENGINES.iterdir() if (d / "engine.toml").is_file())


def test_every_engine_declares_rules_with_mutants() -> None:
    """The issue's named rules are declared, and every engine but two declares at least two."""
    rules = {d.name: {r.id for r in load_engine(d).rules} for d in engine_dirs()}
    for name, ids in rules.items():
        assert name in WITHOUT_RULES or len(ids) >= 2, (name, ids)
    assert {"binary-floats", "journal-into-closed"} <= rules["erp-ledger"]
    assert {"hold-completed", "all-scrapped"} <= rules["mes"] and len(rules["mes"]) >= 3
    assert {"ctu-saturation", "assign-to-input"} <= rules["plc-runtime"] and len(rules["plc-runtime"]) >= 4


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
    toml.write_text(toml.read_text().replace('mutant = "mutants/op-as-string"\n',
                                             'mutant = "mutants/op-as-string"\nequivalent = "no input tells"\n'))
    checked = check_engine(src, sandbox)
    assert any("op-as-string is declared equivalent" in p for p in checked.problems), checked.problems


@pytest.mark.parametrize("edit, message", [
    (lambda d: shutil.rmtree(d / "mutants" / "hold-completed"), "is not a directory"),
    (lambda d: shutil.copyfile(d / "reference" / "mes.py", d / "mutants" / "hold-completed" / "mes.py"),
     "is the reference's own file"),
    (lambda d: (d / "mutants" / "hold-completed" / "mes.py").rename(d / "mutants" / "hold-completed" / "other.py"),
     "replaces no file of reference/"),
])
def test_a_bad_rule_declaration_is_one_line_exit_2(tmp_path: Path, edit: Callable[[Path], object],
                                                  message: str) -> None:
    """A rule whose mutant is missing, unchanged or adds a file is refused when the engine loads."""
    src = tmp_path / "mes"
    shutil.copytree(ENGINES / "mes", src, ignore=shutil.ignore_patterns("__pycache__"))
    edit(src)
    with pytest.raises(SwrError) as e:
        load_engine(src)
    assert message in str(e.value) and "engine.toml" in str(e.value) and "rules.0.mutant" in str(e.value)
    res = subprocess.run([sys.executable, "-m", "swr.engine", "check", str(src)], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 2 and message in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


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

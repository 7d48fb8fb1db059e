"""`swr audit freeze` and `swr audit held-out` (SWR §4.3, Table 12): a pilot-validated, frozen generator; a
disjoint held-out set of two tasks per family plus high-risk ones; new trials per stratum with Wilson intervals."""

from __future__ import annotations

import json
import random
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest
import tomli_w
from conftest import FIXTURES, ROOT, swr

from swr.assemble import BuildOptions, build
from swr.audit import freeze as freeze_mod
from swr.audit.freeze import (
    draw,
    freeze_audit,
    freeze_path,
    generator_hash,
    generator_modules,
    load_freeze,
)
from swr.audit.heldout import STRATA, held_out_audit
from swr.audit.heldout_geometry import transforms
from swr.audit.heldout_trials import break_relation, context, holds, structured_trials
from swr.audit.oracle import leaves
from swr.core.errors import SwrError
from swr.core.release_dir import list_tasks, task_dir
from swr.judge import Tolerances
from swr.judge.artifacts.fields import Reference
from swr.kinds.taskfile import read_task_file
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.task import load_workflow_task


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two families: `fixtures` (two JSON workflows) and `fixture` (a mesh and a table), two variants each;
    and one engine task, which the audit does not apply to."""
    base = tmp_path_factory.mktemp("freeze")
    sources = [FIXTURES / "good-linear", FIXTURES / "good-entry", FIXTURES / "good-artifacts", ENGINES / "erp-ledger"]
    results = build(
        sources,
        base / "rel",
        BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=ExecutionCache(base / "cache")),
    )
    assert not [r.failure for r in results if r.failure]
    return base / "rel"


ENGINES = ROOT / "engines"


def fresh(release: Path, dest: Path) -> Path:
    return Path(shutil.copytree(release, dest))


def family_of(release: Path, task_id: str) -> str:
    return read_task_file(task_dir(release, task_id)).family


def loosen(release: Path, task_id: str) -> None:
    """Plant a lax tolerance in one task of the built release: atol 1e9 accepts any number."""
    toml = task_dir(release, task_id) / "task.toml"
    meta = tomllib.loads(toml.read_text())
    meta["tolerances"].update(atol=1e9, rtol=1.0)
    toml.write_text(tomli_w.dumps(meta))


def check_strata(r: dict) -> None:
    assert [s["stratum"] for s in r["strata"]] == list(STRATA)
    for s in [*r["strata"], r["all"]]:
        assert s["trials"] > 0, s
        lo, hi = s["wilson95"]
        assert 0 <= lo <= s["correct_rate"] <= hi <= 1
        assert s["correct"] == s["trials"] - s["false_accepts"] - s["false_rejects"]
    assert r["all"]["trials"] == sum(s["trials"] for s in r["strata"])


# ------------------------------------------------------------------ the two commands end to end


def test_freeze_then_held_out_reports_the_four_strata(small: Path, tmp_path: Path) -> None:
    rel = fresh(small, tmp_path / "rel")
    res = swr("audit", "freeze", str(rel), "--pilot", "2", "--held-out", "4", "--seed", "7", "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    fr = json.loads(res.stdout)
    assert fr["pilot_validation"]["trials"] > 0 and fr["pilot_validation"]["false_accepts"] == 0
    record = json.loads(freeze_path(rel).read_text())
    assert {"generator_hash", "pilot", "held_out", "seed", "high_risk"} <= set(record)
    assert record["generator_hash"] == generator_hash() and record["seed"] == 7
    assert len(record["pilot"]) == 2 and not set(record["pilot"]) & set(record["held_out"])
    per_family: dict[str, int] = {}
    for t in record["held_out"]:
        per_family[family_of(rel, t)] = per_family.get(family_of(rel, t), 0) + 1
    assert per_family == {"fixtures": 2, "fixture": 2}

    res = swr("audit", "held-out", str(rel), "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    r = json.loads(res.stdout)
    check_strata(r)
    assert r["false_accepts"] == r["false_rejects"] == 0, r["wrong_decisions"]
    assert not r["verifier_changed_since_freeze"]
    assert (
        r["not_applicable"]
        == fr["not_applicable"]
        == [{"task": "erp-ledger", "kind": "engine", "why": freeze_mod.ENGINE_WHY}]
    )
    names = {c["name"] for c in r["classes"]}
    assert {
        "control_key_order",
        "unit_error",
        "scenario_splice",
        "geometry_rotation",
        "geometry_nonuniform_scale",
        "geometry_translation",
        "geometry_reindexed",
    } <= names  # no field of these fixtures has a range limit
    table = swr("audit", "held-out", str(rel))
    assert table.returncode == 0 and "geometry" in table.stdout and "Wilson 95%" in table.stdout


def test_a_lax_tolerance_in_one_held_out_task_shows_as_false_accepts(small: Path, tmp_path: Path) -> None:
    rel = fresh(small, tmp_path / "rel")
    record = freeze_audit(rel, pilot=2, held_out=4, seed=3, jobs=1)
    victim = next(t for t in record["held_out"] if family_of(rel, t) == "fixtures")
    loosen(rel, victim)  # the other held-out tasks, untouched, are the control: no wrong decision on them below
    res = swr("audit", "held-out", str(rel), "--json")
    assert res.returncode == 1, res.stderr
    r = json.loads(res.stdout)
    assert r["verifier_changed_since_freeze"]
    by = {s["stratum"]: s for s in r["strata"]}
    assert by["structured invalid"]["false_accepts"] > 0
    assert by["structured invalid"]["correct_rate"] < 1 and by["structured invalid"]["wilson95"][1] < 1
    assert by["structured valid"]["false_accepts"] == by["geometry invalid"]["false_accepts"] == 0
    wrong = r["wrong_decisions"]
    assert wrong and {w["task"] for w in wrong} == {victim}
    assert {w["stratum"] for w in wrong} == {"structured invalid"} and all(w["field"] and w["class"] for w in wrong)
    assert {"unit_error", "scenario_splice"} <= {w["class"] for w in wrong}


# ------------------------------------------------------------------ refusals


def test_held_out_refuses_once_the_generator_changed(
    small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rel = fresh(small, tmp_path / "rel")
    assert {
        "swr.audit.mutation",
        "swr.audit.mutants",
        "swr.audit.mesh_mutants",
        "swr.audit.oracle",
        "swr.audit.heldout",
        "swr.audit.heldout_trials",
        "swr.audit.heldout_geometry",
    } <= set(generator_modules())
    freeze_audit(rel, pilot=1, held_out=4, seed=1, jobs=1)
    assert load_freeze(rel)["held_out"]  # frozen and unchanged: accepted (the first test runs its trials)
    real = freeze_mod.module_source

    def edited(name: str) -> bytes:
        return real(name) + (b"\n# a new class\n" if name == "swr.audit.heldout_trials" else b"")

    monkeypatch.setattr(freeze_mod, "module_source", edited)
    with pytest.raises(SwrError, match="generator changed after freezing"):
        held_out_audit(rel, jobs=1)


def test_held_out_cli_refusals_are_one_line(small: Path, tmp_path: Path) -> None:
    rel = fresh(small, tmp_path / "rel")
    res = swr("audit", "held-out", str(rel))
    assert res.returncode == 2 and "no freeze record" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    freeze_audit(rel, pilot=1, held_out=4, seed=1, jobs=1)
    path = freeze_path(rel)
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "generator_hash": "0" * 64}))
    res = swr("audit", "held-out", str(rel))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "changed after freezing" in res.stderr and "generator_hash" in res.stderr and "Traceback" not in res.stderr
    res = swr("audit", "freeze", str(rel), "--high-risk", "no-such-task")
    assert res.returncode == 2 and "--high-risk" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    res = swr("audit", "freeze", str(rel), "--high-risk", "erp-ledger")
    assert res.returncode == 2 and "engine task" in res.stderr


# ------------------------------------------------------------------ the draws


def test_pilot_and_held_out_are_disjoint_seeded_and_two_per_family() -> None:
    fams = {f"fam{f}": [f"fam{f}-t{i}" for i in range(6)] for f in range(5)}
    pilot, held = draw(fams, 8, 12, ["fam2-t5"], seed=3)
    assert not set(pilot) & set(held) and len(pilot) == 8 and len(held) == 12
    assert "fam2-t5" in held
    core = [t for t in held if t != "fam2-t5"]
    assert all(sum(t.startswith(f + "-") for t in core) >= 2 for f in fams)
    assert draw(fams, 8, 12, ["fam2-t5"], seed=3) == (pilot, held)
    assert draw(fams, 8, 12, ["fam2-t5"], seed=4) != (pilot, held)
    with pytest.raises(SwrError, match="--held-out"):
        draw(fams, 8, 10, ["fam2-t5"], seed=3)  # 5 families x 2 + 1 high-risk do not fit in 10


def test_same_seed_same_sets_on_a_release(small: Path, tmp_path: Path) -> None:
    a = freeze_audit(fresh(small, tmp_path / "a"), pilot=1, held_out=5, high_risk=["good-linear-v2"], seed=11, jobs=1)
    b = freeze_audit(fresh(small, tmp_path / "b"), pilot=1, held_out=5, high_risk=["good-linear-v2"], seed=11, jobs=1)
    assert (a["pilot"], a["held_out"]) == (b["pilot"], b["held_out"])
    assert "good-linear-v2" in a["held_out"] and "good-linear-v2" not in a["pilot"]
    assert sorted(a["pilot"] + a["held_out"]) == sorted(p.name for p in list_tasks(small) if p.name != "erp-ledger")


# ------------------------------------------------------------------ the trial classes

DOCS = [
    {
        "n": n,
        "items": [float(i + 1) * s for i in range(n)],
        "total": sum(float(i + 1) * s for i in range(n)),
        "t_min": s,
        "t_max": n * s,
        "share": 0.1 * n,
        "name": "x",
    }
    for n, s in ((3, 1.5), (4, 2.0), (5, 0.5))
]


def test_relations_are_found_in_the_reference_structure_and_broken_by_their_trials() -> None:
    ctx = context(DOCS, Tolerances(atol=1e-9, rtol=1e-9))
    kinds = {(r.kind, r.a, r.b) for r in ctx.relations}
    assert {
        ("count", ("n",), ("items",)),
        ("sum", ("total",), ("items",)),
        ("max", ("t_max",), ("items",)),
        ("min", ("t_min",), ("items",)),
        ("order", ("t_min",), ("t_max",)),
        ("sorted", ("items",), ()),
    } <= kinds
    rng = random.Random(0)
    for rel in ctx.relations:
        assert holds(rel, DOCS[0])
        broken = break_relation(DOCS[0], rel, rng, ctx.stats)
        assert broken is not None and holds(rel, broken[0]) is False, (rel, broken)


def test_every_structured_trial_has_its_designed_validity() -> None:
    tol = Tolerances(atol=1e-9, rtol=1e-9)
    ctx = context(DOCS, tol)
    ref = Reference(DOCS[0], None)
    trials = list(structured_trials(ref, [("other", DOCS[1])], ctx, random.Random(1), 2))
    classes = {t.klass: t.valid for t in trials}
    assert {k for k, v in classes.items() if v} == {
        "control_key_order",
        "control_float_exponent",
        "control_15_digits",
        "control_int_as_float",
        "control_indented",
    }
    assert {
        "unit_error",
        "boundary_at_limit",
        "boundary_past_limit",
        "scenario_splice",
        "cross_field_count",
        "cross_field_sum",
        "cross_field_order",
    } <= set(classes)
    for t in trials:
        doc = json.loads(t.stdout)
        assert (doc == DOCS[0]) is t.valid or t.klass == "control_15_digits", t  # invalid: a different answer
    share = [json.loads(t.stdout)["share"] for t in trials if t.klass.startswith("boundary") and t.field == "share"]
    assert not share or set(share) <= {0.0, -1e-7, 1.0, 1.0 + 1e-7}


def test_geometry_transforms_keep_their_labels() -> None:
    import trimesh

    wedge = trimesh.Trimesh(
        vertices=np.array([[0, 0, 0], [3, 0, 0], [0, 1, 0], [0, 0, 0.5]], float),
        faces=np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]),
        process=False,
    )
    for inv in (False, True):
        got = {k: v for k, v, *_ in transforms(wedge, random.Random(5), inv)}
        assert got["geometry_translation"] is inv  # valid only where the field declares translation invariance
        assert {k for k, v in got.items() if v} >= {"geometry_reindexed", "geometry_obj_reencode"}
        assert {"geometry_rotation", "geometry_mirror", "geometry_shear", "geometry_nonuniform_scale"} <= set(got)
    cube = trimesh.creation.box()
    got = {k for k, *_ in transforms(cube, random.Random(5), True)}
    assert "geometry_mirror" not in got  # a cube mirrored through its centre is itself: no wrong answer to label


# ------------------------------------------------------------------ acceptance 1 on the shipped catalog


@pytest.mark.full
def test_catalog_freeze_and_held_out(catalog_release: Path, tmp_path: Path) -> None:
    rel = fresh(catalog_release, tmp_path / "rel")
    res = swr("audit", "freeze", str(rel), "--pilot", "20", "--held-out", "100", "--seed", "5", "--json", timeout=1800)
    assert res.returncode in (0, 1), res.stderr
    record = json.loads(freeze_path(rel).read_text())
    fams = {family_of(rel, t) for t in record["held_out"]}
    assert fams == {read_task_file(p).family for p in list_tasks(rel)}
    res = swr("audit", "held-out", str(rel), "--json", timeout=1800)
    assert res.returncode in (0, 1), res.stderr
    before = json.loads(res.stdout)
    check_strata(before)
    victim = next(
        t
        for t in record["held_out"]
        if any(type(v) is float for _, v in leaves(load_workflow_task(task_dir(rel, t)).hidden[0].output, Tolerances()))
    )
    loosen(rel, victim)
    after = json.loads(swr("audit", "held-out", str(rel), "--json", timeout=1800).stdout)
    fa = {s["stratum"]: s["false_accepts"] for s in after["strata"]}
    assert fa["structured invalid"] > {s["stratum"]: s["false_accepts"] for s in before["strata"]}["structured invalid"]
    assert victim in {w["task"] for w in after["wrong_decisions"]}

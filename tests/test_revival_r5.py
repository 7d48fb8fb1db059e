"""The second deleted-module revival (toolz 1.0.0 with toolz.itertoolz deleted) and obfuscated revival tasks:
revival.toml's `[obfuscate]` builds the variant beside the plain task, `swr revive obfuscate TASKDIR` writes
one from a built task, both held to the plain task's gates (the obfuscated intact project passes the same
tests natively and prints the same probe outputs; its workspace fails and its reference passes in the target
environment), and `swr similarity` tells the deleted module from its obfuscated counterpart.

The sdist is fetched from PyPI once (checked against its sha256); the venv is shared with the other revival."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, swr
from conftest import grade_revival as _grade

from swr import kinds
from swr.kinds.revival.obfuscate import ObfuscateOptions, obfuscate_project
from swr.kinds.revival.task import RevivalTask
from swr.kinds.taskfile import read_task_file
from swr.sandbox import WORKDIR, Job, Limits, Mount, get_sandbox, hide, run

REVIVAL = ROOT / "revivals" / "toolz-itertoolz"
PLAIN = "toolz-itertoolz"


@pytest.fixture(scope="module")
def built(revival_release: Path) -> Path:
    """The release's tasks: the plain task and, from its folder's `[obfuscate]`, its variant."""
    return revival_release / "tasks"


def _variant(base: Path) -> Path:
    found = [d for d in base.iterdir() if (d / "task.toml").is_file() and read_task_file(d).obfuscated]
    assert len(found) == 1, found
    return found[0]


def _load(root: Path) -> RevivalTask:
    task = kinds.load(root)
    assert isinstance(task, RevivalTask)
    return task


def test_the_plain_task_records_natively_and_gates_nop_and_reference(built: Path) -> None:
    task = _load(built / PLAIN)
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) > 40
    assert any(t.startswith("toolz/tests/test_itertoolz.py::") for t in recorded["tests"])
    n = len(recorded["tests"]) + 1
    assert record["nop"]["pass"] is False and record["nop"]["score"] == f"0/{n}"
    assert record["reference"] == {"pass": True, "score": f"{n}/{n}", "labels": []}
    assert not (task.project / "toolz" / "itertoolz.py").exists()
    assert not (task.project / "toolz" / "tests" / "test_itertoolz.py").exists()
    assert (task.reference_dir / "module" / "toolz" / "itertoolz.py").is_file()
    assert task.meta.released.isoformat() == "2024-10-04" and task.meta.obfuscated is False


def test_the_variant_names_nothing_of_the_original_in_its_project(built: Path) -> None:
    var = _load(_variant(built))
    assert var.meta.obfuscated is True and var.meta.released.isoformat() == "2024-10-04"
    assert "toolz" not in var.id and "itertoolz" not in var.spec.summary
    leaks = [
        p
        for p in var.project.rglob("*")
        if p.is_file()
        and "toolz" in p.read_text(errors="replace").lower() + p.relative_to(var.project).as_posix().lower()
    ]
    assert leaks == [], leaks[:5]
    assert not (var.project / "tlz").exists()  # dropped: [obfuscate].drop
    text = var.paths.instruction.read_text()
    module = var.spec.module
    assert module and f"`{module}`" in text and "itertoolz" not in text and "Forbidden" in text
    # nothing the agent reads names the original: not the instruction's forbidden packages, not task.toml's
    public = [var.paths.toml, var.paths.instruction, *(p for p in var.project.rglob("*") if p.is_file())]
    assert [p for p in public if "toolz" in p.read_text(errors="replace").lower()] == []


def test_the_variant_names_the_project_and_its_people_only_in_its_license(built: Path) -> None:
    """Issue 23 §2: the project's name and the people the original's PKG-INFO and license name appear in no file
    or path of the variant's workspace but the license file (which keeps its notice); no author list, no `tlz`
    in setup.py. build.json reports it beside similarity: no mention, 9 of the module's 36 public names kept
    (external API names), and the names' relative order at about chance, in the workspace and in the module."""
    from swr.kinds.revival.identify import identity, license_holders, mentions

    plain, var = _load(built / PLAIN), _load(_variant(built))
    needles = ["toolz", *identity((plain.project / "PKG-INFO").read_text()), *license_holders(plain.project)]
    assert {"Erik Welch", "Matthew Rocklin"} <= set(needles), needles
    hits = {}
    for f in sorted(p for p in var.project.rglob("*") if p.is_file()):
        text = (f.read_text(errors="replace") + f.relative_to(var.project).as_posix()).lower()
        if found := [n for n in needles if n.lower() in text]:
            hits[f.name] = found
    assert hits == {"LICENSE.txt": ["Matthew Rocklin"]}, hits
    assert not (var.project / "AUTHORS.md").exists() and "tlz" not in (var.project / "setup.py").read_text()
    found = json.loads(var.paths.build_record.read_text())["identifiability"]
    assert found["mentions"] == {} and found["needles"] >= 4
    assert found["public_names"] == 36 and len(found["names_kept"]) == 9, found["names_kept"]
    for where in ("order_kept_workspace", "order_kept_module"):
        assert found[where]["pairs"] > 500 and 0.4 < found[where]["order_kept"] < 0.65, (where, found[where])
    sim = found["similarity_to_original"]
    assert sim["ratio"] < 0.2 and sim["coverage_canonical"] > 0.8, sim  # renamed: plain lines gone, shape kept
    assert mentions(var.project, needles) == {}


def test_the_variant_still_keeps_its_forbidden_packages_out_of_the_agents_sandbox(built: Path) -> None:
    """The list moved from task.toml to private/revival.toml: the agent's sandbox still hides the packages
    (from private/), and the target venv it grades in has none of them."""
    var, plain = _load(_variant(built)), _load(built / PLAIN)
    assert var.meta.anticheat.forbidden_packages == () and var.forbidden_packages == ("toolz", "cytoolz")
    assert plain.meta.anticheat.forbidden_packages == plain.forbidden_packages == ("toolz", "cytoolz")
    mounts, env = var.agent_sandbox()
    python = str(var.verifier().venv.python)
    for pkg in var.forbidden_packages:
        job = Job(
            [python, "-c", f"import {pkg}"],
            Mount(built.resolve(), WORKDIR, "ro"),
            Limits(time_s=60),
            extra_mounts=mounts,
            env=env,
            hidden=hide.for_agents(var.forbidden_packages),
        )
        res = run(get_sandbox("bwrap"), job, b"")
        assert res.returncode != 0 and b"ModuleNotFoundError" in res.stderr, (pkg, res.stderr[-300:])


def test_swrs_own_python_in_the_agents_sandbox_cannot_import_the_project_yet_feedback_runs(
    built: Path, tmp_path: Path
) -> None:
    """toolz is a dependency of Dask, so it sits in swr's own venv, which the agent's sandbox mounts for
    ./feedback: the agent could import it (or copy itertoolz.py) from there. Only what ./feedback itself
    imports is spared now; Dask and what only it brings are hidden, and ./feedback still grades."""
    from swr.harness.agents.base import Budget, Context, agent_job
    from swr.harness.workspace import create

    task = _load(built / PLAIN)
    ws = create(task, tmp_path / "ws")
    ctx = Context(task, ws, get_sandbox("bwrap"), Budget(), None, 1)
    res = run(ctx.sandbox, agent_job(ctx, [sys.executable, "-c", "import toolz"], Limits(time_s=60)), b"")
    assert res.returncode != 0 and b"forbidden in this task" in res.stderr, res.stderr[-300:]
    res = run(ctx.sandbox, agent_job(ctx, ["./feedback", "--json"], Limits(time_s=300)), b"")
    assert res.returncode in (0, 1) and json.loads(res.stdout)["score"], (res.stdout[-500:], res.stderr[-800:])


def test_the_variant_keeps_the_verifier_under_new_names(built: Path) -> None:
    plain, var = _load(built / PLAIN), _load(_variant(built))
    p_rec = json.loads(plain.paths.recorded.read_text())
    v_rec = json.loads(var.paths.recorded.read_text())
    assert len(v_rec["tests"]) == len(p_rec["tests"])  # the hidden tests still pass on the obfuscated project
    assert all("itertoolz" not in t and "toolz" not in t for t in v_rec["tests"])
    ((p_probe, p_out),) = p_rec["probes"].items()
    ((v_probe, v_out),) = v_rec["probes"].items()
    assert "itertoolz" not in v_probe and (var.paths.probes / Path(v_probe).name).is_file()
    # a literal key that names a project function is renamed in the recorded output and in the probe alike
    assert "frequencies" in p_out and "frequencies" not in v_out
    assert sorted(map(json.dumps, v_out.values())) == sorted(map(json.dumps, p_out.values()))
    assert "frequencies" not in (var.paths.probes / Path(v_probe).name).read_text()
    record = json.loads(var.paths.build_record.read_text())
    assert record["obfuscated_from"] == PLAIN and record["renamed"] > 100
    n = len(v_rec["tests"]) + 1
    assert record["nop"]["score"] == f"0/{n}" and record["reference"]["score"] == f"{n}/{n}"


def test_the_variant_grades_oracle_pass_nop_fail_and_a_wrong_rebuild_partly(built: Path, tmp_path: Path) -> None:
    var = _load(_variant(built))
    good = tmp_path / "good"
    var.write_oracle(good)
    v = _grade(var, good, reference=True)  # the task's reference: its original module, not an agent's copy
    n = len(v.records)
    assert v.passed and v.score == f"{n}/{n}", v.labels
    assert _grade(var, var.project).score == f"0/{n}"
    # the reference module with one function wrong (the last window dropped): some records fail, not all
    ref = good / (var.spec.module.replace(".", "/") + ".py")
    name = _sliding_window_name(built)
    ref.write_text(ref.read_text() + f"\n_sw = {name}\ndef {name}(n, seq):\n    return iter(list(_sw(n, seq))[:-1])\n")
    bad = _grade(var, good, reference=True)
    k = int(bad.score.split("/")[0])
    assert not bad.passed and 0 < k < n and bad.labels == ["tests_failed", "probe_mismatch"], bad.score


def _sliding_window_name(built: Path) -> str:
    """sliding_window's new name, read off the obfuscated probe (the same map renamed both)."""
    var = _load(_variant(built))
    probe = next(var.paths.probes.glob("*.py")).read_text()
    line = next(ln for ln in probe.splitlines() if "(3, range(6))" in ln)
    return line.split("(3, range(6))")[0].rsplit(".", 1)[1]


def test_similarity_of_the_module_and_its_obfuscated_counterpart(built: Path) -> None:
    original = built / PLAIN / "private" / "reference" / "module" / "toolz" / "itertoolz.py"
    var = _load(_variant(built))
    obf = var.reference_dir / "module" / (var.spec.module.replace(".", "/") + ".py")
    res = swr("similarity", str(original), str(obf), "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["ratio"] < 0.5
    same = json.loads(swr("similarity", str(original), str(original), "--json").stdout)
    assert same["ratio"] == 1.0


def test_swr_revive_obfuscate_on_a_task_writes_a_gated_variant(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "v"
    res = swr(
        "revive",
        "obfuscate",
        str(built / PLAIN),
        "--seed",
        "5",
        "--id",
        "renamed-task",
        "--out",
        str(out),
        "--map",
        str(tmp_path / "map.json"),
        timeout=1200,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    n = json.loads(_load(built / PLAIN).paths.build_record.read_text())["reference"]["score"]
    assert "renamed-task: obfuscated" in res.stdout and f"reference {n}" in res.stdout.replace("\n", " ")
    meta = read_task_file(out)
    assert meta.id == "renamed-task" and meta.obfuscated is True  # type: ignore[union-attr]
    first = _load(_variant(built)).spec.module
    assert _load(out).spec.module != first  # another seed, other names
    key = json.loads((tmp_path / "map.json").read_text())
    assert key["seed"] == 5 and key["names"]["itertoolz"] == _load(out).spec.module.split(".")[1]
    assert not list(out.rglob("map.json"))  # the key stays outside the task
    again = swr("revive", "obfuscate", str(out))
    assert again.returncode == 2 and "already obfuscated" in again.stderr and len(again.stderr.splitlines()) == 1


def test_a_probe_that_prints_a_name_is_refused(built: Path, tmp_path: Path) -> None:
    """The obfuscated project must print what the original did: a probe that prints a function's own name
    no longer does, and the variant is refused in one line with nothing written."""
    task = shutil.copytree(built / PLAIN, tmp_path / "t")
    probe = next((task / "private" / "probes").glob("*.py"))
    probe.write_text(probe.read_text().replace("out = {", 'out = {\n    "name": tz.frequencies.__name__,', 1))
    rec = json.loads((task / "private" / "recorded.json").read_text())
    next(iter(rec["probes"].values()))["name"] = "frequencies"
    (task / "private" / "recorded.json").write_text(json.dumps(rec))
    res = swr("revive", "obfuscate", str(task), "--out", str(tmp_path / "v"), timeout=1200)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "prints something else on the obfuscated project" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "v").exists()


def test_a_hidden_test_that_fails_once_obfuscated_is_refused(built: Path, tmp_path: Path) -> None:
    task = shutil.copytree(built / PLAIN, tmp_path / "t")
    hidden = task / "private" / "tests" / "toolz" / "tests" / "test_itertoolz.py"
    hidden.write_text(
        hidden.read_text() + "\n\ndef test_named():\n    assert groupby.__name__ == 'groupby' "
        "and frequencies.__name__ == 'frequencies'\n"
    )
    rec = json.loads((task / "private" / "recorded.json").read_text())
    rec["tests"].append("toolz/tests/test_itertoolz.py::test_named")
    (task / "private" / "recorded.json").write_text(json.dumps(rec))
    res = swr("revive", "obfuscate", str(task), "--out", str(tmp_path / "v"), timeout=1200)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "fails natively" in res.stderr and not (tmp_path / "v").exists()


def test_only_plain_deleted_module_revival_tasks_are_obfuscated(built: Path, tmp_path: Path) -> None:
    task = shutil.copytree(built / PLAIN, tmp_path / "t")
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('revival = "deleted-module"', 'revival = "dependency-rot"'))
    res = swr("revive", "obfuscate", str(task))
    assert res.returncode == 2 and "field `revival`" in res.stderr and len(res.stderr.splitlines()) == 1
    res = swr("revive", "obfuscate", str(REVIVAL / "probes"), "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and "--map" in res.stderr and len(res.stderr.splitlines()) == 1


def test_obfuscate_is_refused_in_the_spec_of_another_kind(tmp_path: Path) -> None:
    folder = shutil.copytree(REVIVAL, tmp_path / "r")
    text = (folder / "revival.toml").read_text()
    (folder / "revival.toml").write_text(text.replace('kind = "deleted-module"', 'kind = "dependency-rot"'))
    res = swr("revive", "make", str(folder), "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "`obfuscate` is for deleted-module tasks" in res.stderr and "revival.toml" in res.stderr


def test_a_module_whose_file_name_holds_the_package_name_keeps_its_imports(tmp_path: Path) -> None:
    """toolz's `functoolz.py`: a module the map keeps (here its name is also an external module's) must keep
    its file name, not have the package's name replaced inside it, or `from .funczork import` breaks."""
    pkg = tmp_path / "proj" / "zork"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .funczork import twice\nfrom .core import thrice\n")
    (pkg / "funczork.py").write_text("def twice(x):\n    return 2 * x\n")
    (pkg / "core.py").write_text(
        "try:\n    from cyzork.funczork import quick as fast\nexcept ImportError:\n"
        "    fast = None\n\ndef thrice(x):\n    return 3 * x\n"
    )
    res = obfuscate_project(tmp_path / "proj", tmp_path / "out", tmp_path / "map.json", ObfuscateOptions(seed=3))
    assert "funczork" not in res.mapping  # the case under test: a module name the map keeps
    new = res.mapping["zork"]
    assert (tmp_path / "out" / new / "funczork.py").is_file(), sorted(p.name for p in (tmp_path / "out").rglob("*"))
    code = (
        f"import sys; sys.path.insert(0, '.'); import {new} as p; "
        f"print(p.{res.mapping['twice']}(2), p.{res.mapping['thrice']}(2))"
    )
    run = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path / "out", capture_output=True, text=True)
    assert run.stdout.split() == ["4", "6"], run.stderr[-500:]

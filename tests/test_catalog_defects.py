"""The shipped-catalog defects of issue 12 (catalog/defects.toml), one regression test each: the workflow is built
for real (one variant, few scenarios), then outputs that wrongly passed must fail and equivalent outputs that
wrongly failed must pass, graded by `grade` through the bubblewrap sandbox.

Most candidates are lookup programs: each scenario's reference output (and files), edited, shipped with the
candidate; a few are real programs (OpenSCAD writing binary STL, refined pass times) where the point is that a
different but correct computation passes."""

from __future__ import annotations

import copy
import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CATALOG, swr, write_candidate

from swr.assemble import BuildOptions, build
from swr.core.hashing import canonical_json
from swr.core.release_dir import task_dir
from swr.judge import Tolerances
from swr.judge.artifacts.fields import Reference, artifact_leaves
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.gates import tolerance_scale
from swr.kinds.workflow.grading import grade
from swr.kinds.workflow.spec import load_spec
from swr.kinds.workflow.task import Task, load_workflow_task

Edit = Callable[[dict[str, Any], Path, dict[str, Any]], dict[str, Any]]  # (output, its files, scenario) -> output

LOOKUP = """
import json, os, shutil, sys
here = os.path.dirname(os.path.abspath(__file__))
key = json.dumps(json.load(sys.stdin), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
entry = json.load(open(os.path.join(here, "answers.json")))[key]
for name in entry["files"]:
    shutil.copyfile(os.path.join(here, entry["dir"], name), os.path.join(os.environ["SWR_ARTIFACTS"], name))
print(json.dumps(entry["output"]))
"""

PROGRAM = """
import json, sys
import {module}
print(json.dumps({module}.main(json.load(sys.stdin))))
"""


def build_one(base: Path, workflow: str, *, seed: int = 0, public: int = 2, hidden: int = 2) -> Task:
    """Variant 1 of one shipped workflow, built from an empty cache."""
    spec_dir = next(CATALOG.glob(f"*/*/{workflow}"))
    opts = BuildOptions(
        variants=1, public=public, hidden=hidden, seed=seed, jobs=2, cache=ExecutionCache(base / "cache")
    )
    res = build([spec_dir], base / "release", opts)
    assert not res[0].failure, res[0].failure
    return load_workflow_task(task_dir(base / "release", f"{workflow}-v1"))


def lookup(root: Path, task: Task, edit: Edit = lambda out, files, sc: out) -> Path:
    """A candidate answering each scenario with its reference output (and files), edited."""
    answers = {}
    for i, ex in enumerate([*task.public, *task.hidden]):
        files = root / f"f{i}"
        files.mkdir(parents=True)
        names = sorted({name for _, name in artifact_leaves(Reference(ex.output, ex.files), task.tolerances)})
        for name in names:
            shutil.copyfile(ex.files / name, files / name)
        answers[canonical_json(ex.scenario)] = {
            "output": edit(copy.deepcopy(ex.output), files, ex.scenario),
            "files": names,
            "dir": files.name,
        }
    (root / "answers.json").write_text(json.dumps(answers))
    return write_candidate(root, LOOKUP)


def program(root: Path, module: str, sources: dict[str, str]) -> Path:
    """A candidate running `module.main` on each scenario (its sources travel with it)."""
    root.mkdir(parents=True)
    for name, text in sources.items():
        (root / name).write_text(text)
    return write_candidate(root, PROGRAM.format(module=module))


def mismatched(v: dict[str, Any]) -> set[str]:
    return {m["path"] for s in v.scenarios for m in s.mismatches}


def workflow_source(workflow: str) -> str:
    return next(CATALOG.glob(f"*/*/{workflow}")).joinpath("run.py").read_text()


# --- SWR-D001: cosmology-distances critical density, and the build-time tolerance-scale rule ----------------


@pytest.fixture(scope="module")
def cosmology(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return build_one(tmp_path_factory.mktemp("cosmo"), "cosmology-distances")


def _density(fn: Callable[[list[dict[str, Any]], int], float]) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        rows = out["redshifts"]
        values = [fn(rows, i) for i in range(len(rows))]
        for row, value in zip(rows, values):
            row["critical_density_g_cm3"] = value
        return out

    return edit


@pytest.mark.parametrize(
    "name, edit",
    [
        ("zero", _density(lambda rows, i: 0.0)),
        ("negative", _density(lambda rows, i: -rows[i]["critical_density_g_cm3"])),
        ("kg_per_m3", _density(lambda rows, i: rows[i]["critical_density_g_cm3"] * 1000.0)),
        ("one_constant", _density(lambda rows, i: rows[0]["critical_density_g_cm3"])),
    ],
)
def test_critical_density_wrong_at_its_own_scale_fails(
    cosmology: Task, sandbox, tmp_path: Path, name: str, edit: Edit
) -> None:
    assert any(len(h.output["redshifts"]) > 1 for h in cosmology.hidden)  # so one constant is wrong somewhere
    v = grade(cosmology, lookup(tmp_path / "c", cosmology, edit), sandbox)
    assert not v.passed and v.label == "numeric_mismatch", v.label
    assert {p.rsplit(".", 1)[-1] for p in mismatched(v)} == {"critical_density_g_cm3"}


def test_critical_density_within_its_precision_passes(cosmology: Task, sandbox, tmp_path: Path) -> None:
    edit = _density(lambda rows, i: rows[i]["critical_density_g_cm3"] * (1 + 3e-8))
    v = grade(cosmology, lookup(tmp_path / "c", cosmology, edit), sandbox)
    assert v.passed, mismatched(v)


TINY = """import json, sys
s = json.load(sys.stdin)
json.dump({"density_g_cm3": s["a"] * 1e-27, "zero": 0.0, "a": s["a"]}, sys.stdout)
"""
TINY_TOML = """name = "tiny-scale"
family = "fixtures"
domain = "data-document"
summary = "Reports a density of about 1e-27 g/cm3 and the operand it scales."
command = ["python3", "run.py"]
timeout_s = 10
[inputs.a]
type = "number"
min = 1.0
max = 9.0
description = "Operand."
[outputs]
atol = 1e-6
rtol = 1e-6
{extra}
"""


def _tiny(root: Path, extra: str = "") -> Path:
    root.mkdir(parents=True)
    (root / "run.py").write_text(TINY)
    (root / "workflow.toml").write_text(TINY_TOML.format(extra=extra))
    return root


def test_an_atol_above_every_value_of_a_field_is_a_build_error(tmp_path: Path) -> None:
    wf = _tiny(tmp_path / "wf")
    r = swr(
        "build",
        str(wf),
        "--variants",
        "1",
        "--public",
        "3",
        "--hidden",
        "2",
        "--out",
        str(tmp_path / "r"),
        "--no-cache",
    )
    assert r.returncode == 2, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("swr: ")]
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"{wf / 'workflow.toml'}: gate tolerance_scale: field `density_g_cm3`: atol 1e-06" in lines[0]

    fixed = _tiny(tmp_path / "fixed", '[outputs.fields."density_g_cm3"]\natol = 0.0')
    r = swr(
        "build",
        str(fixed),
        "--variants",
        "1",
        "--public",
        "3",
        "--hidden",
        "2",
        "--out",
        str(tmp_path / "r2"),
        "--no-cache",
    )
    assert r.returncode == 0, r.stderr


def test_tolerance_scale_spares_zero_ignored_and_scaled_fields() -> None:
    outs = [{"zero": 0.0, "tiny": 1e-20 * k, "n": 3, "big": 5.0 * k} for k in (1, 2)]
    assert tolerance_scale(outs, Tolerances(atol=1e-9, ignore=("tiny",))) is None
    assert tolerance_scale(outs, Tolerances(atol=1e-9, fields=(("tiny", 1e-21, None),))) is None
    fail = tolerance_scale(outs, Tolerances(atol=1e-9))
    assert fail is not None and "`tiny`" in fail.reason


CONFORMAL = ("lcc", "polar_stereographic", "utm", "web_mercator")


def test_crs_transform_grades_conformal_angular_distortion_as_zero(tmp_path: Path, sandbox) -> None:
    """SWR-D002 then SWR-D027: conformal projections' angular distortion is PROJ's differentiation noise
    (~1e-6 deg); graded at atol 1e-5 it tripped tolerance_scale, then it was not graded at all (12.5 deg passed
    for LCC). It is declared `zero = true` at atol 1e-4 now: the reference passes, 12.5 deg fails. Without the
    declaration the build fails, advising `zero = true` rather than an atol under the noise."""
    src = next(CATALOG.glob("*/*/crs-transform"))
    r = swr(
        "build",
        str(src),
        "--variants",
        "1",
        "--public",
        "3",
        "--hidden",
        "2",
        "--out",
        str(tmp_path / "r"),
        "--no-cache",
    )
    assert r.returncode == 0, r.stderr
    task = load_workflow_task(task_dir(tmp_path / "r", "crs-transform-v1"))
    graded = task.hidden[0].output["projections"]
    assert all("angular_distortion_deg" in graded[p] for p in (*CONFORMAL, "robinson"))
    told = (task.root / "instruction.md").read_text()
    assert "`projections.lcc.angular_distortion_deg`: atol 0.0001, rtol 0 (zero by construction)" in told
    assert grade(task, lookup(tmp_path / "ref", task), sandbox).passed
    for proj in CONFORMAL:

        def skewed(out: dict[str, Any], files: Path, sc: dict[str, Any], proj: str = proj) -> dict[str, Any]:
            out["projections"][proj]["angular_distortion_deg"] = 12.5
            return out

        v = grade(task, lookup(tmp_path / proj, task, skewed), sandbox)
        assert not v.passed and mismatched(v) == {f"projections.{proj}.angular_distortion_deg"}, proj
    old = shutil.copytree(src, tmp_path / "old" / "crs-transform")
    toml = old / "workflow.toml"
    toml.write_text("\n".join(ln for ln in toml.read_text().splitlines() if ln != "zero = true"))
    r = swr(
        "build",
        str(old),
        "--variants",
        "1",
        "--public",
        "3",
        "--hidden",
        "2",
        "--out",
        str(tmp_path / "r2"),
        "--no-cache",
    )
    assert r.returncode == 2 and "gate tolerance_scale: field `projections.lcc.angular_distortion_deg`" in r.stderr
    assert "declare `zero = true`" in r.stderr and "below" not in r.stderr, r.stderr


def test_shipped_catalog_passes_the_tolerance_scale_rule_on_recorded_outputs(cosmology: Task) -> None:
    """The fixed cosmology spec passes the rule; its old atol-only grading of the density trips it."""
    outs = [e.output for e in [*cosmology.public, *cosmology.hidden]]
    spec = load_spec(next(CATALOG.glob("*/*/cosmology-distances")))
    assert tolerance_scale(outs, spec.tolerances) is None
    old = Tolerances(atol=1e-12, rtol=1e-7)
    fail = tolerance_scale(outs, old)
    assert fail is not None and "redshifts.*.critical_density_g_cm3" in fail.reason


# --- SWR-D002: gas-equilibrium trace mole fractions --------------------------------------------------------

PHASES = ("adiabatic_hp", "constant_volume_uv", "fixed_temperature_tp")


def _trace(fn: Callable[[float], float], below: float = 1e-9) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        for phase in PHASES:
            x = out[phase]["mole_fractions"]
            for k, v in x.items():
                if 0.0 < v < below:
                    x[k] = fn(v)
        return out

    return edit


@pytest.fixture(scope="module")
def gas(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return build_one(tmp_path_factory.mktemp("gas"), "gas-equilibrium", public=1)


@pytest.mark.parametrize("edit", [_trace(lambda v: v * 50.0), _trace(lambda v: 0.0)], ids=["x50", "zero"])
def test_wrong_trace_mole_fractions_fail(gas: Task, sandbox, tmp_path: Path, edit: Edit) -> None:
    traces = [v for h in gas.hidden for p in PHASES for v in h.output[p]["mole_fractions"].values() if 0 < v < 1e-9]
    assert traces, "the hidden scenarios have trace species below the old atol"
    v = grade(gas, lookup(tmp_path / "c", gas, edit), sandbox)
    assert not v.passed and v.label == "numeric_mismatch"
    assert all(".mole_fractions." in p for p in mismatched(v)), mismatched(v)


def test_mole_fractions_within_solver_precision_pass(gas: Task, sandbox, tmp_path: Path) -> None:
    """Cantera's gibbs and element-potential solvers agree to ~1e-7 relative at every magnitude."""
    v = grade(gas, lookup(tmp_path / "c", gas, _trace(lambda v: v * (1 + 2e-7), below=2.0)), sandbox)
    assert v.passed, mismatched(v)


# --- SWR-D003/D004: OpenSCAD meshes against an ASCII STL with 6 significant digits -------------------------

BINARY = '"--export-format", "binstl", '


def _binary_stl_program(root: Path, workflow: str) -> Path:
    src = workflow_source(workflow).replace('[OPENSCAD, "-o"', f'[OPENSCAD, {BINARY}"-o"')
    assert BINARY in src
    return program(root, "scad_bin", {"scad_bin.py": src})


def _scaled(factor: float) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        import trimesh

        for name in out.values():
            mesh = trimesh.load(files / name, force="mesh")
            mesh.apply_scale(factor)
            mesh.export(files / name, file_type="stl")
        return out

    return edit


# (workflow, seed): built so that a public or hidden scenario's binary STL misses the old rtol 1e-6
OPENSCAD = [("csg-block", 4), ("extrusions", 0)]


@pytest.mark.parametrize("workflow, seed", OPENSCAD)
def test_binary_stl_of_the_same_model_passes(workflow: str, seed: int, sandbox, tmp_path: Path) -> None:
    task = build_one(tmp_path / "b", workflow, seed=seed)
    stl = [h.files / n for h in task.hidden for n in h.output.values()]
    assert stl and all(f.read_bytes().startswith(b"solid") for f in stl)  # the reference is ASCII STL
    v = grade(task, _binary_stl_program(tmp_path / "c", workflow), sandbox)  # feedback (public) too
    assert v.passed and v.r_pub == 1.0, [m for s in v.scenarios for m in s.mismatches]
    wrong = grade(task, lookup(tmp_path / "w", task, _scaled(1.001)), sandbox, split="hidden")
    assert not wrong.passed and wrong.label == "artifact_mismatch"


# --- SWR-D005: station-pivot-csv keeps the three band columns -----------------------------------------------

BANDS = ["mean_low", "mean_mid", "mean_high"]


def _columns(fn: Callable[[list[str], list[list[str]]], tuple[list[str], list[list[str]]]]) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        path = files / out["table"]
        with open(path, newline="") as fh:
            header, *rows = list(csv.reader(fh))
        header, rows = fn(header, rows)
        with open(path, "w", newline="") as fh:
            csv.writer(fh, lineterminator="\n").writerows([header, *rows])
        return out

    return edit


def _with_all_bands(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """What the instruction promises: every band column, empty where the band has no readings."""
    cols = {h: [r[i] for r in rows] for i, h in enumerate(header)}
    order = header[:2] + BANDS + [h for h in header[2:] if h not in BANDS]
    return order, [[cols.get(h, [""] * len(rows))[j] for h in order] for j in range(len(rows))]


def _without_empty_bands(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    keep = [i for i, h in enumerate(header) if h not in BANDS or any(r[i] for r in rows)]
    return [header[i] for i in keep], [[r[i] for i in keep] for r in rows]


@pytest.fixture(scope="module")
def pivot(tmp_path_factory: pytest.TempPathFactory) -> Task:
    task = build_one(tmp_path_factory.mktemp("pivot"), "station-pivot-csv")
    assert any(h.scenario["max_elevation_m"] < 1500 for h in task.hidden), "a hidden scenario has no high band"
    return task


def test_band_columns_as_promised_pass(pivot: Task, sandbox, tmp_path: Path) -> None:
    v = grade(pivot, lookup(tmp_path / "c", pivot, _columns(_with_all_bands)), sandbox)
    assert v.passed, v.scenarios


def test_a_dropped_empty_band_column_fails(pivot: Task, sandbox, tmp_path: Path) -> None:
    v = grade(pivot, lookup(tmp_path / "c", pivot, _columns(_without_empty_bands)), sandbox)
    assert not v.passed and v.label == "artifact_mismatch"


# --- SWR-D006: equiv-check counterexamples ----------------------------------------------------------------


def _differ(out: dict[str, Any], sc: dict[str, Any], x: int) -> bool:
    """Whether spec (x*K) and impl (the CSD terms as graded) differ at x, in width+9 bits."""
    mask = (1 << (int(sc["width"]) + 9)) - 1
    return (x * int(sc["constant"])) & mask != sum(d * (x << s) for s, d in out["csd_terms"]) & mask


def _counterexample(pick: Callable[[list[int]], int]) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        xs = [x for x in range(1 << int(sc["width"])) if _differ(out, sc, x)]
        out["counterexample_x"] = pick(xs) if xs else -1
        return out

    return edit


@pytest.fixture(scope="module")
def equiv(tmp_path_factory: pytest.TempPathFactory) -> Task:
    task = build_one(tmp_path_factory.mktemp("equiv"), "equiv-check", hidden=3)
    assert any(not h.output["equivalent"] for h in task.hidden), "a hidden scenario has a fault"
    return task


def test_the_smallest_counterexample_by_brute_force_passes(equiv: Task, sandbox, tmp_path: Path) -> None:
    v = grade(equiv, lookup(tmp_path / "c", equiv, _counterexample(min)), sandbox)
    assert v.passed, mismatched(v)


@pytest.mark.parametrize("pick", [lambda xs: 0, max], ids=["agreeing_input", "not_the_smallest"])
def test_a_non_counterexample_or_another_one_fails(equiv: Task, sandbox, tmp_path: Path, pick) -> None:
    v = grade(equiv, lookup(tmp_path / "c", equiv, _counterexample(pick)), sandbox)
    assert not v.passed and mismatched(v) == {"counterexample_x"}


# --- SWR-D007: sat-passes event times at find_events' own accuracy ------------------------------------------

SAT_EXACT = '''import math

from scipy.optimize import brentq, minimize_scalar

import wf

S = 1.0 / 86400.0  # a second in days


def refine(sat, obs, t0, t_min, kind, threshold):
    def alt(days):
        return (sat - obs).at(wf.TS.tt_jd(t0 + days)).altaz()[0].degrees
    t = t_min / 1440.0
    if kind == "culminate":
        return minimize_scalar(lambda d: -alt(d), bounds=(t - 2 * S, t + 2 * S), method="bounded",
                               options={"xatol": 1e-4 * S}).x
    return brentq(lambda d: alt(d) - threshold, t - 2 * S, t + 2 * S, xtol=1e-4 * S)


def build(scn):
    """The satellite and the station, as the workflow builds them."""
    jd0, fr0 = wf.jday(int(scn["epoch_year"]), 1, 1, 0, 0, 0.0)
    rec = wf.Satrec()
    rec.sgp4init(wf.WGS72, "i", 1, jd0 + fr0 + float(scn["epoch_day_of_year"]) - 1.0 - wf.SGP4_EPOCH0_JD,
                 float(scn["bstar"]), 0.0, 0.0, float(scn["eccentricity"]), float(scn["argp_deg"]) * wf.DEG,
                 float(scn["inclination_deg"]) * wf.DEG, float(scn["mean_anomaly_deg"]) * wf.DEG,
                 float(scn["mean_motion_rev_day"]) * 2.0 * math.pi / 1440.0, float(scn["raan_deg"]) * wf.DEG)
    obs = wf.wgs84.latlon(float(scn["observer_lat_deg"]), float(scn["observer_lon_deg"]),
                          elevation_m=float(scn["observer_elevation_m"]))
    return wf.EarthSatellite.from_satrec(rec, wf.TS), obs


def main(scn):
    out = wf.main(scn)
    sat, obs = build(scn)
    t0 = sat.epoch.tt
    for row in out["events"]:
        days = refine(sat, obs, t0, row["t_min"], row["event"], float(scn["min_altitude_deg"]))
        row["t_min"] = days * 1440.0
        row.update(wf._topo(sat, obs, wf.TS.tt_jd(t0 + days)))
    return out
'''


def _shifted(minutes: float) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        for row in out["events"]:
            row["t_min"] += minutes
        return out

    return edit


@pytest.fixture(scope="module")
def passes(tmp_path_factory: pytest.TempPathFactory) -> Task:
    task = build_one(tmp_path_factory.mktemp("sat"), "sat-passes")
    assert all(h.output["events"] for h in task.hidden), "every hidden scenario has passes"
    return task


def test_pass_times_refined_beyond_find_events_pass(passes: Task, sandbox, tmp_path: Path) -> None:
    """Rise and set at the root of alt - threshold, culmination at the altitude maximum (up to 0.19 s from
    skyfield's), every quantity recomputed at those instants."""
    cand = program(tmp_path / "c", "sat_exact", {"sat_exact.py": SAT_EXACT, "wf.py": workflow_source("sat-passes")})
    v = grade(passes, cand, sandbox, split="hidden")
    assert v.passed, [m for s in v.scenarios for m in s.mismatches][:5]


@pytest.mark.parametrize("minutes", [2.0, 0.05])
def test_a_shifted_pass_fails(passes: Task, sandbox, tmp_path: Path, minutes: float) -> None:
    v = grade(passes, lookup(tmp_path / "c", passes, _shifted(minutes)), sandbox)
    assert not v.passed and v.label == "numeric_mismatch"
    assert {p.rsplit(".", 1)[-1] for p in mismatched(v)} == {"t_min"}


def test_an_azimuth_from_south_fails(passes: Task, sandbox, tmp_path: Path) -> None:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        for row in out["events"]:
            if "az_deg" in row:  # rise and set (SWR-D012)
                row["az_deg"] = (row["az_deg"] + 180.0) % 360.0
        return out

    v = grade(passes, lookup(tmp_path / "c", passes, edit), sandbox)
    assert not v.passed and {p.rsplit(".", 1)[-1] for p in mismatched(v)} == {"az_deg"}


# --- SWR-D008: markdown-html compared as HTML, not line by line --------------------------------------------


def _html(fn: Callable[[str], str]) -> Edit:
    def edit(out: dict[str, Any], files: Path, sc: dict[str, Any]) -> dict[str, Any]:
        path = files / out["document"]
        text = path.read_text(encoding="utf-8")
        changed = fn(text)
        assert changed != text
        path.write_text(changed, encoding="utf-8")
        return out

    return edit


@pytest.fixture(scope="module")
def markdown(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return build_one(tmp_path_factory.mktemp("md"), "markdown-html")


def test_html_void_element_without_slash_passes(markdown: Task, sandbox, tmp_path: Path) -> None:
    edit = _html(lambda t: t.replace('<meta charset="utf-8" />', '<meta charset="utf-8">'))
    v = grade(markdown, lookup(tmp_path / "c", markdown, edit), sandbox)
    assert v.passed, v.scenarios[0].mismatches


def test_html_with_other_text_fails(markdown: Task, sandbox, tmp_path: Path) -> None:
    edit = _html(
        lambda t: t.replace("<h1", "<h2", 1).replace("</h1>", "</h2>", 1) if "<h1" in t else t.replace("<p>", "<p>x", 1)
    )
    v = grade(markdown, lookup(tmp_path / "c", markdown, edit), sandbox)
    assert not v.passed and v.label == "artifact_mismatch"

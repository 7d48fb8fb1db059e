"""The mutation audit's classes as the SWR paper and the catalog review need them: values at the field's own
scale, precision-limited references, equivalent re-encodings, the mesh sweep and rigid translation, every input
axis in turn; and the sensitivity audit's four metrics. Small releases built for real, bwrap sandbox."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tomli_w
from conftest import FIXTURES

from swr.assemble import BuildOptions, build
from swr.audit.artifact_mutants import artifact_mutants
from swr.audit.lint import lint_audit
from swr.audit.mesh_mutants import printed_digits
from swr.audit.mutants import FieldStats
from swr.audit.mutation import DESIGNED_VALID, ignored_axis_mutants, mutation_audit
from swr.audit.sensitivity import sensitivity_audit
from swr.core.release_dir import list_tasks
from swr.judge import Execution, Tolerances, judge_scenario
from swr.judge.artifacts.fields import Reference
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.task import load_workflow_task

SCALE_CLASSES = ("scale_zero", "scale_negated", "scale_unit_slip_1e3", "scale_constant_across_scenarios")


def workflow(tmp: Path, name: str, body: str, outputs: str, inputs: tuple[str, ...] = ("a", "b")) -> Path:
    """A command workflow whose run.py is `body` (with s, the scenario, and json in scope)."""
    wf = tmp / name
    wf.mkdir()
    (wf / "run.py").write_text("import json, math, sys\ns = json.load(sys.stdin)\n" + body)
    ins = "".join(f'[inputs.{n}]\ntype = "number"\nmin = 0.5\nmax = 2.0\ndescription = "An input."\n' for n in inputs)
    (wf / "workflow.toml").write_text(
        f'name = "{name}"\nfamily = "fixtures"\ndomain = "data-document"\nsummary = "A test workflow."\n'
        f'command = ["python3", "run.py"]\ntimeout_s = 10\n{ins}[outputs]\n{outputs}\n[requires]\npip = []\napt = []\n'
    )
    return wf


def release_of(wfs: list[Path], out: Path) -> Path:
    results = build(wfs, out, BuildOptions(variants=1, public=4, hidden=3, cache=ExecutionCache(enabled=False)))
    assert all(not r.failure for r in results), [r.failure for r in results]
    return out


def edited(release: Path, dest: Path, edit: Any) -> Path:
    """A copy of the release with every task's [tolerances] table edited."""
    shutil.copytree(release, dest)
    for toml in dest.glob("tasks/*/task.toml"):
        meta = tomllib.loads(toml.read_text())
        edit(meta["tolerances"])
        toml.write_text(tomli_w.dumps(meta))
    return dest


def classes(r: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in r["classes"]}


# ------------------------------------------------------------------ values at the field's own scale


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A critical density in g/cm³ (~1e-29, graded by rtol alone), trace fractions of which one always lies
    below the atol of 1e-9 (as gas-equilibrium's did), and an ordinary value h. The build's tolerance_scale rule
    now rejects half a field's values under its atol, so the trace defect is planted past it: built with a trace
    atol at its scale, then that override removed from the tasks."""
    base = tmp_path_factory.mktemp("tiny")
    wf = workflow(
        base,
        "tiny-density",
        "rho = [9.2e-30 * s['a'] * (1 + z) ** 3 for z in (0.0, 0.5, 1.0)]\n"
        "print(json.dumps({'rho': rho, 'trace': [1e-11 * s['b'], 1e-7 * s['b']], 'h': 70.0 * s['b']}))\n",
        'atol = 1e-9\nrtol = 1e-6\n[outputs.fields."rho"]\natol = 0.0\ndescription = "g/cm3"\n'
        '[outputs.fields."trace"]\natol = 1e-13\n',
    )
    return edited(release_of([wf], base / "built"), base / "release", lambda t: t["fields"].pop("trace"))


def scale_counts(release: Path) -> dict[str, tuple[bool, int, int]]:
    c = classes(mutation_audit(release, per_class=3, jobs=1, reexecute=False))
    return {name: (c[name]["valid"], c[name]["trials"], c[name]["accepted"]) for name in SCALE_CLASSES}


def test_scale_classes_catch_trace_values_below_the_atol(tiny: Path) -> None:
    """Per hidden scenario, the most exposed leaf of rho, trace and h: zero or a sign flip of trace[0] passes."""
    assert scale_counts(tiny) == {
        "scale_zero": (False, 9, 3),
        "scale_negated": (False, 9, 3),
        "scale_unit_slip_1e3": (False, 9, 0),
        "scale_constant_across_scenarios": (False, 9, 0),
    }


def test_scale_classes_catch_an_atol_above_the_fields_scale(tiny: Path, tmp_path: Path) -> None:
    """The cosmology-distances defect planted past the build gate: rho graded with atol 1e-12."""
    lax = edited(tiny, tmp_path / "lax", lambda t: t["fields"]["rho"].update(atol=1e-12))
    assert scale_counts(lax) == {
        "scale_zero": (False, 9, 6),
        "scale_negated": (False, 9, 6),
        "scale_unit_slip_1e3": (False, 9, 3),
        "scale_constant_across_scenarios": (False, 9, 3),
    }


def test_scale_classes_pass_once_tolerances_follow_the_fields_scale(tiny: Path, tmp_path: Path) -> None:
    fixed = edited(tiny, tmp_path / "fixed", lambda t: t.update(atol=1e-15))
    r = mutation_audit(fixed, per_class=3, jobs=1, reexecute=False)
    assert r["false_accepts"] == 0 and r["false_rejects"] == 0, r["wrong_decisions"]
    assert all(classes(r)[name]["rejected"] == 9 for name in SCALE_CLASSES)


# ------------------------------------------------------------------ precision-limited references


def test_precision_limited_reference_catches_a_tolerance_tighter_than_its_digits(tmp_path: Path) -> None:
    """Values printed with 4 significant digits (as sox prints its statistics) graded with rtol 1e-9."""
    wf = workflow(
        tmp_path,
        "four-digits",
        "v = [float(f'{s[\"a\"] * math.pi * k + s[\"b\"]:.4g}') for k in (1, 2, 3)]\nprint(json.dumps({'v': v}))\n",
        "atol = 0.0\nrtol = 1e-9\n",
    )
    tight = release_of([wf], tmp_path / "release")
    c = classes(mutation_audit(tight, per_class=2, jobs=1, reexecute=False))["precision_limited_reference"]
    assert (c["valid"], c["trials"], c["rejected"]) == (True, 3, 3)  # a false reject per hidden scenario
    loose = edited(tight, tmp_path / "loose", lambda t: t.update(rtol=1e-3))
    r = mutation_audit(loose, per_class=2, jobs=1, reexecute=False)
    assert classes(r)["precision_limited_reference"]["accepted"] == 3
    assert r["false_accepts"] == 0 and r["false_rejects"] == 0, r["wrong_decisions"]


def test_only_fields_printed_below_input_precision_count_as_rounded() -> None:
    """Halves, 6-digit values (sums of 6-digit inputs) and fixed grids may be exact; 4-digit values of varied
    last digit that move with the scenario are not."""
    assert FieldStats.of([{"g": [0.5, 1.0, 1.5, 2.5]}], [], Tolerances()).printed == {}
    assert FieldStats.of([{"g": [26.1632, 14.4485, 3.28006]}], [], Tolerances()).printed == {}
    sox = [{"g": [2.857, 8.679]}, {"g": [2.474, 0.5]}]
    assert FieldStats.of(sox, [], Tolerances()).printed == {("g", "*"): (4, 3)}
    assert FieldStats.of([sox[0], sox[0], sox[0]], [], Tolerances()).printed == {}  # a fixed grid


# ------------------------------------------------------------------ meshes: sweep, translation, substitution


@pytest.fixture(scope="module")
def boxes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("boxes")
    return release_of([FIXTURES / "good-artifacts"], base / "release")


MESH_INVALID = (
    "mesh_scale_1.02x",
    "mesh_scale_1.05x",
    "mesh_scale_1.1x",
    "mesh_scale_2x",
    "mesh_public_scenario",
    "mesh_rigid_translation",
    "mesh_facet_winding",
)
MESH_VALID = ("mesh_ascii_stl", "mesh_precision_limited", "mesh_facet_reorder", "mesh_reencode")


def test_mesh_classes_and_translation_is_wrong_by_default(boxes: Path) -> None:
    r = mutation_audit(boxes, per_class=1, jobs=1, reexecute=False)
    assert r["false_accepts"] == 0 and r["false_rejects"] == 0, r["wrong_decisions"]
    c = classes(r)
    assert all((c[n]["valid"], c[n]["trials"], c[n]["rejected"]) == (False, 3, 3) for n in MESH_INVALID)
    assert all((c[n]["valid"], c[n]["trials"], c[n]["accepted"]) == (True, 3, 3) for n in MESH_VALID)


def test_rigid_translation_is_accepted_iff_the_field_is_translation_invariant(boxes: Path, tmp_path: Path) -> None:
    free = edited(
        boxes, tmp_path / "free", lambda t: t["fields"]["mesh"]["artifact"].update(translation_invariant=True)
    )
    r = mutation_audit(free, per_class=1, jobs=1, reexecute=False)
    assert r["false_accepts"] == 0 and r["false_rejects"] == 0, r["wrong_decisions"]
    c = classes(r)["mesh_rigid_translation"]
    assert (c["valid"], c["trials"], c["accepted"]) == (True, 3, 3)


def test_mesh_precision_limited_catches_a_tolerance_tighter_than_the_stl_digits(boxes: Path, tmp_path: Path) -> None:
    tight = edited(boxes, tmp_path / "tight", lambda t: t["fields"]["mesh"].update(atol=0.0, rtol=1e-13))
    c = classes(mutation_audit(tight, per_class=1, jobs=1, reexecute=False))["mesh_precision_limited"]
    assert (c["valid"], c["trials"], c["rejected"]) == (True, 3, 3)
    found = [(f["check"], f["field"]) for f in lint_audit(tight)["findings"]]
    assert found == [("tolerance_below_file_precision", "mesh")]  # said before any mutant runs
    assert lint_audit(boxes)["findings"] == []


def test_a_binary_ply_is_read_as_float32_though_its_first_kilobytes_hold_no_nul(tmp_path: Path) -> None:
    """The whole-catalog lint: trimesh/voxel-fill's binary PLY files were taken for text with 2 digits (a floor
    of 0.1, and precision mutants moved by 5 %) when their first vertices happened to have no zero byte."""
    rng = np.random.default_rng(7)
    v = rng.uniform(1.1, 1.9, size=(4000, 3)).astype("<f4")
    v = v[[b"\0" not in row.tobytes() for row in v]][:1200]
    head = b"ply\nformat binary_little_endian 1.0\nelement vertex 1200\nproperty float x\nproperty float y\n"
    data = (
        head + b"property float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n" + v.tobytes()
    )
    assert len(v) == 1200 and b"\0" not in data[:4096]
    (tmp_path / "m.ply").write_bytes(data)
    assert printed_digits(tmp_path / "m.ply") == 7
    text = tmp_path / "t.obj"
    text.write_text("v 1.25 2.5 3.125\nv 0.5 0.25 1\nv 1 1 1\nf 1 2 3\n")
    assert printed_digits(text) == 4


# ------------------------------------------------------------------ equivalent re-encodings of other artifacts


@pytest.fixture
def artifacts(tmp_path: Path) -> Reference:
    """A reference naming a CSV with missing cells, a Parquet file, an HTML page and a PNG."""
    import pandas as pd
    from PIL import Image

    d = tmp_path / "ref"
    d.mkdir()
    (d / "t.csv").write_text("zip,count,mean_low\n02139,12,1.5\n10001,7,\n")
    pd.DataFrame({"x": [1.0, None, 3.0], "k": ["a", "b", "c"]}).to_parquet(d / "t.parquet")
    (d / "p.html").write_text('<html><head><meta charset="utf-8"></head><body>a<br>b</body></html>\n')
    Image.fromarray(np.arange(48, dtype=np.uint8).reshape(4, 4, 3)).save(d / "i.png")
    return Reference({"csv": "t.csv", "pq": "t.parquet", "html": "p.html", "png": "i.png"}, d)


def test_equivalent_reencodings_and_comparator_slips(artifacts: Reference, tmp_path: Path) -> None:
    import pyarrow.parquet as pq
    from PIL import Image

    (tmp_path / "scratch").mkdir()
    made = {m.klass: m for m in artifact_mutants(artifacts, Tolerances(), tmp_path / "scratch")}
    expected = {
        "table_missing_as_NaN": True,
        "table_missing_as_NA": True,
        "table_parquet_index_column": True,
        "table_parquet_named_index": True,
        "html_void_tags_toggled": True,
        "image_png_reencoded": True,
        "table_integer_off_by_one": False,
        "table_id_leading_zeros_dropped": False,
        "image_exif_orientation": False,
        "image_gamma_chunk": False,
    }
    assert {k: m.valid for k, m in made.items()} == expected
    assert all(DESIGNED_VALID.get(k, False) == v for k, v in expected.items())

    def file(klass: str, field: str) -> Path:
        m = made[klass]
        return m.files / json.loads(m.stdout)[field]

    assert file("table_missing_as_NA", "csv").read_text().splitlines()[2] == "10001,7,NA"
    assert file("table_id_leading_zeros_dropped", "csv").read_text().splitlines()[1].startswith("2139,")
    assert file("table_integer_off_by_one", "csv").read_text().splitlines()[1] == "02139,13,1.5"
    assert "__index_level_0__" in pq.read_table(file("table_parquet_index_column", "pq")).schema.names
    named = pq.read_table(file("table_parquet_named_index", "pq"))
    assert json.loads(named.schema.metadata[b"pandas"])["index_columns"] == ["x"]
    assert '<meta charset="utf-8" />' in file("html_void_tags_toggled", "html").read_text()
    png = file("image_png_reencoded", "png")
    assert np.array_equal(np.asarray(Image.open(png)), np.asarray(Image.open(artifacts.files / "i.png")))
    assert Image.open(file("image_exif_orientation", "png")).getexif()[0x0112] == 6
    # the comparator's decisions that do not wait on a comparator fix
    for klass, accepted in (
        ("image_png_reencoded", True),
        ("table_integer_off_by_one", False),
        ("table_missing_as_NaN", True),
        ("table_parquet_named_index", True),
    ):
        m = made[klass]
        res = judge_scenario(
            artifacts, Execution(0, m.stdout, artifacts=m.files), Tolerances(), split="hidden", index=0
        )
        assert res["pass"] is accepted, (klass, res["mismatches"])


# ------------------------------------------------------------------ every input axis, and sensitivity


@pytest.fixture(scope="module")
def with_inert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """y = 2a + b, k constant, z = [a, b]; c is declared and read by nobody."""
    base = tmp_path_factory.mktemp("inert")
    wf = workflow(
        base,
        "inert-c",
        "print(json.dumps({'y': 2 * s['a'] + s['b'], 'k': 1.5, 'z': [s['a'], s['b']]}))\n",
        "atol = 1e-9\nrtol = 1e-9\n",
        inputs=("a", "b", "c"),
    )
    return release_of([wf], base / "release")


def test_every_input_axis_is_reexecuted(with_inert: Path) -> None:
    task = load_workflow_task(list_tasks(with_inert)[0])
    got = [(i, m.note, m.valid) for _, i, m in ignored_axis_mutants([task], "bwrap")]
    assert got == [(i, axis, axis == "c") for i in range(3) for axis in ("a", "b", "c")]
    r = mutation_audit(with_inert, per_class=1, jobs=1, reexecute=True)
    assert r["false_accepts"] == 0 and r["false_rejects"] == 0, r["wrong_decisions"]
    axis = {c["name"]: c["trials"] for c in r["classes"] if c["name"].startswith("ignored_axis")}
    assert axis == {"ignored_axis_reexecuted": 6, "ignored_axis_reexecuted (inside tolerance)": 3}


def test_sensitivity_reports_the_four_metrics(with_inert: Path) -> None:
    """7 scenarios, 21 pairs; every pair differs in y, z.0 and z.1 of the four fields; a and b move it, c not."""
    r = sensitivity_audit(with_inert)
    assert r["pairs_changed_share"] == 1.0
    assert r["fields_varying_share"] == 0.75
    assert r["fields_changed_share_per_pair"] == 0.75
    assert r["parameters_moving_output_share"] == pytest.approx(2 / 3)
    assert r["inert_parameters"] == {"inert-c": ["c"]}
    assert (r["tasks"][0]["pairs"], r["tasks"][0]["fields"]) == (21, 4)
    assert sensitivity_audit(with_inert, reexecute=False)["parameters_moving_output_share"] is None


def test_a_reexecuted_mesh_is_judged_by_its_surface_not_its_vertices() -> None:
    """An input axis swapped for a nearby value re-tessellates a CSG mesh (other vertices, same surface to the
    field's tolerance): the ignored-axis class must call that output right, or a verifier that is correctly
    lenient there is reported as a false accept (csg-block's hole tilt 5.55° vs 5.60°)."""
    import trimesh

    from swr.audit.mesh_mutants import near_shape

    box = trimesh.creation.box(extents=(10.0, 20.0, 30.0))
    finer = box.subdivide()  # the same surface, with vertices the original does not have
    assert len(finer.vertices) != len(box.vertices)
    assert near_shape(box, finer, {}, 1e-6, 1e-4)
    assert not near_shape(box, box.copy().apply_scale(1.01), {}, 1e-6, 1e-4)
    # within the surface distance (1e-3 of the diagonal) but not within the bounds and area rtol (1e-4)
    assert not near_shape(box, box.copy().apply_scale(1.0005), {}, 1e-6, 1e-4)
    moved = box.copy().apply_translation((1.0, 0.0, 0.0))
    assert not near_shape(box, moved, {}, 1e-6, 1e-4)
    assert near_shape(box, moved, {"translation_invariant": True}, 1e-6, 1e-4)


VCF = """##fileformat=VCFv4.2
##contig=<ID=chrS,length=1741>
##FILTER=<ID=LowDP,Description="Total depth below {depth}">
##INFO=<ID=DP,Number=1,Type=Integer,Description="Total read depth">
#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO
chrS\t{pos}\t.\tA\tG\t50\tPASS\tDP=40
"""


def test_a_re_executed_file_equal_as_its_format_defines_is_a_right_answer(tmp_path: Path) -> None:
    """The ignored-axis audit asks whether a re-executed output is still right: a VCF whose only change is a
    FILTER's description (documentation: snv-calls-vcf's threshold spelled in its header) is, and the judge's
    accepting it is no false accept; a moved record is not."""
    from swr.audit.mutation import same_output

    ours, same, moved = (tmp_path / n for n in ("ours", "same", "moved"))
    for d, depth, pos in ((ours, 34, 100), (same, 25, 100), (moved, 34, 101)):
        d.mkdir()
        (d / "calls.vcf").write_text(VCF.format(depth=depth, pos=pos))
    tol = Tolerances.from_spec({"atol": 1e-9, "rtol": 1e-9})
    out = {"vcf": "calls.vcf", "n": 1}
    assert same_output(Reference(out, ours), Reference(out, same), tol)
    assert not same_output(Reference(out, ours), Reference(out, moved), tol)
    assert not same_output(Reference(out, ours), Reference({**out, "n": 2}, same), tol)

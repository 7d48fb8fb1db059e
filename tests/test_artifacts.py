"""Artifact comparators: faithful re-serialisations pass, wrong artifacts fail on the right check,
and no candidate bytes ever make the judge raise."""

from __future__ import annotations

import csv
import gzip
import json
import tempfile
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
import soundfile
import trimesh
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from swr.judge.artifacts import (
    KINDS,
    ArtifactConfigError,
    ArtifactResult,
    artifact_kind,
    compare_artifact,
)
from swr.judge.artifacts.mesh import distance_numpy, surface_distance


def run(ref: Path, cand: Path, **kw) -> ArtifactResult:
    """compare_artifact, asserting the result is strict JSON (no NaN, no numpy types)."""
    res = compare_artifact(ref, cand, **kw)
    json.dumps(asdict(res), allow_nan=False)
    assert res.ok == (res.detail is None)
    return res


def failing(res: ArtifactResult) -> set[str]:
    return {name for name, c in res.checks.items() if not c["ok"]}


# ---------------------------------------------------------------- meshes

SHAPES = {
    "icosphere": lambda: trimesh.creation.icosphere(subdivisions=3),
    "box": lambda: trimesh.creation.box(extents=(2.0, 1.0, 0.5)),
    "cylinder": lambda: trimesh.creation.cylinder(radius=0.5, height=2.0, sections=24),
}


def permuted(mesh: trimesh.Trimesh, seed: int = 3) -> trimesh.Trimesh:
    """Same surface with vertices renumbered, facets reordered and each facet's corners rotated."""
    rng = np.random.default_rng(seed)
    vperm = rng.permutation(len(mesh.vertices))
    inverse = np.empty_like(vperm)
    inverse[vperm] = np.arange(len(vperm))
    faces = inverse[mesh.faces][rng.permutation(len(mesh.faces))]
    faces = np.roll(faces, 1, axis=1)  # a cyclic shift keeps the winding
    return trimesh.Trimesh(mesh.vertices[vperm], faces, process=False)


def write_mesh(mesh: trimesh.Trimesh, path: Path, ascii_stl: bool = False) -> Path:
    if ascii_stl:
        path.write_text(trimesh.exchange.stl.export_stl_ascii(mesh))
    else:
        mesh.export(str(path))
    return path


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize(
    "variant", ["ascii.stl", "binary.stl", "obj", "ply", "off", "glb", "permuted.stl", "permuted.obj"]
)
def test_mesh_equivalent_serialisations_pass(tmp_path: Path, shape: str, variant: str) -> None:
    mesh = SHAPES[shape]()
    ref = write_mesh(mesh, tmp_path / "ref.stl")
    src = permuted(mesh) if variant.startswith("permuted") else mesh
    cand = write_mesh(src, tmp_path / f"cand.{variant.split('.')[-1]}", variant == "ascii.stl")
    res = run(ref, cand)
    assert res.ok, res.detail
    assert res.kind == "mesh"
    # exact point-to-triangle: a point-to-sample distance would be ~ the sample spacing
    assert res.checks["distance"]["got"] < 1e-6
    assert set(res.checks) == {"watertight", "euler", "bounds", "area", "volume", "winding", "distance"}


HEX_PRISM_OFF = (
    """OFF
# a hexagonal prism as OpenSCAD writes it: polygon caps beside the sides
12 8 0
"""
    + "".join(f"{np.cos(k * np.pi / 3):.12f} {np.sin(k * np.pi / 3):.12f} {z}\n" for z in (0, 2) for k in range(6))
    + "6 5 4 3 2 1 0\n6 6 7 8 9 10 11\n"
    + "".join(f"4 {k} {(k + 1) % 6} {(k + 1) % 6 + 6} {k + 6}\n" for k in range(6))
)


def test_mesh_off_with_polygon_faces_of_mixed_sizes_passes(tmp_path: Path) -> None:
    """Hexagon caps and quad sides in one OFF file: trimesh's reader fails on it with numpy 2 (face indices kept as
    strings), so a valid candidate was judged unreadable. The same prism as STL is the reference."""
    ref = write_mesh(
        trimesh.creation.cylinder(radius=1.0, height=2.0, sections=6).apply_translation([0, 0, 1]), tmp_path / "ref.stl"
    )
    cand = tmp_path / "c.off"
    cand.write_text(HEX_PRISM_OFF)
    res = run(ref, cand)
    assert res.ok, res.detail
    assert res.checks["distance"]["got"] < 1e-6
    stretched = tmp_path / "s.off"
    stretched.write_text(HEX_PRISM_OFF.replace(" 2\n", " 2.2\n"))
    assert not run(ref, stretched).ok


def test_mesh_reference_obj_candidate_stl(tmp_path: Path) -> None:
    mesh = SHAPES["icosphere"]()
    res = run(write_mesh(mesh, tmp_path / "ref.obj"), write_mesh(permuted(mesh), tmp_path / "c.stl"))
    assert res.ok, res.detail


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_mesh_scaled_two_percent_fails(tmp_path: Path, shape: str) -> None:
    mesh = SHAPES[shape]()
    scaled = mesh.copy()
    scaled.apply_scale(1.02)
    res = run(write_mesh(mesh, tmp_path / "ref.stl"), write_mesh(scaled, tmp_path / "c.stl"))
    assert not res.ok
    assert {"volume", "bounds", "area"} <= failing(res)
    assert {"watertight", "euler"}.isdisjoint(failing(res))
    assert res.detail.startswith("mesh bounds mismatch")
    assert res.checks["distance"]["skipped"]  # far-apart surfaces are slow to measure and already failed


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_mesh_deleted_facet_fails_topology(tmp_path: Path, shape: str) -> None:
    mesh = SHAPES[shape]()
    holed = trimesh.Trimesh(mesh.vertices, mesh.faces[1:], process=False)
    res = run(write_mesh(mesh, tmp_path / "ref.stl"), write_mesh(holed, tmp_path / "c.ply"))
    assert not res.ok
    assert {"watertight", "euler"} <= failing(res)
    assert res.checks["euler"] == {"ok": False, "expected": 2, "got": 1, "tol": None}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_mesh_facets_wound_inward_fail_though_volume_area_and_surface_agree(tmp_path: Path, shape: str) -> None:
    """Issue 23: the y- and z-facing facets turned inward kept trimesh's volume and area and every surface
    distance, and passed every mesh task; the whole mesh turned inside out is wrong too."""
    mesh = SHAPES[shape]()
    faces = mesh.faces.copy()
    turn = np.abs(mesh.face_normals[:, 1:]).max(axis=1) > np.abs(mesh.face_normals[:, 0])
    faces[turn] = faces[turn][:, ::-1]
    ref = write_mesh(mesh, tmp_path / "ref.stl")
    res = run(ref, write_mesh(trimesh.Trimesh(mesh.vertices, faces, process=False), tmp_path / "c.stl"))
    assert not res.ok and "winding" in failing(res), res.checks
    if shape == "box":  # nothing else tells: the flipped facets' contributions to volume and area cancel out
        assert failing(res) == {"winding"}, res.checks
    assert res.checks["winding"]["expected"] == "outward" and res.checks["winding"]["got"] == "inconsistent"
    inside_out = run(
        ref, write_mesh(trimesh.Trimesh(mesh.vertices, mesh.faces[:, ::-1], process=False), tmp_path / "i.stl")
    )
    assert not inside_out.ok and "winding" in failing(inside_out)
    assert inside_out.checks["winding"]["got"] == "inward"
    assert run(ref, write_mesh(permuted(mesh), tmp_path / "p.ply")).ok  # renumbered, reordered, rotated corners


def test_an_inconsistently_wound_reference_grades_the_volume_its_surface_encloses(tmp_path: Path) -> None:
    """CI stop 32: ezdxf's gear STL has caps wound against its sides. Its signed volume changes with the winding
    of any facet, so the same surface wound consistently failed on volume although winding is not graded."""
    mesh = SHAPES["icosphere"]()
    faces = mesh.faces.copy()
    turn = np.abs(mesh.face_normals[:, 1:]).max(axis=1) > np.abs(mesh.face_normals[:, 0])
    faces[turn] = faces[turn][:, ::-1]
    ref = write_mesh(trimesh.Trimesh(mesh.vertices, faces, process=False), tmp_path / "ref.stl")
    rewound = run(ref, write_mesh(mesh, tmp_path / "outward.stl"))
    assert rewound.ok, rewound.checks
    assert rewound.checks["volume"]["expected"] == pytest.approx(mesh.volume, rel=1e-6)
    bigger = trimesh.Trimesh(mesh.vertices * 1.0005, faces, process=False)  # within distance, not volume
    res = run(ref, write_mesh(bigger, tmp_path / "bigger.stl"))
    assert "volume" in failing(res), res.checks
    holed = trimesh.Trimesh(mesh.vertices, faces[1:], process=False)  # open and inconsistent: no volume
    open_ref = write_mesh(holed, tmp_path / "open.stl")
    res = run(open_ref, write_mesh(trimesh.Trimesh(mesh.vertices, mesh.faces[1:], process=False), tmp_path / "o.stl"))
    assert res.ok and res.checks["volume"]["skipped"], res.checks


def test_mesh_local_dent_fails_distance_only(tmp_path: Path) -> None:
    mesh = SHAPES["icosphere"]()
    diag = float(np.linalg.norm(mesh.extents))
    dented = mesh.copy()
    vertices = dented.vertices.copy()
    vertices[17] += 0.05 * diag * dented.vertex_normals[17]
    dented = trimesh.Trimesh(vertices, dented.faces, process=False)
    res = run(write_mesh(mesh, tmp_path / "ref.stl"), write_mesh(dented, tmp_path / "c.stl"))
    assert not res.ok
    assert "distance" in failing(res)
    assert res.checks["distance"]["got"] == pytest.approx(0.05 * diag, rel=1e-3)
    assert res.checks["watertight"]["ok"] and res.checks["euler"]["ok"]


def test_mesh_distance_option_loosens(tmp_path: Path) -> None:
    mesh = SHAPES["box"]()
    moved = mesh.copy()
    moved.apply_translation((0.0, 0.0, 0.005))  # 0.2% of the diagonal (~2.29)
    ref, cand = write_mesh(mesh, tmp_path / "ref.stl"), write_mesh(moved, tmp_path / "c.stl")
    strict = run(ref, cand)
    assert failing(strict) == {"bounds"}
    loose = run(ref, cand, rtol=1e-2, options={"distance_rtol": 1e-2})
    assert loose.ok, loose.detail


def test_exact_point_triangle_distance() -> None:
    tri = np.array(
        [
            [[0, 0, 0], [1, 0, 0], [0, 1, 0]],  # right triangle in z=0
            [[5, 5, 5], [6, 6, 6], [7, 7, 7]],
        ],
        float,
    )  # degenerate: a segment
    points = np.array(
        [
            [0.2, 0.2, 1.0],  # above the interior
            [2.0, 0.0, 0.0],  # beyond corner b
            [-1.0, -1.0, 0.0],  # beyond corner a
            [1.0, 1.0, 0.0],  # beyond the hypotenuse
            [8.0, 7.0, 7.0],
        ]
    )  # nearest the degenerate one's end
    got = distance_numpy(points, tri)
    want = [1.0, 1.0, np.sqrt(2), np.sqrt(2) / 2, 1.0]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_numpy_distance_agrees_with_trimesh() -> None:
    mesh = trimesh.creation.annulus(r_min=0.3, r_max=1.0, height=0.4, sections=16)
    rng = np.random.default_rng(7)
    points = rng.normal(scale=0.9, size=(700, 3))
    fast = surface_distance(points, mesh, backend="trimesh")
    brute = surface_distance(points, mesh, backend="numpy")
    np.testing.assert_allclose(brute, fast, rtol=0, atol=1e-12)
    assert brute.min() < 0.05 and brute.max() > 0.5  # points both near and far


# ---------------------------------------------------------------- images


def picture(h: int = 48, w: int = 64) -> np.ndarray:
    """Gradient plus seeded noise: any misplaced block shows."""
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([x * 4, y * 5, (x + y) * 2], axis=2) % 256
    return ((base + rng.integers(0, 60, size=(h, w, 3))) % 256).astype(np.uint8)


@pytest.mark.parametrize("fmt", ["bmp", "tiff", "ppm", "png"])
def test_image_lossless_reencode_passes(tmp_path: Path, fmt: str) -> None:
    arr = picture()
    Image.fromarray(arr).save(tmp_path / "ref.png")
    Image.fromarray(arr).save(tmp_path / f"c.{fmt}")
    res = run(tmp_path / "ref.png", tmp_path / f"c.{fmt}")
    assert res.ok, res.detail
    assert res.checks["pixels"]["got"] == 0.0


def test_image_mode_normalisation(tmp_path: Path) -> None:
    arr = picture()
    Image.fromarray(arr).convert("RGBA").save(tmp_path / "opaque.png")  # alpha all 255
    Image.fromarray(arr).save(tmp_path / "ref.bmp")
    assert run(tmp_path / "ref.bmp", tmp_path / "opaque.png").ok
    pal = Image.fromarray(arr).quantize(colors=32)
    pal.save(tmp_path / "pal.png")
    pal.convert("RGB").save(tmp_path / "rgb.tiff")
    res = run(tmp_path / "pal.png", tmp_path / "rgb.tiff")
    assert res.ok, res.detail
    gray = Image.fromarray(arr).convert("L")
    gray.save(tmp_path / "gray.png")
    gray.convert("1").save(tmp_path / "bilevel.png")
    assert failing(run(tmp_path / "ref.bmp", tmp_path / "gray.png")) == {"channels"}


def test_image_shifted_block_fails(tmp_path: Path) -> None:
    arr = picture()
    Image.fromarray(arr).save(tmp_path / "ref.png")
    bad = arr.copy()
    bad[10:26, 20:36] = arr[10:26, 24:40]  # a 16x16 block moved 4 pixels sideways
    Image.fromarray(bad).save(tmp_path / "c.png")
    res = run(tmp_path / "ref.png", tmp_path / "c.png")
    assert failing(res) == {"pixels"}
    assert 0 < res.checks["pixels"]["bad_pixels"] <= 256
    assert "pixel x=" in res.detail
    # the task may allow a fraction of bad pixels (256 of 3072 here)
    assert run(tmp_path / "ref.png", tmp_path / "c.png", options={"max_bad_fraction": 0.1}).ok


def test_image_small_noise_within_pixel_tol(tmp_path: Path) -> None:
    arr = picture()
    Image.fromarray(arr).save(tmp_path / "ref.png")
    Image.fromarray(np.clip(arr.astype(int) + 2, 0, 255).astype(np.uint8)).save(tmp_path / "c.png")
    assert run(tmp_path / "ref.png", tmp_path / "c.png").ok
    assert failing(run(tmp_path / "ref.png", tmp_path / "c.png", options={"pixel_tol": 1})) == {"pixels"}


def test_image_size_mismatch(tmp_path: Path) -> None:
    Image.fromarray(picture()).save(tmp_path / "ref.png")
    Image.fromarray(picture(48, 63)).save(tmp_path / "c.png")
    res = run(tmp_path / "ref.png", tmp_path / "c.png")
    assert failing(res) == {"size"} and "pixels" not in res.checks


# ---------------------------------------------------------------- audio


def tone(frames: int = 4000, rate: int = 8000) -> np.ndarray:
    t = np.arange(frames) / rate
    return np.stack([0.6 * np.sin(2 * np.pi * 440 * t), 0.3 * np.sin(2 * np.pi * 660 * t)], axis=1)


@pytest.mark.parametrize("name,subtype", [("c.flac", "PCM_16"), ("c.wav", "FLOAT"), ("c.wav", "PCM_24")])
def test_audio_reencode_passes(tmp_path: Path, name: str, subtype: str) -> None:
    soundfile.write(tmp_path / "ref.wav", tone(), 8000, subtype="PCM_16")
    data, _ = soundfile.read(tmp_path / "ref.wav")
    soundfile.write(tmp_path / name, data, 8000, subtype=subtype)
    res = run(tmp_path / "ref.wav", tmp_path / name)
    assert res.ok, res.detail
    assert res.checks["samples"]["got"] == 0.0


@pytest.mark.parametrize(
    "change,check_name",
    [
        ("truncate", "frames"),
        ("scale", "samples"),
        ("rate", "sample_rate"),
        ("mono", "channels"),
    ],
)
def test_audio_wrong_fails(tmp_path: Path, change: str, check_name: str) -> None:
    data, rate = tone(), 8000
    soundfile.write(tmp_path / "ref.wav", data, rate, subtype="PCM_16")
    if change == "truncate":
        data = data[:-10]
    elif change == "scale":
        data = data * 1.02
    elif change == "rate":
        rate = 16000
    else:
        data = data[:, :1]
    soundfile.write(tmp_path / "c.flac", data, rate, subtype="PCM_16")
    res = run(tmp_path / "ref.wav", tmp_path / "c.flac")
    assert not res.ok
    assert check_name in failing(res)


# ---------------------------------------------------------------- tables

HEADER = ["id", "name", "value", "flag"]
ROWS = [
    [1, "alpha", 1.0, True],
    [2, "beta, gamma", 0.125, False],
    [3, 'say "hi"', -2.5e-3, True],
    [4, "delta", 12345.678, False],
]


def write_csv(path: Path, header=HEADER, rows=ROWS, **kw) -> Path:
    fmt = kw.pop("fmt", repr)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh, **kw)
        w.writerow(header)
        for row in rows:
            w.writerow([fmt(v) if isinstance(v, float) else v for v in row])
    return path


def write_parquet(path: Path, header=HEADER, rows=ROWS) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = list(zip(*rows))
    pq.write_table(pa.table({h: list(c) for h, c in zip(header, cols)}), path)
    return path


def test_table_reformatted_csv_passes(tmp_path: Path) -> None:
    ref = write_csv(tmp_path / "ref.csv")
    variants = [
        write_csv(tmp_path / "quoted.csv", quoting=csv.QUOTE_ALL, lineterminator="\r\n"),
        write_csv(tmp_path / "sci.csv", fmt=lambda v: f"{v:.17e}"),
        write_csv(tmp_path / "fixed.csv", fmt=lambda v: f"{v:.6f}"),
        write_csv(tmp_path / "tab.tsv", delimiter="\t"),
    ]
    spaced = tmp_path / "spaced.csv"
    spaced.write_text(ref.read_text().replace(",", ", ").replace("beta,  gamma", "beta, gamma") + "\n\n")
    for cand in variants + [spaced]:
        res = run(ref, cand)
        assert res.ok, (cand.name, res.detail)


def test_table_float_spellings(tmp_path: Path) -> None:
    (tmp_path / "ref.csv").write_text("x,y\n1.0,2\n")
    for i, spelling in enumerate(["1.00,2.0", "1e0,2", " 1 , 0.2e1", '"1.","2"']):
        (tmp_path / f"c{i}.csv").write_text(f"x,y\n{spelling}\n")
        assert run(tmp_path / "ref.csv", tmp_path / f"c{i}.csv").ok, spelling


def test_table_reordered_columns_pass_and_are_reported(tmp_path: Path) -> None:
    ref = write_csv(tmp_path / "ref.csv")
    order = [2, 0, 3, 1]
    cand = write_csv(tmp_path / "c.csv", [HEADER[i] for i in order], [[r[i] for i in order] for r in ROWS])
    res = run(ref, cand)
    assert res.ok and res.checks["columns"]["same_order"] is False


def test_table_parquet_csv_both_ways(tmp_path: Path) -> None:
    csv_path, pq_path = write_csv(tmp_path / "t.csv"), write_parquet(tmp_path / "t.parquet")
    assert run(csv_path, pq_path).ok
    assert run(pq_path, csv_path).ok
    bad = write_csv(tmp_path / "bad.csv", rows=ROWS[:-1])
    assert failing(run(pq_path, bad)) == {"rows"}


DUCKDB_PARQUET = Path(__file__).parent / "fixtures" / "artifacts" / "duckdb-dictionary.parquet"


def test_a_parquet_file_pyarrow_misreads_encoded_is_read_plain(tmp_path: Path) -> None:
    """DuckDB 2.0 wrote this table (stations ST00 ST00 ST03 ST04 ST04 ST04); pyarrow 26, asked to keep its strings
    dictionary-encoded, returns a 4-entry dictionary with index 4, which crashed the comparator ("internal
    error") on the reference's own file. The same rows written by pyarrow pass; a changed station fails."""
    import pyarrow.parquet as pq

    table = pq.read_table(DUCKDB_PARQUET)
    assert table.column("station").to_pylist() == ["ST00", "ST00", "ST03", "ST04", "ST04", "ST04"]
    assert run(DUCKDB_PARQUET, DUCKDB_PARQUET).ok
    same, other = tmp_path / "same.parquet", tmp_path / "other.parquet"
    pq.write_table(table, same)
    stations = table.column("station").to_pylist()
    pq.write_table(table.set_column(0, "station", [stations[:-1] + ["ST05"]]), other)
    assert run(DUCKDB_PARQUET, same).ok and run(same, DUCKDB_PARQUET).ok
    assert failing(run(DUCKDB_PARQUET, other)) == {"cells"}


@pytest.mark.parametrize(
    "change,check_name",
    [
        ("truncate", "rows"),
        ("one_percent", "cells"),
        ("string", "cells"),
        ("bool", "cells"),
        ("drop_column", "columns"),
        ("kind", "kinds"),
        ("blank", "cells"),
    ],
)
def test_table_wrong_fails(tmp_path: Path, change: str, check_name: str) -> None:
    ref = write_csv(tmp_path / "ref.csv")
    header, rows = list(HEADER), [list(r) for r in ROWS]
    if change == "truncate":
        rows = rows[:-1]
    elif change == "one_percent":
        rows[3][2] *= 1.01
    elif change == "string":
        rows[1][1] = "beta,gamma"
    elif change == "bool":
        rows[0][3] = False
    elif change == "drop_column":
        header, rows = header[:3], [r[:3] for r in rows]
    elif change == "kind":
        rows[2][2] = "oops"  # "n/a" is a missing value, as pandas reads it
    else:
        rows[2][0] = ""
    res = run(ref, write_csv(tmp_path / "c.csv", header, rows))
    assert not res.ok
    assert failing(res) == {check_name}
    if change == "one_percent":
        assert res.checks["cells"]["where"] == "row 3, column 'value'"
        assert res.checks["cells"]["bad_cells"] == 1


def test_table_nan_and_inf_cells(tmp_path: Path) -> None:
    (tmp_path / "ref.csv").write_text("x\nnan\ninf\n-inf\n")
    (tmp_path / "same.csv").write_text("x\nNaN\nInfinity\n-inf\n")
    (tmp_path / "bad.csv").write_text("x\n0\ninf\ninf\n")
    assert run(tmp_path / "ref.csv", tmp_path / "same.csv").ok
    res = run(tmp_path / "ref.csv", tmp_path / "bad.csv")
    assert res.checks["cells"]["bad_cells"] == 2


# ---------------------------------------------------------------- text

DXF = (
    "999\nwritten by tool 1.2 at 2024-05-01T10:11:12Z\n0\nSECTION\n2\nHEADER\n9\n$HANDSEED\n"
    "5\n{guid}\n0\nENDSEC\n0\nEOF\n"
)
IGNORE = {"ignore_lines": [r"^written by tool .* at \d{4}-\d\d-\d\dT", r"^\{[0-9a-f-]{36}\}$"]}
GUID_A, GUID_B = "{0f8fad5b-d9cb-469f-a165-70867728950e}", "{7c9e6679-7425-40de-944b-e07fc1f90ae7}"


def test_text_volatile_lines_ignored(tmp_path: Path) -> None:
    (tmp_path / "ref.dxf").write_text(DXF.format(guid=GUID_A))
    cand = DXF.format(guid=GUID_B).replace("2024-05-01T10:11:12Z", "2031-12-31T23:59:59Z")
    (tmp_path / "c.dxf").write_bytes(cand.replace("\n", "  \r\n").encode())
    assert run(tmp_path / "ref.dxf", tmp_path / "c.dxf", options=IGNORE).ok
    strict = run(tmp_path / "ref.dxf", tmp_path / "c.dxf")
    assert failing(strict) == {"content"} and strict.checks["content"]["line"] == 2


@pytest.mark.parametrize(
    "mutate,line",
    [
        (lambda s: s.replace("$HANDSEED", "$HANDSEEDS"), 8),
        (lambda s: s.replace("written by tool 1.2 at 2024-05-01T10:11:12Z\n", ""), 2),
        (lambda s: s.replace("0\nEOF\n", ""), 13),
        (lambda s: s + "0\nEXTRA\n", 15),
    ],
)
def test_text_changed_line_fails(tmp_path: Path, mutate, line: int) -> None:
    ref = DXF.format(guid=GUID_A)
    (tmp_path / "ref.dxf").write_text(ref)
    (tmp_path / "c.dxf").write_text(mutate(ref))
    res = run(tmp_path / "ref.dxf", tmp_path / "c.dxf", options=IGNORE)
    assert not res.ok
    assert res.checks["content"]["line"] == line
    assert res.detail.startswith(f"text content mismatch at line {line}")


# ---------------------------------------------------------------- dispatch, errors, fuzz


def test_kinds_dispatch() -> None:
    assert {KINDS[s] for s in (".stl", ".glb", ".png", ".tiff", ".flac", ".parquet", ".tsv")} == {
        "mesh",
        "image",
        "audio",
        "table",
    }
    assert artifact_kind(Path("A.STL")) == "mesh" and artifact_kind(Path("out.dxf")) == "text"
    assert artifact_kind(Path("noext")) == "text"


def test_config_errors_raise(tmp_path: Path) -> None:
    ref = write_csv(tmp_path / "ref.csv")
    with pytest.raises(ArtifactConfigError, match="unknown table option"):
        compare_artifact(ref, ref, options={"pixel_tol": 3})
    with pytest.raises(ArtifactConfigError, match="not found"):
        compare_artifact(tmp_path / "nope.csv", ref)
    with pytest.raises(ArtifactConfigError, match="rtol"):
        compare_artifact(ref, ref, rtol=float("inf"))
    (tmp_path / "r.txt").write_text("x\n")
    with pytest.raises(ArtifactConfigError, match="regex"):
        compare_artifact(tmp_path / "r.txt", tmp_path / "r.txt", options={"ignore_lines": ["("]})


def _references(root: Path) -> dict[str, Path]:
    """One valid reference per suffix, built once per test."""
    mesh = SHAPES["box"]()
    refs = {s: write_mesh(mesh, root / f"ref{s}") for s in (".stl", ".obj", ".ply", ".off", ".glb")}
    arr = picture(16, 16)
    for s in (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".ppm"):
        Image.fromarray(arr).save(root / f"ref{s}")
        refs[s] = root / f"ref{s}"
    Image.fromarray(arr).convert("L").save(root / "ref.pgm")
    refs[".pgm"] = root / "ref.pgm"
    for s in (".wav", ".flac", ".ogg"):
        soundfile.write(root / f"ref{s}", tone(800), 8000)
        refs[s] = root / f"ref{s}"
    refs[".csv"], refs[".parquet"] = write_csv(root / "ref.csv"), write_parquet(root / "ref.parquet")
    refs[".tsv"] = write_csv(root / "ref.tsv", delimiter="\t")
    (root / "ref.dxf").write_text(DXF.format(guid=GUID_A))
    refs[".dxf"] = root / "ref.dxf"
    for s in (".html", ".htm"):
        (root / f"ref{s}").write_text(
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8" />'
            "<title>t</title></head>\n<body><p>Some <em>text</em>.</p></body></html>\n"
        )
        refs[s] = root / f"ref{s}"
    from test_artifacts_config import INI, TOML, XML, YAML
    from test_artifacts_scidata import fits_file, h5, nc

    refs |= {".h5": h5(root / "ref.h5"), ".hdf5": h5(root / "ref.hdf5"), ".nc": nc(root / "ref.nc")}
    refs |= {".fits": fits_file(root / "ref.fits"), ".fit": fits_file(root / "ref.fit")}
    for s, text in {".yaml": YAML, ".yml": YAML, ".toml": TOML, ".ini": INI, ".cfg": INI, ".xml": XML}.items():
        (root / f"ref{s}").write_text(text)
        refs[s] = root / f"ref{s}"
    note = "generated code: compare_artifact, with no sandbox to run it in, passes only the same bytes. " * 3
    (root / "ref.py").write_text(f"# {note}\ndef f(x):\n    return 2.0 * x + 1.0\n")
    (root / "ref.c").write_text(f"/* {note} */\ndouble f(double x) {{ return 2.0 * x + 1.0; }}\n")
    refs.update({".py": root / "ref.py", ".c": root / "ref.c"})
    refs.update(_sequence_and_pcap_references(root))
    return refs


def _sequence_and_pcap_references(root: Path) -> dict[str, Path]:
    """FASTA/FASTQ (plain and gzip), SAM, BAM, VCF (plain and bgzip), pcap and pcapng references."""
    import random

    from test_artifacts_pcap import capture
    from test_artifacts_sequence import fasta, fastq, sam, vcf

    refs: dict[str, Path] = {}
    for s in (".fasta", ".fa", ".fna", ".faa", ".fastq", ".fq"):
        refs[s] = (fastq if s in (".fastq", ".fq") else fasta)(root / f"ref{s}", random.Random(s))
        refs[s + ".gz"] = root / f"ref{s}.gz"
        refs[s + ".gz"].write_bytes(gzip.compress(refs[s].read_bytes()))
    for s, make in (
        (".sam", sam),
        (".bam", sam),
        (".vcf", vcf),
        (".vcf.gz", vcf),
        (".pcap", capture),
        (".pcapng", capture),
    ):
        refs[s] = make(root / f"ref{s}", random.Random(s))
    return refs


@pytest.fixture(scope="module")
def references(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _references(tmp_path_factory.mktemp("refs"))


def test_every_reference_matches_itself(references: dict[str, Path]) -> None:
    assert set(KINDS) <= set(references)
    for suffix, ref in references.items():
        res = run(ref, ref)
        assert res.ok and res.kind == artifact_kind(ref), (suffix, res.detail)


@pytest.mark.parametrize("suffix", sorted(set(KINDS) | {".dxf"}))
def test_broken_candidates_never_raise(references: dict[str, Path], tmp_path: Path, suffix: str) -> None:
    ref = references[suffix]
    data = ref.read_bytes()
    cases = {
        "empty": b"",
        "half": data[: len(data) // 2],
        "head": data[:40],
        "flipped": bytes(b ^ 0xFF for b in data[:200]) + data[200:],
    }
    for name, blob in cases.items():
        cand = tmp_path / f"{name}{suffix}"
        cand.write_bytes(blob)
        res = run(ref, cand)
        assert not res.ok, (suffix, name)
    missing = run(ref, tmp_path / f"missing{suffix}")
    assert not missing.ok and missing.detail.startswith("cannot read candidate")
    assert not run(ref, tmp_path).ok  # a directory is no file


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    suffix=st.sampled_from(sorted(set(KINDS) | {".dxf"})),
    blob=st.binary(max_size=600),
    cand_suffix=st.sampled_from(["same", ".bin", ".obj", ".csv"]),
)
def test_random_bytes_never_raise(references: dict[str, Path], suffix: str, blob: bytes, cand_suffix: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cand = Path(tmp) / ("c" + (suffix if cand_suffix == "same" else cand_suffix))
        cand.write_bytes(blob)
        res = run(references[suffix], cand)
        assert isinstance(res, ArtifactResult) and res.kind == artifact_kind(references[suffix])
        if not blob:
            assert not res.ok

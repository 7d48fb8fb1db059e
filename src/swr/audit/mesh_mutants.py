"""Mesh mutants: geometry changes far beyond any mesh tolerance (invalid by construction), faithful
re-orderings and re-encodings (valid by construction), a rigid translation (valid only where the field
declares `translation_invariant`) and another scenario's mesh (valid only if it is the same shape)."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from swr.judge import Tolerances
from swr.judge.artifacts import artifact_kind
from swr.judge.artifacts._common import Budget
from swr.judge.artifacts.fields import Reference, artifact_leaves, get_at
from swr.judge.artifacts.mesh import binary_mesh, surface_winding
from swr.judge.artifacts.mesh import load_mesh as judge_load

from .artifact_mutants import Edit, Writer, artifact_mutant
from .mutants import PRECISION_MOVE, Mutant

DEFORM = 0.05  # local displacement, as a share of the bounding-box diagonal (the comparator allows 1e-3)
SCALES = (1.02, 1.05, 1.1, 2.0)  # the uniform-scale sweep, every one beyond any mesh tolerance
TRANSLATE = 0.1  # rigid shift, as a share of the bounding-box diagonal
SAME_SHAPE = 1e-6  # vertex agreement, as a share of the diagonal, for another scenario's mesh to count as equal
FLOAT32_DIGITS = 7  # significant digits a binary mesh file keeps
_NUMBER = re.compile(rb"[-+]?(\d*\.\d+|\d+\.\d*)([eE][-+]?\d+)?")


def load_mesh(path: Path) -> Any:
    import trimesh

    return trimesh.load(path, force="mesh", process=False)


def _with(mesh: Any, vertices: Any = None, faces: Any = None) -> Any:
    import trimesh

    return trimesh.Trimesh(
        vertices=mesh.vertices if vertices is None else vertices,
        faces=mesh.faces if faces is None else faces,
        process=False,
    )


def _export(mesh: Any, file_type: str | None = None) -> Writer:
    return lambda dest: mesh.export(dest, file_type=file_type)


def printed_digits(path: Path) -> int:
    """Significant digits the reference file writes its numbers with (binary files: float32's)."""
    if binary_mesh(path):
        return FLOAT32_DIGITS
    data = path.read_bytes()
    digits = [len(m.group(1).replace(b".", b"").lstrip(b"0")) for m in _NUMBER.finditer(data)]
    return max([d for d in digits if d] or [FLOAT32_DIGITS])


def at_precision(v: np.ndarray, digits: int, rng: random.Random) -> np.ndarray:
    """Every coordinate moved by PRECISION_MOVE of its last printed unit, equal coordinates alike
    (shared corners stay shared, so the surface stays closed)."""
    uniq, inv = np.unique(v.reshape(-1), return_inverse=True)
    mag = np.floor(np.log10(np.where(uniq == 0, 1.0, np.abs(uniq))))
    unit = np.where(uniq == 0, 0.0, 10.0 ** (mag - digits + 1))
    signs = np.random.default_rng(rng.randrange(2**32)).choice((-1.0, 1.0), len(uniq))
    return (uniq + signs * PRECISION_MOVE * unit)[inv].reshape(v.shape)


def judged_winding(source: Path) -> str:
    """The reference's winding as the comparator reads the file (vertices merged, slivers dropped)."""
    return surface_winding(judge_load(source, source.suffix.lower(), Budget("mesh")))


def _edits(mesh: Any, rng: random.Random, source: Path, shift_ok: bool) -> Iterator[Edit]:
    """(class, valid, writer, another file suffix or None)."""
    v, f = np.asarray(mesh.vertices, float), np.asarray(mesh.faces)
    diag = float(np.linalg.norm(v.max(axis=0) - v.min(axis=0))) or 1.0
    centre = v.mean(axis=0)
    for s in SCALES:
        yield f"mesh_scale_{s:g}x", False, _export(_with(mesh, vertices=centre + (v - centre) * s)), None
    pick = v[rng.randrange(len(v))]
    moved = v.copy()
    moved[np.linalg.norm(v - pick, axis=1) <= 0.25 * diag] += DEFORM * diag * np.array([0.6, 0.0, 0.8])
    yield "mesh_local_deformation", False, _export(_with(mesh, vertices=moved)), None
    keep = np.ones(len(f), bool)
    keep[rng.sample(range(len(f)), max(1, len(f) // 100))] = False
    yield "mesh_deleted_facets", False, _export(_with(mesh, faces=f[keep])), None
    normals = np.asarray(mesh.face_normals)  # the y- and z-facing facets wound inward: same volume, area, surface
    inward = f.copy()
    turn = np.abs(normals[:, 1:]).max(axis=1) > np.abs(normals[:, 0])
    inward[turn] = inward[turn][:, ::-1]
    # wrong only where the reference's own winding is consistent as the comparator reads it (what it demands then)
    yield (
        "mesh_facet_winding",
        not turn.any() or judged_winding(source) == "inconsistent",
        _export(_with(mesh, faces=inward)),
        None,
    )
    order = list(range(len(f)))
    rng.shuffle(order)
    yield "mesh_facet_reorder", True, _export(_with(mesh, faces=np.roll(f[order], 1, axis=1))), None
    yield "mesh_reencode", True, _export(mesh), ".ply"
    yield "mesh_ascii_stl", True, _export(mesh, "stl_ascii"), ".stl"
    shifted = v + TRANSLATE * diag * np.array([0.48, 0.6, 0.64])
    yield "mesh_rigid_translation", shift_ok, _export(_with(mesh, vertices=shifted)), None
    digits = printed_digits(source)
    limited = _with(mesh, vertices=at_precision(v, digits, rng))
    yield ("mesh_precision_limited", True, _export(limited, "stl" if digits <= FLOAT32_DIGITS else "stl_ascii"), ".stl")


def same_shape(a: Any, b: Any, shift_ok: bool) -> bool:
    """The audit's own test for another scenario's mesh: the same distinct vertices (up to a shift
    where translation is allowed), to SAME_SHAPE of the diagonal."""
    va, vb = (np.unique(np.asarray(m.vertices, float), axis=0) for m in (a, b))
    if va.shape != vb.shape:
        return False
    if shift_ok:
        va, vb = va - va.min(axis=0), vb - vb.min(axis=0)
        va, vb = np.unique(va, axis=0), np.unique(vb, axis=0)
    diag = float(np.linalg.norm(va.max(axis=0) - va.min(axis=0))) or 1.0
    return bool(np.all(np.abs(va - vb) <= SAME_SHAPE * diag))


def near_shape(a: Any, b: Any, options: dict[str, Any], atol: float, rtol: float) -> bool:
    """The audit's own reading of a mesh field's declared tolerances (d: a's bounding-box diagonal): the same
    topology, bounds within atol + rtol·d, area within atol + rtol·d², volume within atol + rtol·d³, and every
    vertex of each within atol + distance_rtol·d of the other's surface (vertices only; the judge also samples
    faces). Whether a re-executed output is still a right answer, independently of the judge's code."""
    import trimesh
    from trimesh.proximity import closest_point

    a, b = (trimesh.Trimesh(vertices=m.vertices, faces=m.faces, process=True) for m in (a, b))  # merged, as read
    for m in (a, b):
        m.update_faces(m.nondegenerate_faces())  # a zero-area sliver is not topology
    if options.get("translation_invariant") is True:
        b = _with(b, vertices=np.asarray(b.vertices, float) - b.bounds[0] + a.bounds[0])
    d = float(np.linalg.norm(a.bounds[1] - a.bounds[0]))
    if (a.is_watertight, a.euler_number) != (b.is_watertight, b.euler_number):
        return False
    if not (
        np.all(np.abs(a.bounds - b.bounds) <= atol + rtol * d)
        and abs(a.area - b.area) <= atol + rtol * d**2
        and abs(float(a.volume) - float(b.volume)) <= atol + rtol * d**3
    ):
        return False
    far = max(float(closest_point(b, a.vertices)[1].max()), float(closest_point(a, b.vertices)[1].max()))
    return far <= atol + float(options.get("distance_rtol", 1e-3)) * d


def _substitutes(mesh: Any, path: tuple, public: list[Reference], shift_ok: bool, rng: random.Random) -> Iterator[Edit]:
    """One public scenario's mesh of the same field, in place of this scenario's."""
    files = [
        p.files / n
        for p in public
        if p.files and isinstance(n := get_at(p.output, path), str) and (p.files / n).is_file()
    ]
    if files:
        src = rng.choice(files)
        yield (
            "mesh_public_scenario",
            same_shape(mesh, load_mesh(src), shift_ok),
            lambda dest: shutil.copyfile(src, dest),
            src.suffix,
        )


def mesh_mutants(
    ref: Reference, tol: Tolerances, rng: random.Random, scratch: Path, public: list[Reference] | None = None
) -> Iterator[Mutant]:
    """Mutants of every mesh artifact of the reference; each directory also holds the other artifacts."""
    arts = artifact_leaves(ref, tol)
    for path, name in arts:
        if artifact_kind(Path(name)) != "mesh":
            continue
        source = ref.files / name  # type: ignore[operator]
        mesh = load_mesh(source)
        shift_ok = tol.options_for(path).get("translation_invariant") is True
        edits = [*_edits(mesh, rng, source, shift_ok), *_substitutes(mesh, path, public or [], shift_ok, rng)]
        for edit in edits:
            yield artifact_mutant(ref, arts, path, name, scratch, edit)

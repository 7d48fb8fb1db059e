"""The post-freeze audit's geometry transforms (SWR §4.3): rotation, mirror, shear, non-uniform scale and a
small translation of a mesh artifact (wrong answers, a translation excepted where the field declares
`translation_invariant`), and re-indexed or re-encoded copies (the same surface, to be accepted)."""

from __future__ import annotations

import math
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from swr.judge import Tolerances
from swr.judge.artifacts import artifact_kind
from swr.judge.artifacts.fields import Reference, artifact_leaves, replaced

from .heldout_trials import Trial, dotted, encode

ROTATION_DEG = 10.0
MIRROR, SHEAR, STRETCH, SHIFT = -1.0, 0.05, 1.05, 0.02  # the shift as a share of the diagonal
DIFFERS = 1e-2  # a transform is a wrong answer only if it moves the surface's moments or box by >= 1 %


def _unit(rng: random.Random) -> np.ndarray:
    v = np.array([rng.gauss(0, 1) for _ in range(3)])
    return v / (np.linalg.norm(v) or 1.0)


def _rotation(axis: np.ndarray, degrees: float) -> np.ndarray:
    """Rodrigues' rotation matrix."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    a = math.radians(degrees)
    return np.eye(3) + math.sin(a) * k + (1 - math.cos(a)) * k @ k


def fingerprint(v: np.ndarray, f: np.ndarray, translation_invariant: bool) -> dict[str, np.ndarray]:
    """The surface's own centroid, second moment about it (exact per triangle) and bounding box: equal
    for the same surface however it is tessellated, changed by any transform that changes the shape."""
    tri = v[f]
    area = 0.5 * np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    total = float(area.sum()) or 1.0
    centroid = (area[:, None] * tri.mean(axis=1)).sum(axis=0) / total
    s = tri.sum(axis=1)
    outer = np.einsum("fij,fik->fjk", tri, tri) + np.einsum("fj,fk->fjk", s, s)
    moment = (area[:, None, None] * outer).sum(axis=0) / (12 * total) - np.outer(centroid, centroid)
    origin = centroid if translation_invariant else np.zeros(3)
    return {
        "centroid": centroid - origin,
        "moment": moment,
        "box": np.concatenate([v.min(axis=0) - origin, v.max(axis=0) - origin]),
    }


def differs(a: dict[str, np.ndarray], b: dict[str, np.ndarray], diag: float) -> bool:
    moment = np.linalg.norm(a["moment"]) or 1.0
    return bool(
        np.abs(a["centroid"] - b["centroid"]).max() >= DIFFERS * diag
        or np.abs(a["box"] - b["box"]).max() >= DIFFERS * diag
        or np.linalg.norm(a["moment"] - b["moment"]) >= DIFFERS * moment
    )


def _shape_changes(
    v: np.ndarray, f: np.ndarray, rng: random.Random
) -> Iterator[tuple[str, np.ndarray, np.ndarray, str]]:
    """(class, vertices, faces, detail) of the transforms that must be rejected."""
    c = v.mean(axis=0)
    axis, i, j = _unit(rng), rng.randrange(3), rng.randrange(3)
    yield (
        "geometry_rotation",
        (v - c) @ _rotation(axis, ROTATION_DEG).T + c,
        f,
        f"{ROTATION_DEG:g}° about {axis.round(3)}",
    )
    flip = np.ones(3)
    flip[i] = MIRROR
    yield "geometry_mirror", (v - c) * flip + c, np.ascontiguousarray(f[:, ::-1]), f"mirrored across axis {i}"
    k = (j + 1 + rng.randrange(2)) % 3
    sheared = v.copy()
    sheared[:, j] += SHEAR * (v[:, k] - c[k])
    yield "geometry_shear", sheared, f, f"axis {j} sheared along axis {k}"
    longest = int(np.argmax(np.ptp(v, axis=0)))  # stretched where a 5 % change is largest
    scale = np.ones(3)
    scale[longest] = STRETCH
    yield "geometry_nonuniform_scale", (v - c) * scale + c, f, f"axis {longest} ×{STRETCH}"


def transforms(mesh: Any, rng: random.Random, inv: bool) -> Iterator[tuple[str, bool, Any, str, str]]:
    """(class, valid, mesh, file suffix or "", detail) for one mesh artifact."""
    import trimesh

    v, f = np.asarray(mesh.vertices, float), np.asarray(mesh.faces)
    diag = float(np.linalg.norm(np.ptp(v, axis=0))) or 1.0
    before = fingerprint(v, f, inv)
    for klass, v2, f2, detail in _shape_changes(v, f, rng):
        if differs(before, fingerprint(v2, f2, inv), diag):  # else a symmetry of this shape: no wrong answer
            yield klass, False, trimesh.Trimesh(v2, f2, process=False), "", detail
    shift = SHIFT * diag * _unit(rng)
    yield (
        "geometry_translation",
        inv,
        trimesh.Trimesh(v + shift, f, process=False),
        "",
        f"moved by {SHIFT:g} of the diagonal" + (" (declared translation-invariant)" if inv else ""),
    )
    perm = list(range(len(v)))
    rng.shuffle(perm)
    where = np.empty(len(v), int)
    where[perm] = np.arange(len(v))
    order = list(range(len(f)))
    rng.shuffle(order)
    faces = np.roll(where[f[order]], rng.randrange(3), axis=1)
    yield (
        "geometry_reindexed",
        True,
        trimesh.Trimesh(v[perm], faces, process=False),
        "",
        "vertices and facets renumbered",
    )
    yield "geometry_obj_reencode", True, mesh, ".obj", "written as OBJ"


def geometry_trials(ref: Reference, tol: Tolerances, rng: random.Random, scratch: Path) -> Iterator[Trial]:
    """Every geometry trial of one hidden scenario; each trial's directory holds the other artifacts too."""
    import trimesh

    arts = artifact_leaves(ref, tol)
    for path, name in arts:
        if artifact_kind(Path(name)) != "mesh" or ref.files is None:
            continue
        mesh = trimesh.load(ref.files / name, force="mesh", process=False)
        inv = bool(tol.options_for(path).get("translation_invariant", False))
        for klass, valid, mutated, suffix, detail in transforms(mesh, rng, inv):
            d = Path(tempfile.mkdtemp(dir=scratch))
            for _, other in arts:
                if other != name:
                    shutil.copyfile(ref.files / other, d / other)
            out_name = Path(name).stem + (suffix or Path(name).suffix)
            mutated.export(d / out_name)
            yield Trial(klass, valid, encode(replaced(ref.output, path, out_name)), d, dotted(path), detail, "geometry")

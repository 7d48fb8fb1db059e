"""Mesh mutants: geometry changes far beyond any mesh tolerance (invalid by construction) and
faithful re-orderings and re-encodings (valid by construction)."""
from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from swr.judge import Tolerances
from swr.judge.artifacts import kind_of
from swr.judge.artifacts.fields import Reference, artifact_leaves
from swr.judge.artifacts.fields import replaced as set_leaf

from .mutants import Mutant, _encode

DEFORM = 0.05  # local displacement, as a share of the bounding-box diagonal (the comparator allows 1e-3)


def _load(path: Path):  # noqa: ANN202 - trimesh is imported lazily
    import trimesh

    return trimesh.load(path, force="mesh", process=False)


def _with(mesh, vertices=None, faces=None):  # noqa: ANN001, ANN202
    import trimesh

    return trimesh.Trimesh(vertices=mesh.vertices if vertices is None else vertices,
                           faces=mesh.faces if faces is None else faces, process=False)


def _edits(mesh, rng: random.Random) -> Iterator[tuple[str, bool, object, str | None]]:  # noqa: ANN001
    """(class, valid, mutated mesh, another file suffix or None)."""
    v, f = np.asarray(mesh.vertices, float), np.asarray(mesh.faces)
    diag = float(np.linalg.norm(v.max(axis=0) - v.min(axis=0))) or 1.0
    centre = v.mean(axis=0)
    yield "mesh_scale_1.02", False, _with(mesh, vertices=centre + (v - centre) * 1.02), None
    pick = v[rng.randrange(len(v))]
    moved = v.copy()
    moved[np.linalg.norm(v - pick, axis=1) <= 0.25 * diag] += DEFORM * diag * np.array([0.6, 0.0, 0.8])
    yield "mesh_local_deformation", False, _with(mesh, vertices=moved), None
    keep = np.ones(len(f), bool)
    keep[rng.sample(range(len(f)), max(1, len(f) // 100))] = False
    yield "mesh_deleted_facets", False, _with(mesh, faces=f[keep]), None
    order = list(range(len(f)))
    rng.shuffle(order)
    yield "mesh_facet_reorder", True, _with(mesh, faces=np.roll(f[order], 1, axis=1)), None
    yield "mesh_reencode", True, mesh, ".ply"


def mesh_mutants(ref: Reference, tol: Tolerances, rng: random.Random, scratch: Path) -> Iterator[Mutant]:
    """Mutants of every mesh artifact of the reference; each directory also holds the other artifacts."""
    arts = artifact_leaves(ref, tol)
    for path, name in arts:
        if kind_of(Path(name)) != "mesh":
            continue
        mesh = _load(ref.files / name)  # type: ignore[operator]
        for klass, valid, mutated, suffix in _edits(mesh, rng):
            d = Path(tempfile.mkdtemp(dir=scratch))
            for _, other in arts:
                if other != name:
                    shutil.copyfile(ref.files / other, d / other)  # type: ignore[operator]
            out_name = Path(name).stem + (suffix or Path(name).suffix)
            mutated.export(d / out_name)  # type: ignore[attr-defined]
            yield Mutant(klass, valid, _encode(set_leaf(ref.output, path, out_name)), d)

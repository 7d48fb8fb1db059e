"""Small structural models for the cases: perturbed hexahedral blocks, Freudenthal tetrahedral blocks,
mixed blocks, with clamped, minimal or prescribed-displacement supports and random nodal loads."""
from __future__ import annotations

import itertools

import numpy as np

# the 6 tetrahedra of a cube along the main diagonal (corner offsets, path through the axes)
_PERMS = list(itertools.permutations(range(3)))


def grid(n: tuple[int, int, int], size: tuple[float, float, float], rng: np.random.Generator,
         jitter: float) -> tuple[np.ndarray, dict[tuple[int, int, int], int]]:
    """Node coordinates of a structured block, interior nodes moved by up to `jitter` cells."""
    idx = {}
    pts = []
    h = np.array(size) / np.array(n)
    for k in range(n[2] + 1):
        for j in range(n[1] + 1):
            for i in range(n[0] + 1):
                p = np.array([i, j, k]) * h
                inner = np.array([0 < i < n[0], 0 < j < n[1], 0 < k < n[2]])
                p = p + inner * rng.uniform(-jitter, jitter, 3) * h
                idx[(i, j, k)] = len(pts)
                pts.append(p)
    return np.array(pts), idx


def _hex(c: tuple[int, int, int], idx: dict) -> list[int]:
    i, j, k = c
    return [idx[(i, j, k)], idx[(i + 1, j, k)], idx[(i + 1, j + 1, k)], idx[(i, j + 1, k)],
            idx[(i, j, k + 1)], idx[(i + 1, j, k + 1)], idx[(i + 1, j + 1, k + 1)], idx[(i, j + 1, k + 1)]]


def _tets(c: tuple[int, int, int], idx: dict, pts: np.ndarray) -> list[list[int]]:
    out = []
    for perm in _PERMS:
        corner = list(c)
        nodes = [idx[tuple(corner)]]
        for ax in perm:
            corner[ax] += 1
            nodes.append(idx[tuple(corner)])
        X = pts[nodes]
        if np.linalg.det((X[1:] - X[0]).T) < 0:
            nodes[1], nodes[2] = nodes[2], nodes[1]
        out.append(nodes)
    return out


def block(rng: np.random.Generator, n: tuple[int, int, int], size: tuple[float, float, float], kind: str,
          jitter: float = 0.15, first_id: int = 1, id_step: int = 1) -> dict:
    """A block meshed with hexahedra ('hex'), tetrahedra ('tet') or hexahedra then tetrahedra ('mixed')."""
    pts, idx = grid(n, size, rng, jitter)
    nid = [first_id + id_step * k for k in range(len(pts))]
    elements = []
    for c in itertools.product(range(n[0]), range(n[1]), range(n[2])):
        if kind == "hex" or (kind == "mixed" and c[0] < n[0] // 2):
            elements.append({"type": "C3D8", "nodes": [nid[a] for a in _hex(c, idx)]})
        else:
            elements += [{"type": "C3D4", "nodes": [nid[a] for a in t]} for t in _tets(c, idx, pts)]
    nodes = [[nid[k], *map(float, np.round(p, 9))] for k, p in enumerate(pts)]
    return {"nodes": nodes, "elements": elements, "_idx": idx, "_nid": nid, "_n": n}


def cantilever(rng: np.random.Generator, m: dict, E: float, nu: float, load: float) -> dict:
    """Clamped at x=0, random forces on the nodes of the free end x=L."""
    n, idx, nid = m["_n"], m["_idx"], m["_nid"]
    fixed = [[nid[a], d, 0.0] for (i, _, _), a in sorted(idx.items(), key=lambda t: t[1]) if i == 0 for d in (1, 2, 3)]
    tip = [a for (i, _, _), a in sorted(idx.items(), key=lambda t: t[1]) if i == n[0]]
    loads = [[nid[a], d, float(np.round(load * rng.uniform(-1, 1), 6))] for a in tip for d in (1, 2, 3)]
    return _model(m, E, nu, fixed, loads)


def stretched(rng: np.random.Generator, m: dict, E: float, nu: float, delta: float) -> dict:
    """End faces pulled apart by prescribed displacements, rigid motion removed by three supports,
    plus one random side load."""
    n, idx, nid = m["_n"], m["_idx"], m["_nid"]
    fixed = []
    for (i, j, k), a in sorted(idx.items(), key=lambda t: t[1]):
        if i == 0:
            fixed.append([nid[a], 1, 0.0])
            if j == 0 and k == 0:
                fixed += [[nid[a], 2, 0.0], [nid[a], 3, 0.0]]
            elif j == n[1] and k == 0:
                fixed.append([nid[a], 3, 0.0])
            elif j == 0 and k == n[2]:
                fixed.append([nid[a], 2, 0.0])
        elif i == n[0]:
            fixed.append([nid[a], 1, float(delta)])
    side = idx[(n[0] // 2, n[1], n[2] // 2)]
    loads = [[nid[side], 2, float(np.round(E * delta * rng.uniform(0.01, 0.05), 6))]]
    return _model(m, E, nu, fixed, loads)


def _model(m: dict, E: float, nu: float, fixed: list, loads: list) -> dict:
    return {"material": {"E": E, "nu": nu}, "nodes": m["nodes"], "elements": m["elements"],
            "fixed": fixed, "loads": loads}

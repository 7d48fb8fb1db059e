"""The verifier's own global stiffness matrix and load vector (vectorised over elements, written apart
from the reference), so equilibrium is recomputed from the candidate's displacements alone."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

_NAT = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                 [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)


def _D(E: float, nu: float) -> np.ndarray:
    mu, lam = E / (2 * (1 + nu)), E * nu / ((1 + nu) * (1 - 2 * nu))
    return np.diag([2 * mu] * 3 + [mu] * 3) + np.pad(np.full((3, 3), lam), ((0, 3), (0, 3)))


def _B(g: np.ndarray) -> np.ndarray:
    """Strain-displacement matrices (m, 6, 3n) from gradients g (m, n, 3)."""
    m, n, _ = g.shape
    B = np.zeros((m, 6, n, 3))
    for c in range(3):
        B[:, c, :, c] = g[:, :, c]
    for row, (a, b) in zip((3, 4, 5), ((0, 1), (0, 2), (1, 2))):
        B[:, row, :, a] = g[:, :, b]
        B[:, row, :, b] = g[:, :, a]
    return B.reshape(m, 6, 3 * n)


def _hex(X: np.ndarray, D: np.ndarray) -> np.ndarray:
    K = np.zeros((len(X), 24, 24))
    r = 1 / np.sqrt(3)
    for xi in np.array(np.meshgrid([-r, r], [-r, r], [-r, r])).reshape(3, -1).T:
        f = 1 + _NAT * xi
        dn = _NAT * np.stack([f[:, 1] * f[:, 2], f[:, 0] * f[:, 2], f[:, 0] * f[:, 1]], 1) / 8  # (8,3)
        J = np.einsum("ai,eaj->eij", dn, X)  # d x_j / d xi_i
        g = np.linalg.solve(J[:, None], dn[None, :, :, None])[..., 0]  # (m, 8, 3)
        B = _B(g)
        K += np.einsum("eki,kl,elj->eij", B, D, B) * np.linalg.det(J)[:, None, None]
    return K


def _tet(X: np.ndarray, D: np.ndarray) -> np.ndarray:
    J = np.transpose(X[:, 1:] - X[:, :1], (0, 2, 1))
    dn = np.array([[-1, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    g = np.einsum("aj,eji->eai", dn, np.linalg.inv(J))
    B = _B(g)
    return np.einsum("eki,kl,elj->eij", B, D, B) * (np.linalg.det(J) / 6)[:, None, None]


def assemble(model: dict) -> tuple[sp.csr_matrix, np.ndarray, dict[int, int]]:
    """K (3N x 3N, DOF 3k+d-1 for the k-th input node), the nodal load vector, and node id -> k."""
    where = {int(n[0]): k for k, n in enumerate(model["nodes"])}
    xyz = np.array([n[1:4] for n in model["nodes"]], dtype=float)
    D = _D(float(model["material"]["E"]), float(model["material"]["nu"]))
    rows, cols, vals = [], [], []
    for kind, fn in (("C3D8", _hex), ("C3D4", _tet)):
        conn = np.array([[where[int(n)] for n in e["nodes"]] for e in model["elements"] if e["type"] == kind], dtype=int)
        if not len(conn):
            continue
        Ke = fn(xyz[conn], D)
        dofs = (3 * conn[:, :, None] + np.arange(3)).reshape(len(conn), -1)
        rows.append(np.repeat(dofs, dofs.shape[1], axis=1).ravel())
        cols.append(np.tile(dofs, dofs.shape[1]).ravel())
        vals.append(Ke.ravel())
    n = 3 * len(where)
    K = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    f = np.zeros(n)
    for node, dof, value in model.get("loads", []):
        f[3 * where[int(node)] + int(dof) - 1] += float(value)
    return K, f, where

"""Clean-room linear-elastic finite elements (spec.md): C3D8 trilinear hexahedra with 2x2x2 Gauss
integration, C3D4 constant-strain tetrahedra, one isotropic material, direct sparse solve."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

G = 1.0 / np.sqrt(3.0)
HEX_NAT = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                    [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)
NODES_PER = {"C3D8": 8, "C3D4": 4}


def elasticity(E: float, nu: float) -> np.ndarray:
    """Isotropic 6x6 matrix in Voigt order xx, yy, zz, xy, xz, yz with engineering shear strains."""
    lam = E * nu / ((1 + nu) * (1 - 2 * nu))
    mu = E / (2 * (1 + nu))
    D = np.zeros((6, 6))
    D[:3, :3] = lam
    D[np.arange(3), np.arange(3)] += 2 * mu
    D[np.arange(3, 6), np.arange(3, 6)] = mu
    return D


def strain_matrix(dN: np.ndarray) -> np.ndarray:
    """B (6 x 3n) from the shape-function gradients dN (n x 3)."""
    n = dN.shape[0]
    B = np.zeros((6, 3 * n))
    for a in range(n):
        dx, dy, dz = dN[a]
        c = 3 * a
        B[0, c], B[1, c + 1], B[2, c + 2] = dx, dy, dz
        B[3, c], B[3, c + 1] = dy, dx
        B[4, c], B[4, c + 2] = dz, dx
        B[5, c + 1], B[5, c + 2] = dz, dy
    return B


def hex_stiffness(X: np.ndarray, D: np.ndarray) -> np.ndarray:
    """C3D8: sum over the 8 Gauss points (+-1/sqrt3) of B^T D B det J."""
    K = np.zeros((24, 24))
    for gx in (0.0,):  # reduced (one-point) integration, weight 8
        for gy in (0.0,):
            for gz in (0.0,):
                xi = np.array([gx, gy, gz])
                f = 1 + HEX_NAT * xi  # (8,3): 1 + xi_a xi etc.
                dNn = np.empty((8, 3))
                dNn[:, 0] = HEX_NAT[:, 0] * f[:, 1] * f[:, 2] / 8
                dNn[:, 1] = HEX_NAT[:, 1] * f[:, 0] * f[:, 2] / 8
                dNn[:, 2] = HEX_NAT[:, 2] * f[:, 0] * f[:, 1] / 8
                J = dNn.T @ X
                det = np.linalg.det(J)
                if det <= 0:
                    raise ValueError("C3D8 element with a non-positive Jacobian (check the node order)")
                B = strain_matrix(np.linalg.solve(J, dNn.T).T)
                K += B.T @ D @ B * det * 8
    return K


def tet_stiffness(X: np.ndarray, D: np.ndarray) -> np.ndarray:
    """C3D4: constant strain, volume times B^T D B."""
    J = (X[1:] - X[0]).T  # columns: edges from node 1
    det = np.linalg.det(J)
    if det <= 0:
        raise ValueError("C3D4 element with a non-positive volume (check the node order)")
    dNn = np.array([[-1, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    dN = dNn @ np.linalg.inv(J)
    B = strain_matrix(dN)
    return B.T @ D @ B * det / 6.0


def solve(model: dict) -> dict:
    """Assemble, apply prescribed DOFs by partitioning, solve K_ff u_f = f_f - K_fc u_c; reactions K_c u."""
    ids = [int(n[0]) for n in model["nodes"]]
    where = {nid: k for k, nid in enumerate(ids)}
    if len(where) != len(ids):
        raise ValueError("duplicate node id")
    xyz = np.array([[float(c) for c in n[1:4]] for n in model["nodes"]])
    mat = model["material"]
    D = elasticity(float(mat["E"]), float(mat["nu"]))
    ndof = 3 * len(ids)
    rows, cols, vals = [], [], []
    for e in model["elements"]:
        kind, conn = e["type"], [where[int(n)] for n in e["nodes"]]
        if NODES_PER.get(kind) != len(conn):
            raise ValueError(f"element type {kind!r} with {len(conn)} nodes")
        Ke = (hex_stiffness if kind == "C3D8" else tet_stiffness)(xyz[conn], D)
        dofs = np.array([[3 * c, 3 * c + 1, 3 * c + 2] for c in conn]).ravel()
        rows.append(np.repeat(dofs, len(dofs)))
        cols.append(np.tile(dofs, len(dofs)))
        vals.append(Ke.ravel())
    K = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(ndof, ndof))
    f = np.zeros(ndof)
    for node, dof, value in model.get("loads", []):
        f[3 * where[int(node)] + int(dof) - 1] += float(value)
    u = np.zeros(ndof)
    fixed = [3 * where[int(n)] + int(d) - 1 for n, d, _ in model["fixed"]]
    if len(set(fixed)) != len(fixed):
        raise ValueError("a DOF is prescribed twice")
    u[fixed] = [float(v) for _, _, v in model["fixed"]]
    free = np.setdiff1d(np.arange(ndof), fixed)
    Kff = K[free][:, free].tocsc()
    u[free] = spla.spsolve(Kff, f[free] - K[free][:, fixed] @ u[fixed])
    if not np.all(np.isfinite(u)):
        raise ValueError("singular stiffness: the model is not sufficiently constrained")
    reactions = K[fixed] @ u - f[fixed]
    return {"displacements": u.reshape(-1, 3).tolist(), "reactions": reactions.tolist()}

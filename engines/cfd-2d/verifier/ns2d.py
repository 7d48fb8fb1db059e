"""Clean-room steady incompressible 2D Navier-Stokes on a staggered (MAC) grid (spec.md): second-order
central differences, conservative convection, ghost-cell walls, solved by Newton's method with a sparse
direct solver, with continuation in the Reynolds number for robustness."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

SIDES = ("left", "right", "bottom", "top")


@dataclass
class Aff:
    """A padded array whose entries are affine in one unknown each: coef * x[idx] + const (idx -1: none)."""

    idx: np.ndarray
    coef: np.ndarray
    const: np.ndarray

    @staticmethod
    def zeros(shape: tuple[int, int]) -> Aff:
        return Aff(np.full(shape, -1), np.zeros(shape), np.zeros(shape))

    def set(self, key, idx, coef, const) -> None:
        self.idx[key], self.coef[key], self.const[key] = idx, coef, const

    def mirror(self, dst, src, sign: float, const) -> None:
        """dst = sign * src + const (ghost cells)."""
        self.set(dst, self.idx[src], sign * self.coef[src], sign * self.const[src] + const)

    def op(self, key, n: int) -> tuple[sp.csr_matrix, np.ndarray]:
        """The slice as a sparse map (rows: slice entries in C order) and its constant part."""
        idx, coef, const = self.idx[key].ravel(), self.coef[key].ravel(), self.const[key].ravel()
        rows = np.nonzero(idx >= 0)[0]
        M = sp.csr_matrix((coef[rows], (rows, idx[rows])), shape=(len(idx), n))
        return M, const


def inlet_profile(b: dict, y: np.ndarray) -> np.ndarray:
    """Inlet velocity at heights y (zero outside [y_from, y_to]) from the profile and its mean velocity."""
    y0, y1, um = float(b["y_from"]), float(b["y_to"]), float(b["mean_velocity"])
    s = (y - y0) / (y1 - y0)
    inside = (s > 0) & (s < 1)
    shape = {"uniform": np.ones_like(s), "parabolic": 6 * s * (1 - s), "linear": 2 * s}[b["profile"]]
    return np.where(inside, um * shape, 0.0)


class Problem:
    """Unknown numbering and the padded affine fields of one case."""

    def __init__(self, case: dict):
        dom, bc = case["domain"], case["boundaries"]
        self.nx, self.ny = int(dom["nx"]), int(dom["ny"])
        self.dx, self.dy = float(dom["Lx"]) / self.nx, float(dom["Ly"]) / self.ny
        self.nu = float(case["fluid"]["viscosity"]) / float(case["fluid"]["density"])
        self.rho = float(case["fluid"]["density"])
        self.bc = bc
        self.outlet = bc["right"]["type"] == "outlet"
        nx, ny = self.nx, self.ny
        ucols = nx if self.outlet else nx - 1  # unknown u columns i = 1..ucols
        self.nu_unk, self.nv_unk, self.np_unk = ny * ucols, (ny - 1) * nx, ny * nx
        self.n = self.nu_unk + self.nv_unk + self.np_unk
        self.ucols = ucols
        self._ops: dict = {}  # sparse slices of the padded fields, built once
        self._build()

    def _wall(self, side: str) -> float:
        b = self.bc[side]
        return float(b.get("velocity", 0.0)) if b["type"] == "wall" else 0.0

    def _build(self) -> None:
        nx, ny = self.nx, self.ny
        yc = (np.arange(ny) + 0.5) * self.dy
        # u padded: rows j=-1..ny, cols i=-1..nx+1 -> U[j+1, i+1]
        U = Aff.zeros((ny + 2, nx + 3))
        k = np.arange(self.nu_unk).reshape(ny, self.ucols)
        U.set((slice(1, ny + 1), slice(2, 2 + self.ucols)), k, 1.0, 0.0)
        left = inlet_profile(self.bc["left"], yc) if self.bc["left"]["type"] == "inlet" else np.zeros(ny)
        U.set((slice(1, ny + 1), 1), -1, 0.0, left)
        if self.outlet:
            U.mirror((slice(1, ny + 1), nx + 2), (slice(1, ny + 1), nx + 1), 1.0, 0.0)
        else:
            U.set((slice(1, ny + 1), nx + 1), -1, 0.0, 0.0)
        U.mirror((0, slice(None)), (1, slice(None)), -1.0, 2 * self._wall("bottom"))
        U.mirror((ny + 1, slice(None)), (ny, slice(None)), -1.0, 2 * self._wall("top"))
        # v padded: rows j=-1..ny+1, cols i=-1..nx -> V[j+1, i+1]
        V = Aff.zeros((ny + 3, nx + 2))
        k = self.nu_unk + np.arange(self.nv_unk).reshape(ny - 1, nx)
        V.set((slice(2, ny + 1), slice(1, nx + 1)), k, 1.0, 0.0)
        V.mirror((slice(None), 0), (slice(None), 1), -1.0, 2 * self._wall("left"))
        if self.outlet:
            V.mirror((slice(None), nx + 1), (slice(None), nx), 1.0, 0.0)
        else:
            V.mirror((slice(None), nx + 1), (slice(None), nx), -1.0, 2 * self._wall("right"))
        # p padded: cols i=0..nx (ghost nx: p = 0 on the outlet face)
        P = Aff.zeros((ny, nx + 1))
        P.set((slice(None), slice(0, nx)), self.nu_unk + self.nv_unk + np.arange(self.np_unk).reshape(ny, nx), 1.0, 0.0)
        if self.outlet:
            P.mirror((slice(None), nx), (slice(None), nx - 1), -1.0, 0.0)
        self.U, self.V, self.P = U, V, P

    def residual(self, x: np.ndarray, nu: float) -> tuple[np.ndarray, sp.csr_matrix]:
        """Momentum (u, v faces) and continuity (cells) residuals and their Jacobian."""
        n, nx, ny, dx, dy = self.n, self.nx, self.ny, self.dx, self.dy
        U, V, P = self.U, self.V, self.P
        c = self.ucols
        terms: list[tuple[np.ndarray, sp.csr_matrix]] = []

        def aff(F, rows, cols):
            key = (id(F), repr(rows), repr(cols))
            if key not in self._ops:
                self._ops[key] = F.op((rows, cols), n)
            M, k = self._ops[key]
            return M @ x + k, M

        def half(a, b):
            return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2

        def prod(a, b, s):
            return s * a[0] * b[0], s * (sp.diags(b[0]) @ a[1] + sp.diags(a[0]) @ b[1])

        def lin(*parts):
            return sum(s * a[0] for a, s in parts), sum(s * a[1] for a, s in parts)

        # u-momentum at u faces j=0..ny-1, i=1..c  (U[j+1, i+1]; V[j+1, i+1] is v_{j,i})
        J, I = slice(1, ny + 1), slice(2, 2 + c)
        uP, uE, uW = aff(U, J, I), aff(U, J, slice(3, 3 + c)), aff(U, J, slice(1, 1 + c))
        uN, uS = aff(U, slice(2, ny + 2), I), aff(U, slice(0, ny), I)
        vn = half(aff(V, slice(2, ny + 2), slice(1, 1 + c)), aff(V, slice(2, ny + 2), slice(2, 2 + c)))
        vs = half(aff(V, slice(1, ny + 1), slice(1, 1 + c)), aff(V, slice(1, ny + 1), slice(2, 2 + c)))
        ue, uw, un, us = half(uP, uE), half(uW, uP), half(uP, uN), half(uS, uP)
        conv = lin((prod(ue, ue, 1 / dx), 1), (prod(uw, uw, 1 / dx), -1), (prod(un, vn, 1 / dy), 1), (prod(us, vs, 1 / dy), -1))
        diff = lin((uE, 1 / dx**2), (uW, 1 / dx**2), (uN, 1 / dy**2), (uS, 1 / dy**2), (uP, -2 / dx**2 - 2 / dy**2))
        grad = lin((aff(P, slice(None), slice(1, 1 + c)), 1 / dx), (aff(P, slice(None), slice(0, c)), -1 / dx))
        terms.append(lin((conv, 1), (diff, -nu), (grad, 1)))
        # v-momentum at v faces j=1..ny-1, i=0..nx-1  (V[j+1, i+1]; U[j+1, i+1] is u_{j,i})
        J, I = slice(2, ny + 1), slice(1, nx + 1)
        vP, vE, vW = aff(V, J, I), aff(V, J, slice(2, nx + 2)), aff(V, J, slice(0, nx))
        vN, vS = aff(V, slice(3, ny + 2), I), aff(V, slice(1, ny), I)
        ue = half(aff(U, slice(1, ny), slice(2, nx + 2)), aff(U, slice(2, ny + 1), slice(2, nx + 2)))
        uw = half(aff(U, slice(1, ny), slice(1, nx + 1)), aff(U, slice(2, ny + 1), slice(1, nx + 1)))
        vn, vs, ve, vw = half(vP, vN), half(vS, vP), half(vP, vE), half(vW, vP)
        conv = lin((prod(vn, vn, 1 / dy), 1), (prod(vs, vs, 1 / dy), -1), (prod(ue, ve, 1 / dx), 1), (prod(uw, vw, 1 / dx), -1))
        diff = lin((vE, 1 / dx**2), (vW, 1 / dx**2), (vN, 1 / dy**2), (vS, 1 / dy**2), (vP, -2 / dx**2 - 2 / dy**2))
        grad = lin((aff(P, slice(1, ny), slice(0, nx)), 1 / dy), (aff(P, slice(0, ny - 1), slice(0, nx)), -1 / dy))
        terms.append(lin((conv, 1), (diff, -nu), (grad, 1)))
        # continuity in every cell
        div = lin((aff(U, slice(1, ny + 1), slice(2, nx + 2)), 1 / dx), (aff(U, slice(1, ny + 1), slice(1, nx + 1)), -1 / dx),
                  (aff(V, slice(2, ny + 2), slice(1, nx + 1)), 1 / dy), (aff(V, slice(1, ny + 1), slice(1, nx + 1)), -1 / dy))
        r = np.concatenate([t[0] for t in terms] + [div[0]])
        Jm = sp.vstack([t[1] for t in terms] + [div[1]]).tocsr()
        if not self.outlet:  # pressure is defined up to a constant: pin cell (0, 0) instead of its continuity
            k = self.nu_unk + self.nv_unk
            keep = np.ones(n)
            keep[k] = 0.0
            Jm = sp.diags(keep) @ Jm + sp.csr_matrix(([1.0], ([k], [k])), shape=(n, n))
            r[k] = x[k]
        return r, Jm.tocsc()

    def fields(self, x: np.ndarray) -> dict[str, list]:
        """u (ny x nx+1), v (ny+1 x nx), p (ny x nx) on the MAC grid, p in pressure units."""
        nx, ny = self.nx, self.ny

        def full(F, rows, cols):
            idx, coef, const = F.idx[rows, cols], F.coef[rows, cols], F.const[rows, cols]
            return np.where(idx >= 0, coef * x[np.maximum(idx, 0)], 0.0) + const

        u = full(self.U, slice(1, ny + 1), slice(1, nx + 2))
        v = full(self.V, slice(1, ny + 2), slice(1, nx + 1))
        p = full(self.P, slice(None), slice(0, nx)) * self.rho
        if not self.outlet:
            p = p - p.mean()
        return {"u": u.tolist(), "v": v.tolist(), "p": p.tolist()}


def velocity_scale(case: dict) -> float:
    """The largest boundary speed (wall speeds, inlet peak speed)."""
    peak = {"uniform": 1.0, "parabolic": 1.5, "linear": 2.0}
    out = 0.0
    for side in SIDES:
        b = case["boundaries"][side]
        if b["type"] == "wall":
            out = max(out, abs(float(b.get("velocity", 0.0))))
        elif b["type"] == "inlet":
            out = max(out, abs(float(b["mean_velocity"])) * peak[b["profile"]])
    return out


def newton(pb: Problem, x: np.ndarray, nu: float, tol: float, max_iter: int = 25) -> tuple[np.ndarray, bool]:
    for _ in range(max_iter):
        r, J = pb.residual(x, nu)
        if np.abs(r).max() < tol:
            return x, True
        x = x - spla.spsolve(J, r)
        if not np.all(np.isfinite(x)):
            return x, False
    r, _ = pb.residual(x, nu)
    return x, bool(np.abs(r).max() < tol)


def validate(case: dict) -> None:
    """The input rules of spec.md; a violation is a ValueError naming the field."""
    d, b = case["domain"], case["boundaries"]
    if int(d["nx"]) < 2 or int(d["ny"]) < 2 or float(d["Lx"]) <= 0 or float(d["Ly"]) <= 0:
        raise ValueError("domain: nx, ny >= 2 and Lx, Ly > 0 required")
    if float(case["fluid"]["density"]) <= 0 or float(case["fluid"]["viscosity"]) <= 0:
        raise ValueError("fluid: density and viscosity must be positive")
    kinds = {s: b[s]["type"] for s in SIDES}
    if kinds["bottom"] != "wall" or kinds["top"] != "wall" or kinds["left"] not in ("wall", "inlet") \
            or kinds["right"] not in ("wall", "outlet") or (kinds["left"] == "inlet") != (kinds["right"] == "outlet"):
        raise ValueError("boundaries: walls top and bottom; left inlet with right outlet, or walls")
    if kinds["left"] == "inlet":
        inl, dy = b["left"], float(d["Ly"]) / int(d["ny"])
        y0, y1 = float(inl["y_from"]), float(inl["y_to"])
        on_line = all(abs(y / dy - round(y / dy)) < 1e-9 for y in (y0, y1))
        if not (0 <= y0 < y1 <= float(d["Ly"]) and on_line) or inl["profile"] not in ("uniform", "parabolic", "linear"):
            raise ValueError("boundaries.left: y_from < y_to on grid lines within [0, Ly], profile uniform|parabolic|linear")


def solve(case: dict) -> dict[str, list]:
    """Steady solution: Newton from rest, stepping the viscosity down from a low-Reynolds start if needed."""
    validate(case)
    pb = Problem(case)
    U = velocity_scale(case) or 1.0
    L = min(pb.nx * pb.dx, pb.ny * pb.dy)
    h = min(pb.dx, pb.dy)
    tol = 1e-10 * max(U * U / L, pb.nu * U / h**2)
    x = np.zeros(pb.n)
    nu_start = max(pb.nu, U * L / 50)
    nus = [pb.nu] if nu_start == pb.nu else list(np.geomspace(nu_start, pb.nu, int(np.ceil(np.log2(nu_start / pb.nu))) + 1))
    for nu in nus:
        x, ok = newton(pb, x, nu, tol if nu == nus[-1] else 1e-4 * U * U / L)
        if not ok and nu == nus[-1]:
            raise ValueError("Newton iteration did not converge")
    return pb.fields(x)

"""Hidden verifier for cfd-2d: the candidate's velocity and pressure on probe lines against a grid-converged
solution of the same case, and, recomputed from the candidate's own fields with the spec's MAC operators,
the discrete divergence of every cell, the mass flux through every grid line, and the boundary values."""
from __future__ import annotations

import json
import math
import sys
from typing import Any

import numpy as np

PEAK = {"uniform": 1.0, "parabolic": 1.5, "linear": 2.0}


class Case:
    """Grid, boundary data and scales of one input."""

    def __init__(self, inp: dict):
        d = inp["domain"]
        self.nx, self.ny = int(d["nx"]), int(d["ny"])
        self.Lx, self.Ly = float(d["Lx"]), float(d["Ly"])
        self.dx, self.dy = self.Lx / self.nx, self.Ly / self.ny
        self.rho = float(inp["fluid"]["density"])
        self.bc = inp["boundaries"]
        self.outlet = self.bc["right"]["type"] == "outlet"
        speeds = [abs(float(b.get("velocity", 0.0))) for b in self.bc.values() if b["type"] == "wall"]
        inlet = self.bc["left"]
        if inlet["type"] == "inlet":
            speeds.append(abs(float(inlet["mean_velocity"])) * PEAK[inlet["profile"]])
        self.U = max(speeds + [1e-300])

    def inflow(self) -> np.ndarray:
        """The prescribed u on the left boundary faces (point values of the profile at the face centres)."""
        b = self.bc["left"]
        if b["type"] != "inlet":
            return np.zeros(self.ny)
        y = (np.arange(self.ny) + 0.5) * self.dy
        s = (y - float(b["y_from"])) / (float(b["y_to"]) - float(b["y_from"]))
        shape = {"uniform": np.ones_like(s), "parabolic": 6 * s * (1 - s), "linear": 2 * s}[b["profile"]]
        return np.where((s > 0) & (s < 1), float(b["mean_velocity"]) * shape, 0.0)


def field(x: Any, shape: tuple[int, int]) -> np.ndarray | None:
    """x as a finite float array of that shape, or None for any malformed value."""
    try:
        a = np.array(x, dtype=float)
    except (ValueError, TypeError, OverflowError):
        return None
    return a if a.shape == shape and np.all(np.isfinite(a)) and np.all(np.abs(a) < 1e100) else None


def probes(c: Case, u: np.ndarray, v: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Velocities on the probe lines x = Lx/4, Lx/2, 3Lx/4 (u faces) and y = Ly/4, Ly/2, 3Ly/4 (v faces);
    the pressure on the same lines (mean of the two cells either side of each line)."""
    cols, rows = [c.nx // 4, c.nx // 2, 3 * c.nx // 4], [c.ny // 4, c.ny // 2, 3 * c.ny // 4]
    vel = np.concatenate([u[:, cols].ravel(), v[rows, :].ravel()])
    pr = np.concatenate([((p[:, k - 1] + p[:, k]) / 2) for k in cols] + [((p[k - 1, :] + p[k, :]) / 2) for k in rows])
    return vel, pr


def measure(inp: dict, expected: dict, out: Any) -> dict[str, tuple[float | None, str]]:
    c = Case(inp)
    out = out if isinstance(out, dict) else {}
    u = field(out.get("u"), (c.ny, c.nx + 1))
    v = field(out.get("v"), (c.ny + 1, c.nx))
    p = field(out.get("p"), (c.ny, c.nx))
    names = {"velocity_error": "max |u - u_ref| on probe lines / U",
             "pressure_error": "max |p - p_ref| on probe lines / max(rho U^2, pressure range)",
             "divergence": "max over cells |(u_E - u_W)/dx + (v_N - v_S)/dy| * min(dx, dy) / U",
             "mass_balance": "max over grid lines |net flux - prescribed| / (U * L)",
             "boundary_conditions": "max |boundary-normal face velocity - prescribed| / U"}
    if u is None or v is None or p is None:
        bad = "u, v and p must be finite arrays of shapes (ny, nx+1), (ny+1, nx), (ny, nx)"
        return {k: (None, bad) for k in names}
    ue, ve, pe = (np.array(expected[k], dtype=float) for k in "uvp")
    vel, pr = probes(c, u, v, p)
    vel_ref, pr_ref = probes(c, ue, ve, pe)
    if not c.outlet:  # closed cavity: pressure is defined up to a constant
        pr, pr_ref = pr - pr.mean(), pr_ref - pr_ref.mean()
    pscale = max(c.rho * c.U ** 2, float(np.ptp(pr_ref)))
    div = (u[:, 1:] - u[:, :-1]) / c.dx + (v[1:, :] - v[:-1, :]) / c.dy
    q_in = float(c.inflow().sum() * c.dy)
    col_flux = u.sum(axis=0) * c.dy - q_in  # every vertical line carries the inflow
    flux = [np.abs(col_flux).max() / (c.U * c.Ly)]
    if not c.outlet and c.bc["left"]["type"] != "inlet":  # closed box: every horizontal line carries nothing
        flux.append(np.abs(v.sum(axis=1) * c.dx).max() / (c.U * c.Lx))
    gaps = [np.abs(u[:, 0] - c.inflow()).max(), np.abs(v[0]).max(), np.abs(v[-1]).max()]
    if not c.outlet:  # a right wall: no flow through it
        gaps.append(np.abs(u[:, -1]).max())
    vals = {"velocity_error": np.abs(vel - vel_ref).max() / c.U,
            "pressure_error": np.abs(pr - pr_ref).max() / pscale,
            "divergence": np.abs(div).max() * min(c.dx, c.dy) / c.U,
            "mass_balance": max(flux),
            "boundary_conditions": max(gaps) / c.U}
    return {k: (float(x) if math.isfinite(x) else None, names[k]) for k, x in vals.items()}


def main() -> None:
    d = json.load(sys.stdin)
    got = measure(d["input"], d["expected"], d.get("output"))
    records = []
    for name, spec in d["checks"].items():
        value, why = got.get(name, (None, "unknown check"))
        if spec["kind"] == "tolerance":
            ok = value is not None and (value <= spec["threshold"] if spec["better"] == "lower" else value >= spec["threshold"])
        else:
            ok = value is not None and value <= 1e-9
        records.append({"check": name, "measured": value, "pass": bool(ok), "detail": why})
    print(json.dumps({"checks": records}))


if __name__ == "__main__":
    main()

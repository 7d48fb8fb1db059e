"""The four analyses of spec.md on top of the MNA system, and the probes read from their solutions."""
from __future__ import annotations

import math
import re

import numpy as np

from netlist import Circuit, NetlistError
from solver import System, junction

SUBSTEPS = 20  # internal steps per output step (spec.md: h <= tstep/10)


def probe_reader(sys_: System, probe: str):
    """A function of the solution vector giving the probed quantity: v(n), v(a,b), i(Vx) or i(Lx)."""
    m = re.fullmatch(r"\s*([vi])\s*\(\s*([^,()\s]+)\s*(?:,\s*([^,()\s]+)\s*)?\)\s*", probe.lower())
    if not m:
        raise NetlistError(f"bad probe {probe!r}")
    kind, a, b = m.group(1), m.group(2), m.group(3)
    if kind == "i":
        if b is not None or a not in sys_.branch:
            raise NetlistError(f"probe {probe!r}: i() takes one V source or inductor")
        k = sys_.branch[a]
        return lambda x: x[k]
    for n in (a, b or "0"):
        if n != "0" and n not in sys_.node:
            raise NetlistError(f"probe {probe!r}: unknown node {n}")
    return lambda x: sys_.volt(x, a) - sys_.volt(x, b or "0")


def op_point(sys_: System, src: dict[str, float], guess: np.ndarray | None = None) -> np.ndarray:
    a, b = sys_.linear(src, "dc")
    return sys_.solve(a, b, np.zeros(sys_.size) if guess is None else guess)


def sweep_grid(start: float, stop: float, step: float) -> list[float]:
    if step == 0 or (stop - start) / step < 0:
        raise NetlistError(".dc: the step must go from start towards stop")
    n = math.floor((stop - start) / step + 1e-9)
    return [start + k * step for k in range(n + 1)]


def run_dc(sys_: System, args: list) -> tuple[list[float], list[np.ndarray]]:
    name, start, stop, step = args
    if name not in {s.name for s in sys_.c.sources}:
        raise NetlistError(f".dc: unknown source {name}")
    xs, sols, guess = sweep_grid(start, stop, step), [], None
    for v in xs:
        src = {s.name: (v if s.name == name else s.dc_value()) for s in sys_.c.sources}
        guess = op_point(sys_, src, guess)
        sols.append(guess)
    return xs, sols


def time_points(c: Circuit, tstep: float, tstop: float) -> tuple[list[float], set[float]]:
    """The output grid and the breakpoints (slope jumps of the sources) inside (0, tstop)."""
    if tstep <= 0 or tstop <= 0 or tstop / tstep > 100000:
        raise NetlistError(".tran: need 0 < tstep <= tstop and at most 100000 output points")
    n = round(tstop / tstep)
    grid = [k * tstep for k in range(n + 1)]
    bps = {round(t, 18) for s in c.sources for t in s.breakpoints(grid[-1])}
    return grid, bps


def merged_stops(grid: list[float], bps: set[float], tstep: float) -> list[tuple[float, bool, bool]]:
    """(time, is an output time, is a breakpoint) after t = 0; a breakpoint within 1e-9 tstep of an
    output time is that output time."""
    marks = [(g, True, False) for g in grid[1:]] + [(b, False, True) for b in sorted(bps)]
    out: list[tuple[float, bool, bool]] = []
    for t, g, b in sorted(marks):
        if out and t - out[-1][0] <= 1e-9 * tstep:
            t0, g0, b0 = out[-1]
            out[-1] = (t0 if g0 else t, g0 or g, b0 or b)
        else:
            out.append((t, g, b))
    return out


def run_tran(sys_: System, args: list) -> tuple[list[float], list[np.ndarray]]:
    """Trapezoidal steps of at most tstep/SUBSTEPS landing on every output time and breakpoint;
    the first step after t = 0 and after each breakpoint is backward Euler."""
    tstep, tstop = args
    grid, bps = time_points(sys_.c, tstep, tstop)
    x = op_point(sys_, {s.name: s.value(0.0) for s in sys_.c.sources})
    caps = [e for e in sys_.c.elements if e.kind == "c"]
    ic = {e.name: 0.0 for e in caps}
    out, hmax = [x], tstep / SUBSTEPS
    t, euler = 0.0, True
    for target, is_grid, is_bp in merged_stops(grid, bps, tstep):
        n = max(1, math.ceil((target - t) / hmax - 1e-9))
        for k in range(n):
            t_new = target if k == n - 1 else t + (target - t) / (n - k)
            h = t_new - t
            a, b = sys_.linear({s.name: s.value(t_new) for s in sys_.c.sources}, "be" if euler else "trap", h, x, ic)
            new = sys_.solve(a, b, x)
            for e in caps:
                dv = (sys_.volt(new, e.np) - sys_.volt(new, e.nm)) - (sys_.volt(x, e.np) - sys_.volt(x, e.nm))
                ic[e.name] = dv * e.value / h if euler else 2 * e.value / h * dv - ic[e.name]
            x, t, euler = new, t_new, False
        euler = is_bp
        if is_grid:
            out.append(x)
    return grid, out


def ac_grid(kind: str, n: int, f1: float, f2: float) -> list[float]:
    if n < 1 or f1 <= 0 or f2 < f1:
        raise NetlistError(".ac: need n >= 1 and 0 < fstart <= fstop")
    if kind == "lin":
        return [f1] if n == 1 else [f1 + k * (f2 - f1) / (n - 1) for k in range(n)]
    count = math.floor(n * math.log10(f2 / f1) + 1e-9)
    return [f1 * 10 ** (k / n) for k in range(count + 1)]


def run_ac(sys_: System, args: list) -> tuple[list[float], list[np.ndarray]]:
    """Small-signal phasors about the DC operating point: C -> jwC, L -> jwL, diodes -> their conductance."""
    freqs = ac_grid(*args)
    x0 = op_point(sys_, {s.name: s.dc_value() for s in sys_.c.sources})
    phasor = {s.name: s.ac_mag * complex(math.cos(s.ac_phase), math.sin(s.ac_phase))
              for s in sys_.c.sources}
    a0, b = sys_.linear(phasor, "dc", dtype=complex)
    for d in sys_.diodes:
        m = sys_.c.models[d.model]
        sys_.stamp_g(a0, d.np, d.nm, junction(sys_.volt(x0, d.np) - sys_.volt(x0, d.nm), m["is"], m["n"])[0])
    sols = []
    for f in freqs:
        w, a = 2 * math.pi * f, a0.copy()
        for e in sys_.c.elements:
            if e.kind == "c":
                sys_.stamp_g(a, e.np, e.nm, 1j * w * e.value)
            elif e.kind == "l":
                k = sys_.branch[e.name]
                a[k, k] -= 1j * w * e.value
        try:
            sols.append(np.linalg.solve(a, b))
        except np.linalg.LinAlgError:
            raise NetlistError("singular AC matrix") from None
    return freqs, sols


def simulate(c: Circuit, probes: list[str]) -> dict:
    """The output object of spec.md: analysis name, grid `x`, one array per probe."""
    sys_ = System(c)
    readers = {p: probe_reader(sys_, p) for p in probes}
    kind, args = c.analysis
    if kind == "op":
        xs, sols = [0.0], [op_point(sys_, {s.name: s.dc_value() for s in c.sources})]
    else:
        xs, sols = {"dc": run_dc, "tran": run_tran, "ac": run_ac}[kind](sys_, args)
    signals: dict = {}
    for p, read in readers.items():
        vals = [read(x) for x in sols]
        signals[p] = ({"re": [float(np.real(v)) for v in vals], "im": [float(np.imag(v)) for v in vals]}
                      if kind == "ac" else [float(v) for v in vals])
    return {"analysis": kind, "x": [float(v) for v in xs], "signals": signals}

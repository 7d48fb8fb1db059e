"""Radiation view factor between two parallel, offset rectangles (a heater panel facing a workpiece, a
detector facing a source) from its four-dimensional double-area integral, evaluated with
scipy.integrate.cubature (adaptive Genz-Malik), and the net black-body exchange between them.

Entry workflow: main(dict) -> dict; module state is never mutated.
"""

import math
import tomllib
from pathlib import Path

import numpy as np
from scipy.integrate import cubature

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
SIGMA = CONSTANTS["SIGMA"]
RTOL = 1e-9


def overlap(d: np.ndarray, w1: float, o: float, w2: float) -> np.ndarray:
    """Length of {x1 in [0, w1] : x1 + d in [o, o + w2]}: the measure of point pairs one axis apart by d."""
    return np.clip(np.minimum(w1, o + w2 - d) - np.maximum(0.0, o - d), 0.0, None)


def kernel(p: np.ndarray, c: float, geo: tuple[float, ...]) -> np.ndarray:
    """c^2 / (pi S^4) at separation (dx, dy, c), weighted by the pairs of points that far apart."""
    w1, l1, w2, l2, ox, oy = geo
    dx, dy = p[:, 0], p[:, 1]
    s2 = dx * dx + dy * dy + c * c
    return c * c / (math.pi * s2 * s2) * overlap(dx, w1, ox, w2) * overlap(dy, l1, oy, l2)


def breaks(w1: float, o: float, w2: float) -> list[float]:
    """The separations where the overlap length has a kink: the pieces on which the integrand is smooth."""
    return sorted({o - w1, min(o, o + w2 - w1), max(o, o + w2 - w1), o + w2})


def main(scn: dict) -> dict:
    w1, l1 = float(scn["width1_m"]), float(scn["length1_m"])
    w2, l2 = float(scn["width2_m"]), float(scn["length2_m"])
    ox, oy = float(scn["offset_x_m"]), float(scn["offset_y_m"])
    c = float(scn["separation_m"])
    t1, t2 = float(scn["temperature1_K"]), float(scn["temperature2_K"])
    geo = (w1, l1, w2, l2, ox, oy)
    bx, by = breaks(w1, ox, w2), breaks(l1, oy, l2)
    exchange_area = 0.0  # A1 F12 = A2 F21
    for x0, x1 in zip(bx, bx[1:]):
        for y0, y1 in zip(by, by[1:]):
            res = cubature(kernel, [x0, y0], [x1, y1], rule="gk21", rtol=RTOL, atol=0.0, args=(c, geo))
            if res.status != "converged":
                raise RuntimeError("cubature did not converge")
            exchange_area += float(res.estimate)
    a1, a2 = w1 * l1, w2 * l2
    f12 = exchange_area / a1
    return {
        "exchange_area_m2": exchange_area,
        "view_factor_12": f12,
        "view_factor_21": exchange_area / a2,
        "net_exchange_W": SIGMA * exchange_area * (t1**4 - t2**4),
        "flux_on_plate2_W_m2": SIGMA * exchange_area * (t1**4 - t2**4) / a2,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

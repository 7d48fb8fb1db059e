"""Hidden cfd-2d cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Five flows, the kinds of the
fixed cases they replace (a shallow lid-driven cavity; a scaled square cavity driven by a lid and a side wall; a
developing channel with a uniform inlet; a partial parabolic inlet, a step or a jet; a partial linear inlet),
each drawn afresh: sizes, grids, which lid moves and which way, speeds, densities, Reynolds numbers (cavities
100 to 120 on the lid's length), inlet openings on grid lines. The spec's rules stay exercised: a density other
than 1 everywhere and a water-like one in one channel (mu is the dynamic viscosity), a moving left wall (its
velocity is the y-component), a linear inlet profile. Grids stay small: the expected fields are the reference's
on grids refined 3x and 5x, computed by expect.py at build time. Every grid size is a multiple of 4."""
from __future__ import annotations

import json
import random
import sys
from typing import Any


def r3(x: float) -> float:
    """Three significant digits: short inputs, the same on every machine."""
    return float(f"{x:.3g}")


def wall(v: float = 0.0) -> dict[str, Any]:
    return {"type": "wall", "velocity": r3(v) if v else 0.0}


def case(Lx: float, Ly: float, nx: int, ny: int, rho: float, mu: float, bounds: dict[str, Any]) -> dict[str, Any]:
    return {"domain": {"Lx": Lx, "Ly": Ly, "nx": nx, "ny": ny}, "fluid": {"density": rho, "viscosity": mu},
            "boundaries": {side: bounds[side] for side in ("left", "right", "bottom", "top")}}


def speed(rng: random.Random) -> float:
    return r3(rng.choice([-1, 1]) * rng.uniform(0.2, 2.0))


def shallow(rng: random.Random) -> dict[str, Any]:
    """A cavity twice as wide as tall, driven by its top lid; Re (on the lid's length) 100 to 120."""
    s, rho, U = r3(rng.uniform(0.5, 1.5)), r3(rng.uniform(0.6, 1.6)), speed(rng)
    mu = r3(rho * abs(U) * 2 * s / rng.uniform(100, 120))
    return case(2 * s, s, 40, 20, rho, mu, {"left": wall(), "right": wall(), "bottom": wall(), "top": wall(U)})


def two_walls(rng: random.Random) -> dict[str, Any]:
    """A square cavity of any size driven by a lid (top or bottom, either way, Re 100 to 120) and by its left
    wall (moving up or down) at its own speed."""
    L, rho, U = r3(rng.uniform(0.5, 2.0)), r3(rng.uniform(0.6, 1.6)), speed(rng)
    mu = r3(rho * abs(U) * L / rng.uniform(100, 120))
    b = {"left": wall(rng.choice([-1, 1]) * abs(U) * rng.uniform(0.4, 1.0)), "right": wall(), "bottom": wall(),
         "top": wall()}
    b[rng.choice(["top", "bottom"])] = wall(U)
    return case(L, L, 28, 28, rho, mu, b)


def channel(rng: random.Random, profile: str, ny: int, rows: tuple[int, int], re: tuple[float, float],
            rho: float) -> dict[str, Any]:
    """A channel 4 or 5 heights long with an inlet over grid rows [j0, j1) of the left side."""
    aspect = rng.choice([4, 5]) if ny < 12 else 4
    nx = ny * aspect
    j0, j1 = rows
    m = rng.randint(40, 250)  # dy = m / 1000: the opening's ends, m j / 1000, lie on grid lines to round-off
    dy, H = m / 1000, m * ny / 1000
    Um = r3(rng.uniform(0.3, 1.5))
    mu = r3(rho * Um * (j1 - j0) * dy / rng.uniform(*re))
    inlet = {"type": "inlet", "profile": profile, "mean_velocity": Um, "y_from": m * j0 / 1000, "y_to": m * j1 / 1000}
    return case(m * nx / 1000, H, nx, ny, rho, mu,
                {"left": inlet, "right": {"type": "outlet"}, "bottom": wall(), "top": wall()})


def developing(rng: random.Random) -> dict[str, Any]:
    """A uniform inlet over the whole left side, Re 10 to 40: the profile develops towards Poiseuille's."""
    return channel(rng, "uniform", 12, (0, 12), (10, 30), r3(rng.uniform(0.6, 1.6)))


def partial_parabolic(rng: random.Random) -> dict[str, Any]:
    """A parabolic inlet over part of the left side: a backward-facing step (upper part) or a jet into a sudden
    expansion (a middle part); a water-like density."""
    ny = 12
    rows = (rng.randint(4, 6), 12) if rng.random() < 0.5 else (rng.randint(3, 4), rng.randint(8, 9))
    return channel(rng, "parabolic", ny, rows, (15, 50), r3(rng.uniform(800, 1200)))


def linear(rng: random.Random) -> dict[str, Any]:
    """A linear inlet profile (u = 2 Um s, rising from y_from to y_to) over the upper part of the left side."""
    return channel(rng, "linear", 12, (rng.randint(2, 5), 12), (10, 30), r3(rng.uniform(0.6, 1.6)))


TEMPLATES = (shallow, two_walls, developing, partial_parabolic, linear)


def cases(seed: int) -> list[dict[str, Any]]:
    return [{"id": f"h{k + 1}-{t.__name__.replace('_', '-')}", "input": t(random.Random(f"{seed}:{t.__name__}"))}
            for k, t in enumerate(TEMPLATES)]


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))

"""Point-mass projectile with quadratic aerodynamic drag and a horizontal wind, integrated with scipy's solve_ivp."""

import json
import math
import sys
import tomllib
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

# Surface gravity (m/s^2) and near-surface atmospheric density (kg/m^3).
BODIES = {
    "earth": (CONSTANTS["G_EARTH"], CONSTANTS["RHO_EARTH"]),
    "mars": (CONSTANTS["G_MARS"], CONSTANTS["RHO_MARS"]),
    "titan": (CONSTANTS["G_TITAN"], CONSTANTS["RHO_TITAN"]),
}
FRACTIONS = [i / 10.0 for i in range(11)]
RTOL, ATOL = 1e-10, 1e-10


def simulate(scn):
    m = float(scn["mass_kg"])
    v0 = float(scn["speed_mps"])
    ang = math.radians(float(scn["angle_deg"]))
    cd = float(scn["drag_coeff"])
    d = float(scn["diameter_m"])
    h0 = float(scn["height_m"])
    wind = float(scn["wind_mps"])
    g, rho = BODIES[str(scn["body"])]
    area = math.pi * d * d / 4.0
    k = 0.5 * rho * cd * area / m  # drag acceleration per (relative speed)^2

    def rhs(_t, s):
        _x, _y, vx, vy = s
        rx = vx - wind
        vrel = math.hypot(rx, vy)
        return [vx, vy, -k * vrel * rx, -g - k * vrel * vy]

    def ground(_t, s):
        return s[1]

    ground.terminal = True
    ground.direction = -1

    def apex(_t, s):
        return s[3]

    apex.direction = -1

    vy0 = v0 * math.sin(ang)
    y0 = [0.0, h0, v0 * math.cos(ang), vy0]
    # Integrate until the ground event; the end time is only a safety bound, far beyond any flight.
    sol = solve_ivp(rhs, (0.0, 1.0e6), y0, method="DOP853", rtol=RTOL, atol=ATOL,
                    events=(ground, apex), dense_output=True)
    if sol.status != 1 or len(sol.t_events[0]) != 1:
        raise RuntimeError(f"integration did not reach the ground: {sol.message}")

    tf = float(sol.t_events[0][0])
    xf, yf, vxf, vyf = (float(v) for v in sol.y_events[0][0])
    ta = float(sol.t_events[1][0])
    apex_state = sol.y_events[1][0]
    v_imp = math.hypot(vxf, vyf)
    samples = []
    for f in FRACTIONS:
        t = f * tf
        st = sol.sol(t) if f < 1.0 else np.array([xf, 0.0, vxf, vyf])
        samples.append({"t": t, "x": float(st[0]), "y": float(st[1])})

    e0 = 0.5 * m * v0 * v0 + m * g * h0
    ef = 0.5 * m * v_imp * v_imp
    return {
        "range_m": xf,
        "flight_time_s": tf,
        "apex_height_m": float(apex_state[1]),
        "apex_time_s": ta,
        "apex_x_m": float(apex_state[0]),
        "impact_speed_mps": v_imp,
        "impact_angle_deg": math.degrees(math.atan2(-vyf, vxf)),
        "terminal_velocity_mps": math.sqrt(g / k),
        "energy_change_J": ef - e0,
        "samples": samples,
    }


if __name__ == "__main__":
    scenario = json.load(sys.stdin)
    json.dump(simulate(scenario), sys.stdout)
    sys.stdout.write("\n")

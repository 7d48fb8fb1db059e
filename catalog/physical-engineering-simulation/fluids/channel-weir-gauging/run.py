"""Open-channel gauging station with fluids.open_flow: normal depth of a rectangular channel from Manning's
equation (V_Manning, with the Chezy coefficient), then the head over a measuring weir (rectangular contracted,
full-width SIA / Rehbock / Ackers, or V-notch Shen) that passes the same discharge, both solved with brentq.

Entry workflow: warm workers import this module once; main() solves per call.
"""

import math
import tomllib
from pathlib import Path

from fluids.open_flow import (
    Q_weir_rectangular_full_Ackers,
    Q_weir_rectangular_full_Rehbock,
    Q_weir_rectangular_full_SIA,
    Q_weir_rectangular_Kindsvater_Carter,
    Q_weir_V_Shen,
    V_Manning,
    n_Manning_to_C_Chezy,
)
from scipy.optimize import brentq

# The constant the instruction states, read from workflow.toml's [constants] (one source for both).
G = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["G"]


def weir_flow(scenario: dict):
    p, b = float(scenario["crest_height_m"]), float(scenario["channel_width_m"])
    kind = scenario["weir"]
    if kind == "contracted_kindsvater_carter":
        return lambda h: Q_weir_rectangular_Kindsvater_Carter(h, p, float(scenario["notch_fraction"]) * b)
    if kind == "v_notch_shen":
        return lambda h: Q_weir_V_Shen(h, float(scenario["v_notch_angle_deg"]))
    full = {
        "full_sia": Q_weir_rectangular_full_SIA,
        "full_rehbock": Q_weir_rectangular_full_Rehbock,
        "full_ackers": Q_weir_rectangular_full_Ackers,
    }
    return lambda h: full[kind](h, p, b)


def main(scenario: dict) -> dict:
    q, b = float(scenario["discharge_m3_s"]), float(scenario["channel_width_m"])
    s, n = float(scenario["bed_slope"]), float(scenario["manning_n"])

    def manning_q(y: float) -> float:
        rh = b * y / (b + 2.0 * y)
        return b * y * V_Manning(rh, s, n)

    y = brentq(lambda d: manning_q(d) - q, 1e-6, 50.0, xtol=1e-14, rtol=1e-14)
    rh = b * y / (b + 2.0 * y)
    v = q / (b * y)
    flow = weir_flow(scenario)
    h1 = brentq(lambda h: flow(h) - q, 1e-6, 20.0, xtol=1e-14, rtol=1e-14)
    return {
        "normal_depth_m": y,
        "hydraulic_radius_m": rh,
        "velocity_m_s": v,
        "froude": v / math.sqrt(G * y),
        "chezy_C": n_Manning_to_C_Chezy(n, rh),
        "weir_head_m": h1,
        "upstream_depth_m": float(scenario["crest_height_m"]) + h1,
        "backwater_rise_m": float(scenario["crest_height_m"]) + h1 - y,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

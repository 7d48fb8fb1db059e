"""TEOS-10 analysis of a generated CTD cast with gsw: Absolute Salinity, Conservative Temperature, density,
sound speed, buoyancy frequency, mixed-layer pressure, sound-channel axis and heat content.

Entry workflow: warm workers import this module once; main() builds its own arrays and never touches module
state. The cast is synthetic: tanh-shaped thermocline and halocline on an evenly spaced pressure grid.
"""

import tomllib
from pathlib import Path

import gsw
import numpy as np


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

CP0 = CONSTANTS["CP0"]  # J/(kg K): the TEOS-10 constant that makes CT a measure of potential enthalpy
MLD_DSIGMA = 0.03  # kg/m^3: de Boyer Montegut et al. (2004) density-threshold criterion


def _cast(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pressure grid, in-situ temperature and Practical Salinity of the synthetic cast."""
    p = np.linspace(float(s["p_top_dbar"]), float(s["p_bottom_dbar"]), int(s["n_levels"]))
    step = 0.5 * (1.0 - np.tanh((p - float(s["thermocline_p_dbar"])) / float(s["thermocline_width_dbar"])))
    deep_t = float(s["t_deep_C"]) - float(s["t_deep_decay_C"]) * (p / float(s["p_bottom_dbar"]))
    t = deep_t + (float(s["t_surface_C"]) - float(s["t_deep_C"])) * step
    sp = float(s["SP_deep"]) + (float(s["SP_surface"]) - float(s["SP_deep"])) * step
    return p, t, sp


def _mixed_layer_p(p: np.ndarray, sigma0: np.ndarray) -> float:
    """First pressure where sigma0 exceeds its top value by MLD_DSIGMA, linearly interpolated; else the bottom."""
    target = sigma0[0] + MLD_DSIGMA
    deeper = np.flatnonzero(sigma0 > target)
    if deeper.size == 0:
        return float(p[-1])
    k = int(deeper[0])  # >= 1: the top level never exceeds its own value
    return float(p[k - 1] + (target - sigma0[k - 1]) * (p[k] - p[k - 1]) / (sigma0[k] - sigma0[k - 1]))


def main(scenario: dict) -> dict:
    lon, lat = float(scenario["lon_deg"]), float(scenario["lat_deg"])
    p, t, sp = _cast(scenario)
    sa = gsw.SA_from_SP(sp, p, lon, lat)
    ct = gsw.CT_from_t(sa, t, p)
    rho = gsw.rho(sa, ct, p)
    sigma0 = gsw.sigma0(sa, ct)
    c = gsw.sound_speed(sa, ct, p)
    z = gsw.z_from_p(p, lat)
    n2, p_mid = gsw.Nsquared(sa, ct, p, lat=lat)
    dyn = gsw.geo_strf_dyn_height(sa, ct, p, p_ref=float(p[-1]))
    f, dz = rho * CP0 * ct, np.diff(-z)
    heat = float(np.sum(0.5 * (f[1:] + f[:-1]) * dz))
    k_n2, k_c = int(np.argmax(n2)), int(np.argmin(c))
    levels = [{
        "p_dbar": float(p[k]), "z_m": float(z[k]), "SA_g_kg": float(sa[k]), "CT_C": float(ct[k]),
        "pt0_C": float(gsw.pt0_from_t(sa[k], t[k], p[k])), "rho_kg_m3": float(rho[k]),
        "sigma0_kg_m3": float(sigma0[k]), "sound_speed_m_s": float(c[k]), "spiciness0_kg_m3": float(gsw.spiciness0(sa[k], ct[k])),
    } for k in range(len(p))]
    return {
        "levels": levels,
        "N2": [{"p_mid_dbar": float(a), "N2_s2": float(b)} for a, b in zip(p_mid, n2)],
        "summary": {
            "max_N2_s2": float(n2[k_n2]),
            "max_N2_p_dbar": float(p_mid[k_n2]),
            "min_sound_speed_m_s": float(c[k_c]),
            "min_sound_speed_p_dbar": float(p[k_c]),
            "mixed_layer_p_dbar": _mixed_layer_p(p, sigma0),
            "surface_CT_freezing_C": float(gsw.CT_freezing(sa[0], p[0], 0.0)),
            "heat_content_J_m2": heat,
            "dynamic_height_top_m2_s2": float(dyn[0]),
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

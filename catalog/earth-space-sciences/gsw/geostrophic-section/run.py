"""Geostrophic velocity and volume transport across a generated hydrographic section with gsw: dynamic height
of each station relative to a level of no motion, velocity between adjacent stations, and transport.

Entry workflow: warm workers import this module once; main() builds its own arrays and never touches module
state. The section is synthetic: a thermocline whose depth tilts linearly from the first station to the last.
"""

import gsw
import numpy as np

N_VELOCITY_SAMPLES = 6  # velocity reported at these many evenly spaced grid levels above the reference


def _stations(s: dict) -> tuple[np.ndarray, np.ndarray]:
    """Station positions: n_stations points from the start, stepping spacing_km along a fixed compass heading."""
    n, step = int(s["n_stations"]), float(s["spacing_km"]) * 1000.0
    head = np.radians(float(s["heading_deg"]))
    k = np.arange(n, dtype=float)
    lat0 = float(s["abs_lat0_deg"]) * (1.0 if s["hemisphere"] == "north" else -1.0)
    lat = lat0 + np.degrees(k * step * np.cos(head) / 6371000.0)
    lon = float(s["lon0_deg"]) + np.degrees(k * step * np.sin(head) / (6371000.0 * np.cos(np.radians(lat))))
    return lon, lat


def _casts(s: dict, p: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """In-situ temperature and Practical Salinity (levels x stations); thermocline centre tilts across stations."""
    centre = np.linspace(float(s["thermocline_p_first_dbar"]), float(s["thermocline_p_last_dbar"]), n)
    step = 0.5 * (1.0 - np.tanh((p[:, None] - centre[None, :]) / float(s["thermocline_width_dbar"])))
    t = float(s["t_deep_C"]) + (float(s["t_surface_C"]) - float(s["t_deep_C"])) * step
    sp = float(s["SP_deep"]) + (float(s["SP_surface"]) - float(s["SP_deep"])) * step
    return t, sp


def main(scenario: dict) -> dict:
    lon, lat = _stations(scenario)
    n, p_ref = len(lon), float(scenario["p_ref_dbar"])
    p = np.linspace(0.0, p_ref, int(scenario["n_levels"]))
    t, sp = _casts(scenario, p, n)
    sa = gsw.SA_from_SP(sp, p[:, None], lon[None, :], lat[None, :])
    ct = gsw.CT_from_t(sa, t, p[:, None])
    dyn = gsw.geo_strf_dyn_height(sa, ct, p, p_ref=p_ref, axis=0)
    vel, mid_lon, mid_lat = gsw.geostrophic_velocity(dyn, lon, lat)
    dist = gsw.distance(lon, lat)
    dz = -np.diff(gsw.z_from_p(p[:, None], mid_lat[None, :]), axis=0)
    transport = (0.5 * (vel[1:] + vel[:-1]) * dz).sum(axis=0) * dist / 1.0e6
    rows = np.linspace(0, len(p) - 2, N_VELOCITY_SAMPLES).round().astype(int)
    pairs = [{
        "mid_lon_deg": float(mid_lon[j]), "mid_lat_deg": float(mid_lat[j]), "distance_m": float(dist[j]),
        "velocity_m_s": [float(vel[r, j]) for r in rows],
        "transport_Sv": float(transport[j]),
    } for j in range(n - 1)]
    return {
        "stations": [{"lon_deg": float(lon[i]), "lat_deg": float(lat[i]),
                      "surface_SA_g_kg": float(sa[0, i]), "surface_CT_C": float(ct[0, i]),
                      "dynamic_height_m2_s2": float(dyn[0, i]),
                      "steric_height_m": float(dyn[0, i] / gsw.grav(lat[i], 0.0))} for i in range(n)],
        "pairs": pairs,
        "total_transport_Sv": float(transport.sum()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

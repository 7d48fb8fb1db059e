"""Ground coverage of a Walker-delta constellation with sgp4's vectorised fleet propagation (sgp4.api.SatrecArray
over all satellites and a time grid at once): each satellite built with Satrec.sgp4init from the Walker pattern
T/P/F, elevation of every satellite above a ground site at every time, and the coverage statistics a constellation
designer reads (fraction of time covered, longest gap, mean and maximum number in view).

Entry workflow: main(dict) -> dict; builds new objects only.
"""

import math
import tomllib
from pathlib import Path

import numpy as np
from sgp4.api import WGS72, Satrec, SatrecArray
from sgp4.propagation import gstime

SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
EPOCH_JD = CONSTANTS["WALKER_EPOCH_JD"]  # 2025 January 1 00:00 UTC
DEG = math.pi / 180.0
A_KM, F = CONSTANTS["WGS84_A_KM"], 1.0 / CONSTANTS["WGS84_INV_F"]  # WGS-84 ground site


def fleet(s: dict) -> list[Satrec]:
    planes = int(s["planes"])
    total, phasing = int(s["satellites_per_plane"]) * planes, int(s["phasing"]) % planes
    per = total // planes
    sats = []
    for p in range(planes):
        for k in range(per):
            raan = 360.0 * p / planes
            m = 360.0 * k / per + 360.0 * phasing * p / total
            sat = Satrec()
            sat.sgp4init(WGS72, "i", len(sats) + 1, EPOCH_JD - SGP4_EPOCH0_JD, 0.0, 0.0, 0.0, 0.0001, 0.0,
                         float(s["inclination_deg"]) * DEG, (m % 360.0) * DEG,
                         float(s["mean_motion_rev_day"]) * 2.0 * math.pi / 1440.0, raan * DEG)
            sats.append(sat)
    return sats


def site(s: dict) -> tuple[np.ndarray, np.ndarray]:
    lat, lon = float(s["site_lat_deg"]) * DEG, float(s["site_lon_deg"]) * DEG
    e2 = F * (2.0 - F)
    n = A_KM / math.sqrt(1.0 - e2 * math.sin(lat) ** 2)
    pos = np.array([n * math.cos(lat) * math.cos(lon), n * math.cos(lat) * math.sin(lon), n * (1.0 - e2) * math.sin(lat)])
    up = np.array([math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat)])
    return pos, up


def main(s: dict) -> dict:
    sats = fleet(s)
    step = float(s["step_min"])
    t = np.arange(0.0, float(s["duration_hours"]) * 60.0 + 1e-9, step)
    err, r, _ = SatrecArray(sats).sgp4(np.full(t.size, EPOCH_JD), t / 1440.0)
    if np.any(err):
        raise RuntimeError("sgp4 error")
    theta = np.array([gstime(EPOCH_JD + x / 1440.0) for x in t])
    c, sn = np.cos(theta), np.sin(theta)
    x = c * r[:, :, 0] + sn * r[:, :, 1]
    y = -sn * r[:, :, 0] + c * r[:, :, 1]
    ecef = np.stack([x, y, r[:, :, 2]], axis=-1)
    pos, up = site(s)
    d = ecef - pos
    elev = np.degrees(np.arcsin((d @ up) / np.linalg.norm(d, axis=-1)))
    visible = elev > float(s["elevation_mask_deg"])
    n_vis = visible.sum(axis=0)
    covered = n_vis > 0
    gap, longest = 0, 0
    for ok in covered:
        gap = 0 if ok else gap + 1
        longest = max(longest, gap)
    return {
        "n_satellites": len(sats),
        "n_times": int(t.size),
        "coverage_fraction": float(covered.mean()),
        "longest_gap_min": longest * step,
        "mean_in_view": float(n_vis.mean()),
        "max_in_view": int(n_vis.max()),
        "max_elevation_deg": float(elev.max()),
        "per_plane_max_elevation_deg": [float(elev[p * (len(sats) // int(s["planes"])):(p + 1) * (len(sats) // int(s["planes"]))].max())
                                        for p in range(int(s["planes"]))],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

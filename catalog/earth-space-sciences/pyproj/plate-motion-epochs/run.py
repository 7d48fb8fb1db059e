"""Station coordinates propagated to a reference epoch by a plate rotation with pyproj: a time-dependent Helmert
(rotation rates, +t_epoch) in a PROJ pipeline run on 4-D points with Transformer.itransform, and the displacement by
Geod.inv.

Entry workflow: main() draws its stations from the scenario's seed.
"""

import numpy as np
from pyproj import Geod, Transformer

MAS = 1e-3  # arc-seconds per milli-arc-second


def _pipeline(s: dict) -> str:
    wx, wy, wz = (float(v) * MAS for v in s["rotation_rate_mas_yr"])
    return (
        "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=cart +ellps=GRS80 "
        f"+step +proj=helmert +drx={wx!r} +dry={wy!r} +drz={wz!r} +t_epoch={float(s['epoch_ref'])!r} "
        "+convention=position_vector +step +inv +proj=cart +ellps=GRS80 +step +proj=unitconvert +xy_in=rad +xy_out=deg"
    )


def main(s: dict) -> dict:
    rng = np.random.default_rng(int(s["seed"]))
    n = int(s["n_stations"])
    dlat = rng.uniform(-2.0, 2.0, n)
    dlon = rng.uniform(-2.0, 2.0, n)
    h = rng.uniform(0.0, 1000.0, n)
    dt = rng.uniform(0.5, float(s["max_age_yr"]), n)
    lat, lon = float(s["lat_c_deg"]) + dlat, float(s["lon_c_deg"]) + dlon
    epochs = float(s["epoch_ref"]) - dt
    tr = Transformer.from_pipeline(_pipeline(s))
    out = list(tr.itransform(zip(lon.tolist(), lat.tolist(), h.tolist(), epochs.tolist())))
    geod = Geod(ellps="GRS80")
    stations = []
    for k, (rlon, rlat, rh, _) in enumerate(out):
        az, _, dist = geod.inv(float(lon[k]), float(lat[k]), rlon, rlat)
        stations.append({
            "epoch_yr": float(epochs[k]), "lon_deg": float(lon[k]), "lat_deg": float(lat[k]), "h_m": float(h[k]),
            "ref_lon_deg": float(rlon), "ref_lat_deg": float(rlat), "ref_h_m": float(rh),
            "displacement_mm": dist * 1000.0, "azimuth_deg": float(az), "speed_mm_yr": dist * 1000.0 / float(dt[k]),
        })
    return {"stations": stations, "mean_speed_mm_yr": float(np.mean([st["speed_mm_yr"] for st in stations]))}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""A 7-parameter Helmert datum shift of a station list as a PROJ pipeline with pyproj (Transformer.from_pipeline:
unitconvert, cart, helmert, inverse cart), the transformed stations written as a YAML station list.

Entry workflow: main() draws its stations from the scenario's seed and writes one YAML file to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from pyproj import Transformer


def _pipeline(s: dict) -> str:
    """WGS 84 geographic -> ECEF -> Helmert -> ECEF of the target ellipsoid -> geographic, degrees at both ends."""
    tx, ty, tz = (float(v) for v in s["translation_m"])
    rx, ry, rz = (float(v) for v in s["rotation_arcsec"])
    return (
        "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=cart +ellps=WGS84 "
        f"+step +proj=helmert +x={tx!r} +y={ty!r} +z={tz!r} +rx={rx!r} +ry={ry!r} +rz={rz!r} "
        f"+s={float(s['scale_ppm'])!r} +convention={s['convention']} "
        f"+step +inv +proj=cart +ellps={s['target_ellipsoid']} +step +proj=unitconvert +xy_in=rad +xy_out=deg"
    )


def _stations(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(int(s["seed"]))
    n = int(s["n_stations"])
    dlat = rng.uniform(-1.0, 1.0, n)
    dlon = rng.uniform(-1.0, 1.0, n)
    h = rng.uniform(0.0, 500.0, n)
    return float(s["lat_c_deg"]) + dlat, float(s["lon_c_deg"]) + dlon, h


def main(s: dict) -> dict:
    import yaml

    lat, lon, h = _stations(s)
    lon2, lat2, h2 = Transformer.from_pipeline(_pipeline(s)).transform(lon, lat, h)
    names = [f"S{k + 1:02d}" for k in range(len(lat))]
    doc = {
        "datum": {
            "source": "WGS84", "target": str(s["target_ellipsoid"]), "convention": str(s["convention"]),
            "translation_m": [float(v) for v in s["translation_m"]],
            "rotation_arcsec": [float(v) for v in s["rotation_arcsec"]],
            "scale_ppm": float(s["scale_ppm"]),
        },
        "stations": [{"name": nm, "lon_deg": float(lon2[k]), "lat_deg": float(lat2[k]), "h_m": float(h2[k])}
                     for k, nm in enumerate(names)],
    }
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "stations.yaml"), "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False)
    dlat, dlon, dh = (lat2 - lat) * 3600.0, (lon2 - lon) * 3600.0, h2 - h
    return {
        "stations_file": "stations.yaml",
        "shifts": [{"name": nm, "dlat_arcsec": float(dlat[k]), "dlon_arcsec": float(dlon[k]), "dh_m": float(dh[k])}
                   for k, nm in enumerate(names)],
        "mean_dlat_arcsec": float(dlat.mean()),
        "mean_dlon_arcsec": float(dlon.mean()),
        "mean_dh_m": float(dh.mean()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

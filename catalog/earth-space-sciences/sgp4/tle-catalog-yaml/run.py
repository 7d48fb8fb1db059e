"""Screen a three-line TLE catalog file with sgp4's pure-Python TLE reader: checksum verification (sgp4.io), Alpha-5
catalog numbers (sgp4.alpha5), parsing into sgp4.model.Satrec (sgp4.io.twoline2rv), epoch as a UTC datetime
(sgp4.conveniences.sat_epoch_datetime), near-earth / deep-space classification and one propagated state per
satellite, written as a YAML catalog summary.

Entry workflow: main(dict) -> dict; reads the chosen catalog file, writes one YAML file to $SWR_ARTIFACTS.
"""

import math
import os
from pathlib import Path

import yaml
from sgp4.alpha5 import to_alpha5
from sgp4.api import WGS72, WGS72OLD, WGS84
from sgp4.conveniences import sat_epoch_datetime
from sgp4.io import verify_checksum
from sgp4.model import Satrec

GRAVITY = {"wgs72old": WGS72OLD, "wgs72": WGS72, "wgs84": WGS84}
DEG = 180.0 / math.pi


def entries(text: str) -> list[tuple[int, str, str, str]]:
    """(line number of the name, name, line 1, line 2) for every three-line entry, in file order."""
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    return [(k + 1, lines[k].strip(), lines[k + 1], lines[k + 2]) for k in range(0, len(lines) - 2, 3)]


def describe(name: str, sat: Satrec, t_min: float) -> dict:
    re = sat.radiusearthkm
    err, r, v = sat.sgp4_tsince(t_min)
    if err:
        raise RuntimeError(f"{name}: sgp4 error {err}")
    return {
        "name": name,
        "satnum": int(sat.satnum),
        "alpha5": to_alpha5(int(sat.satnum)),
        "international_designator": sat.intldesg,
        "epoch_utc": sat_epoch_datetime(sat).isoformat(),
        "method": "deep-space" if sat.method == "d" else "near-earth",
        "elements": {
            "inclination_deg": sat.inclo * DEG, "raan_deg": sat.nodeo * DEG, "eccentricity": sat.ecco,
            "argp_deg": sat.argpo * DEG, "mean_anomaly_deg": sat.mo * DEG,
            "mean_motion_rev_day": sat.no_kozai * 1440.0 / (2.0 * math.pi), "bstar": sat.bstar,
        },
        "period_min": 2.0 * math.pi / sat.no_unkozai,
        "perigee_alt_km": sat.altp * re,
        "apogee_alt_km": sat.alta * re,
        "state": {"t_min": t_min, "r_km": list(r), "v_km_s": list(v)},
    }


def main(s: dict) -> dict:
    path = Path(str(s["catalog"]))
    t_min = float(s["t_min"])
    accepted, rejected, skipped = [], [], []
    for lineno, name, l1, l2 in entries(path.read_text(encoding="ascii")):
        try:
            verify_checksum(l1, l2)
        except ValueError:
            rejected.append({"line": lineno, "name": name})
            continue
        sat = Satrec.twoline2rv(l1, l2, GRAVITY[str(s["gravity_model"])])
        if sat.method == "d" and not s["include_deep_space"]:
            skipped.append(name)
            continue
        accepted.append(describe(name, sat, t_min))
    order = str(s["sort_by"])
    if order == "satnum":
        accepted.sort(key=lambda e: e["satnum"])
    elif order == "period":
        accepted.sort(key=lambda e: e["period_min"])
    doc = {"source": path.name, "gravity_model": str(s["gravity_model"]), "satellites": accepted,
           "rejected_checksum": rejected, "skipped_deep_space": skipped}
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "catalog.yaml"), "w", encoding="utf-8") as fh:
        yaml.safe_dump(doc, fh, sort_keys=False)
    return {
        "summary": "catalog.yaml",
        "n_accepted": len(accepted),
        "n_rejected": len(rejected),
        "n_skipped": len(skipped),
        "shortest_period_min": min((e["period_min"] for e in accepted), default=0.0),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Strapping table of a storage tank with heads: fluids.geometry.TANK's partial volume, wetted surface area and
inverse level-from-volume solution, written as a CSV gauge table.

Entry workflow: warm workers import this module once; main() builds a TANK per call. Torispherical heads use the
ASME flanged-and-dished proportions (f = 1, k = 0.06); the other heads take their depth from the input ratio.
"""

import csv
import os

from fluids.geometry import TANK


def tank(scenario: dict) -> TANK:
    d, head = float(scenario["diameter_m"]), scenario["head"]
    kw: dict = {"D": d, "L": float(scenario["length_m"]), "horizontal": bool(scenario["horizontal"]), "sideA": head}
    if head == "torispherical":
        kw.update(sideA_f=1.0, sideA_k=0.06)
    elif head != "same":
        kw["sideA_a"] = float(scenario["head_depth_ratio"]) * d
    if head != "same":
        kw["sideB"] = "same"
    return TANK(**kw)


def main(scenario: dict) -> dict:
    t = tank(scenario)
    n = int(scenario["n_levels"])
    rows = []
    for i in range(n + 1):
        h = t.h_max * i / n
        v = t.V_from_h(h)
        rows.append([i, h, v, t.SA_from_h(h), v / t.V_total])
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "strapping.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "level_m", "volume_m3", "wetted_area_m2", "fill_fraction"])
        for r in rows:
            w.writerow([r[0]] + [repr(float(x)) for x in r[1:]])
    v_target = float(scenario["gauge_fill_fraction"]) * t.V_total
    h_gauge = t.h_from_V(v_target)
    return {
        "table": "strapping.csv",
        "total_volume_m3": float(t.V_total),
        "total_surface_m2": float(t.A),
        "head_depth_m": float(t.sideA_a),
        "head_area_m2": float(t.A_sideA),
        "max_level_m": float(t.h_max),
        "gauge_level_m": float(h_gauge),
        "gauge_wetted_area_m2": float(t.SA_from_h(h_gauge)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

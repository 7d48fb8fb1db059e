"""The incidence angle modifier table of a PV module cover with pvlib's iam module: physical (Fresnel + absorption,
optional AR coating), ASHRAE, Martin-Ruiz and Schlick models, and their diffuse averages (marion_diffuse,
martin_ruiz_diffuse, schlick_diffuse), the table written as CSV.

Entry workflow: main() builds its table from the scenario and writes one CSV to $SWR_ARTIFACTS.
"""

import csv
import os
import tomllib
from pathlib import Path

import numpy as np
from pvlib import iam

N_AR = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["N_AR"]
IAM_LEVEL = 0.9


def main(s: dict) -> dict:
    step = float(s["aoi_step_deg"])
    aoi = np.arange(0.0, 90.0 + step / 2.0, step)
    phys = {"n": float(s["n"]), "K": float(s["K_per_m"]), "L": float(s["L_mm"]) / 1000.0}
    if s["ar_coating"]:
        phys["n_ar"] = N_AR
    tilt, a_r = float(s["surface_tilt_deg"]), float(s["a_r"])
    cols = {
        "physical": np.asarray(iam.physical(aoi, **phys), float),
        "ashrae": np.asarray(iam.ashrae(aoi, float(s["b"])), float),
        "martin_ruiz": np.asarray(iam.martin_ruiz(aoi, a_r), float),
        "schlick": np.asarray(iam.schlick(aoi), float),
    }
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "iam.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["aoi_deg", *cols])
        w.writerows([repr(float(a)), *(repr(float(c[i])) for c in cols.values())] for i, a in enumerate(aoi))
    mar = iam.marion_diffuse("physical", tilt, **phys)
    mr = iam.martin_ruiz_diffuse(tilt, a_r)
    sch = iam.schlick_diffuse(tilt)
    return {
        "table": "iam.csv",
        "diffuse": {
            "physical_sky": float(mar["sky"]), "physical_horizon": float(mar["horizon"]),
            "physical_ground": float(mar["ground"]),
            "martin_ruiz_sky": float(mr["sky"]), "martin_ruiz_ground": float(mr["ground"]),
            "schlick_sky": float(sch["sky"]), "schlick_ground": float(sch["ground"]),
        },
        "aoi90": {name: float(aoi[c >= IAM_LEVEL].max()) for name, c in cols.items()},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Single-diode parameter extraction from a noisy IV curve with pvlib (ivtools.sde.fit_sandia_simple), the curve from
pvsystem.v_from_i / i_from_v and the maximum power points from pvsystem.max_power_point.

Entry workflow: main() draws its noise from the scenario's seed and writes one CSV to $SWR_ARTIFACTS.
"""

import csv
import os

import numpy as np
from pvlib import pvsystem
from pvlib.ivtools import sde


def _mpp(params: tuple) -> dict:
    m = pvsystem.max_power_point(*params, method="brentq")
    return {"i_mp_A": float(m["i_mp"]), "v_mp_V": float(m["v_mp"]), "p_mp_W": float(m["p_mp"])}


def main(s: dict) -> dict:
    true = (float(s["photocurrent_A"]), float(s["saturation_current_A"]), float(s["resistance_series_ohm"]),
            float(s["resistance_shunt_ohm"]), float(s["nNsVth_V"]))
    n = int(s["n_points"])
    voc = float(pvsystem.v_from_i(0.0, *true, method="lambertw"))
    v = np.linspace(0.0, voc, n)
    i = np.asarray(pvsystem.i_from_v(v, *true, method="lambertw"), float)
    i = i + np.random.default_rng(int(s["seed"])).normal(0.0, float(s["noise_A"]), n)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "iv.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["v_V", "i_A"])
        w.writerows([repr(float(a)), repr(float(b))] for a, b in zip(v, i))
    fit = tuple(float(x) for x in sde.fit_sandia_simple(v, i))
    t_mpp, f_mpp = _mpp(true), _mpp(fit)
    return {
        "measured": "iv.csv",
        "fit": dict(zip(("photocurrent_A", "saturation_current_A", "resistance_series_ohm", "resistance_shunt_ohm",
                         "nNsVth_V"), fit)),
        "true_mpp": t_mpp,
        "fit_mpp": f_mpp,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

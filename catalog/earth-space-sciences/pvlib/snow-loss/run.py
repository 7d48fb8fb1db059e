"""Snow cover and DC loss of a PV array through a winter spell with pvlib's NREL snow model (snow.coverage_nrel,
snow.dc_loss_nrel, snow.fully_covered_nrel).

Entry workflow: main() draws its snowfall from the scenario's seed.
"""

import numpy as np
import pandas as pd
from pvlib import snow


def _weather(s: dict) -> tuple[pd.Series, pd.Series, pd.Series]:
    times = pd.date_range("2023-01-10", periods=int(s["n_days"]) * 24, freq="h")
    h = np.asarray(times.hour, float)
    rng = np.random.default_rng(int(s["seed"]))
    u = rng.random(len(times))
    v = rng.random(len(times))
    fall = np.where(u < float(s["snow_hour_probability"]), float(s["max_snowfall_cm_h"]) * v, 0.0)
    poa = np.where((h > 8) & (h < 16), float(s["peak_poa_W_m2"]) * np.sin(np.pi * (h - 8.0) / 8.0), 0.0)
    temp = float(s["temp_mean_C"]) + 4.0 * np.sin(2.0 * np.pi * (h - 9.0) / 24.0)
    return pd.Series(fall, times), pd.Series(poa, times), pd.Series(temp, times)


def main(s: dict) -> dict:
    fall, poa, temp = _weather(s)
    cov = snow.coverage_nrel(fall, poa, temp, float(s["surface_tilt_deg"]))
    loss = np.asarray(snow.dc_loss_nrel(cov, int(s["num_strings"])), float)
    full = np.asarray(snow.fully_covered_nrel(fall), bool)
    c, g = np.asarray(cov, float), poa.to_numpy(float)
    days = []
    for d in range(int(s["n_days"])):
        sl = slice(24 * d, 24 * (d + 1))
        days.append({"day": d, "mean_coverage": float(c[sl].mean()),
                     "weighted_loss": float((g[sl] * loss[sl]).sum() / g[sl].sum())})
    return {
        "days": days,
        "spell_weighted_loss": float((g * loss).sum() / g.sum()),
        "lost_insolation_kWh_m2": float((g * loss).sum() / 1000.0),
        "max_loss": float(loss.max()),
        "fully_covered_hours": int(full.sum()),
        "hours_over_half": int(np.count_nonzero(c > 0.5)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""PV cell temperature models of pvlib's temperature module compared on one day: faiman, pvsyst_cell, ross,
noct_sam, fuentes (transient) and generic_linear.

Entry workflow: main() builds its weather from the scenario's seed.
"""

import numpy as np
import pandas as pd
from pvlib import temperature

U_C = {"freestanding": 29.0, "insulated": 15.0}
ABSORPTANCE = 0.9


def _weather(s: dict) -> tuple[pd.Series, pd.Series, pd.Series]:
    hours = np.arange(24) + 0.5
    x = (hours - 12.0 + float(s["day_length_h"]) / 2.0) / float(s["day_length_h"])
    poa = np.where((x > 0) & (x < 1), float(s["peak_poa_W_m2"]) * np.sin(np.pi * x), 0.0)
    t_air = float(s["temp_mean_C"]) + float(s["temp_swing_C"]) * np.sin(2 * np.pi * (hours - 9.0) / 24.0)
    wind = float(s["wind_mean_m_s"]) * (0.5 + np.random.default_rng(int(s["seed"])).random(24))
    idx = pd.date_range("2023-06-01 00:30", periods=24, freq="h")
    return pd.Series(poa, idx), pd.Series(t_air, idx), pd.Series(wind, idx)


def main(s: dict) -> dict:
    poa, t_air, wind = _weather(s)
    eta, noct, u_c = float(s["module_efficiency"]), float(s["noct_C"]), U_C[str(s["mounting"])]
    models = {
        "faiman": temperature.faiman(poa, t_air, wind, u0=25.0, u1=6.84),
        "pvsyst": temperature.pvsyst_cell(poa, t_air, wind, u_c=u_c, u_v=0.0, module_efficiency=eta,
                                          alpha_absorption=ABSORPTANCE),
        "ross": temperature.ross(poa, t_air, noct=noct),
        "noct_sam": temperature.noct_sam(poa, t_air, wind, noct, eta),
        "fuentes": temperature.fuentes(poa, t_air, wind, noct, surface_tilt=float(s["surface_tilt_deg"])),
        "generic_linear": temperature.generic_linear(poa, t_air, wind, u_c, 0.0, eta, ABSORPTANCE),
    }
    models = {k: np.asarray(v, float) for k, v in models.items()}
    hours = np.arange(24) + 0.5
    lit = poa.to_numpy() > 0
    return {
        "hourly": [{"hour": float(hours[i]), "poa_W_m2": float(poa.iloc[i]), "temp_air_C": float(t_air.iloc[i]),
                    "wind_m_s": float(wind.iloc[i]), **{k: float(v[i]) for k, v in models.items()}}
                   for i in range(24)],
        "daily_max_C": {k: float(v.max()) for k, v in models.items()},
        "daily_max_hour": {k: float(hours[int(np.argmax(v))]) for k, v in models.items()},
        "mean_diff_from_faiman_C": {k: float(np.mean(v[lit] - models["faiman"][lit])) for k, v in models.items()
                                    if k != "faiman"},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

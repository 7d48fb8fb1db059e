"""DC/AC power of a PV array under generated hourly weather with pvlib: SAPM cell temperature, De Soto
single-diode model, PVWatts DC comparison and the PVWatts inverter.

Entry workflow: warm workers import this module once; main() builds its own arrays and never touches module
state. The weather is synthetic: a sine-shaped plane-of-array profile attenuated by seeded random clouds.
"""

import numpy as np
import pandas as pd
import pvlib

HOURS = np.arange(24, dtype=float) + 0.5  # hour-centred samples, local solar time


def _weather(s):
    rng = np.random.default_rng(int(s["seed"]))
    day_len = float(s["day_length_h"])
    x = (HOURS - (12.0 - day_len / 2.0)) / day_len
    clear = np.where((x > 0.0) & (x < 1.0), float(s["peak_poa_W_m2"]) * np.sin(np.pi * np.clip(x, 0.0, 1.0)), 0.0)
    cloud = 1.0 - float(s["cloudiness"]) * rng.random(24)
    poa = clear * cloud
    temp_air = float(s["temp_mean_C"]) + float(s["temp_swing_C"]) * np.sin(2.0 * np.pi * (HOURS - 9.0) / 24.0)
    wind = float(s["wind_speed_m_s"]) * (0.5 + rng.random(24))
    return poa, temp_air, wind


def main(scenario: dict) -> dict:
    poa, temp_air, wind = _weather(scenario)
    tp = pvlib.temperature.TEMPERATURE_MODEL_PARAMETERS["sapm"][str(scenario["mounting"])]
    temp_cell = pvlib.temperature.sapm_cell(poa, temp_air, wind, tp["a"], tp["b"], tp["deltaT"])

    mod = dict(
        alpha_sc=float(scenario["alpha_sc_A_K"]),
        a_ref=float(scenario["a_ref_V"]),
        I_L_ref=float(scenario["I_L_ref_A"]),
        I_o_ref=float(scenario["I_o_ref_A"]),
        R_sh_ref=float(scenario["R_sh_ref_ohm"]),
        R_s=float(scenario["R_s_ohm"]),
    )
    stc = pvlib.pvsystem.singlediode(*pvlib.pvsystem.calcparams_desoto(1000.0, 25.0, **mod))
    n_series, n_strings = int(scenario["modules_per_string"]), int(scenario["strings"])
    n_mod = n_series * n_strings
    pdc0 = float(stc["p_mp"]) * n_mod

    lit = poa > 0.0
    il, io, rs, rsh, nnsvth = pvlib.pvsystem.calcparams_desoto(poa[lit], temp_cell[lit], **mod)
    sd_lit = pd.DataFrame(pvlib.pvsystem.singlediode(il, io, rs, rsh, nnsvth, method="lambertw"))
    sd = pd.DataFrame(0.0, index=range(24), columns=["v_mp", "i_mp", "p_mp"])
    sd.loc[np.flatnonzero(lit), ["v_mp", "i_mp", "p_mp"]] = sd_lit[["v_mp", "i_mp", "p_mp"]].to_numpy()
    p_dc = sd["p_mp"].to_numpy() * n_mod
    p_pvwatts = np.asarray(pvlib.pvsystem.pvwatts_dc(poa, temp_cell, pdc0, float(scenario["gamma_pdc_per_K"])))
    p_ac = np.asarray(pvlib.inverter.pvwatts(p_dc, pdc0 / float(scenario["dc_ac_ratio"]),
                                              eta_inv_nom=float(scenario["eta_inv_nom"])))

    hourly = []
    for k in range(24):
        hourly.append({
            "poa_W_m2": float(poa[k]),
            "temp_cell_C": float(temp_cell[k]),
            "v_mp_string_V": float(sd["v_mp"].iloc[k] * n_series),
            "i_mp_array_A": float(sd["i_mp"].iloc[k] * n_strings),
            "p_dc_W": float(p_dc[k]),
            "p_dc_pvwatts_W": float(p_pvwatts[k]),
            "p_ac_W": float(p_ac[k]),
        })
    e_poa = float(poa.sum())
    e_dc = float(p_dc.sum())
    return {
        "stc_module": {k: float(stc[k]) for k in ("i_sc", "v_oc", "i_mp", "v_mp", "p_mp", "i_x", "i_xx")},
        "array_pdc0_W": pdc0,
        "daily": {
            "poa_Wh_m2": e_poa,
            "dc_Wh": e_dc,
            "dc_pvwatts_Wh": float(p_pvwatts.sum()),
            "ac_Wh": float(p_ac.sum()),
            "max_temp_cell_C": float(temp_cell.max()),
            "performance_ratio": float(e_dc / (pdc0 * e_poa / 1000.0)),
        },
        "hourly": hourly,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

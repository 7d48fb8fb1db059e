"""A vapour-compression refrigeration cycle on HFC-134a with Cantera's pure-fluid (liquid-vapour) equation of state
(ct.Hfc134a: saturation by TQ, states by PS and PH), as a refrigeration engineer rates a chiller; the four state
points are written as HDF5.

Entry workflow: main(dict) -> dict; the HDF5 file goes to $SWR_ARTIFACTS.
"""

import os

import cantera as ct
import numpy as np

KELVIN = 273.15


def _state(f) -> list:
    return [f.T, f.P, f.h, f.s, f.Q]


def main(s: dict) -> dict:
    import h5py

    f = ct.Hfc134a()
    f.TQ = float(s["T_evap_C"]) + KELVIN, 1.0
    p_evap = f.P
    f.TQ = float(s["T_cond_C"]) + KELVIN, 0.0
    p_cond = f.P
    # 1: evaporator exit, superheated at the evaporating pressure
    f.TP = float(s["T_evap_C"]) + KELVIN + float(s["superheat_K"]), p_evap
    st1 = _state(f)
    h1, s1 = f.h, f.s
    # 2: compressor exit, isentropic efficiency
    f.SP = s1, p_cond
    h2 = h1 + (f.h - h1) / float(s["eta_compressor"])
    f.HP = h2, p_cond
    st2 = _state(f)
    # 3: condenser exit, subcooled liquid at the condensing pressure
    f.TP = float(s["T_cond_C"]) + KELVIN - float(s["subcool_K"]), p_cond
    st3 = _state(f)
    h3, s3 = f.h, f.s
    # 4: after the expansion device
    if str(s["expansion"]) == "throttle":
        f.HP = h3, p_evap
    else:
        f.SP = s3, p_evap
    st4 = _state(f)
    h4 = f.h
    m = float(s["mass_flow_kg_s"])
    q_evap = m * (h1 - h4)
    w_net = m * ((h2 - h1) - (h3 - h4))
    table = np.array([st1, st2, st3, st4], dtype=float)
    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "cycle.h5"), "w") as h5:
        for j, (name, units) in enumerate((("T", "K"), ("P", "Pa"), ("h", "J/kg"), ("s", "J/kg/K"), ("Q", "1"))):
            h5.create_dataset(name, data=table[:, j]).attrs["units"] = units
    return {
        "states": "cycle.h5",
        "p_evap_kPa": p_evap / 1e3,
        "p_cond_kPa": p_cond / 1e3,
        "compressor_exit_T_C": st2[0] - KELVIN,
        "quality_after_expansion": st4[4],
        "cooling_kW": q_evap / 1e3,
        "net_work_kW": w_net / 1e3,
        "cop": q_evap / w_net,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

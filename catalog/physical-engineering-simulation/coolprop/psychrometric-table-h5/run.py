"""A psychrometric property table of moist air with CoolProp's humid-air module (HAPropsSI: ASHRAE RP-1485
real-gas model, ice below 0 degC) written as an HDF5 file, and a cooling-coil process on the same model.

Entry workflow: main(dict) -> dict; writes one HDF5 file to $SWR_ARTIFACTS.
"""

import os
import tomllib
from pathlib import Path

import numpy as np
from CoolProp.HumidAirProp import HAPropsSI

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
T0 = CONSTANTS["ZERO_CELSIUS_K"]
# (dataset name, HAPropsSI output key, unit, offset subtracted from the value)
TABLE = (("humidity_ratio", "W", "kg/kg", 0.0), ("enthalpy", "H", "J/kg", 0.0), ("entropy", "S", "J/(kg K)", 0.0),
         ("wet_bulb", "B", "degC", T0), ("dew_point", "D", "degC", T0), ("specific_volume", "V", "m3/kg", 0.0))


def prop(key: str, T_K: float, p: float, rh: float) -> float:
    return float(HAPropsSI(key, "T", T_K, "P", p, "R", rh))


def table(temps_C: np.ndarray, rh: list[float], p: float) -> dict[str, np.ndarray]:
    out = {name: np.empty((temps_C.size, len(rh))) for name, *_ in TABLE}
    for i, t in enumerate(temps_C):
        for j, r in enumerate(rh):
            for name, key, _, off in TABLE:
                out[name][i, j] = prop(key, float(t) + T0, p, r) - off
    return out


def write(path: str, temps_C, rh, p: float, cols: dict) -> None:
    import h5py

    with h5py.File(path, "w") as h5:
        h5.attrs["pressure_Pa"] = p
        h5.attrs["model"] = "CoolProp HAPropsSI"
        h5.create_dataset("temperature", data=temps_C).attrs["units"] = "degC"
        h5.create_dataset("relative_humidity", data=np.asarray(rh, dtype=float)).attrs["units"] = "1"
        for name, _, unit, _ in TABLE:
            h5.create_dataset(name, data=cols[name]).attrs["units"] = unit


def coil(t_in_C: float, rh_in: float, t_out_C: float, p: float) -> dict:
    """Cool air at (t_in, rh_in) to t_out: at constant humidity ratio above the dew point, saturated below it."""
    w_in = prop("W", t_in_C + T0, p, rh_in)
    h_in = prop("H", t_in_C + T0, p, rh_in)
    dew_C = prop("D", t_in_C + T0, p, rh_in) - T0
    if t_out_C >= dew_C:
        w_out = w_in
        h_out = float(HAPropsSI("H", "T", t_out_C + T0, "P", p, "W", w_in))
        rh_out = float(HAPropsSI("R", "T", t_out_C + T0, "P", p, "W", w_in))
    else:
        w_out = prop("W", t_out_C + T0, p, 1.0)
        h_out = prop("H", t_out_C + T0, p, 1.0)
        rh_out = 1.0
    return {"inlet_dew_point_C": dew_C, "condenses": bool(t_out_C < dew_C), "outlet_humidity_ratio": w_out,
            "outlet_relative_humidity": rh_out, "condensate_kg_per_kg_dry_air": w_in - w_out,
            "enthalpy_drop_J_per_kg_dry_air": h_in - h_out}


def main(s: dict) -> dict:
    p = float(s["pressure_kPa"]) * 1e3
    temps = np.linspace(float(s["t_min_C"]), float(s["t_max_C"]), int(s["n_T"]))
    rh = [float(r) for r in s["rh_levels"]]
    cols = table(temps, rh, p)
    write(os.path.join(os.environ["SWR_ARTIFACTS"], "psychrometrics.h5"), temps, rh, p, cols)
    return {
        "table": "psychrometrics.h5",
        "max_humidity_ratio": float(cols["humidity_ratio"].max()),
        "coil": coil(float(s["t_max_C"]), rh[-1], float(s["coil_outlet_C"]), p),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

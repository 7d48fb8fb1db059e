"""A saturation table of a pure fluid with CoolProp's low-level AbstractState (HEOS): QT flashes along the
saturation curve for both phases, a two-phase mixture column, optional transport properties and surface tension,
and the fluid's saturation-pressure ancillary fit beside the equation of state, written as HDF5.

Entry workflow: main(dict) -> dict; builds a new AbstractState per call, writes one HDF5 file to $SWR_ARTIFACTS.
"""

import os

import CoolProp.CoolProp as CP
import numpy as np

PHASE_COLS = ("rho", "h", "s", "cp")
TRANSPORT_COLS = ("viscosity", "conductivity")
UNITS = {"rho": "kg/m3", "h": "J/kg", "s": "J/(kg K)", "cp": "J/(kg K)", "viscosity": "Pa s", "conductivity": "W/(m K)"}


def phase_state(st, q: float, T: float, transport: bool) -> dict:
    st.update(CP.QT_INPUTS, q, T)
    row = {"rho": st.rhomass(), "h": st.hmass(), "s": st.smass(), "cp": st.cpmass()}
    if transport:
        row["viscosity"] = st.viscosity()
        row["conductivity"] = st.conductivity()
    return row


def main(s: dict) -> dict:
    st = CP.AbstractState("HEOS", str(s["fluid"]))
    Tt, Tc = st.Ttriple(), st.T_critical()
    temps = Tt + np.linspace(float(s["fraction_min"]), float(s["fraction_max"]), int(s["n_T"])) * (Tc - Tt)
    transport = bool(s["include_transport"])
    x = float(s["quality"])
    cols = ("p", "p_ancillary", "h_mixture", "s_mixture", "rho_mixture") + (("surface_tension",) if transport else ())
    cols += tuple(f"{c}_{ph}" for c in PHASE_COLS + (TRANSPORT_COLS if transport else ()) for ph in ("liquid", "vapour"))
    table = {c: np.empty(temps.size) for c in cols}
    for i, T in enumerate(temps):
        T = float(T)
        for q, ph in ((0.0, "liquid"), (1.0, "vapour")):
            for c, v in phase_state(st, q, T, transport).items():
                table[f"{c}_{ph}"][i] = v
        st.update(CP.QT_INPUTS, 0.0, T)
        table["p"][i] = st.p()
        if transport:
            table["surface_tension"][i] = st.surface_tension()
        table["p_ancillary"][i] = st.saturation_ancillary(CP.iP, 0, CP.iT, T)
        st.update(CP.QT_INPUTS, x, T)
        table["h_mixture"][i], table["s_mixture"][i], table["rho_mixture"][i] = st.hmass(), st.smass(), st.rhomass()
    units = {"p": "Pa", "p_ancillary": "Pa", "h_mixture": "J/kg", "s_mixture": "J/(kg K)", "rho_mixture": "kg/m3",
             "surface_tension": "N/m"}
    units.update({f"{c}_{ph}": UNITS[c] for c in UNITS for ph in ("liquid", "vapour")})
    write(os.path.join(os.environ["SWR_ARTIFACTS"], "saturation.h5"), s, st, temps, table, units)
    latent = table["h_vapour"] - table["h_liquid"]
    return {
        "table": "saturation.h5",
        "T_triple_K": Tt,
        "T_critical_K": Tc,
        "p_critical_Pa": st.p_critical(),
        "latent_heat_first_J_kg": float(latent[0]),
        "latent_heat_last_J_kg": float(latent[-1]),
    }


def write(path: str, s: dict, st, temps, table: dict, units: dict) -> None:
    import h5py

    with h5py.File(path, "w") as h5:
        h5.attrs["fluid"] = str(s["fluid"])
        h5.attrs["backend"] = "HEOS"
        h5.attrs["quality"] = float(s["quality"])
        h5.create_dataset("T", data=temps).attrs["units"] = "K"
        for name, values in table.items():
            h5.create_dataset(name, data=values).attrs["units"] = units[name]


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

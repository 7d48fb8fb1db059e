"""Freely propagating premixed laminar flame of hydrogen with Cantera's 1D solver (ct.FreeFlame: Newton with
time-stepping, adaptive grid refinement): laminar burning velocity, thermal thickness and the flame structure
interpolated to a uniform grid and written as a NetCDF profile.

Entry workflow: main(dict) -> dict; the mechanism is parsed once at import and each call builds a new Solution.
"""

import os

import cantera as ct
import numpy as np

MECH = ct.Solution("h2o2.yaml")
REPORT = ("H2", "O2", "H2O", "OH", "H", "HO2")
REFINE = {"ratio": 3.0, "slope": 0.15, "curve": 0.3}


def flame(s: dict) -> ct.FreeFlame:
    gas = ct.Solution(thermo="ideal-gas", kinetics="gas", transport_model="mixture-averaged",
                      species=MECH.species(), reactions=MECH.reactions())
    gas.TP = float(s["T_unburnt_K"]), float(s["pressure_atm"]) * ct.one_atm
    gas.set_equivalence_ratio(float(s["equivalence_ratio"]), "H2:1", f"O2:1, {s['diluent']}:{float(s['diluent_per_o2'])}")
    f = ct.FreeFlame(gas, width=float(s["width_cm"]) * 1e-2)
    f.transport_model = str(s["transport_model"])
    f.set_refine_criteria(**REFINE)
    f.solve(loglevel=0, auto=True)
    return f


def write(path: str, s: dict, cols: dict) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "Premixed hydrogen flame structure"
        nc.mechanism = "h2o2.yaml"
        nc.transport_model = str(s["transport_model"])
        nc.createDimension("x", len(cols["x"][0]))
        for name, (values, units, long_name) in cols.items():
            var = nc.createVariable(name, "f8", ("x",))
            var.units, var.long_name = units, long_name
            var[:] = values


def main(s: dict) -> dict:
    f = flame(s)
    z = f.grid
    xs = np.linspace(z[0], z[-1], int(s["n_out"]))
    X = {k: f.X[f.gas.species_index(k)] for k in REPORT}
    hrr = f.heat_release_rate
    cols = {"x": (xs, "m", "distance from the domain inlet"),
            "T": (np.interp(xs, z, f.T), "K", "temperature"),
            "u": (np.interp(xs, z, f.velocity), "m s-1", "axial velocity"),
            "hrr": (np.interp(xs, z, hrr), "W m-3", "volumetric heat release rate")}
    cols.update({f"X_{k}": (np.interp(xs, z, X[k]), "1", f"mole fraction of {k}") for k in REPORT})
    write(os.path.join(os.environ["SWR_ARTIFACTS"], "flame.nc"), s, cols)
    dTdx = np.gradient(f.T, z)
    return {
        "profile": "flame.nc",
        "burning_velocity_m_s": float(f.velocity[0]),
        "burnt_T_K": float(f.T[-1]),
        "thermal_thickness_mm": float((f.T[-1] - f.T[0]) / dTdx.max() * 1e3),
        "peak_hrr_position_mm": float(z[int(np.argmax(hrr))] * 1e3),
        "peak_hrr_W_m3": float(hrr.max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

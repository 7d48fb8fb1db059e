"""Glacial ice melting into seawater with gsw's ice functions (melting_ice_into_seawater and its SA-CT ratio,
ice_fraction_to_freeze_seawater, rho_ice/enthalpy_ice/cp_ice, latentheat_melting), the mixing line written as a
CF-style NetCDF file.

Entry workflow: main() builds its arrays from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os

import gsw
import numpy as np


def _fractions(s: dict) -> np.ndarray:
    """Ice mass fractions from 0 to w_max, linearly or quadratically spaced (denser near 0)."""
    x = np.linspace(0.0, 1.0, int(s["n_fractions"]))
    return float(s["w_max"]) * (x if s["spacing"] == "linear" else x**2)


def _write(path: str, s: dict, cols: dict) -> None:
    """One NetCDF4-classic file: dimension ice_fraction, one float64 variable per column with CF units."""
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "Glacial ice melting into seawater (TEOS-10)"
        nc.Conventions = "CF-1.8"
        nc.SA_initial, nc.CT_initial = float(s["SA_g_kg"]), float(s["CT_C"])
        nc.pressure, nc.t_ice = float(s["p_dbar"]), float(s["t_ice_C"])
        nc.createDimension("ice_fraction", len(cols["ice_fraction"][0]))
        for name, (values, units, long_name) in cols.items():
            var = nc.createVariable(name, "f8", ("ice_fraction",))
            var.units, var.long_name = units, long_name
            var[:] = values


def main(s: dict) -> dict:
    sa, ct, p, t_ice = float(s["SA_g_kg"]), float(s["CT_C"]), float(s["p_dbar"]), float(s["t_ice_C"])
    w = _fractions(s)
    sa_f, ct_f, w_f = gsw.melting_ice_into_seawater(sa, ct, p, w, t_ice)
    cols = {
        "ice_fraction": (w, "1", "ice mass fraction of the mixture"),
        "SA_final": (sa_f, "g kg-1", "Absolute Salinity after melting"),
        "CT_final": (ct_f, "degC", "Conservative Temperature after melting"),
        "ice_fraction_final": (w_f, "1", "unmelted ice mass fraction"),
        "rho_final": (gsw.rho(sa_f, ct_f, p), "kg m-3", "in-situ density after melting"),
    }
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "ice_melt.nc"), s, cols)
    sa_fr, ct_fr, w_fr = gsw.ice_fraction_to_freeze_seawater(sa, ct, p, t_ice)
    return {
        "mixing_line": "ice_melt.nc",
        "melting_SA_CT_ratio_g_kg_K": float(gsw.melting_ice_SA_CT_ratio(sa, ct, p, t_ice)),
        "freeze_ice_fraction": float(w_fr),
        "freeze_SA_g_kg": float(sa_fr),
        "freeze_CT_C": float(ct_fr),
        "CT_freezing_C": float(gsw.CT_freezing(sa, p, 0.0)),
        "latent_heat_melting_J_kg": float(gsw.latentheat_melting(sa, p)),
        "ice_density_kg_m3": float(gsw.rho_ice(t_ice, p)),
        "ice_enthalpy_J_kg": float(gsw.enthalpy_ice(t_ice, p)),
        "ice_cp_J_kg_K": float(gsw.cp_ice(t_ice, p)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

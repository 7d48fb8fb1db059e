"""A CTD conductivity-temperature profile processed into TEOS-10 salinities with gsw (t90_from_t68, SP_from_C,
SR_from_SP, deltaSA_from_SP, Sstar_from_SP, SA_from_SP, pt_from_t, entropy_from_t), written as a
CF-style NetCDF file.

Entry workflow: main() builds its arrays from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os

import gsw
import numpy as np

THERMOCLINE_P, THERMOCLINE_W = 150.0, 60.0  # dbar: centre and pressure scale of the tanh transition


def _cast(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pressure grid, recorded temperature and conductivity: one tanh transition."""
    p = np.linspace(0.0, float(s["p_bottom_dbar"]), int(s["n_levels"]))
    step = 0.5 * (1.0 - np.tanh((p - THERMOCLINE_P) / THERMOCLINE_W))
    t = float(s["t_deep_C"]) + (float(s["t_surface_C"]) - float(s["t_deep_C"])) * step
    c = float(s["C_deep_mS_cm"]) + (float(s["C_surface_mS_cm"]) - float(s["C_deep_mS_cm"])) * step
    return p, t, c


def _write(path: str, s: dict, cols: dict) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "TEOS-10 salinities from a CTD conductivity profile"
        nc.Conventions = "CF-1.8"
        nc.latitude, nc.longitude = float(s["lat_deg"]), float(s["lon_deg"])
        nc.temperature_scale = str(s["t_scale"])
        nc.createDimension("pressure", len(cols["pressure"][0]))
        for name, (values, units, long_name) in cols.items():
            var = nc.createVariable(name, "f8", ("pressure",))
            var.units, var.long_name = units, long_name
            var[:] = values
        nc["pt"].reference_pressure = float(s["p_ref_dbar"])


def main(s: dict) -> dict:
    lon, lat = float(s["lon_deg"]), float(s["lat_deg"])
    p, t_rec, c = _cast(s)
    t90 = gsw.t90_from_t68(t_rec) if s["t_scale"] == "IPTS-68" else t_rec
    sp = gsw.SP_from_C(c, t90, p)
    sr = gsw.SR_from_SP(sp)
    dsa = gsw.deltaSA_from_SP(sp, p, lon, lat)
    sa = gsw.SA_from_SP(sp, p, lon, lat)
    cols = {
        "pressure": (p, "dbar", "sea water pressure"),
        "t90": (t90, "degC", "in-situ temperature ITS-90"),
        "C": (c, "mS cm-1", "electrical conductivity"),
        "SP": (sp, "1", "Practical Salinity"),
        "SR": (sr, "g kg-1", "Reference Salinity"),
        "deltaSA": (dsa, "g kg-1", "Absolute Salinity Anomaly"),
        "Sstar": (gsw.Sstar_from_SP(sp, p, lon, lat), "g kg-1", "Preformed Salinity"),
        "SA": (sa, "g kg-1", "Absolute Salinity"),
        "pt": (gsw.pt_from_t(sa, t90, p, float(s["p_ref_dbar"])), "degC", "potential temperature"),
        "entropy": (gsw.entropy_from_t(sa, t90, p), "J kg-1 K-1", "specific entropy"),
    }
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "conductivity.nc"), s, cols)
    return {
        "profile": "conductivity.nc",
        "SP_top": float(sp[0]), "SP_bottom": float(sp[-1]),
        "SA_top_g_kg": float(sa[0]), "SA_bottom_g_kg": float(sa[-1]),
        "max_abs_deltaSA_g_kg": float(np.abs(dsa).max()),
        "mean_SA_minus_SR_g_kg": float(np.mean(sa - sr)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Water-column stability of a generated CTD cast with gsw, written as a CF-style NetCDF file: thermal expansion and
haline contraction (alpha, beta), cabbeling and thermobaric coefficients, sigma2, in-situ freezing temperature, and
Turner angle / density ratio between levels (Turner_Rsubrho).

Entry workflow: main() builds its arrays from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os

import gsw
import numpy as np


def _cast(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pressure grid, in-situ temperature and Practical Salinity: tanh thermocline and halocline."""
    p = np.linspace(0.0, float(s["p_bottom_dbar"]), int(s["n_levels"]))
    step = 0.5 * (1.0 - np.tanh((p - float(s["thermocline_p_dbar"])) / 80.0))
    t = float(s["t_deep_C"]) + (float(s["t_surface_C"]) - float(s["t_deep_C"])) * step
    sp = float(s["SP_deep"]) + (float(s["SP_surface"]) - float(s["SP_deep"])) * step
    return p, t, sp


def _write(path: str, s: dict, cols: dict, mid: dict) -> None:
    """One NetCDF4-classic file: dimensions pressure and pressure_mid, one variable per column, CF units."""
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "TEOS-10 stability of a synthetic CTD cast"
        nc.Conventions = "CF-1.8"
        nc.latitude, nc.longitude = float(s["lat_deg"]), float(s["lon_deg"])
        for dim, table in (("pressure", cols), ("pressure_mid", mid)):
            nc.createDimension(dim, len(next(iter(table.values()))[0]))
            for name, (values, units, long_name) in table.items():
                var = nc.createVariable(name, "f8", (dim,))
                var.units, var.long_name = units, long_name
                var[:] = values


def main(s: dict) -> dict:
    lon, lat = float(s["lon_deg"]), float(s["lat_deg"])
    p, t, sp = _cast(s)
    sa = gsw.SA_from_SP(sp, p, lon, lat)
    ct = gsw.CT_from_t(sa, t, p)
    tu, rsubrho, p_mid = gsw.Turner_Rsubrho(sa, ct, p)
    cols = {
        "pressure": (p, "dbar", "sea water pressure"),
        "SA": (sa, "g kg-1", "Absolute Salinity"),
        "CT": (ct, "degC", "Conservative Temperature"),
        "alpha": (gsw.alpha(sa, ct, p), "K-1", "thermal expansion coefficient wrt CT"),
        "beta": (gsw.beta(sa, ct, p), "kg g-1", "saline contraction coefficient at constant CT"),
        "cabbeling": (gsw.cabbeling(sa, ct, p), "K-2", "cabbeling coefficient wrt CT"),
        "thermobaric": (gsw.thermobaric(sa, ct, p), "K-1 Pa-1", "thermobaric coefficient wrt CT"),
        "sigma2": (gsw.sigma2(sa, ct), "kg m-3", "potential density anomaly referenced to 2000 dbar"),
        "t_freezing": (gsw.t_freezing(sa, p, 0.0), "degC", "in-situ freezing temperature, air-free"),
    }
    mid = {
        "pressure_mid": (p_mid, "dbar", "pressure midway between adjacent levels"),
        "Turner_angle": (tu, "degree", "Turner angle"),
        "Rsubrho": (rsubrho, "1", "stability ratio"),
    }
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "stability.nc"), s, cols, mid)
    k = int(np.nanargmax(np.abs(tu)))
    return {"profile": "stability.nc", "max_abs_turner_deg": float(tu[k]), "max_abs_turner_p_dbar": float(p_mid[k])}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""A bottle cast interpolated onto standard levels with gsw's interpolation module: sa_ct_interp and tracer_ct_interp
(MRST-PCHIP in the SA-CT plane) or pchip_interp, then sigma0; written as a CF-style NetCDF file.

Entry workflow: main() draws its bottle pressures from the scenario's seed and writes one NetCDF4-classic file to
$SWR_ARTIFACTS.
"""

import os

import gsw
import numpy as np

SA_DEEP, CT_DEEP, O2_DEEP, O2_DROP, OMZ_WIDTH, TC_WIDTH = 34.8, 3.0, 220.0, 150.0, 150.0, 50.0
INVERSION_MIN = 1e-6  # kg/m^3: a smaller decrease of sigma0 is rounding noise in a homogeneous layer


def _bottles(s: dict) -> tuple[np.ndarray, ...]:
    """Bottle pressures (surface, seeded interior, bottom) and their SA, CT and O2."""
    p_max, p_tc = float(s["p_max_dbar"]), float(s["thermocline_p_dbar"])
    inner = np.sort(np.random.default_rng(int(s["seed"])).uniform(0.0, p_max, int(s["n_bottles"]) - 2))
    p = np.concatenate([[0.0], inner, [p_max]])
    step = 0.5 * (1.0 - np.tanh((p - p_tc) / TC_WIDTH))
    sa = SA_DEEP + (float(s["SA_surface"]) - SA_DEEP) * step
    ct = CT_DEEP + (float(s["CT_surface"]) - CT_DEEP) * step
    o2 = O2_DEEP - O2_DROP * np.exp(-(((p - 1.5 * p_tc) / OMZ_WIDTH) ** 2)) + (float(s["o2_surface"]) - O2_DEEP) * step
    return p, sa, ct, o2


def _write(path: str, method: str, p_bottle: np.ndarray, cols: dict) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "Bottle cast on standard levels (TEOS-10)"
        nc.Conventions = "CF-1.8"
        nc.interpolation = method
        nc.createDimension("pressure", len(cols["pressure"][0]))
        nc.createDimension("bottle", len(p_bottle))
        for name, (values, units, long_name) in cols.items():
            var = nc.createVariable(name, "f8", ("pressure",))
            var.units, var.long_name = units, long_name
            var[:] = values
        var = nc.createVariable("p_bottle", "f8", ("bottle",))
        var.units, var.long_name = "dbar", "bottle pressure"
        var[:] = p_bottle


def main(s: dict) -> dict:
    p, sa, ct, o2 = _bottles(s)
    dp = float(s["dp_out_dbar"])
    pi = np.arange(0.0, p[-1] + dp / 2.0, dp)
    pi = pi[pi <= p[-1]]
    if s["method"] == "mrst":
        sa_i, ct_i = gsw.sa_ct_interp(sa, ct, p, pi)
        o2_i, _ = gsw.tracer_ct_interp(o2, ct, p, pi, factor=9.0)
    else:
        sa_i, ct_i, o2_i = (gsw.pchip_interp(p, y, pi) for y in (sa, ct, o2))
    sig = gsw.sigma0(sa_i, ct_i)
    cols = {
        "pressure": (pi, "dbar", "sea water pressure"),
        "SA": (sa_i, "g kg-1", "Absolute Salinity"),
        "CT": (ct_i, "degC", "Conservative Temperature"),
        "O2": (o2_i, "umol kg-1", "dissolved oxygen"),
        "sigma0": (sig, "kg m-3", "potential density anomaly referenced to 0 dbar"),
    }
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "bottle_levels.nc"), str(s["method"]), p, cols)
    k = int(np.argmin(o2_i))
    return {
        "gridded": "bottle_levels.nc",
        "n_levels": len(pi),
        "mean_CT_C": float(np.mean(ct_i)),
        "o2_min_umol_kg": float(o2_i[k]),
        "o2_min_p_dbar": float(pi[k]),
        "n_inversions": int(np.count_nonzero(np.diff(sig) < -INVERSION_MIN)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

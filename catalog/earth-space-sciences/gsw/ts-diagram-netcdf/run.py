"""The background of an SA-CT diagram with gsw: potential density anomaly and spiciness at a reference pressure
(sigma0/1/2, spiciness0/1/2), the temperature of maximum density (CT_maxdensity) and the freezing line (CT_freezing),
written as a CF-style NetCDF grid; plus the cabbeling gain of mixing the grid's corner water masses.

Entry workflow: main() builds its grid from the scenario and writes one NetCDF4-classic file to $SWR_ARTIFACTS.
"""

import os

import gsw
import numpy as np

SIGMA = {0: (gsw.sigma0, gsw.spiciness0), 1000: (gsw.sigma1, gsw.spiciness1), 2000: (gsw.sigma2, gsw.spiciness2)}


def _write(path: str, attrs: dict, axes: dict, grids: dict, lines: dict) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "TEOS-10 SA-CT diagram"
        nc.Conventions = "CF-1.8"
        nc.setncatts(attrs)
        for name, (values, units, long_name) in axes.items():
            nc.createDimension(name, len(values))
        for dims, table in ((("SA",), axes | lines), (("CT", "SA"), grids)):
            for name, (values, units, long_name) in table.items():
                var = nc.createVariable(name, "f8", (name,) if name in axes else dims)
                var.units, var.long_name = units, long_name
                var[:] = values


def main(s: dict) -> dict:
    p_ref = int(s["p_ref_dbar"])
    sigma, spice = SIGMA[p_ref]
    sa = np.linspace(float(s["SA_min"]), float(s["SA_max"]), int(s["n_SA"]))
    ct = np.linspace(float(s["CT_min"]), float(s["CT_max"]), int(s["n_CT"]))
    sa2, ct2 = np.meshgrid(sa, ct)
    sig = sigma(sa2, ct2)
    sat = 1.0 if s["air_saturated"] else 0.0
    axes = {"SA": (sa, "g kg-1", "Absolute Salinity"), "CT": (ct, "degC", "Conservative Temperature")}
    grids = {"sigma": (sig, "kg m-3", "potential density anomaly"),
             "spiciness": (spice(sa2, ct2), "kg m-3", "spiciness")}
    lines = {"CT_maxdensity": (gsw.CT_maxdensity(sa, p_ref), "degC", "Conservative Temperature of maximum density"),
             "CT_freezing": (gsw.CT_freezing(sa, p_ref, sat), "degC", "freezing Conservative Temperature")}
    attrs = {"reference_pressure": float(p_ref), "saturation_fraction": sat}
    _write(os.path.join(os.environ["SWR_ARTIFACTS"], "ts_diagram.nc"), attrs, axes, grids, lines)
    sig_a, sig_b = float(sigma(sa[0], ct[-1])), float(sigma(sa[-1], ct[0]))
    sig_mix = float(sigma(0.5 * (sa[0] + sa[-1]), 0.5 * (ct[-1] + ct[0])))
    return {
        "diagram": "ts_diagram.nc",
        "sigma_min_kg_m3": float(sig.min()), "sigma_max_kg_m3": float(sig.max()),
        "sigma_A_kg_m3": sig_a, "sigma_B_kg_m3": sig_b,
        "cabbeling_gain_kg_m3": sig_mix - 0.5 * (sig_a + sig_b),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

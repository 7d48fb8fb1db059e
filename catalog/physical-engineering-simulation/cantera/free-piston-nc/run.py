"""Two gas volumes separated by a free, heat-conducting piston with Cantera's reactor walls (ct.Wall between two
IdealGasReactors: expansion-rate coefficient K and heat-transfer coefficient U), hot air on one side with its nitrogen
oxide chemistry (air.yaml, Zeldovich NO) switchable, as an engine designer relaxes a charge against a buffer volume;
the histories are written as NetCDF.

Entry workflow: main(dict) -> dict; the NetCDF file goes to $SWR_ARTIFACTS.
"""

import os

import cantera as ct
import numpy as np

AIR = "O2:1, N2:3.76"
TOTAL_VOLUME_M3 = 1.0
PISTON_AREA_M2 = 1.0


def _network(s: dict):
    """Left (hot, optionally reacting) and right (cold, inert) reactors joined by the piston wall."""
    left = ct.Solution("air.yaml")
    left.TPX = float(s["T_left_K"]), float(s["P_left_atm"]) * ct.one_atm, AIR
    right = ct.Solution("air.yaml")
    right.TPX = float(s["T_right_K"]), float(s["P_right_atm"]) * ct.one_atm, AIR
    r1 = ct.IdealGasReactor(left, clone=False)
    r1.volume = float(s["left_volume_fraction"]) * TOTAL_VOLUME_M3
    r1.chemistry_enabled = bool(s["left_chemistry"])
    r2 = ct.IdealGasReactor(right, clone=False)
    r2.volume = TOTAL_VOLUME_M3 - r1.volume
    r2.chemistry_enabled = False
    ct.Wall(r1, r2, A=PISTON_AREA_M2, K=float(s["K_m_per_s_pa"]), U=float(s["U_w_per_m2_k"]))
    net = ct.ReactorNet([r1, r2])
    net.rtol, net.atol = 1e-10, 1e-18
    return r1, r2, net


def main(s: dict) -> dict:
    import netCDF4

    r1, r2, net = _network(s)
    v0 = r1.volume
    n = int(s["n_times"])
    times = np.arange(1, n + 1) * float(s["t_end_s"]) / n
    cols = {k: np.zeros(n) for k in ("V_left", "T_left", "P_left", "X_NO_left", "T_right", "P_right")}
    ino = r1.phase.species_index("NO")
    for k, t in enumerate(times):
        net.advance(float(t))
        for name, val in (("V_left", r1.volume), ("T_left", r1.T), ("P_left", r1.phase.P),
                          ("X_NO_left", r1.phase.X[ino]), ("T_right", r2.T), ("P_right", r2.phase.P)):
            cols[name][k] = val
    units = {"V_left": "m3", "T_left": "K", "P_left": "Pa", "X_NO_left": "1", "T_right": "K", "P_right": "Pa"}
    with netCDF4.Dataset(os.path.join(os.environ["SWR_ARTIFACTS"], "piston.nc"), "w", format="NETCDF4_CLASSIC") as nc:
        nc.createDimension("time", n)
        var = nc.createVariable("time", "f8", ("time",))
        var.units = "s"
        var[:] = times
        for name, val in cols.items():
            var = nc.createVariable(name, "f8", ("time",))
            var.units = units[name]
            var[:] = val
    return {
        "history": "piston.nc",
        "final_T_left_K": float(cols["T_left"][-1]),
        "final_T_right_K": float(cols["T_right"][-1]),
        "final_P_left_atm": float(cols["P_left"][-1] / ct.one_atm),
        "final_P_right_atm": float(cols["P_right"][-1] / ct.one_atm),
        "piston_displacement_m": float((cols["V_left"][-1] - v0) / PISTON_AREA_M2),
        "final_X_NO_left": float(cols["X_NO_left"][-1]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

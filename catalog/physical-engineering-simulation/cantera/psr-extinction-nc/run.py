"""Perfectly stirred reactor (PSR) residence-time sweep to blow-out with Cantera's reactor network: an
IdealGasReactor fed from a Reservoir through a MassFlowController (mdot = mass / tau) and vented through a
PressureController, solved to steady state (ReactorNet.advance_to_steady_state) at ever shorter residence times from
the burning branch down to extinction, written as a NetCDF profile.

Entry workflow: main(dict) -> dict; the mechanism is parsed once at import and every call builds new Solution objects.
"""

import os

import cantera as ct
import numpy as np

MECH = ct.Solution("h2o2.yaml")
REPORT = ("H2", "O2", "H2O", "OH", "H", "O", "HO2", "H2O2")
EXTINCT_K = 100.0  # a reactor within this of the inlet temperature has blown out
MAX_STEPS = 60


def gas(s: dict) -> ct.Solution:
    g = ct.Solution(thermo="ideal-gas", kinetics="gas", species=MECH.species(), reactions=MECH.reactions())
    g.TP = float(s["inlet_T_K"]), float(s["pressure_atm"]) * ct.one_atm
    g.set_equivalence_ratio(float(s["equivalence_ratio"]), "H2:1", f"O2:1, {s['diluent']}:{float(s['diluent_per_o2'])}")
    return g


def sweep(s: dict) -> tuple[list[dict], float]:
    inlet_gas = gas(s)
    inlet = ct.Reservoir(inlet_gas, clone=True)
    burnt = gas(s)
    burnt.equilibrate("HP")
    comb = ct.IdealGasReactor(burnt, volume=1e-3, clone=True)
    exhaust = ct.Reservoir(burnt, clone=True)
    tau = [float(s["tau_start_s"])]
    mfc = ct.MassFlowController(inlet, comb, mdot=lambda t: comb.mass / tau[0])
    ct.PressureController(comb, exhaust, primary=mfc, K=0.01)
    net = ct.ReactorNet([comb])
    net.rtol, net.atol = 1e-10, 1e-20
    rows = []
    for _ in range(MAX_STEPS):
        net.initial_time = 0.0
        net.advance_to_steady_state()
        if comb.T < inlet_gas.T + EXTINCT_K:
            return rows, tau[0]
        x = comb.phase.mole_fraction_dict(threshold=0.0)
        rows.append({"tau": tau[0], "T": comb.T, "hrr": comb.phase.heat_release_rate,
                     **{f"X_{k}": x.get(k, 0.0) for k in REPORT}})
        tau[0] *= float(s["tau_factor"])
    raise RuntimeError("no blow-out within 60 residence times")


def write(path: str, s: dict, rows: list[dict]) -> None:
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "PSR residence-time sweep to blow-out"
        nc.mechanism = "h2o2.yaml"
        nc.pressure_Pa = float(s["pressure_atm"]) * ct.one_atm
        nc.createDimension("step", len(rows))
        meta = {"tau": ("s", "residence time"), "T": ("K", "reactor temperature"),
                "hrr": ("W m-3", "volumetric heat release rate")}
        meta.update({f"X_{k}": ("1", f"mole fraction of {k}") for k in REPORT})
        for name, (units, long_name) in meta.items():
            var = nc.createVariable(name, "f8", ("step",))
            var.units, var.long_name = units, long_name
            var[:] = np.array([r[name] for r in rows])


def main(s: dict) -> dict:
    rows, tau_out = sweep(s)
    write(os.path.join(os.environ["SWR_ARTIFACTS"], "psr.nc"), s, rows)
    return {
        "profile": "psr.nc",
        "burning_steps": len(rows),
        "last_burning_tau_s": rows[-1]["tau"] if rows else float(s["tau_start_s"]),
        "blowout_tau_s": tau_out,
        "last_burning_T_K": rows[-1]["T"] if rows else float(s["inlet_T_K"]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

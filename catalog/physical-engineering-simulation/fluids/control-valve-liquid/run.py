"""Sizing a control valve for a liquid service to IEC 60534-2-1 with Caleb Bell's `fluids`
(fluids.size_control_valve_l: choked and laminar checks, piping geometry factors), the Cv equivalent, and the
valve's hydrodynamic noise to IEC 60534-8-4 (fluids.control_valve_noise_l_2015).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import tomllib
from pathlib import Path

import fluids

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
C = CONSTANTS
LIQUIDS = {  # name -> (density kg/m^3, vapour pressure Pa, critical pressure Pa, viscosity Pa s, speed of sound m/s)
    "water-20C": (C["RHO_W20"], C["PSAT_W20"], C["PC_W"], C["MU_W20"], C["C_W20"]),
    "water-80C": (C["RHO_W80"], C["PSAT_W80"], C["PC_W"], C["MU_W80"], C["C_W80"]),
    "n-butane-20C": (C["RHO_C4"], C["PSAT_C4"], C["PC_C4"], C["MU_C4"], C["C_C4"]),
}


def main(s: dict) -> dict:
    rho, psat, pc, mu, c_liq = LIQUIDS[str(s["liquid"])]
    p1 = float(s["inlet_pressure_bar"]) * 1e5
    p2 = p1 - float(s["pressure_drop_bar"]) * 1e5
    q = float(s["flow_m3_h"]) / 3600.0
    d_pipe = float(s["pipe_diameter_mm"]) * 1e-3
    d_valve = float(s["valve_to_pipe_ratio"]) * d_pipe
    fl, fd = float(s["FL"]), float(s["Fd"])
    r = fluids.size_control_valve_l(rho=rho, Psat=psat, Pc=pc, mu=mu, P1=p1, P2=p2, Q=q, D1=d_pipe, D2=d_pipe,
                                    d=d_valve, FL=fl, Fd=fd, full_output=True)
    kv = float(r["Kv"])
    noise = fluids.control_valve_noise_l_2015(m=q * rho, P1=p1, P2=p2, Psat=psat, rho=rho, c=c_liq, Kv=kv, d=d_valve,
                                              Di=d_pipe, FL=fl, Fd=fd, t_pipe=float(s["pipe_wall_mm"]) * 1e-3)
    return {
        "Kv_m3_h": kv,
        "Cv_gpm": fluids.Kv_to_Cv(kv),
        "choked": bool(r["choked"]),
        "liquid_critical_pressure_ratio_FF": float(r["FF"]),
        "piping_geometry_factor_FP": float(r["FP"]),
        "combined_recovery_factor_FLP": float(r["FLP"]),
        "valve_reynolds": float(r["Rev"]),
        "choked_pressure_drop_bar": (fl**2 * (p1 - float(r["FF"]) * psat)) / 1e5,
        "noise_dBA": float(noise),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""A natural-gas transmission segment and the compressor that restores its pressure, with Caleb Bell's
`fluids` compressible-flow module: the isothermal flow equation with a Reynolds-dependent friction factor
(fluids.isothermal_gas, fluids.friction_factor), the Panhandle A and Weymouth pipeline formulas, and the
isentropic and isothermal compression work (fluids.compressible).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import fluids

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
R = CONSTANTS["R"]
M_AIR = CONSTANTS["M_AIR"]
TS, PS = CONSTANTS["TS"], CONSTANTS["PS"]
MU = CONSTANTS["MU"]
K_GAS = CONSTANTS["K_GAS"]
FIXED_POINT_STEPS = 50


def flow(p1, p2, length, d, rho, eps_d):
    """Mass flow of the isothermal equation with fd = Colebrook(Re(m)): fixed-point iteration from fd = 0.01."""
    fd = 0.01
    for _ in range(FIXED_POINT_STEPS):
        m = fluids.isothermal_gas(rho=rho, fd=fd, P1=p1, P2=p2, L=length, D=d)
        re = 4.0 * m / (math.pi * d * MU)
        fd_new = fluids.friction_factor(Re=re, eD=eps_d, Method="Colebrook")
        if abs(fd_new - fd) <= 1e-15 * fd:
            break
        fd = fd_new
    return fluids.isothermal_gas(rho=rho, fd=fd, P1=p1, P2=p2, L=length, D=d), fd, re


def main(s: dict) -> dict:
    d = float(s["diameter_m"])
    length = float(s["length_km"]) * 1e3
    p1 = float(s["inlet_pressure_bar"]) * 1e5
    p2 = p1 * float(s["outlet_pressure_ratio"])
    t = float(s["temperature_K"])
    sg = float(s["specific_gravity"])
    eta = float(s["compressor_efficiency"])
    eps_d = float(s["roughness_um"]) * 1e-6 / d
    molar_mass = sg * M_AIR
    p_avg = 2.0 / 3.0 * (p1 + p2 - p1 * p2 / (p1 + p2))
    rho = p_avg * molar_mass / (R * t)
    m, fd, re = flow(p1, p2, length, d, rho, eps_d)
    rho_std = PS * molar_mass / (R * TS)
    w_isentropic = fluids.isentropic_work_compression(T1=t, k=K_GAS, P1=p2, P2=p1, eta=eta)  # J/mol
    w_isothermal = fluids.isothermal_work_compression(P1=p2, P2=p1, T=t)
    molar_flow = m / molar_mass
    return {
        "mean_pressure_bar": p_avg / 1e5,
        "mean_density_kg_m3": rho,
        "mass_flow_kg_s": m,
        "standard_flow_m3_s": m / rho_std,
        "darcy_friction_factor": fd,
        "reynolds": re,
        "panhandle_a_standard_flow_m3_s": fluids.Panhandle_A(SG=sg, Tavg=t, L=length, D=d, P1=p1, P2=p2, Ts=TS, Ps=PS),
        "weymouth_standard_flow_m3_s": fluids.Weymouth(SG=sg, Tavg=t, L=length, D=d, P1=p1, P2=p2, Ts=TS, Ps=PS),
        "isothermal_critical_outlet_bar": fluids.P_isothermal_critical_flow(P=p1, fd=fd, D=d, L=length) / 1e5,
        "compressor_power_MW": w_isentropic * molar_flow / 1e6,
        "isothermal_power_MW": w_isothermal * molar_flow / 1e6,
        "discharge_temperature_K": fluids.isentropic_T_rise_compression(T1=t, P1=p2, P2=p1, k=K_GAS, eta=eta),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

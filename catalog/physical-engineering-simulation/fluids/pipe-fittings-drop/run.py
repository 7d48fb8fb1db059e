"""Pressure drop of an incompressible liquid through a pipe run with fittings, the way a process engineer
sizes a line with Caleb Bell's `fluids`: NPS schedule lookup, Darcy friction factor, Rennels and Crane
loss coefficients, and the static head.

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import math
import tomllib
from pathlib import Path

import fluids

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

G = CONSTANTS["G"]  # standard gravity used by fluids.head_from_P


def loss_coefficients(di: float, fd: float, s: dict) -> dict:
    """Per-fitting K values (referenced to the pipe velocity head)."""
    ft = fluids.ft_Crane(di)
    return {
        "crane_ft": ft,
        "K_pipe": fluids.K_from_f(fd=fd, L=float(s["length_m"]), D=di),
        "K_elbow": fluids.bend_rounded(Di=di, angle=90.0, fd=fd, bend_diameters=float(s["bend_radius_diameters"]),
                                       method="Rennels"),
        "K_gate_valve": fluids.K_gate_valve_Crane(D1=di, D2=di, angle=0.0, fd=None),
        "K_check_valve": fluids.K_swing_check_valve_Crane(D=di, fd=None, angled=True),
        "K_entrance": fluids.entrance_rounded(Di=di, rc=float(s["entrance_rc_over_d"]) * di, method="Rennels"),
    }


def main(s: dict) -> dict:
    _, di, _, _ = fluids.nearest_pipe(NPS=s["nps"], schedule=str(s["schedule"]))
    rho = float(s["density_kg_m3"])
    mu = float(s["viscosity_mPa_s"]) * 1e-3
    v = float(s["velocity_m_s"])
    eps = float(s["roughness_mm"]) * 1e-3
    re = fluids.Reynolds(V=v, D=di, rho=rho, mu=mu)
    fd = fluids.friction_factor(Re=re, eD=eps / di, Method="Colebrook")
    k = loss_coefficients(di, fd, s)
    k_fittings = (int(s["elbows_90"]) * k["K_elbow"] + int(s["gate_valves"]) * k["K_gate_valve"]
                  + (k["K_check_valve"] if s["swing_check_valve"] else 0.0) + k["K_entrance"] + fluids.exit_normal())
    dp_friction = fluids.dP_from_K(K=k["K_pipe"], rho=rho, V=v)
    dp_fittings = fluids.dP_from_K(K=k_fittings, rho=rho, V=v)
    dp_static = rho * G * float(s["elevation_change_m"])
    q = v * math.pi * di * di / 4.0
    dp_total = dp_friction + dp_fittings + dp_static
    return {
        "inner_diameter_m": di,
        "flow_m3_h": q * 3600.0,
        "reynolds": re,
        "darcy_friction_factor": fd,
        **k,
        "K_fittings_total": k_fittings,
        "dp_friction_Pa": dp_friction,
        "dp_fittings_Pa": dp_fittings,
        "dp_static_Pa": dp_static,
        "dp_total_Pa": dp_total,
        "head_loss_m": fluids.head_from_P(P=dp_friction + dp_fittings, rho=rho),
        "hydraulic_power_W": q * dp_total,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

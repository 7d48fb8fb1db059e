"""Unit-safe wrappers with pint's registry decorators (wraps, check) around plain-float pipe-flow formulas."""

import math

import pint

UREG = pint.UnitRegistry()


@UREG.wraps(None, ("kg/m**3", "m/s", "m", "Pa*s"), strict=True)
def reynolds(rho, v, d, mu):
    return rho * v * d / mu


@UREG.wraps(None, (None, "m", "m"), strict=True)
def haaland(re, eps, d):
    """Haaland's explicit friction factor, laminar 64/Re below Re 2300."""
    if re < 2300.0:
        return 64.0 / re
    return (-1.8 * math.log10((eps / d / 3.7) ** 1.11 + 6.9 / re)) ** -2


@UREG.wraps("Pa", (None, "m", "m", "kg/m**3", "m/s"), strict=True)
def darcy_drop(f, length, d, rho, v):
    return f * length / d * rho * v * v / 2.0


@UREG.check("[length] ** 3 / [time]", "[length]")
def mean_velocity(flow, d):
    return flow / (math.pi * d * d / 4.0)


def main(scn):
    Q = UREG.Quantity
    rho = Q(float(scn["density"]), str(scn["density_unit"]))
    flow = Q(float(scn["flow"]), str(scn["flow_unit"]))
    d = Q(float(scn["diameter"]), str(scn["diameter_unit"]))
    mu = Q(float(scn["viscosity_cP"]), "cP")
    length = Q(float(scn["length_m"]), "m")
    eps = Q(float(scn["roughness_um"]), "um")
    v = mean_velocity(flow, d).to("m/s")
    re = reynolds(rho, v, d, mu)
    f = haaland(re, eps, d)
    dp = darcy_drop(f, length, d, rho, v)
    head = (dp / (rho * Q(1.0, "standard_gravity"))).to("m")
    out_unit = str(scn["pressure_unit"])
    return {
        "velocity_m_per_s": float(v.magnitude),
        "reynolds": float(re),
        "friction_factor": float(f),
        "regime": "laminar" if re < 2300.0 else "turbulent",
        "pressure_drop": float(dp.to(out_unit).magnitude),
        "head_loss_m": float(head.magnitude),
        "hydraulic_power_W": float((dp * flow).to("W").magnitude),
    }

"""Buckingham pi analysis with pint: dimensionless groups of a physical problem and their values."""

from fractions import Fraction
from math import gcd, lcm

import pint

UREG = pint.UnitRegistry()

# Problem -> ordered (variable, unit) pairs. Magnitudes come from the `values` input, in this order.
PROBLEMS = {
    "pipe_flow": [("rho", "lb/ft^3"), ("V", "ft/s"), ("D", "inch"), ("mu", "centipoise"),
                  ("eps", "mm"), ("dpdx", "psi/ft")],
    "sphere_drag": [("F", "lbf"), ("V", "km/h"), ("rho", "kg/m^3"), ("D", "cm"), ("mu", "poise")],
    "convection": [("h", "W/(m^2*K)"), ("L", "cm"), ("k", "BTU/(hour*ft*delta_degF)"), ("V", "m/s"),
                   ("rho", "kg/m^3"), ("mu", "centipoise"), ("cp", "cal/(g*K)")],
    "water_waves": [("g", "ft/s^2"), ("lam", "m"), ("depth", "m"), ("c", "km/h"), ("sigma", "dyn/cm"),
                    ("rho", "g/cm^3")],
    "rc_circuit": [("R", "kohm"), ("C", "uF"), ("tau", "ms"), ("U", "V"), ("I", "mA")],
    "pendulum": [("l", "cm"), ("m", "g"), ("g", "ft/s^2"), ("T", "ms")],
}


def canonical(groups, names):
    """Reduced row echelon form of the group exponent matrix (columns = variables in order), each row
    scaled to coprime integers. Unique for the null space, whatever basis pi_theorem happened to return."""
    rows = [[Fraction(g.get(n, 0.0)).limit_denominator(1000) for n in names] for g in groups]
    r = 0
    for c in range(len(names)):
        piv = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        p = rows[r][c]
        rows[r] = [x / p for x in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        r += 1
    out = []
    for row in rows[:r]:
        den = lcm(*[x.denominator for x in row])
        ints = [int(x * den) for x in row]
        g = gcd(*ints)
        out.append([float(v // g) for v in ints])
    return out


BASE_DIMS = ["length", "mass", "time", "temperature", "current", "substance", "luminosity"]


def main(scn):
    pairs = PROBLEMS[str(scn["problem"])]
    values = [float(v) for v in scn["values"]]
    qty = {name: UREG.Quantity(values[i], unit) for i, (name, unit) in enumerate(pairs)}
    groups = UREG.pi_theorem({name: unit for name, unit in pairs})

    variables = []
    used_dims = set()
    for name, unit in pairs:
        base = qty[name].to_base_units()
        dim = qty[name].dimensionality
        exps = [float(dim.get(f"[{d}]", 0)) for d in BASE_DIMS]
        used_dims.update(d for d, e in zip(BASE_DIMS, exps) if e != 0)
        variables.append({"name": name, "unit": unit, "magnitude": float(qty[name].magnitude),
                          "si_magnitude": float(base.magnitude), "si_units": str(base.units),
                          "dimensions": exps})

    out_groups = []
    names = [name for name, _ in pairs]
    for row in canonical(groups, names):
        prod = UREG.Quantity(1.0, "dimensionless")
        terms = []
        for name, e in zip(names, row):
            if e != 0.0:
                prod = prod * qty[name] ** e
                terms.append({"variable": name, "exponent": e})
        prod = prod.to("dimensionless")
        out_groups.append({"terms": terms, "value": float(prod.magnitude)})

    return {
        "n_variables": len(pairs),
        "n_dimensions": len(used_dims),
        "n_groups": len(out_groups),
        "variables": variables,
        "groups": out_groups,
    }

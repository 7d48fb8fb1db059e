"""Evaluate aerodynamic formula strings with pint's expression parser over Quantity variables, and
inspect the result."""

import pint

UREG = pint.UnitRegistry()

FORMULAS = {
    "dynamic_pressure": ("rho * v**2 / 2", "Pa"),
    "drag_force": ("Cd * rho * v**2 * L**2 / 2", "N"),
    "reynolds": ("rho * v * L / mu", "dimensionless"),
    "drag_power": ("Cd * rho * v**3 * L**2 / 2", "kW"),
    "velocity_head": ("v**2 / (2 * g0)", "m"),
}


def main(scn):
    expr, target = FORMULAS[str(scn["formula"])]
    Q = UREG.Quantity
    variables = {
        "rho": Q(float(scn["rho"]), str(scn["rho_unit"])),
        "v": Q(float(scn["v"]), str(scn["v_unit"])),
        "L": Q(float(scn["length"]), str(scn["length_unit"])),
        "mu": Q(float(scn["mu_cP"]), "cP"),
        "Cd": Q(float(scn["Cd"]), "dimensionless"),
        "g0": Q(1.0, "standard_gravity"),
    }
    raw = UREG.parse_expression(expr, **variables)
    value = raw.to(target)
    base_mag, base_units = raw.to_base_units().to_tuple()
    compact = value.to_compact()
    return {
        "expression": expr,
        "value": float(value.magnitude),
        "target_unit": str(UREG.parse_units(target)),
        "raw_magnitude": float(raw.magnitude),
        "raw_units": str(raw.units),
        "dimensionality": str(raw.dimensionality),
        "base_magnitude": float(base_mag),
        "base_units": [[name, float(exp)] for name, exp in base_units],
        "is_dimensionless": bool(raw.dimensionless),
        "compact": [float(compact.magnitude), str(compact.units)],
        "html": format(value, ".5g~H"),
        "latex": format(value, ".5g~L"),
        "siunitx": format(value, ".5g~Lx"),
        "compatible_units": [] if target == "dimensionless" else sorted(map(str, UREG.get_compatible_units(target))),
    }

"""pint unit systems (base units per system), root/reduced/compact forms and the string format specifications."""

import pint

UREG = pint.UnitRegistry()

UNITS = {
    "insolation": "kW*h/(m^2*day)",
    "torque_per_mass": "N*m/kg",
    "imperial_power": "ft*lbf/s",
    "flow": "L/min",
    "blood_glucose": "mg/dL",
    "fuel_economy": "mi/gal",
    "thermal_conductivity": "BTU/(hr*ft*delta_degF)",
    "charge_density": "mA*h/g",
}


def qinfo(q):
    return {"magnitude": float(q.magnitude), "units": str(q.units)}


def main(scn):
    unit = UNITS[str(scn["quantity"])]
    q = UREG.Quantity(float(scn["magnitude"]), unit)
    UREG.default_system = str(scn["system"])
    try:
        base = q.to_base_units()
        factor, base_unit = UREG.get_base_units(unit)
    finally:
        UREG.default_system = "mks"
    spec = f".{int(scn['precision'])}g~{scn['style']}"
    return {
        "unit_string": str(q.units),
        "dimensionality": str(q.dimensionality),
        "system_base": qinfo(base),
        "system_base_factor": float(factor),
        "system_base_unit": str(base_unit),
        "root": qinfo(q.to_root_units()),
        "reduced": qinfo(q.to_reduced_units()),
        "compact_base": qinfo(base.to_compact()),
        "formatted": format(q, spec),
        "formatted_base": format(base, spec),
    }

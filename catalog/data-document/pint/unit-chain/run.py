"""Physical quantity conversion chain and dimensional analysis with pint."""

import json
import sys

import pint

UREG = pint.UnitRegistry()

KINDS = {
    "speed": ["meter/second", "kilometer/hour", "mile/hour", "knot", "foot/second",
              "furlong/fortnight", "speed_of_light", "inch/minute"],
    "energy": ["joule", "kilowatt_hour", "calorie", "british_thermal_unit", "electron_volt",
               "foot_pound", "erg", "ton_TNT"],
    "pressure": ["pascal", "bar", "psi", "atmosphere", "torr", "inch_Hg", "millimeter_Hg", "kilopascal"],
    "power": ["watt", "horsepower", "metric_horsepower", "BTU/hour", "erg/second", "kilocalorie/hour",
              "foot*pound_force/second", "megawatt"],
    "volume_flow": ["meter**3/second", "liter/minute", "gallon/minute", "cubic_foot/second",
                    "imperial_gallon/hour", "barrel/day", "milliliter/second", "acre_foot/year"],
    "dynamic_viscosity": ["pascal*second", "poise", "centipoise", "reyn", "pound/foot/second",
                          "millipascal*second", "dyne*second/centimeter**2", "pound_force*second/foot**2"],
    "temperature": ["kelvin", "degree_Celsius", "degree_Fahrenheit", "degree_Rankine", "degree_Reaumur",
                    "millikelvin", "microkelvin", "planck_temperature"],
}
BASE_DIMS = ["length", "mass", "time", "temperature", "current", "substance", "luminosity"]


def unit_info(q):
    return {"units": str(q.units), "symbol": format(q.units, "~"), "magnitude": float(q.magnitude)}


def dims(q):
    d = q.dimensionality
    out = {}
    for name in BASE_DIMS:
        e = d.get(f"[{name}]", 0)
        out[name] = int(e) if float(e).is_integer() else float(e)
    return out


def compute(scn):
    value = float(scn["value"])
    units = KINDS[str(scn["kind"])]
    start = units[int(scn["from_index"]) % len(units)]
    chain = [units[int(i) % len(units)] for i in scn["chain"]]
    exponent = int(scn["exponent"])
    other = UREG(str(scn["multiply_by"]))

    q = UREG.Quantity(value, start)
    base = q.to_base_units()
    steps = []
    cur = q
    for u in chain:
        cur = cur.to(u)
        steps.append(unit_info(cur))

    derived = (base ** exponent * other).to_base_units()
    return {
        "input": unit_info(q),
        "formatted": format(q, ".6g~P"),
        "base": unit_info(base),
        "dimensions": dims(q),
        "chain": steps,
        "other": unit_info(other),
        "derived": {
            "magnitude": float(derived.magnitude),
            "units": str(derived.units),
            "dimensionless": bool(derived.dimensionless),
            "dimensions": dims(derived),
        },
    }


if __name__ == "__main__":
    scenario = json.load(sys.stdin)
    json.dump(compute(scenario), sys.stdout)
    sys.stdout.write("\n")

"""Convert every quantity string of a TOML configuration to a target unit system with pint, and write
the result as TOML."""

import os
import re
import tomllib
from pathlib import Path

import pint

UREG = pint.UnitRegistry()
NUMBER_FIRST = re.compile(r"^[-+]?\d")
# target units per system: a quantity goes to the first unit it is compatible with (each dimension appears once)
KINDS = [
    "length",
    "area",
    "volume",
    "flow",
    "velocity",
    "power",
    "pressure",
    "heat_flux",
    "mass",
    "energy",
    "angular_speed",
    "angle",
]
SYSTEMS = {
    "SI": ["m", "m**2", "m**3", "m**3/s", "m/s", "kW", "kPa", "W/m**2", "kg", "kJ", "rad/s", "rad"],
    "metric_engineering": ["m", "m**2", "L", "L/s", "km/h", "kW", "bar", "kW/m**2", "t", "kWh", "rpm", "deg"],
    "US": ["ft", "ft**2", "gal", "gal/min", "ft/s", "hp", "psi", "BTU/(hr*ft**2)", "lb", "BTU", "rpm", "deg"],
}


def convert(value, scn, stats):
    if isinstance(value, dict):
        return {k: convert(v, scn, stats) for k, v in value.items()}
    if isinstance(value, list):
        return [convert(v, scn, stats) for v in value]
    if not (isinstance(value, str) and NUMBER_FIRST.match(value)):
        return value
    number, unit = value.split(" ", 1)
    q = UREG.Quantity(float(number), unit)
    if q.is_compatible_with("K"):
        kind, target = "temperature", str(scn["temperature_unit"])
    else:
        units = SYSTEMS[str(scn["system"])]
        i = next(i for i, u in enumerate(units) if q.is_compatible_with(u))
        kind, target = KINDS[i], units[i]
        if kind == "flow":
            q = q * float(scn["flow_scale"])
        elif kind == "power":
            q = q * (1.0 - float(scn["power_derate_pct"]) / 100.0)
    out = q.to(target)
    stats["converted"] += 1
    stats["kinds"].add(kind)
    return {
        "value": float(out.magnitude),
        "unit": format(out.units, "~"),
        "latex": format(out.units, "~L"),
        "html": format(out.units, "~H"),
        "pretty": format(out.units, "~P"),
    }


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(toml_value(x) for x in v) + "]"


def is_table(v):
    return isinstance(v, dict) and not ("value" in v and "unit" in v)


def dump(doc, prefix=""):
    lines = [
        f"{k} = {toml_value(v)}"
        for k, v in doc.items()
        if not is_table(v) and not (isinstance(v, list) and v and all(is_table(x) for x in v))
    ]
    for k, v in doc.items():
        name = f"{prefix}{k}"
        if is_table(v):
            lines += ["", f"[{name}]", dump(v, name + ".")]
        elif isinstance(v, list) and v and all(is_table(x) for x in v):
            for item in v:
                lines += ["", f"[[{name}]]", dump(item, name + ".")]
    return "\n".join(line for line in lines if line is not None)


def main(scn):
    doc = tomllib.loads(Path(str(scn["config"])).read_text(encoding="utf-8"))
    stats = {"converted": 0, "kinds": set()}
    converted = convert(doc, scn, stats)
    text = dump(converted).strip() + "\n"
    Path(os.environ["SWR_ARTIFACTS"], "converted.toml").write_text(text, encoding="utf-8")
    return {"config": "converted.toml", "n_converted": stats["converted"], "kinds": sorted(stats["kinds"])}

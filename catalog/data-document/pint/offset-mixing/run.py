"""Adiabatic mixing of liquid streams with pint's offset temperature units and delta units (no autoconversion)."""

import pint

UREG = pint.UnitRegistry()
Q = UREG.Quantity
DELTA = {"degC": "delta_degC", "degF": "delta_degF", "K": "K", "degR": "degR"}


def main(scn):
    t_unit = str(scn["temperature_unit"])
    temps = [Q(float(t), t_unit) for t in scn["temperatures"]]
    n = len(temps)
    flows = [Q(float(f), "kg/min") for f in scn["mass_flows_kg_per_min"][:n]]
    cp = Q(float(scn["cp"]), str(scn["cp_unit"]))
    capacity = [(f * cp).to("W/K") for f in flows]
    total = sum(capacity)  # pint adds the plain 0 that sum() starts from
    t_mix_k = (sum(c * t.to("K") for c, t in zip(capacity, temps)) / total).m_as("K")
    t_mix = Q(t_mix_k, "K").to(t_unit)
    target = Q(float(scn["target"]), t_unit)
    rise = target - t_mix  # offset - offset: a delta quantity
    duty = (total * rise).to(str(scn["duty_unit"]))
    spread = max(temps) - min(temps)
    return {
        "mixed_temperature": float(t_mix.magnitude),
        "mixed_temperature_K": t_mix_k,
        "mixed_temperature_degF": float(t_mix.to("degF").magnitude),
        "temperature_rise": float(rise.to(DELTA[t_unit]).magnitude),
        "rise_units": str(rise.units),
        "heat_capacity_rate_kW_per_K": total.m_as("kW/K"),
        "duty": float(duty.magnitude),
        "inlet_spread_delta_degC": float(spread.to("delta_degC").magnitude),
        "target_plus_rise": float((target + rise).to(t_unit).magnitude),
    }

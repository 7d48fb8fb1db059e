"""Chemical equilibrium of a fuel-air mixture with Cantera and the GRI-Mech 3.0 mechanism: adiabatic
constant-pressure (HP) flame state, constant-volume (UV) explosion state, and fixed-temperature (TP)
equilibrium, each by Cantera's equilibrate().

Entry workflow: main(dict) -> dict. The mechanism is parsed once at import; main() works on a fresh
Solution copy per call, so the module-level object is never mutated.
"""

import cantera as ct

GRI = ct.Solution("gri30.yaml")
REPORT = ["CO2", "H2O", "N2", "O2", "CO", "H2", "OH", "H", "O", "NO"]


def mixture(scn):
    gas = ct.Solution(thermo="ideal-gas", kinetics="gas", species=GRI.species(), reactions=[])
    fuel = str(scn["fuel"])
    phi = float(scn["equivalence_ratio"])
    o2n2 = float(scn["n2_per_o2"])
    gas.set_equivalence_ratio(phi, f"{fuel}:1", f"O2:1, N2:{o2n2}")
    gas.TP = float(scn["initial_T_K"]), float(scn["pressure_atm"]) * ct.one_atm
    return gas


def summary(gas):
    X = gas.mole_fraction_dict(threshold=0.0)
    return {
        "T_K": float(gas.T),
        "p_Pa": float(gas.P),
        "density_kg_m3": float(gas.density),
        "mean_molecular_weight": float(gas.mean_molecular_weight),
        "cp_J_kgK": float(gas.cp_mass),
        "gamma": float(gas.cp_mass / gas.cv_mass),
        "mole_fractions": {k: float(X.get(k, 0.0)) for k in REPORT},
    }


def main(scn: dict) -> dict:
    gas = mixture(scn)
    T0, P0, rho0 = gas.T, gas.P, gas.density
    h0 = gas.enthalpy_mass
    mix_ratio = float(gas.mixture_fraction(f"{scn['fuel']}:1", f"O2:1, N2:{float(scn['n2_per_o2'])}"))
    initial = {"mixture_fraction": mix_ratio, "mean_molecular_weight": float(gas.mean_molecular_weight),
               "density_kg_m3": float(rho0), "h_J_kg": float(h0)}

    gas.equilibrate("HP")
    hp = summary(gas)

    gas = mixture(scn)
    gas.equilibrate("UV")
    uv = summary(gas)
    uv["pressure_ratio"] = float(gas.P / P0)

    gas = mixture(scn)
    gas.TP = float(scn["fixed_T_K"]), P0
    gas.equilibrate("TP")
    tp = summary(gas)

    return {
        "initial": initial,
        "adiabatic_hp": hp,
        "constant_volume_uv": uv,
        "fixed_temperature_tp": tp,
        "flame_temperature_rise_K": hp["T_K"] - T0,
    }

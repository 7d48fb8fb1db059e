"""Transport properties of a fuel-air mixture with Cantera's gas transport managers (GRI-Mech 3.0 transport data):
mixture-averaged and multicomponent viscosity, thermal conductivity, mixture-averaged and multicomponent diffusion
coefficients, binary diffusion coefficients, thermal-diffusion (Soret) coefficients, Prandtl and Lewis numbers, as a
combustion modeller checks the inputs of a flame model.

Entry workflow: main(dict) -> dict; the mechanism is parsed once at import and every call builds new Solution objects.
"""

import cantera as ct

MECH = ct.Solution("gri30.yaml")
SPECIES = MECH.species()


def gas(s: dict, model: str) -> ct.Solution:
    g = ct.Solution(thermo="ideal-gas", kinetics="none", transport_model=model, species=SPECIES)
    g.set_equivalence_ratio(float(s["equivalence_ratio"]), f"{s['fuel']}:1", f"O2:1, N2:{float(s['n2_per_o2'])}")
    g.TP = float(s["T_K"]), float(s["pressure_atm"]) * ct.one_atm
    return g


def main(s: dict) -> dict:
    fuel = str(s["fuel"])
    report = [fuel, "O2", "N2"]
    mix = gas(s, "mixture-averaged")
    multi = gas(s, "multicomponent")
    idx = {k: mix.species_index(k) for k in report}
    i_n2 = idx["N2"]
    alpha = mix.thermal_conductivity / (mix.density * mix.cp_mass)
    species = {}
    for k in report:
        i = idx[k]
        d_mix = float(mix.mix_diff_coeffs[i])
        species["fuel" if k == fuel else k] = {
            "mole_fraction": float(mix.X[i]),
            "viscosity_Pa_s": float(mix.species_viscosities[i]),
            "D_mix_m2_s": d_mix,
            "lewis_number": float(alpha / d_mix),
            "D_binary_with_N2_m2_s": float(mix.binary_diff_coeffs[i, i_n2]),
            "soret_coefficient_kg_m_s": float(multi.thermal_diff_coeffs[i]),
        }
    return {
        "density_kg_m3": float(mix.density),
        "cp_J_kgK": float(mix.cp_mass),
        "mixture_averaged": {"viscosity_Pa_s": float(mix.viscosity),
                             "thermal_conductivity_W_mK": float(mix.thermal_conductivity),
                             "prandtl": float(mix.viscosity * mix.cp_mass / mix.thermal_conductivity)},
        "multicomponent": {"viscosity_Pa_s": float(multi.viscosity),
                           "thermal_conductivity_W_mK": float(multi.thermal_conductivity),
                           "D_fuel_into_O2_m2_s": float(multi.multi_diff_coeffs[idx[fuel], idx["O2"]])},
        "thermal_diffusivity_m2_s": float(alpha),
        "species": species,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

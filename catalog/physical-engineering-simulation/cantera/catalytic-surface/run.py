"""Catalytic combustion of methane on platinum with Cantera's surface kinetics (ptcombust.yaml, Deutschmann's Pt
mechanism: ct.Interface with its adjacent gas phase): steady surface coverages reached by integrating the coverage
equations (Interface.advance_coverages) at a fixed gas composition, the surface net production rates of the gas
species and the methane turnover frequency, as a catalysis engineer evaluates a catalyst's operating point.

Entry workflow: main(dict) -> dict; every call builds a fresh Interface (and its gas phase) from the mechanism file.
"""

import cantera as ct

GAS_REPORT = ("CH4", "O2", "H2O", "CO2", "CO")
SETTLE_S = 1.0


def main(s: dict) -> dict:
    surf = ct.Interface("ptcombust.yaml", "Pt_surf")
    gas = surf.adjacent["gas"]
    T, p = float(s["T_K"]), float(s["pressure_atm"]) * ct.one_atm
    x_ch4 = float(s["x_CH4"])
    gas.TPX = T, p, {"CH4": x_ch4, "O2": x_ch4 * float(s["o2_to_ch4"]), str(s["diluent"]): 1.0}
    surf.TP = T, p
    surf.advance_coverages(SETTLE_S)
    rates = surf.get_net_production_rates(gas)
    idx = {k: gas.species_index(k) for k in GAS_REPORT}
    tof = -rates[idx["CH4"]] / surf.site_density
    return {
        "gas_mole_fractions": {k: float(gas.X[i]) for k, i in idx.items() if k in ("CH4", "O2")},
        "coverages": {name: float(c) for name, c in zip(surf.species_names, surf.coverages)},
        "net_production_kmol_m2_s": {k: float(rates[i]) for k, i in idx.items()},
        "ch4_turnover_frequency_1_s": float(tof),
        "site_density_kmol_m2": float(surf.site_density),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

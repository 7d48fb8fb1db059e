"""A reduced hydrogen-oxygen mechanism written as a Cantera YAML input file: the species of h2o2.yaml that the scenario
keeps, the reactions among them, and the mixture's state, as Solution.write_yaml writes them (in cm, mol, cal/mol).

Entry workflow: main() builds the Solution from the scenario; the generator header Cantera writes (generator, version,
git commit, date) is dropped, so the file depends on nothing but the scenario.
"""

import os

import cantera as ct

HEADER = ("generator:", "cantera-version:", "git-commit:", "date:")
PEROXIDE = {"HO2", "H2O2"}


def main(s: dict) -> dict:
    full = ct.Solution("h2o2.yaml")
    keep = {"H2", "H", "O", "O2", "OH", "H2O", str(s["diluent"])}
    if s["keep_peroxide"]:
        keep |= PEROXIDE
    species = [sp for sp in full.species() if sp.name in keep]
    reactions = [r for r in full.reactions() if set(r.reactants) | set(r.products) <= keep]
    gas = ct.Solution(thermo="ideal-gas", kinetics="gas", species=species, reactions=reactions)
    gas.set_equivalence_ratio(float(s["phi"]), "H2", {"O2": 1.0, str(s["diluent"]): float(s["dilution"])})
    gas.TP = float(s["T_K"]), float(s["P_atm"]) * ct.one_atm
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "mechanism.yaml")
    gas.write_yaml(path, units={"length": "cm", "quantity": "mol", "activation-energy": "cal/mol"})
    with open(path, encoding="utf-8") as fh:
        lines = [line for line in fh if not line.startswith(HEADER)]
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(lines)
    return {
        "mechanism": "mechanism.yaml",
        "n_species": gas.n_species,
        "n_reactions": gas.n_reactions,
        "density_kg_m3": float(gas.density),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

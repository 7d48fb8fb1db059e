"""In-silico digestion of a seeded protein with pyteomics: peptides, masses, m/z, pI and sequence coverage."""

import json
import random
import sys

from pyteomics import electrochem, mass, parser

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
# UniProtKB/Swiss-Prot amino-acid composition (percent), in AMINO_ACIDS order
WEIGHTS = (8.25, 1.38, 5.46, 6.72, 3.86, 7.07, 2.27, 5.91, 5.80, 9.65,
           2.41, 4.06, 4.74, 3.93, 5.53, 6.65, 5.36, 6.86, 1.10, 2.92)


def make_protein(seed: int, length: int) -> str:
    """M followed by length-1 residues drawn with Swiss-Prot frequencies."""
    rng = random.Random(seed)
    return "M" + "".join(rng.choices(AMINO_ACIDS, weights=WEIGHTS, k=length - 1))


def peptide_row(start: int, pep: str, rule: str, charge: int) -> dict:
    """What a search database keeps per peptide."""
    m = float(mass.fast_mass(pep))
    return {"start": start, "sequence": pep, "missed_cleavages": int(parser.num_sites(pep, rule, regex=True)),
            "monoisotopic_mass": m, "mz": float(mass.fast_mass(pep, charge=charge)),
            "pI": float(electrochem.pI(pep))}


def main(scn: dict) -> dict:
    """One scenario in, the digest and its mass-window summary out."""
    protein = make_protein(int(scn["seed"]), int(scn["length"]))
    rule = parser.expasy_rules[str(scn["enzyme"])]
    charge = int(scn["charge"])
    lo, hi = float(scn["min_mass"]), float(scn["max_mass"])
    found = parser.xcleave(protein, rule, int(scn["missed_cleavages"]), min_length=int(scn["min_length"]),
                           max_length=int(scn["max_length"]), regex=True)
    rows = [peptide_row(s, p, rule, charge) for s, p in sorted(set(found), key=lambda sp: (len(sp[1]), sp[0]))]
    in_window = [r for r in rows if lo <= r["monoisotopic_mass"] <= hi]
    return {
        "protein": protein,
        "protein_monoisotopic_mass": float(mass.fast_mass(protein)),
        "protein_average_mass": float(mass.calculate_mass(sequence=protein, average=True)),
        "protein_pI": float(electrochem.pI(protein)),
        "cleavage_sites": int(parser.num_sites(protein, rule, regex=True)),
        "n_peptides": len(rows),
        "peptides": rows,
        "n_in_mass_window": len(in_window),
        "coverage_in_mass_window": float(parser.coverage(protein, [r["sequence"] for r in in_window])),
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

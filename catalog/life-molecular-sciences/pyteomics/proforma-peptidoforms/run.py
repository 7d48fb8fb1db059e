"""Modified peptides in HUPO-PSI ProForma 2.0 notation with pyteomics.proforma: build the strings, parse them
(ProForma.parse), and report masses, m/z, fragment ladders and the peptidoforms an unlocalized or ambiguous
modification expands to."""

import random
import tomllib
from pathlib import Path

from pyteomics import proforma

# The mass shifts the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
# Modification tags without a Unimod lookup (which needs the network): mass shifts and formulas
PANEL = (f"[+{CONSTANTS['OXIDATION_DELTA']}]", "[Formula:HPO3]", f"[+{CONSTANTS['DEAMIDATION_DELTA']}]",
         f"[+{CONSTANTS['METHYL_DELTA']}]", "[Formula:C2H2O]")
ION_PAIRS = {"b/y": ("b", "y"), "c/z": ("c", "z")}


def peptide(rng: random.Random, scn: dict) -> str:
    length = rng.randint(6, int(scn["max_length"]))
    residues = rng.choices(AMINO_ACIDS, k=length - 1) + [rng.choice("KR")]
    body = "".join(aa + (rng.choice(PANEL) if rng.random() < float(scn["mod_rate"]) else "") for aa in residues)
    text = ""
    if scn["fixed_carbamidomethyl"]:
        text += f"<[+{CONSTANTS['CARBAMIDOMETHYL_DELTA']}]@C>"
    if rng.random() < float(scn["unlocalized_rate"]):
        text += "[Formula:HPO3]?"
    if rng.random() < float(scn["nterm_acetyl_rate"]):
        text += "[Formula:C2H2O]-"
    return text + body + f"/{rng.randint(1, int(scn['max_charge']))}"


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    n_ion, c_ion = ION_PAIRS[str(scn["ion_pair"])]
    fz = int(scn["fragment_charge"])
    rows = []
    for _ in range(int(scn["n_peptides"])):
        text = peptide(rng, scn)
        p = proforma.ProForma.parse(text)
        rows.append({
            "proforma": text,
            "neutral_mass": float(p.mass),
            "charge": int(p.charge_state.charge),
            "mz": float(p.mz()),
            "n_peptidoforms": sum(1 for _ in p.peptidoforms()),
            "n_ions": [float(v) for v in p.fragments(n_ion, fz)],
            "c_ions": [float(v) for v in p.fragments(c_ion, fz)],
        })
    return {"peptides": rows, "max_mz": max(r["mz"] for r in rows),
            "total_peptidoforms": sum(r["n_peptidoforms"] for r in rows)}

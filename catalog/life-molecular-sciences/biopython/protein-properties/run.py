"""Physico-chemical profile of simulated proteins with Bio.SeqUtils.ProtParam.ProteinAnalysis: instability index,
aromaticity, GRAVY on a chosen hydropathy scale, secondary-structure fractions, extinction coefficients, charge at a
pH, flexibility, and a sliding-window hydropathy profile (protein_scale) for transmembrane-segment spotting."""

import csv
import os
import random

from Bio.SeqUtils import ProtParamData
from Bio.SeqUtils.ProtParam import ProteinAnalysis

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
HYDROPHOBIC = "AILMFVW"
SCALES = {"kyte-doolittle": ProtParamData.kd, "hopp-woods": ProtParamData.hw, "eisenberg": ProtParamData.em}


def protein(rng: random.Random, length: int, tm_segments: int) -> str:
    """Uniform residues, then tm_segments stretches of 20 hydrophobic residues written over random positions."""
    seq = rng.choices(AMINO_ACIDS, k=length)
    for _ in range(tm_segments):
        start = rng.randrange(length - 20 + 1)
        seq[start:start + 20] = rng.choices(HYDROPHOBIC, k=20)
    return "".join(seq)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    scale, window, ph = SCALES[str(scn["scale"])], int(scn["window"]), float(scn["pH"])
    threshold = float(scn["tm_threshold"])
    rows, profiles = [], []
    for k in range(int(scn["n_proteins"])):
        seq = protein(rng, rng.randint(80, int(scn["max_length"])), rng.randint(0, int(scn["max_tm_segments"])))
        pa = ProteinAnalysis(seq)
        helix, turn, sheet = pa.secondary_structure_fraction()
        reduced, cystines = pa.molar_extinction_coefficient()
        profile = pa.protein_scale(scale, window, edge=float(scn["edge"]))
        flex = pa.flexibility()
        rows.append([f"prot{k}", len(seq), pa.instability_index(), pa.aromaticity(), pa.gravy(str(scn["gravy_scale"])),
                     helix, turn, sheet, reduced, cystines, pa.charge_at_pH(ph), sum(flex) / len(flex)])
        profiles.append({"protein": f"prot{k}", "max_window_score": max(profile),
                         "windows_above_threshold": sum(v > threshold for v in profile)})
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "properties.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["protein", "length", "instability_index", "aromaticity", "gravy", "helix_fraction", "turn_fraction",
                    "sheet_fraction", "extinction_reduced", "extinction_cystines", "charge_at_pH", "mean_flexibility"])
        w.writerows(rows)
    return {
        "property_table": "properties.csv",
        "n_unstable": sum(r[2] > 40 for r in rows),
        "hydropathy": profiles,
    }

"""Target-decoy FDR control of peptide-spectrum matches with pyteomics.auxiliary: TDA q-values (qvalues with the
chosen formula, ratio and correction), PEP-based q-values, the set's FDR (auxiliary.fdr), and the PSM table."""

import csv
import math
import os
import random

from pyteomics import auxiliary


def simulate(seed: int, n: int, correct: float, sep: float, ratio: float) -> list[dict]:
    """Per PSM: correct?, then (random matches) decoy?, then its score."""
    rng = random.Random(seed)
    psms = []
    for i in range(n):
        ok = rng.random() < correct
        decoy = False if ok else rng.random() < ratio / (1 + ratio)
        score = rng.gauss(sep if ok else 0.0, 1.0)
        psms.append({"spectrum": f"scan{i}", "score": score, "decoy": decoy, "correct": ok})
    return psms


def pep(score: float, correct: float, sep: float) -> float:
    """Posterior error probability under the simulation's two-Gaussian mixture."""
    wrong = (1 - correct) * math.exp(-score * score / 2)
    right = correct * math.exp(-(score - sep) ** 2 / 2)
    return wrong / (wrong + right)


def main(scn: dict) -> dict:
    correct, sep, ratio = float(scn["correct_fraction"]), float(scn["separation"]), float(scn["decoy_ratio"])
    formula, corr, level = int(scn["formula"]), int(scn["correction"]), float(scn["fdr_level"])
    psms = simulate(int(scn["seed"]), int(scn["n_psms"]), correct, sep, ratio)
    key, is_decoy = (lambda p: p["score"]), (lambda p: p["decoy"])
    tda = auxiliary.qvalues(psms, key=key, reverse=True, is_decoy=is_decoy, formula=formula, ratio=ratio,
                            correction=corr, full_output=True)
    by_pep = auxiliary.qvalues(psms, key=key, reverse=True, pep=lambda p: pep(p["score"], correct, sep),
                               full_output=True)
    q_pep = {row["psm"]["spectrum"]: float(row["q"]) for row in by_pep}
    rows, accepted, accepted_pep = [], [], 0
    for row in tda:
        p = row["psm"]
        q = float(row["q"])
        rows.append([p["spectrum"], p["score"], int(p["decoy"]), q, q_pep[p["spectrum"]]])
        if not p["decoy"] and q <= level:
            accepted.append(p)
        accepted_pep += (not p["decoy"]) and q_pep[p["spectrum"]] <= level
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "psms.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["spectrum", "score", "decoy", "q_tda", "q_pep"])
        w.writerows(rows)
    n_decoy = sum(p["decoy"] for p in psms)
    return {
        "psm_table": "psms.csv",
        "n_targets": len(psms) - n_decoy,
        "n_decoys": n_decoy,
        "set_fdr": float(auxiliary.fdr(psms, is_decoy=is_decoy, formula=formula, ratio=ratio, correction=corr)),
        "n_accepted_tda": len(accepted),
        "false_discovery_proportion": sum(not p["correct"] for p in accepted) / len(accepted) if accepted else 0.0,
        "n_accepted_pep": accepted_pep,
    }

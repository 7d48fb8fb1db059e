"""Retention-time model calibration with pyteomics.achrom: fit amino-acid retention coefficients to a training set
(achrom.get_RCs, least squares with a length correction), predict held-out peptides (calculate_RT), and check the
predictions with auxiliary.linear_regression."""

import csv
import math
import os
import random

from pyteomics import achrom, auxiliary

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
TABLES = {"guo_ph2_0": achrom.RCs_guo_ph2_0, "guo_ph7_0": achrom.RCs_guo_ph7_0,
          "meek_ph2_1": achrom.RCs_meek_ph2_1, "browne_tfa": achrom.RCs_browne_tfa}


def peptides(rng: random.Random, n: int, max_len: int, table: dict, noise: float) -> list[tuple[str, float, float]]:
    out = []
    for _ in range(n):
        length = rng.randint(6, max_len)
        seq = "".join(rng.choices(AMINO_ACIDS, k=length - 1)) + rng.choice("KR")
        true = float(achrom.calculate_RT(seq, table))
        out.append((seq, true, true + rng.gauss(0.0, noise)))
    return out


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    table, noise, max_len = TABLES[str(scn["true_table"])], float(scn["noise_sd"]), int(scn["max_length"])
    train = peptides(rng, int(scn["n_train"]), max_len, table, noise)
    test = peptides(rng, int(scn["n_test"]), max_len, table, noise)
    fitted = achrom.get_RCs([p for p, _, _ in train], [o for _, _, o in train], lcp=float(scn["lcp"]))
    predicted = [float(achrom.calculate_RT(p, fitted)) for p, _, _ in test]
    slope, intercept, r, stderr = auxiliary.linear_regression([o for _, _, o in test], predicted)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "test_predictions.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["peptide", "observed_min", "predicted_min"])
        w.writerows([p, o, q] for (p, _, o), q in zip(test, predicted))
    return {
        "predictions": "test_predictions.csv",
        "coefficients": {aa: float(fitted["aa"].get(aa, 0.0)) for aa in AMINO_ACIDS},
        "constant": float(fitted["const"]),
        "rmse_vs_true": math.sqrt(sum((q - t) ** 2 for (_, t, _), q in zip(test, predicted)) / len(test)),
        "regression": {"slope": float(slope), "intercept": float(intercept), "r": float(r), "stderr": float(stderr)},
    }

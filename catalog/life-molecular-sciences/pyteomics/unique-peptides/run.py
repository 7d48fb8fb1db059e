"""Proteotypic peptides of a proteome with paralogs: in-silico digestion with pyteomics.parser.cleave (specific or
semi-specific), peptides mapped to their proteins (I/L merged as mass spectrometry sees them), the unique ones written
with pyteomics.fasta.write, and each protein's coverage by its unique peptides (parser.coverage)."""

import os
import random

from pyteomics import fasta, parser

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
WEIGHTS = (8.25, 1.38, 5.46, 6.72, 3.86, 7.07, 2.27, 5.91, 5.80, 9.65,
           2.41, 4.06, 4.74, 3.93, 5.53, 6.65, 5.36, 6.86, 1.10, 2.92)
MIN_LEN, MAX_LEN = 7, 30


def proteome(scn: dict) -> list[str]:
    rng = random.Random(int(scn["seed"]))
    out: list[str] = []
    for i in range(int(scn["n_proteins"])):
        if out and rng.random() < float(scn["paralog_rate"]):
            parent, child = out[rng.randrange(len(out))], []
            for aa in parent:
                if rng.random() < float(scn["divergence"]):
                    child.append(rng.choices(AMINO_ACIDS, weights=WEIGHTS)[0])
                elif aa in "IL" and rng.random() < 0.5:
                    child.append("L" if aa == "I" else "I")  # isobaric swap: same peptide mass
                else:
                    child.append(aa)
            out.append("".join(child))
        else:
            length = rng.randint(100, int(scn["max_length"]))
            out.append("M" + "".join(rng.choices(AMINO_ACIDS, weights=WEIGHTS, k=length - 1)))
    return out


def main(scn: dict) -> dict:
    proteins = proteome(scn)
    rule = parser.expasy_rules[str(scn["enzyme"])]
    merge = bool(scn["merge_il"])
    owners: dict[str, set[int]] = {}
    digests = []
    for i, prot in enumerate(proteins):
        peps = parser.cleave(prot, rule, missed_cleavages=int(scn["missed_cleavages"]), min_length=MIN_LEN,
                             max_length=MAX_LEN, semi=bool(scn["semi"]), regex=True)
        digests.append(peps)
        for p in peps:
            owners.setdefault(p.replace("I", "L") if merge else p, set()).add(i)
    entries, per_protein, n_unique = [], [], 0
    for i, (prot, peps) in enumerate(zip(proteins, digests)):
        unique = sorted((p for p in peps if len(owners[p.replace("I", "L") if merge else p]) == 1),
                        key=lambda p: (len(p), p))
        n_unique += len(unique)
        entries += [(f"PRT{i}|{p}", p) for p in unique]
        per_protein.append({"protein": f"PRT{i}", "length": len(prot), "peptides": len(peps), "unique": len(unique),
                            "unique_coverage": float(parser.coverage(prot, unique)) if unique else 0.0})
    fasta.write(entries, os.path.join(os.environ["SWR_ARTIFACTS"], "unique_peptides.fasta"))
    return {
        "unique_peptides": "unique_peptides.fasta",
        "n_distinct_peptides": len(owners),
        "n_unique_entries": n_unique,
        "n_shared_peptides": sum(len(o) > 1 for o in owners.values()),
        "proteins": per_protein,
    }

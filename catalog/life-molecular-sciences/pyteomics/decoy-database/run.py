"""Target-decoy search database with pyteomics.fasta: a UniProt-style target FASTA written with fasta.write, decoys
appended with fasta.write_decoy_db, the result read back with the UniProt header parser, and the tryptic peptides
that decoys share with targets counted with pyteomics.parser."""

import os
import random
import tempfile

from pyteomics import fasta, parser

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
# UniProtKB/Swiss-Prot amino-acid composition (percent), in AMINO_ACIDS order
WEIGHTS = (8.25, 1.38, 5.46, 6.72, 3.86, 7.07, 2.27, 5.91, 5.80, 9.65,
           2.41, 4.06, 4.74, 3.93, 5.53, 6.65, 5.36, 6.86, 1.10, 2.92)


def targets(seed: int, n: int, max_length: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        length = rng.randint(50, max_length)
        seq = "M" + "".join(rng.choices(AMINO_ACIDS, weights=WEIGHTS, k=length - 1))
        header = (f"sp|Q{10000 + i}|PRT{i}_HUMAN Simulated protein {i} OS=Homo sapiens OX=9606 GN=GENE{i} "
                  f"PE={1 + i % 5} SV=1")
        out.append((header, seq))
    return out


def peptides(seq: str, missed: int, min_len: int) -> set[str]:
    return parser.cleave(seq, parser.expasy_rules["trypsin"], missed_cleavages=missed, min_length=min_len)


def main(scn: dict) -> dict:
    tmp = tempfile.TemporaryDirectory()
    target_path = os.path.join(tmp.name, "target.fasta")
    db_path = os.path.join(os.environ["SWR_ARTIFACTS"], "target_decoy.fasta")
    entries = targets(int(scn["seed"]), int(scn["n_proteins"]), int(scn["max_length"]))
    fasta.write(entries, target_path)
    prefix = str(scn["prefix"])
    fasta.write_decoy_db(target_path, db_path, mode=str(scn["mode"]), prefix=prefix, decoy_only=bool(scn["decoy_only"]),
                         keep_nterm=bool(scn["keep_nterm"]))
    missed, min_len = int(scn["missed_cleavages"]), int(scn["min_peptide_length"])
    target_peps, decoy_peps, n_decoys, n_entries = set(), set(), 0, 0
    pe_levels = {str(k): 0 for k in range(1, 6)}
    with fasta.read(db_path) as db:
        for descr, seq in db:
            n_entries += 1
            is_decoy = descr.startswith(prefix)
            parsed = fasta.parse(descr[len(prefix):] if is_decoy else descr)
            if is_decoy:
                n_decoys += 1
                decoy_peps |= peptides(seq, missed, min_len)
            else:
                pe_levels[str(parsed["PE"])] += 1
    for _, seq in entries:
        target_peps |= peptides(seq, missed, min_len)
    tmp.cleanup()
    shared = decoy_peps & target_peps
    return {
        "database": "target_decoy.fasta",
        "n_entries": n_entries,
        "n_decoys": n_decoys,
        "target_pe_counts": pe_levels,
        "n_target_peptides": len(target_peps),
        "n_decoy_peptides": len(decoy_peps),
        "n_shared_peptides": len(shared),
        "shared_fraction": len(shared) / len(decoy_peps) if decoy_peps else 0.0,
    }

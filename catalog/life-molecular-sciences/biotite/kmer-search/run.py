"""Seed-and-extend homology search with biotite: a k-mer index of a protein database (KmerTable), seed matches of a
query on their best diagonal, banded local alignments around it (align_banded), written as gapped FASTA."""

import os
import random
from collections import Counter

import biotite.sequence as seq
import biotite.sequence.align as align
import biotite.sequence.io.fasta as fasta

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"


def mutate(parent: str, rng: random.Random, sub: float, indel: float) -> str:
    """Per position: delete (indel/2), keep and insert a residue after it (indel/2), substitute (sub), else keep."""
    out = []
    for aa in parent:
        r = rng.random()
        if r < indel / 2:
            continue
        if r < indel:
            out += [aa, rng.choice(AMINO_ACIDS)]
        elif r < indel + sub:
            out.append(rng.choice(AMINO_ACIDS))
        else:
            out.append(aa)
    return "".join(out)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    n_db, max_len = int(scn["n_database"]), int(scn["max_length"])
    db = ["".join(rng.choices(AMINO_ACIDS, k=rng.randint(max_len // 2, max_len))) for _ in range(n_db)]
    source = rng.randrange(n_db)
    query = mutate(db[source], rng, float(scn["substitution_rate"]), float(scn["indel_rate"]))
    db_seqs = [seq.ProteinSequence(s) for s in db]
    q = seq.ProteinSequence(query)
    table = align.KmerTable.from_sequences(int(scn["k"]), db_seqs)
    matches = table.match(q)  # rows: query position, database index, database position
    matrix = align.SubstitutionMatrix.std_protein_matrix()
    w, gaps = int(scn["band_width"]), (int(scn["gap_open"]), int(scn["gap_extend"]))
    hits = []
    for ref in sorted({int(r) for r in matches[:, 1]}):
        rows = matches[matches[:, 1] == ref]
        counts = Counter(int(d) for d in rows[:, 2] - rows[:, 0])
        diag, n_seeds = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if n_seeds < int(scn["min_seeds"]):
            continue
        ali = align.align_banded(q, db_seqs[ref], matrix, band=(diag - w, diag + w), gap_penalty=gaps, local=True,
                                 max_number=1)[0]
        hits.append((ref, diag, n_seeds, ali))
    hits.sort(key=lambda h: (-h[3].score, h[0]))
    out = fasta.FastaFile()
    rows_out = []
    for ref, diag, n_seeds, ali in hits:
        fasta.set_alignment(out, ali, [f"query_vs_db{ref}", f"db{ref}"])
        rows_out.append({"database_index": ref, "diagonal": diag, "seeds": n_seeds, "score": int(ali.score),
                         "identity": float(align.get_sequence_identity(ali, mode="all")),
                         "query_span": [int(ali.trace[0, 0]), int(ali.trace[-1, 0]) + 1],
                         "cigar": str(align.write_alignment_to_cigar(ali))})
    out.write(os.path.join(os.environ["SWR_ARTIFACTS"], "hits.fasta"))
    return {
        "alignments": "hits.fasta",
        "query_length": len(query),
        "source_index": source,
        "n_seed_matches": int(len(matches)),
        "hits": rows_out,
    }

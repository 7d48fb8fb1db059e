"""Merging overlapping paired-end reads (as FLASH/PEAR do) with biotite: the reverse complement of read 2
(NucleotideSequence.reverse().complement()) is scored against read 1 at every overlap length with ungapped
alignment (align.align_ungapped, biotite's nucleotide matrix), the longest overlap scoring well enough is merged
base by base by quality, and merged reads are written as FASTQ (biotite.sequence.io.fastq)."""

import os
import random

import biotite.sequence as seq
import biotite.sequence.align as align
import biotite.sequence.io.fastq as fastq
import numpy as np

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}
COMP = str.maketrans("ACGT", "TGCA")


def read(rng: random.Random, template: str, q_mean: float) -> tuple[str, list[int]]:
    bases, quals = [], []
    for b in template:
        q = max(2, min(41, round(rng.gauss(q_mean, 5.0))))
        bases.append(rng.choice(OTHER[b]) if rng.random() < 10 ** (-q / 10) else b)
        quals.append(q)
    return "".join(bases), quals


def merge(r1: str, q1: list[int], r2: str, q2: list[int], matrix, min_overlap: int, min_mean_score: float):
    """Longest overlap o (read 1's last o bases against the reverse-complemented read 2's first o) whose ungapped
    score per base is >= min_mean_score; None when there is none."""
    s1 = seq.NucleotideSequence(r1)
    s2 = seq.NucleotideSequence(r2).reverse().complement()
    rc, rq = str(s2), q2[::-1]
    n = len(r1)
    for o in range(n, min_overlap - 1, -1):
        score = align.align_ungapped(s1[n - o:], s2[:o], matrix, score_only=True)
        if score >= min_mean_score * o:
            bases, quals = list(r1[:n - o]), list(q1[:n - o])
            for a, qa, b, qb in zip(r1[n - o:], q1[n - o:], rc[:o], rq[:o]):
                if a == b:
                    bases.append(a)
                    quals.append(min(41, qa + qb))
                else:
                    bases.append(a if qa >= qb else b)
                    quals.append(max(2, abs(qa - qb)))
            return o, "".join(bases) + rc[o:], quals + rq[o:]
    return None


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    length, matrix = int(scn["read_length"]), align.SubstitutionMatrix.std_nucleotide_matrix()
    out = fastq.FastqFile(offset=33)
    overlaps, n_exact = [], 0
    for i in range(int(scn["n_pairs"])):
        frag_len = rng.randint(length, 2 * length - int(scn["min_true_overlap"]))
        frag = "".join(rng.choices("ACGT", k=frag_len))
        q_mean = rng.uniform(float(scn["q_low"]), 38.0)
        r1, q1 = read(rng, frag[:length], q_mean)
        r2, q2 = read(rng, frag.translate(COMP)[::-1][:length], q_mean)
        merged = merge(r1, q1, r2, q2, matrix, int(scn["min_overlap"]), float(scn["min_mean_score"]))
        if merged is None:
            overlaps.append(-1)
            continue
        o, bases, quals = merged
        overlaps.append(o)
        n_exact += len(bases) == frag_len
        fastq.set_sequence(out, seq.NucleotideSequence(bases), np.array(quals), header=f"pair{i:04d} overlap={o}")
    out.write(os.path.join(os.environ["SWR_ARTIFACTS"], "merged.fastq"))
    merged_o = [o for o in overlaps if o >= 0]
    return {
        "merged_reads": "merged.fastq",
        "n_merged": len(merged_o),
        "n_length_correct": n_exact,
        "overlaps": overlaps,
        "mean_overlap": sum(merged_o) / len(merged_o) if merged_o else 0.0,
    }

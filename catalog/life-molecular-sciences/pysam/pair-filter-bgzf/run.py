"""Paired FASTQ read QC with pysam: R1/R2 files read in step with pysam.FastxFile (FastxRecord qualities as arrays),
pairs failing a mean-quality or N-count rule dropped, the rest interleaved into a BGZF-compressed FASTQ written with
pysam.BGZFile (readable by any gzip reader; htslib's block format)."""

import os
import random
import tempfile

import pysam

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}


def write_fastq(path: str, reads: list[tuple[str, str, str]]) -> None:
    with open(path, "w") as fh:
        fh.writelines(f"@{n}\n{s}\n+\n{q}\n" for n, s, q in reads)


def mate(rng: random.Random, template: str, q_mean: float, n_rate: float) -> tuple[str, str]:
    """Bases of a template with Phred-scaled errors and N calls; qualities from a clipped Gaussian."""
    bases, quals = [], []
    for b in template:
        q = max(2, min(41, round(rng.gauss(q_mean, 6.0))))
        if rng.random() < n_rate:
            bases.append("N")
            q = 2
        elif rng.random() < 10 ** (-q / 10):
            bases.append(rng.choice(OTHER[b]))
        else:
            bases.append(b)
        quals.append(chr(q + 33))
    return "".join(bases), "".join(quals)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    length = int(scn["read_length"])
    r1, r2 = [], []
    for i in range(int(scn["n_pairs"])):
        fragment = "".join(rng.choices("ACGT", k=rng.randint(length, 3 * length)))
        q_mean = rng.uniform(float(scn["q_low"]), 38.0)
        rc = fragment[::-1].translate(str.maketrans("ACGT", "TGCA"))
        s1, q1 = mate(rng, fragment[:length], q_mean, float(scn["n_rate"]))
        s2, q2 = mate(rng, rc[:length], q_mean - float(scn["r2_quality_drop"]), float(scn["n_rate"]))
        r1.append((f"pair{i:04d}/1", s1, q1))
        r2.append((f"pair{i:04d}/2", s2, q2))
    min_q, max_n = int(scn["min_mean_quality"]), int(scn["max_n"])
    kept, mean_q, n_bases = 0, [], 0
    out_path = os.path.join(os.environ["SWR_ARTIFACTS"], "interleaved.fastq.gz")
    with tempfile.TemporaryDirectory() as tmp:
        p1, p2 = os.path.join(tmp, "R1.fastq"), os.path.join(tmp, "R2.fastq")
        write_fastq(p1, r1)
        write_fastq(p2, r2)
        with pysam.FastxFile(p1) as f1, pysam.FastxFile(p2) as f2, pysam.BGZFile(out_path, "wb") as out:
            for a, b in zip(f1, f2):
                qa, qb = a.get_quality_array(), b.get_quality_array()
                ok = all(sum(q) / len(q) >= min_q for q in (qa, qb)) and \
                    a.sequence.count("N") <= max_n and b.sequence.count("N") <= max_n
                if not ok:
                    continue
                kept += 1
                mean_q += [sum(qa) / len(qa), sum(qb) / len(qb)]
                n_bases += len(a.sequence) + len(b.sequence)
                out.write((str(a) + "\n" + str(b) + "\n").encode())
    return {
        "interleaved_fastq": "interleaved.fastq.gz",
        "n_pairs": len(r1),
        "n_kept_pairs": kept,
        "kept_bases": n_bases,
        "mean_read_quality": sum(mean_q) / len(mean_q) if mean_q else 0.0,
    }

"""Map simulated reads to a few contigs with Biopython's PairwiseAligner (local, both strands) and write the best
alignments as SAM with Bio.Align.write (MD tags), the read-mapping step of a resequencing pipeline in miniature."""

import os
import random

from Bio import Align
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}
SCORING = {"simple": dict(match_score=2, mismatch_score=-3, open_gap_score=-5, extend_gap_score=-2),
           "strict": dict(match_score=1, mismatch_score=-4, open_gap_score=-6, extend_gap_score=-3)}


def simulate(scn: dict) -> tuple[list[SeqRecord], list[tuple[SeqRecord, int, str, int]]]:
    rng = random.Random(int(scn["seed"]))
    n_len, err = int(scn["read_length"]), float(scn["error_rate"])
    contigs = [SeqRecord(Seq("".join(rng.choices("ACGT", k=int(scn["contig_length"])))), id=f"ctg{c}")
               for c in range(int(scn["n_contigs"]))]
    reads = []
    for i in range(int(scn["n_reads"])):
        if rng.random() < float(scn["random_fraction"]):
            bases, origin, strand, start = "".join(rng.choices("ACGT", k=n_len)), -1, "+", -1
        else:
            origin = rng.randrange(len(contigs))
            start = rng.randrange(len(contigs[origin]) - n_len + 1)
            out = []
            for b in str(contigs[origin].seq[start:start + n_len]):
                r = rng.random()
                if r < err / 3:
                    out.append(rng.choice(OTHER[b]))
                elif r < 2 * err / 3:
                    continue
                elif r < err:
                    out += [b, rng.choice("ACGT")]
                else:
                    out.append(b)
            bases = "".join(out)
            strand = "-" if rng.random() < 0.5 else "+"
            if strand == "-":
                bases = str(Seq(bases).reverse_complement())
        reads.append((SeqRecord(Seq(bases), id=f"read{i:03d}"), origin, strand, start))
    return contigs, reads


def main(scn: dict) -> dict:
    contigs, reads = simulate(scn)
    aligner = Align.PairwiseAligner(mode="local", **SCORING[str(scn["scoring"])])
    mapped = Align.Alignments()
    mapped.targets = contigs
    mapped.metadata = {"HD": {"VN": "1.6", "SO": "unsorted"}}
    rows, n_correct, identities = [], 0, []
    for read, origin, strand, start in reads:
        best = None
        for c, contig in enumerate(contigs):
            for s in ("+", "-"):
                sc = aligner.score(contig, read, strand=s)
                if best is None or sc > best[0]:
                    best = (sc, c, s)
        _, c, s = best
        ali = aligner.align(contigs[c], read, strand=s)[0]
        score = int(ali.score)
        if score < int(scn["min_score"]):
            rows.append({"read": read.id, "contig": "*", "strand": "*", "position": -1, "score": score})
            continue
        mapped.append(ali)
        pos = int(ali.coordinates[0][0])
        n_correct += c == origin and s == strand and abs(pos - start) <= 5
        counts = ali.counts()
        identities.append(counts.identities / ali.length)
        rows.append({"read": read.id, "contig": contigs[c].id, "strand": s, "position": pos, "score": score})
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "mapped.sam"), "w") as fh:
        Align.write(mapped, fh, "sam", md=True)
    return {
        "alignments": "mapped.sam",
        "n_mapped": len(mapped),
        "n_correct": n_correct,
        "mean_identity": sum(identities) / len(identities) if identities else 0.0,
        "reads": rows,
    }

"""Build a position weight matrix from simulated binding sites with Bio.motifs, scan a sequence with planted sites
on both strands (PSSM.search) and write the hit sites as FASTA."""

import os
import random

from Bio import motifs
from Bio.Seq import Seq
from Bio.SeqIO import write
from Bio.SeqRecord import SeqRecord

CONSENSUS = {"AP-1": "TGACTCA", "E-box": "CACGTG", "sigma70-35": "TTGACA", "SP1": "GGGGCGGGG", "CRE": "TGACGTCA"}
OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}


def site(rng: random.Random, consensus: str, rate: float) -> str:
    """One binding site: per consensus base, rng.random() < rate replaces it by one of the three others."""
    return "".join(rng.choice(OTHER[b]) if rng.random() < rate else b for b in consensus)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    consensus, rate, gc = CONSENSUS[str(scn["motif"])], float(scn["mutation_rate"]), float(scn["background_gc"])
    instances = [Seq(site(rng, consensus, rate)) for _ in range(int(scn["n_instances"]))]
    seq = list(rng.choices("ACGT", weights=[(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2], k=int(scn["seq_length"])))
    m = len(consensus)
    for _ in range(int(scn["n_planted"])):
        pos = rng.randrange(len(seq) - m + 1)
        s = Seq(site(rng, consensus, rate))
        seq[pos:pos + m] = str(s.reverse_complement() if rng.random() < 0.5 else s)
    target = Seq("".join(seq))

    motif = motifs.create(instances)
    pwm = motif.counts.normalize(pseudocounts=float(scn["pseudocount"]))
    pssm = pwm.log_odds({"A": (1 - gc) / 2, "C": gc / 2, "G": gc / 2, "T": (1 - gc) / 2})
    hits = []
    for pos, score in pssm.search(target, threshold=float(scn["threshold"]), both=True):
        start, strand = (int(pos), "+") if pos >= 0 else (int(pos) + len(target), "-")
        hits.append((start, strand, float(score)))
    hits.sort()
    records = []
    for start, strand, _ in hits:
        s = target[start:start + m]
        records.append(SeqRecord(s if strand == "+" else s.reverse_complement(), id=f"site_{start}_{strand}",
                                 description=""))
    write(records, os.path.join(os.environ["SWR_ARTIFACTS"], "hits.fasta"), "fasta")
    return {
        "sites": "hits.fasta",
        "consensus": str(motif.consensus),
        "degenerate_consensus": str(motif.degenerate_consensus),
        "pssm_max": float(pssm.max),
        "pssm_min": float(pssm.min),
        "hits": [{"start": a, "strand": b, "score": c} for a, b, c in hits],
    }

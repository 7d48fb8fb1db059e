"""Simulate Illumina-like reads with Biopython SeqRecords carrying Phred qualities, trim adapters and low-quality
3' ends by slicing the records (per-letter annotations follow the slice), and write the survivors as FASTQ."""

import os
import random

from Bio import SeqIO
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

ADAPTERS = {"none": "", "truseq": "AGATCGGAAGAGC", "nextera": "CTGTCTCTTATACACATCT"}
MIN_ADAPTER_OVERLAP = 5


def simulate(rng: random.Random, n: int, length: int, adapter: str, q_start: int, q_decay: float) -> list[SeqRecord]:
    """Per read: insert length, insert bases, then one gauss() per base for its quality."""
    reads = []
    for i in range(n):
        insert_len = rng.randint(length // 2, length + 20)
        insert = "".join(rng.choices("ACGT", k=insert_len))
        bases = (insert + adapter + "A" * length)[:length]
        quals = [max(2, min(41, round(q_start - q_decay * j + rng.gauss(0.0, 3.0)))) for j in range(length)]
        reads.append(SeqRecord(Seq(bases), id=f"read{i}", description="",
                               letter_annotations={"phred_quality": quals}))
    return reads


def adapter_cut(seq: str, adapter: str) -> int:
    """First p where seq[p:] starts with the adapter or is an adapter prefix of >= 5 bases; len(seq) if none."""
    if adapter:
        for p in range(len(seq) - MIN_ADAPTER_OVERLAP + 1):
            k = min(len(adapter), len(seq) - p)
            if seq[p:p + k] == adapter[:k]:
                return p
    return len(seq)


def window_cut(quals: list[int], window: int, min_q: int) -> int:
    """Start of the first window (5' to 3', step 1) whose mean quality is below min_q; len if none."""
    for p in range(len(quals) - window + 1):
        if sum(quals[p:p + window]) < min_q * window:
            return p
    return len(quals)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    adapter = ADAPTERS[str(scn["adapter"])]
    reads = simulate(rng, int(scn["n_reads"]), int(scn["read_length"]), adapter, int(scn["q_start"]),
                     float(scn["q_decay"]))
    kept, n_adapter = [], 0
    for rec in reads:
        cut = adapter_cut(str(rec.seq), adapter)
        n_adapter += cut < len(rec)
        rec = rec[:cut]
        rec = rec[:window_cut(rec.letter_annotations["phred_quality"], int(scn["window"]), int(scn["min_window_quality"]))]
        if len(rec) >= int(scn["min_length"]):
            kept.append(rec)
    SeqIO.write(kept, os.path.join(os.environ["SWR_ARTIFACTS"], "trimmed.fastq"), "fastq")
    quals = [q for r in kept for q in r.letter_annotations["phred_quality"]]
    errors = [sum(10 ** (-q / 10) for q in r.letter_annotations["phred_quality"]) for r in kept]
    return {
        "trimmed_reads": "trimmed.fastq",
        "n_adapter_trimmed": n_adapter,
        "n_kept": len(kept),
        "kept_bases": len(quals),
        "q30_fraction": sum(q >= 30 for q in quals) / len(quals) if quals else 0.0,
        "mean_expected_errors": sum(errors) / len(errors) if errors else 0.0,
    }

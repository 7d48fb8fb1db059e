"""Restriction digest of a seeded random DNA sequence with Bio.Restriction, fragment GC and Tm_GC melting points."""

import json
import random
import sys

from Bio.Restriction import RestrictionBatch
from Bio.Seq import Seq
from Bio.SeqUtils import MeltingTemp, gc_fraction

PANEL = ["EcoRI", "BamHI", "HindIII", "PstI", "XhoI", "NcoI", "NdeI", "BglII", "EcoRV", "KpnI",
         "SacI", "SmaI", "HaeIII", "AluI", "TaqI", "MspI", "Sau3AI", "RsaI", "BsaI", "HinfI"]
BATCH = RestrictionBatch(PANEL)


def make_sequence(seed, length, gc):
    rng = random.Random(seed)
    w = [(1.0 - gc) / 2.0, gc / 2.0, gc / 2.0, (1.0 - gc) / 2.0]
    return "".join(rng.choices("ACGT", weights=w, k=length))


def fragments(seq, cuts, circular):
    """Fragments as (start0, sequence) from 1-based 'first base after the cut' positions."""
    n = len(seq)
    idx = sorted({c - 1 for c in cuts})
    if not idx:
        return [(0, seq)]
    if circular:
        out = []
        for i, s in enumerate(idx):
            e = idx[(i + 1) % len(idx)]
            out.append((s, seq[s:e] if e > s else seq[s:] + seq[:e]))
        return out
    bounds = [0] + [i for i in idx if 0 < i < n] + [n]
    return [(a, seq[a:b]) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def overhang_kind(enz):
    if enz.is_blunt():
        return "blunt"
    return "5'" if enz.is_5overhang() else "3'"


def main(scn):
    seed = int(scn["seed"])
    length = int(scn["length"])
    gc = float(scn["gc_content"])
    circular = str(scn["topology"]) == "circular"
    na = float(scn["na_mM"])
    chosen = []
    for i in scn["enzymes"]:
        name = PANEL[int(i) % len(PANEL)]
        if name not in chosen:
            chosen.append(name)

    s = make_sequence(seed, length, gc)
    seq = Seq(s)
    enzymes = []
    all_cuts = set()
    for name in chosen:
        enz = BATCH.get(name)
        cuts = sorted(enz.search(seq, linear=not circular))
        all_cuts.update(cuts)
        sizes = sorted((len(f) for _, f in fragments(s, cuts, circular)), reverse=True)
        enzymes.append({
            "name": name,
            "site": str(enz.site),
            "elucidate": enz.elucidate(),
            "overhang": overhang_kind(enz),
            "ovhg": int(enz.ovhg),
            "n_cuts": len(cuts),
            "fragment_sizes": sizes,
        })

    frags = []
    for start, f in fragments(s, sorted(all_cuts), circular):
        frags.append({
            "start": start,
            "length": len(f),
            "gc_fraction": float(gc_fraction(f)),
            "tm_gc_C": float(MeltingTemp.Tm_GC(f, Na=na, strict=False)),
        })
    frags.sort(key=lambda d: (-d["length"], d["start"]))
    return {
        "sequence_gc_fraction": float(gc_fraction(s)),
        "enzymes": enzymes,
        "combined_n_cuts": len(all_cuts),
        "combined_fragments": frags,
        "oligo_head_tm_nn_C": float(MeltingTemp.Tm_NN(s[:25], Na=na)),
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

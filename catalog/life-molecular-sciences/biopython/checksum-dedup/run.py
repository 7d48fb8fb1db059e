"""Exact-duplicate removal in a sequence collection with Biopython: a FASTA file indexed with Bio.SeqIO.index,
records grouped by a sequence checksum (Bio.SeqUtils.CheckSum: SEGUID, CRC64 or CRC32), one representative per group
written as a non-redundant FASTA, with GCG checksums of the representatives."""

import os
import random
import tempfile

from Bio import SeqIO
from Bio.SeqUtils import CheckSum

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}
HASHES = {"seguid": CheckSum.seguid, "crc64": CheckSum.crc64, "crc32": CheckSum.crc32}


def collection(scn: dict) -> list[str]:
    rng = random.Random(int(scn["seed"]))
    seqs: list[str] = []
    for _ in range(int(scn["n_records"])):
        r = rng.random()
        if seqs and r < float(scn["duplicate_rate"]):
            seqs.append(seqs[rng.randrange(len(seqs))])
        elif seqs and r < float(scn["duplicate_rate"]) + float(scn["masked_rate"]):
            seqs.append(seqs[rng.randrange(len(seqs))].lower())
        elif seqs and r < float(scn["duplicate_rate"]) + float(scn["masked_rate"]) + float(scn["variant_rate"]):
            s = list(seqs[rng.randrange(len(seqs))])
            p = rng.randrange(len(s))
            s[p] = rng.choice(OTHER[s[p].upper()])
            seqs.append("".join(s))
        else:
            seqs.append("".join(rng.choices("ACGT", k=rng.randint(30, int(scn["max_length"])))))
    return seqs


def main(scn: dict) -> dict:
    seqs = collection(scn)
    digest = HASHES[str(scn["checksum"])]
    fold = bool(scn["ignore_case"])
    groups: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "collection.fasta")
        with open(path, "w") as fh:
            fh.writelines(f">rec{i:04d}\n{s}\n" for i, s in enumerate(seqs))
        index = SeqIO.index(path, "fasta")
        for rid in index:
            text = str(index[rid].seq)
            groups.setdefault(str(digest(text.upper() if fold else text)), []).append(rid)
        reps = []
        for key, members in groups.items():
            rec = index[members[0]]
            rec.description = f"cluster_size={len(members)}"
            reps.append((rec, key, members))
        SeqIO.write([r for r, _, _ in reps], os.path.join(os.environ["SWR_ARTIFACTS"], "nonredundant.fasta"), "fasta")
        index.close()
    return {
        "nonredundant": "nonredundant.fasta",
        "n_records": len(seqs),
        "n_unique": len(groups),
        "largest_cluster": max(len(m) for m in groups.values()),
        "clusters": [{"representative": r.id, "checksum": str(k), "gcg": int(CheckSum.gcg(str(r.seq))),
                      "members": len(m)} for r, k, m in reps if len(m) > 1],
    }

"""DNA record profile with Biopython: composition, translation, ORFs, protein properties, pairwise alignment."""

import json
import sys

from Bio import SeqIO
from Bio.Align import PairwiseAligner, substitution_matrices
from Bio.Data import CodonTable
from Bio.SeqUtils import GC_skew, gc_fraction, molecular_weight
from Bio.SeqUtils.ProtParam import ProteinAnalysis

NUC44 = substitution_matrices.load("NUC.4.4")
BLOSUM62 = substitution_matrices.load("BLOSUM62")


def oriented(rec, strand):
    seq = rec.seq.upper()
    return seq if strand == "+" else seq.reverse_complement()


def in_frame(seq, frame):
    sub = seq[frame:]
    return sub[: len(sub) - len(sub) % 3]


def longest_orf(codons_seq, table):
    """Longest ORF in one frame: a start codon of `table` up to (excluding) the next in-frame stop, or the end."""
    starts = set(table.start_codons)
    stops = set(table.stop_codons)
    s = str(codons_seq)
    best_len, best_pos = 0, -1
    open_at = -1
    n = len(s) // 3
    for i in range(n + 1):
        cod = s[3 * i: 3 * i + 3] if i < n else None
        if cod is None or cod in stops:
            if open_at >= 0 and i - open_at > best_len:
                best_len, best_pos = i - open_at, open_at
            open_at = -1
        elif open_at < 0 and cod in starts:
            open_at = i
    return best_len, best_pos


def aligner_for(scoring, mode):
    al = PairwiseAligner()
    al.mode = mode
    if scoring == "dna-simple":
        al.match_score, al.mismatch_score = 1.0, -1.0
        al.open_gap_score, al.extend_gap_score = -1.0, -1.0
    elif scoring == "dna-nuc44":
        al.substitution_matrix = NUC44
        al.open_gap_score, al.extend_gap_score = -10.0, -0.5
    else:  # protein-blosum62
        al.substitution_matrix = BLOSUM62
        al.open_gap_score, al.extend_gap_score = -11.0, -1.0
    return al


def compute(scn):
    with open(str(scn["fasta"]), encoding="ascii") as handle:
        records = list(SeqIO.parse(handle, "fasta"))
    ra = records[int(scn["record_a"]) % len(records)]
    rb = records[int(scn["record_b"]) % len(records)]
    strand = str(scn["strand"])
    frame = int(scn["frame"])
    table_id = int(scn["codon_table"])
    window = int(scn["window"])
    mode = str(scn["align_mode"])
    scoring = str(scn["scoring"])
    table = CodonTable.unambiguous_dna_by_id[table_id]

    a = oriented(ra, strand)
    b = oriented(rb, strand)
    sa = str(a)

    gcs = [gc_fraction(sa[i: i + window]) for i in range(len(sa) - window + 1)]
    coding_a = in_frame(a, frame)
    protein = str(coding_a.translate(table=table_id))
    segments = protein.split("*")
    longest_pep = max(segments, key=len)  # first of the longest on ties
    if longest_pep:
        pa = ProteinAnalysis(longest_pep)
        pep_mw, pep_pi = float(pa.molecular_weight()), float(pa.isoelectric_point())
    else:
        pep_mw, pep_pi = 0.0, 0.0
    orf_len, orf_codon = longest_orf(coding_a, table)

    al = aligner_for(scoring, mode)
    if scoring == "protein-blosum62":
        score = al.score(protein, str(in_frame(b, frame).translate(table=table_id)))
    else:
        score = al.score(sa, str(b))

    return {
        "record_a_id": ra.id,
        "record_b_id": rb.id,
        "length_a": len(sa),
        "base_counts": {base: sa.count(base) for base in "ACGT"},
        "gc_fraction": float(gc_fraction(sa)),
        "dna_molecular_weight": float(molecular_weight(a, seq_type="DNA")),
        "gc_window_max": float(max(gcs)),
        "gc_window_min": float(min(gcs)),
        "gc_skew": [float(v) for v in GC_skew(sa, window=window)],
        "translation": protein,
        "n_stops": protein.count("*"),
        "longest_peptide_length": len(longest_pep),
        "longest_peptide_mw": pep_mw,
        "longest_peptide_pi": pep_pi,
        "orf_start_codons": sorted(table.start_codons),
        "longest_orf_aa": orf_len,
        "longest_orf_start_nt": frame + 3 * orf_codon if orf_codon >= 0 else -1,
        "alignment_score": float(score),
    }


if __name__ == "__main__":
    scenario = json.load(sys.stdin)
    json.dump(compute(scenario), sys.stdout)
    sys.stdout.write("\n")

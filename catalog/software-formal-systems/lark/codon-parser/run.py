"""Open reading frames found by parsing DNA with lark: a custom lexer class (lark.lexer.Lexer) cuts the sequence
into codons of one reading frame and classifies them (START, STOP, OTHER, declared terminals), a LALR grammar
groups them into ORFs, and a Transformer translates each ORF with the standard genetic code."""

import random

from lark import Lark, Token, Transformer
from lark.lexer import Lexer

GRAMMAR = r"""
start: item*
?item: orf | OTHER | STOP
orf: START codon* STOP -> closed_orf
   | START codon* -> open_orf
?codon: OTHER | START
%declare START STOP OTHER
"""
BASES = "TCAG"
AMINO = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG"
CODE = {
    a + b + c: AMINO[16 * i + 4 * j + k]
    for i, a in enumerate(BASES)
    for j, b in enumerate(BASES)
    for k, c in enumerate(BASES)
}


class CodonLexer(Lexer):
    """Codons of the frame given in the text's first character ('0', '1' or '2'), position = codon index."""

    def __init__(self, lexer_conf):
        pass

    def lex(self, data):
        frame, seq = int(data[0]), data[1:]
        for n, i in enumerate(range(frame, len(seq) - 2, 3)):
            codon = seq[i : i + 3]
            kind = "START" if codon == "ATG" else "STOP" if CODE[codon] == "*" else "OTHER"
            yield Token(kind, codon, start_pos=n)


PARSER = Lark(GRAMMAR, parser="lalr", lexer=CodonLexer)  # fixed grammar: built once, at import


class Translate(Transformer):
    def closed_orf(self, c):
        return ("closed", c[0].start_pos, "".join(CODE[str(t)] for t in c[:-1]))

    def open_orf(self, c):
        return ("open", c[0].start_pos, "".join(CODE[str(t)] for t in c))

    def start(self, c):
        return [x for x in c if isinstance(x, tuple)]


def revcomp(seq):
    return seq[::-1].translate(str.maketrans("ACGT", "TGCA"))


def main(scn):
    rng = random.Random(int(scn["seed"]))
    gc = float(scn["gc_content"])
    weights = [(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2]  # A, C, G, T
    seq = "".join(rng.choices("ACGT", weights=weights, k=int(scn["length"])))
    strand = revcomp(seq) if scn["strand"] == "reverse" else seq
    orfs = Translate().transform(PARSER.parse(str(int(scn["frame"])) + strand))
    keep = [o for o in orfs if len(o[2]) >= int(scn["min_protein_length"]) and (o[0] == "closed" or scn["keep_open"])]
    return {
        "n_codons": (len(strand) - int(scn["frame"])) // 3,
        "n_orfs_total": len(orfs),
        "orf_starts": [o[1] for o in keep] if keep else [-1],
        "proteins": [o[2] for o in keep] if keep else [""],
        "longest_protein": max((len(o[2]) for o in keep), default=0),
        "gc_fraction": round(sum(1 for b in seq if b in "GC") / len(seq), 12),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

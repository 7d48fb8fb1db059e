"""Prepositional-phrase attachment ambiguity through lark's shared packed parse forest: the Earley parser with
ambiguity='forest' returns the SPPF (SymbolNode / PackedNode / TokenNode), and semiring dynamic programmes over it
count the parses, sum their weights (inside score), find the best weight (Viterbi) and the expected number of
verb attachments, exactly and without enumerating the parses."""

import random
from fractions import Fraction

from lark import Lark
from lark.parsers.earley_forest import SymbolNode, TokenNode

GRAMMAR = r"""
s: np vp
vp: V np -> verb_obj
  | vp pp -> vp_attach
np: DET N -> det_n
  | np pp -> np_attach
  | NAME -> name
pp: P np
V: "saw" | "watched" | "measured"
DET: "the" | "a"
N: /(?!saw\b|watched\b|measured\b|the\b|a\b|with\b|on\b|in\b|near\b)[a-z]+/
P: "with" | "on" | "in" | "near"
NAME: /[A-Z][a-z]+/
%import common.WS
%ignore WS
"""
PARSER = Lark(GRAMMAR, parser="earley", ambiguity="forest", start="s")  # fixed grammar: built once, at import
NOUNS = ["star", "telescope", "hill", "filter", "camera", "mount", "lens", "dome"]
PREPS = ["with", "on", "in", "near"]


def sentence(scn):
    rng = random.Random(int(scn["seed"]))
    words = ["Ana" if scn["name_subject"] else "the observer", str(scn["verb"]), "the", rng.choice(NOUNS)]
    for _ in range(int(scn["n_pp"])):  # per PP: preposition, then noun
        words += [rng.choice(PREPS), "the", rng.choice(NOUNS)]
    return " ".join(words)


class Semirings:
    """Exact DP over the forest; a complete rule application (packed node of a non-intermediate symbol) multiplies
    in its weight, vp_attach also counts one verb attachment."""

    def __init__(self, weights):
        self.w = weights
        self.memo = {}

    def value(self, node):
        """(count, inside, best, n_best, attach_mass) of a forest node."""
        if node is None or isinstance(node, TokenNode):
            return 1, Fraction(1), Fraction(1), 1, Fraction(0)
        key = id(node)
        if key not in self.memo:
            self.memo[key] = self._symbol(node) if isinstance(node, SymbolNode) else self._packed(node, False)
        return self.memo[key]

    def _symbol(self, node):
        parts = [self._packed(pk, not node.is_intermediate) for pk in node.children]
        best = max(p[2] for p in parts)
        return (
            sum(p[0] for p in parts),
            sum(p[1] for p in parts),
            best,
            sum(p[3] for p in parts if p[2] == best),
            sum(p[4] for p in parts),
        )

    def _packed(self, pk, complete):
        lc, li, lb, ln, la = self.value(pk.left)
        rc, ri, rb, rn, ra = self.value(pk.right)
        w = self.w.get(pk.rule.alias, Fraction(1)) if complete else Fraction(1)
        inside = w * li * ri
        attach = w * (la * ri + li * ra) + (inside if complete and pk.rule.alias == "vp_attach" else 0)
        return lc * rc, inside, w * lb * rb, ln * rn, attach


def main(scn):
    text = sentence(scn)
    forest = PARSER.parse(text)
    weights = {"np_attach": Fraction(repr(float(scn["w_np"]))), "vp_attach": Fraction(repr(float(scn["w_vp"])))}
    count, inside, best, n_best, attach = Semirings(weights).value(forest)
    return {
        "sentence": text,
        "n_parses": count,
        "inside_score": float(inside),
        "best_score": float(best),
        "n_best_parses": n_best,
        "expected_vp_attachments": float(attach / inside),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Rewrite a JSON instrument configuration at the parse-tree level with lark and turn the edited tree back into
text with lark.reconstruct.Reconstructor (which matches each tree node to a grammar rule through
lark.tree_matcher and emits the rule's tokens)."""

import json
import random

from lark import Lark, Token, Tree
from lark.reconstruct import Reconstructor

GRAMMAR = r"""
?start: value
?value: object | array | string | SIGNED_NUMBER -> number | "true" -> true | "false" -> false | "null" -> null
array  : "[" [value ("," value)*] "]"
object : "{" [pair ("," pair)*] "}"
pair   : string ":" value
string : ESCAPED_STRING
%import common.ESCAPED_STRING
%import common.SIGNED_NUMBER
%import common.WS
%ignore WS
"""
PARSER = Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)  # fixed grammar: built once, at import
RECONSTRUCTOR = Reconstructor(PARSER)
UNITS = ["V", "mA", "degC", "Pa", "Hz"]


def document(scn):
    """The configuration text (json.dumps with indent=2 of the generated dict)."""
    rng = random.Random(int(scn["seed"]))
    sensors = []
    for i in range(int(scn["n_sensors"])):  # per sensor: value, unit, calibrated, offset draws in that order
        value = round(rng.uniform(-50.0, 50.0), 3)
        unit = rng.choice(UNITS)
        calibrated = rng.random() < 0.5
        offset = None if rng.random() < 0.4 else round(rng.uniform(-1.0, 1.0), 3)
        sensors.append({"id": i, "value": value, "unit": unit, "calibrated": calibrated, "offset": offset})
    doc = {
        "instrument": f"rig-{rng.randrange(1000)}",
        "sensors": sensors,
        "notes": None,
        "meta": {"version": 3, "tags": ["lab", "bench"]},
    }
    return json.dumps(doc, indent=2)


def key(pair):
    return json.loads(pair.children[0].children[0])


def rewrite(node, scn, parent_key=None):
    """The edited tree: numbers under a "value" or "offset" key scaled, keys prefixed, null pairs dropped, pairs
    sorted by their new key."""
    if not isinstance(node, Tree):
        return node
    if node.data == "number" and parent_key in ("value", "offset"):
        scaled = round(float(node.children[0]) * float(scn["factor"]), 6)
        return Tree("number", [Token("SIGNED_NUMBER", repr(scaled))])
    if node.data == "object":
        pairs = [p for p in node.children if not (scn["drop_nulls"] and p.children[1].data == "null")]
        out = []
        for p in pairs:
            k = key(p)
            name = Tree("string", [Token("ESCAPED_STRING", json.dumps(str(scn["key_prefix"]) + k))])
            out.append(Tree("pair", [name, rewrite(p.children[1], scn, k)]))
        if scn["sort_keys"]:
            out.sort(key=key)
        return Tree("object", out)
    return Tree(node.data, [rewrite(c, scn, parent_key) for c in node.children])


def main(scn):
    text = document(scn)
    tree = PARSER.parse(text)
    edited = rewrite(tree, scn)
    out = RECONSTRUCTOR.reconstruct(edited)
    parsed = json.loads(out)
    numbers = [float(t) for t in edited.scan_values(lambda v: isinstance(v, Token) and v.type == "SIGNED_NUMBER")]
    return {
        "rewritten": out,
        "n_chars": len(out),
        "n_pairs": sum(1 for _ in edited.find_data("pair")),
        "number_sum": sum(numbers),
        "top_keys": list(parsed),
        "input_chars": len(text),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

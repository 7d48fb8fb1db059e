"""SAT-based resource sharing with yosys: the `share` pass merges mutually exclusive multipliers, dividers and
shifters of a generated datapath behind multiplexers; the design is counted with and without it, at the word level
and after gate mapping."""

import json
import os
import random
import re
import subprocess
import tempfile

OPS = {"mul": "*", "shl": "<<", "shr": ">>"}
WORD_CELLS = ["$mul", "$shl", "$shr", "$mux", "$pmux"]


def verilog(w, ops, pairs, concurrent, onehot):
    n = len(ops)
    sb = max(1, (n - 1).bit_length())
    exprs = [f"({x} {OPS[op]} {y})" for op, (x, y) in zip(ops, pairs)]
    sel_in = f"input [{n - 1}:0] sel" if onehot else f"input [{sb - 1}:0] sel"
    body = [f"module top({sel_in}, input [{w - 1}:0] a, b, c, d, output reg [{2 * w - 1}:0] y);", "  always @* begin"]
    if concurrent:
        body.append(f"    y = {exprs[0]} + {exprs[1]};")  # both always active: nothing to share between them
        rest = list(enumerate(exprs))[2:]
    else:
        body.append(f"    y = {2 * w}'d0;")
        rest = list(enumerate(exprs))
    for k, (i, e) in enumerate(rest):
        cond = f"sel[{i}]" if onehot else f"sel == {sb}'d{i}"
        body.append(f"    {'if' if k == 0 else 'else if'} ({cond}) y = {e};")
    return "\n".join(body + ["  end", "endmodule", ""])


def run(tmp, share):
    script = (
        "read_verilog top.v; hierarchy -top top; proc; opt; wreduce; "
        + ("tee -q -o share.log share; " if share else "")
        + "opt_clean; tee -q -o word.json stat -json; synth -top top -flatten -noabc; abc -g AND,OR,XOR,MUX; "
        "opt_clean; tee -q -o gate.json stat -json"
    )
    subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
    with open(os.path.join(tmp, "word.json")) as f:
        word = json.load(f)["design"]
    with open(os.path.join(tmp, "gate.json")) as f:
        gate = json.load(f)["design"]
    merges = 0
    if share:
        with open(os.path.join(tmp, "share.log")) as f:
            merges = len(re.findall(r"New cell: ", f.read()))
    by = word.get("num_cells_by_type", {})
    return [int(by.get(t, 0)) for t in WORD_CELLS], int(gate["num_cells"]), merges


def main(scn):
    w, n = int(scn["width"]), int(scn["n_ops"])
    rng = random.Random(int(scn["seed"]))
    kinds = list(OPS) if scn["operator"] == "mixed" else [str(scn["operator"])]
    ops, pairs = [], []
    for _ in range(n):  # per operation: operator (mixed only), then its two operands
        ops.append(rng.choice(kinds) if len(kinds) > 1 else kinds[0])
        pairs.append((rng.choice("abcd"), rng.choice("abcd")))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "top.v"), "w") as f:
            f.write(verilog(w, ops, pairs, bool(scn["concurrent"]), scn["select"] == "onehot"))
        before, gates_before, _ = run(tmp, False)
        after, gates_after, merges = run(tmp, True)
    return {
        "operations": [f"{x}{OPS[o]}{y}" for o, (x, y) in zip(ops, pairs)],
        "word_cells_before": before,
        "word_cells_after": after,
        "merges": merges,
        "gate_cells_before": gates_before,
        "gate_cells_after": gates_after,
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

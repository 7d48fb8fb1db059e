"""Synthesize a generated combinational Verilog datapath with yosys: gate-level stats, longest path and evaluation."""

import json
import os
import re
import subprocess
import tempfile

GATES = ["$_AND_", "$_NAND_", "$_OR_", "$_NOR_", "$_XOR_", "$_XNOR_", "$_ANDNOT_", "$_ORNOT_", "$_MUX_", "$_NOT_",
         "$_AOI3_", "$_OAI3_", "$_AOI4_", "$_OAI4_", "$_BUF_"]
COMPARE = {"gt": ">", "lt": "<", "ge": ">=", "eq": "=="}


def verilog(w, k, shift, cmp_op):
    k %= 1 << w
    return f"""module dp(input [{w - 1}:0] a, input [{w - 1}:0] b, output [{w - 1}:0] y, output [{w - 1}:0] z);
  wire [{w - 1}:0] p = a * {w}'d{k};
  wire [{w - 1}:0] s = (a + b) ^ (b >> {shift});
  assign y = (p {COMPARE[cmp_op]} s) ? p - s : s - p;
  assign z = ((a << {shift}) | (b >> {w - shift})) & ~p;
endmodule
"""


def main(scn):
    w = int(scn["width"])
    shift = 1 + int(scn["shift"]) % (w - 1)
    src = verilog(w, int(scn["multiplier"]), shift, str(scn["compare"]))
    a = int(scn["a_value"]) % (1 << w)
    b = int(scn["b_value"]) % (1 << w)
    lib = str(scn["gate_library"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "dp.v"), "w") as f:
            f.write(src)
        script = (f"read_verilog dp.v; synth -top dp -flatten -noabc; abc -g {lib}; opt_clean; "
                  f"tee -q -o stat.json stat -json; tee -q -o ltp.txt ltp -noff; "
                  f"tee -q -o eval.txt eval -set a {a} -set b {b} -show y -show z")
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
        with open(os.path.join(tmp, "stat.json")) as f:
            stat = json.load(f)["design"]
        with open(os.path.join(tmp, "ltp.txt")) as f:
            ltp = f.read()
        with open(os.path.join(tmp, "eval.txt")) as f:
            ev = f.read()
    by_type = stat.get("num_cells_by_type", {})
    unknown = sorted(set(by_type) - set(GATES))
    if unknown:
        raise RuntimeError(f"unexpected cell types {unknown}")
    vals = dict(re.findall(r"Eval result: \\(\w+) = \d+'([01]+)\.", ev))
    m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", ltp)
    return {
        "n_cells": int(stat["num_cells"]),
        "n_wires": int(stat["num_wires"]),
        "n_wire_bits": int(stat["num_wire_bits"]),
        "cells_by_type": {g.strip("$_"): int(by_type.get(g, 0)) for g in GATES},
        "longest_path": int(m.group(1)),
        "y": int(vals["y"], 2),
        "z": int(vals["z"], 2),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

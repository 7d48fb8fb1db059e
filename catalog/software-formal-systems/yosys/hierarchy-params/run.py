"""Design hierarchy with yosys: a top module instantiates a parameterised accumulator module several times with
drawn parameters; `hierarchy` derives one specialised module per distinct parameter set ($paramod...), stat reports
each module and the instance counts, and `flatten` dissolves the hierarchy."""

import json
import os
import random
import subprocess
import tempfile

SUB = """module mac #(parameter W = 8, parameter K = 3, parameter SIGNED = 0)
  (input clk, input [W-1:0] a, input [W-1:0] b, output reg [2*W-1:0] acc);
  wire [2*W-1:0] p = SIGNED ? $signed(a) * $signed(b) : a * b;
  always @(posedge clk) acc <= acc + p * K;
endmodule
"""


def main(scn):
    rng = random.Random(int(scn["seed"]))
    n = int(scn["n_instances"])
    widths = [int(w) for w in scn["widths"]]
    params = []
    for _ in range(n):  # per instance: width (from the list), K, signedness
        params.append(
            (rng.choice(widths), rng.randint(1, int(scn["max_k"])), rng.randint(0, 1) if scn["allow_signed"] else 0)
        )
    ports = ", ".join(
        f"input [{w - 1}:0] a{i}, b{i}, output [{2 * w - 1}:0] y{i}" for i, (w, _, _) in enumerate(params)
    )
    insts = "\n".join(
        f"  mac #(.W({w}), .K({k}), .SIGNED({s})) u{i}(clk, a{i}, b{i}, y{i});" for i, (w, k, s) in enumerate(params)
    )
    top = f"module top(input clk, {ports});\n{insts}\nendmodule\n"
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "design.v"), "w") as f:
            f.write(SUB + top)
        script = (
            "read_verilog design.v; hierarchy -top top; proc; opt; tee -q -o hier.json stat -json; "
            "flatten; opt; tee -q -o flat.json stat -json"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "hier.json")) as f:
            hier = json.load(f)
        with open(os.path.join(tmp, "flat.json")) as f:
            flat = json.load(f)
    modules = hier["modules"]
    derived = sorted(m for m in modules if m != "\\top")
    per_module_cells = [int(modules[m]["num_cells"]) for m in derived]
    return {
        "instances": [list(p) for p in params],
        "n_modules": len(modules),
        "distinct_parameter_sets": len(set(params)),
        "derived_module_cells": per_module_cells,
        "hier_design_cells": int(hier["design"]["num_cells"]),
        "flat_cells": int(flat["design"]["num_cells"]),
        "flat_multipliers": int(flat["design"].get("num_cells_by_type", {}).get("$mul", 0)),
        "flat_wire_bits": int(flat["design"]["num_wire_bits"]),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

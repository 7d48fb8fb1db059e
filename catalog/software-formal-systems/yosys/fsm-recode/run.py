"""FSM extraction and state re-encoding with yosys: a generated Moore machine goes through `fsm` (fsm_detect,
fsm_extract, fsm_opt, fsm_recode), its extracted machine is exported as KISS2 and described by fsm_info, and the
mapped gate netlist is counted."""

import json
import os
import random
import re
import subprocess
import tempfile


def machine(n, in_bits, out_bits, seed):
    """next[s][v] for every input value v, then out[s], drawn in that order per state."""
    rng = random.Random(seed)
    nxt, out = [], []
    for _ in range(n):
        nxt.append([rng.randrange(n) for _ in range(1 << in_bits)])
        out.append(rng.randrange(1 << out_bits))
    return nxt, out


def verilog(n, in_bits, out_bits, reset, nxt, out):
    sb = max(1, (n - 1).bit_length())
    arms = []
    for s in range(n):
        cases = " ".join(f"{in_bits}'d{v}: next = {sb}'d{t};" for v, t in enumerate(nxt[s]))
        arms.append(f"      {sb}'d{s}: case (in) {cases} endcase")
    outs = " ".join(f"{sb}'d{s}: y = {out_bits}'d{o};" for s, o in enumerate(out))
    return f"""module top(input clk, input rst, input [{in_bits - 1}:0] in, output reg [{out_bits - 1}:0] y);
  (* fsm_encoding = "auto" *) reg [{sb - 1}:0] state;
  reg [{sb - 1}:0] next;
  always @(posedge clk or posedge rst)
    if (rst) state <= {sb}'d{reset}; else state <= next;
  always @(*) begin
    next = {sb}'d{reset};
    case (state)
{chr(10).join(arms)}
      default: next = {sb}'d{reset};
    endcase
  end
  always @(*) begin
    y = {out_bits}'d0;
    case (state) {outs} default: y = {out_bits}'d0; endcase
  end
endmodule
"""


def reachable(kiss, reset_code):
    edges = {}
    for src, dst in kiss:
        edges.setdefault(src, set()).add(dst)
    seen, todo = {reset_code}, [reset_code]
    while todo:
        for t in edges.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return len(seen)


def main(scn):
    n, in_bits, out_bits = int(scn["n_states"]), int(scn["input_bits"]), int(scn["output_bits"])
    reset = int(scn["reset_state"]) % n
    nxt, out = machine(n, in_bits, out_bits, int(scn["seed"]))
    enc = str(scn["encoding"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "fsm.v"), "w") as f:
            f.write(verilog(n, in_bits, out_bits, reset, nxt, out))
        script = (
            f"read_verilog fsm.v; hierarchy -top top; proc; opt; fsm -nomap -encoding {enc}; "
            "tee -q -o info.txt fsm_info; fsm_export -o fsm.kiss2; fsm_map; opt; techmap; opt; "
            "abc -g AND,OR,XOR,MUX; opt_clean; "
            "tee -q -o stat.json stat -json"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "info.txt")) as f:
            info = f.read()
        with open(os.path.join(tmp, "fsm.kiss2")) as f:
            lines = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
        with open(os.path.join(tmp, "stat.json")) as f:
            stat = json.load(f)["design"]
    codes = re.findall(r"^\s+\d+:\s+\d+'([01-]+)(\s+<RESET STATE>)?$", info, re.M)
    header = {ln[0]: ln[1] for ln in lines if ln[0].startswith(".")}
    kiss = [ln for ln in lines if not ln[0].startswith(".")]
    by_type = stat.get("num_cells_by_type", {})
    return {
        "n_states": len(codes),
        "state_bits": int(re.search(r"Number of state bits:\s+(\d+)", info).group(1)),
        "state_codes": [c for c, _ in codes],
        "reset_code": next(c for c, r in codes if r),
        "kiss2_rows": int(header[".p"]),
        "kiss2_outputs": int(header[".o"]),
        "reachable_states": reachable([(row[1], row[2]) for row in kiss], header[".r"]),
        "n_cells": int(stat["num_cells"]),
        "n_flipflops": sum(int(v) for k, v in by_type.items() if "DFF" in k.upper()),
        "n_gates": sum(int(v) for k, v in by_type.items() if k in ("$_AND_", "$_OR_", "$_XOR_", "$_MUX_")),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

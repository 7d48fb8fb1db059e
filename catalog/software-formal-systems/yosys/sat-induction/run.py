"""Formal verification of a safety property with yosys's SAT engine: temporal k-induction (`sat -tempinduct
-prove-asserts`) on a modular accumulator with an immediate assertion, reporting the proof, the counterexample
trace, or the bound it gave up at."""

import json
import os
import re
import subprocess
import tempfile


def verilog(w, init, step, mod, prop, target):
    check = f"cnt != {w}'d{target}" if prop == "never_equals" else f"cnt < {w}'d{target}"
    return f"""module top(input clk, input en, output reg [{w - 1}:0] cnt);
  initial cnt = {w}'d{init};
  wire [{w}:0] nxt = cnt + {w}'d{step};
  always @(posedge clk) if (en) cnt <= (nxt >= {w + 1}'d{mod}) ? nxt - {w + 1}'d{mod} : nxt;
  always @* assert({check});
endmodule
"""


def main(scn):
    w = int(scn["width"])
    mod = int(scn["modulus"]) % (1 << w)
    mod = max(mod, 2)
    init = int(scn["init"]) % mod
    step = int(scn["step"]) % mod
    prop = str(scn["property"])
    target = int(scn["target"]) % mod if prop == "never_equals" else int(scn["target"]) % (1 << w)
    maxsteps = int(scn["max_steps"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "top.v"), "w") as f:
            f.write(verilog(w, init, step, mod, prop, target))
        script = (
            f"read_verilog -formal top.v; prep -top top; "
            f"tee -q -o sat.txt sat -tempinduct -prove-asserts -maxsteps {maxsteps} -show cnt"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=False, capture_output=True)
        with open(os.path.join(tmp, "sat.txt")) as f:
            log = f.read()
    lengths = [int(v) for v in re.findall(r"Trying induction with length (\d+)", log)]
    if "Induction step proven: SUCCESS!" in log:
        status, trace = "proved", []
    elif "model found for base case: FAIL!" in log:
        status = "counterexample"
        table = log[log.rindex("model found for base case") :]
        trace = [int(v) for v in re.findall(r"^\s+\d+ \\cnt\s+(\d+)\s", table, re.M)]
    else:
        status, trace = "unknown", []
    return {
        "target": target,
        "status": status,
        "induction_length": lengths[-1] if lengths else 0,
        "counterexample": ",".join(str(v) for v in trace),
        "counterexample_steps": max(0, len(trace) - 1),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

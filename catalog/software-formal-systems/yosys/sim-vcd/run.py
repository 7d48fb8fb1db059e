"""Cycle simulation with yosys's own simulator (`sim -clock clk -reset rst -n N -vcd`): a generated sequential
circuit (Gray counter, Johnson counter, Fibonacci LFSR or accumulator) is simulated on its RTLIL netlist and the
VCD waveform it writes is read back for the state sequence, its period and per-bit toggle counts."""

import json
import os
import shutil
import subprocess
import tempfile

LFSR_TAPS = {4: (3, 2), 5: (4, 2), 6: (5, 4), 7: (6, 5), 8: (7, 5, 4, 3)}


def verilog(kind, w, init, step):
    mask = (1 << w) - 1
    if kind == "gray":
        nxt, out = f"q + {w}'d1", "q ^ (q >> 1)"
    elif kind == "johnson":
        nxt, out = f"{{q[{w - 2}:0], ~q[{w - 1}]}}", "q"
    elif kind == "lfsr":
        fb = " ^ ".join(f"q[{t}]" for t in LFSR_TAPS[w])
        nxt, out = f"{{q[{w - 2}:0], {fb}}}", "q"
    else:
        nxt, out = f"q + {w}'d{step & mask}", "q"
    return f"""module top(input clk, input rst, output reg [{w - 1}:0] q, output [{w - 1}:0] y);
  always @(posedge clk) if (rst) q <= {w}'d{init & mask}; else q <= {nxt};
  assign y = {out};
endmodule
"""


def parse_vcd(text):
    """{name: [(time, value bits)]} for the VCD's vector and scalar changes."""
    ids, ch, t = {}, {}, 0
    for line in text.splitlines():
        p = line.split()
        if p[:1] == ["$var"]:
            ids[p[3]] = p[4]
            ch[p[4]] = []
        elif line.startswith("#"):
            t = int(line[1:])
        elif p and p[0].startswith("b") and len(p) == 2 and p[1] in ids:
            ch[ids[p[1]]].append((t, p[0][1:]))
    return ch


def at(changes, t):
    v = None
    for tc, val in changes:
        if tc > t:
            break
        v = val
    return v


def main(scn):
    kind, w, n = str(scn["circuit"]), int(scn["width"]), int(scn["cycles"])
    if kind == "lfsr" and int(scn["init"]) % (1 << w) == 0:
        init = 1  # an all-zero LFSR never leaves zero
    else:
        init = int(scn["init"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "top.v"), "w") as f:
            f.write(verilog(kind, w, init, int(scn["step"])))
        script = f"read_verilog top.v; hierarchy -top top; proc; opt; sim -clock clk -reset rst -n {n} -vcd sim.vcd"
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "sim.vcd")) as f:
            vcd = f.read()
        shutil.copy(os.path.join(tmp, "sim.vcd"), os.path.join(os.environ["SWR_ARTIFACTS"], "sim.vcd"))
    ch = parse_vcd(vcd)
    rises = [t for t, v in ch["clk"] if v == "1"]
    ys = [int(at(ch["y"], t), 2) for t in rises if "x" not in at(ch["y"], t)]
    first = {}
    period = 0
    for i, v in enumerate(ys):
        if v in first:
            period = i - first[v]
            break
        first[v] = i
    toggles = [sum(1 for a, b in zip(ys, ys[1:]) if (a >> bit & 1) != (b >> bit & 1)) for bit in range(w)]
    return {
        "waveform": "sim.vcd",
        "outputs": ys,
        "distinct_states": len(set(ys)),
        "period": period,
        "bit_toggles": toggles,
        "max_hamming_step": max((bin(a ^ b).count("1") for a, b in zip(ys, ys[1:])), default=0),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Simulate a generated fixed-point FIR + leaky-integrator filter with Icarus Verilog and return its output trace."""

import json
import math
import os
import subprocess
import tempfile

DUT = """module filt #(parameter W = 12, parameter K = 3,
              parameter signed [5:0] C0 = 1, parameter signed [5:0] C1 = 2, parameter signed [5:0] C2 = 1)
  (input clk, input rst, input signed [W-1:0] x, output reg signed [W+11:0] y);
  reg signed [W-1:0] x1, x2;
  wire signed [W+11:0] fir = C0 * x + C1 * x1 + C2 * x2;
  always @(posedge clk) begin
    if (rst) begin
      x1 <= 0; x2 <= 0; y <= 0;
    end else begin
      x2 <= x1; x1 <= x;
      y <= y - (y >>> K) + fir;   // leaky integrator, arithmetic shift
    end
  end
endmodule
"""

TB = """`timescale 1ns/1ps
module tb;
  reg clk = 0, rst = 1;
  reg signed [{w}-1:0] x = 0;
  wire signed [{w}+11:0] y;
  reg signed [{w}-1:0] stim [0:{n}-1];
  integer i;
  filt #(.W({w}), .K({k}), .C0({c0}), .C1({c1}), .C2({c2})) dut(.clk(clk), .rst(rst), .x(x), .y(y));
  always #5 clk = ~clk;
  initial begin
    $readmemh("stim.hex", stim);
    @(posedge clk); #1 rst = 0;
    for (i = 0; i < {n}; i = i + 1) begin
      x = stim[i];
      @(posedge clk); #1 $display("%0d", y);
    end
    $finish;
  end
endmodule
"""


def stimulus(n, w, amp, freq, phase):
    full = (1 << (w - 1)) - 1
    out = []
    for i in range(n):
        v = int(round(amp * full * math.sin(2 * math.pi * freq * i + phase)))
        out.append(max(-full, min(full, v)))
    return out


def main(scn):
    w = int(scn["width"])
    n = int(scn["n_samples"])
    k = int(scn["leak_shift"])
    c0, c1, c2 = (int(c) for c in scn["taps"])
    x = stimulus(n, w, float(scn["amplitude"]), float(scn["frequency"]), float(scn["phase"]))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "stim.hex"), "w") as f:
            f.write("\n".join(format(v & ((1 << w) - 1), "x") for v in x) + "\n")
        with open(os.path.join(tmp, "filt.v"), "w") as f:
            f.write(DUT)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(TB.format(w=w, n=n, k=k, c0=c0, c1=c1, c2=c2))
        subprocess.run(["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "filt.v"], cwd=tmp, check=True,
                       capture_output=True)
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    y = [int(line) for line in res.stdout.split() if line.lstrip("-").isdigit()]
    assert len(y) == n, res.stdout[-500:]
    return {
        "input": x,
        "output": y,
        "final_output": y[-1],
        "max_output": max(y),
        "min_output": min(y),
        "output_energy": float(sum(v * v for v in y)),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

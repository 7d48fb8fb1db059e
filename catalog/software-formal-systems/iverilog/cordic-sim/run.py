"""Simulate an iterative fixed-point CORDIC rotator (one micro-rotation per clock) with Icarus Verilog and measure
its sine/cosine against the exact values in least-significant bits."""

import json
import math
import os
import subprocess
import tempfile

RTL = """module cordic #(parameter W = 18, parameter N = 12, parameter signed [W-1:0] X0 = 0)
  (input clk, input start, input signed [W-1:0] z0,
   output reg signed [W-1:0] x, output reg signed [W-1:0] y, output reg done);
  reg signed [W-1:0] z;
  reg signed [W-1:0] atan_tab [0:N-1];
  reg [4:0] i;
  reg busy = 0;
  initial begin
{table}
  end
  always @(posedge clk) begin
    done <= 0;
    if (start) begin
      x <= X0; y <= 0; z <= z0; i <= 0; busy <= 1;
    end else if (busy) begin
      if (z[W-1]) begin
        x <= x + (y >>> i); y <= y - (x >>> i); z <= z + atan_tab[i];
      end else begin
        x <= x - (y >>> i); y <= y + (x >>> i); z <= z - atan_tab[i];
      end
      i <= i + 1;
      if (i == N - 1) begin busy <= 0; done <= 1; end
    end
  end
endmodule
"""

TB = """module tb;
  reg clk = 0, start = 0;
  reg signed [{w}-1:0] z0 = 0;
  wire signed [{w}-1:0] x, y;
  wire done;
  integer k, cycles;
  reg signed [{w}-1:0] angles [0:{n}-1];
  cordic #(.W({w}), .N({iters}), .X0({x0})) dut(clk, start, z0, x, y, done);
  always #5 clk = ~clk;
  initial begin
{init}
    for (k = 0; k < {n}; k = k + 1) begin
      @(negedge clk) z0 = angles[k]; start = 1;
      @(negedge clk) start = 0; cycles = 1;
      while (!done) begin @(negedge clk) cycles = cycles + 1; end
      $display("%0d %0d %0d", x, y, cycles);
    end
    $finish;
  end
endmodule
"""


def atan_table(n, f, mode):
    vals = [math.atan(2.0**-i) * (1 << f) for i in range(n)]
    return [int(math.floor(v)) if mode == "truncate" else int(round(v)) for v in vals]


def main(scn):
    f, n = int(scn["frac_bits"]), int(scn["iterations"])
    w = f + 3
    angles = [float(a) for a in scn["angles_deg"]]
    z = [int(round(math.radians(a) * (1 << f))) for a in angles]
    gain = math.prod(1.0 / math.sqrt(1.0 + 2.0 ** (-2 * i)) for i in range(n))
    x0 = int(round(gain * (1 << f))) if scn["gain_compensated"] else (1 << f)
    table = "\n".join(f"    atan_tab[{i}] = {v};" for i, v in enumerate(atan_table(n, f, str(scn["table_rounding"]))))
    init = "\n".join(f"    angles[{k}] = {v};" for k, v in enumerate(z))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "cordic.v"), "w") as fh:
            fh.write(RTL.format(table=table))
        with open(os.path.join(tmp, "tb.v"), "w") as fh:
            fh.write(TB.format(w=w, n=len(z), iters=n, x0=x0, init=init))
        subprocess.run(
            ["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "cordic.v"], cwd=tmp, check=True, capture_output=True
        )
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    rows = [
        [int(v) for v in ln.split()]
        for ln in res.stdout.splitlines()
        if ln.strip() and ln.split()[0].lstrip("-").isdigit()
    ]
    assert len(rows) == len(z), res.stdout[-300:]
    scale = 1 << f
    err_c = [r[0] - round(math.cos(a * math.pi / 180) * scale) for r, a in zip(rows, angles)]
    err_s = [r[1] - round(math.sin(a * math.pi / 180) * scale) for r, a in zip(rows, angles)]
    return {
        "z_inputs": z,
        "x0": x0,
        "cos_fixed": [r[0] for r in rows],
        "sin_fixed": [r[1] for r in rows],
        "cycles": [r[2] for r in rows],
        "max_abs_error_lsb": max(abs(e) for e in err_c + err_s),
        "rms_error_lsb": math.sqrt(sum(e * e for e in err_c + err_s) / (2 * len(rows))),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

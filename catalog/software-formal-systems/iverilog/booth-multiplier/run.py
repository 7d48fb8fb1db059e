"""Simulate a sequential radix-2 Booth multiplier with Icarus Verilog: one add/subtract-and-arithmetic-shift step
per clock over a combined accumulator register; the testbench drives operand pairs through a Verilog task and
counts the add/subtract operations Booth recoding performs."""

import json
import os
import random
import subprocess
import tempfile

RTL = """module booth #(parameter W = 8)
  (input clk, input start, input signed [W-1:0] m, input signed [W-1:0] r,
   output reg signed [2*W-1:0] p, output reg done, output reg [7:0] ops);
  reg [2*W:0] acc;                      // {A, Q, q_-1}
  reg signed [W-1:0] mc;
  reg [7:0] n;
  reg busy = 0;
  reg [W-1:0] a_next;
  always @(posedge clk) begin
    done <= 0;
    if (start && !busy) begin
      acc <= {{W{1'b0}}, r, 1'b0}; mc <= m; n <= 0; busy <= 1; ops <= 0;
    end else if (busy) begin
      case (acc[1:0])
        2'b01: begin a_next = acc[2*W:W+1] + mc; ops <= ops + 1; end
        2'b10: begin a_next = acc[2*W:W+1] - mc; ops <= ops + 1; end
        default: a_next = acc[2*W:W+1];
      endcase
      acc <= $signed({a_next, acc[W:0]}) >>> 1;   // arithmetic shift of the whole register
      n <= n + 1;
      if (n == W - 1) begin busy <= 0; done <= 1; end
    end
  end
  always @* p = acc[2*W:1];
endmodule
"""

TB = """module tb;
  reg clk = 0, start = 0;
  reg signed [{w}-1:0] m = 0, r = 0;
  wire signed [2*{w}-1:0] p;
  wire done;
  wire [7:0] ops;
  integer cycles;
  booth #(.W({w})) dut(clk, start, m, r, p, done, ops);
  always #5 clk = ~clk;
  task multiply(input signed [{w}-1:0] a, input signed [{w}-1:0] b);
    begin
      @(negedge clk) m = a; r = b; start = 1;
      @(negedge clk) start = 0; cycles = 1;
      while (!done) begin @(negedge clk) cycles = cycles + 1; end
      $display("%0d %0d %0d", p, ops, cycles);
    end
  endtask
  initial begin
{calls}
    $finish;
  end
endmodule
"""


def main(scn):
    w, n = int(scn["width"]), int(scn["n_pairs"])
    rng = random.Random(int(scn["seed"]))
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    pairs = [(rng.randint(lo, hi), rng.randint(lo, hi)) for _ in range(n)]
    if scn["include_extremes"]:
        pairs += [(lo, lo), (lo, hi), (hi, -1)]
    calls = "\n".join(f"    multiply({a}, {b});" for a, b in pairs)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "booth.v"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(TB.format(w=w, calls=calls))
        subprocess.run(
            ["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "booth.v"], cwd=tmp, check=True, capture_output=True
        )
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    rows = [
        [int(x) for x in ln.split()] for ln in res.stdout.splitlines() if ln.strip()[:1] in "-0123456789" and ln.strip()
    ]
    assert len(rows) == len(pairs), res.stdout[-300:]
    return {
        "pairs": [list(p) for p in pairs],
        "products": [r[0] for r in rows],
        "booth_operations": [r[1] for r in rows],
        "cycles": [r[2] for r in rows],
        "correct": sum(1 for (a, b), r in zip(pairs, rows) if a * b == r[0]),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

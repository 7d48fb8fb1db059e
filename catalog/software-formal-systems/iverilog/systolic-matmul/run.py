"""Simulate an output-stationary systolic array (a generate-for grid of multiply-accumulate processing elements)
multiplying two signed integer matrices with Icarus Verilog; operands enter skewed from the west and north edges
and the products accumulate in place."""

import json
import os
import random
import subprocess
import tempfile

RTL = """module pe #(parameter W = 8, parameter AW = 20)
  (input clk, input rst, input signed [W-1:0] a_in, input signed [W-1:0] b_in,
   output reg signed [W-1:0] a_out, output reg signed [W-1:0] b_out, output reg signed [AW-1:0] acc);
  always @(posedge clk) begin
    if (rst) begin a_out <= 0; b_out <= 0; acc <= 0; end
    else begin a_out <= a_in; b_out <= b_in; acc <= acc + a_in * b_in; end
  end
endmodule

module array #(parameter N = 2, parameter M = 2, parameter W = 8, parameter AW = 20)
  (input clk, input rst, input [N*W-1:0] west, input [M*W-1:0] north, output [N*M*AW-1:0] c);
  wire [W-1:0] ah [0:N-1][0:M];
  wire [W-1:0] bv [0:N][0:M-1];
  genvar i, j;
  generate
    for (i = 0; i < N; i = i + 1) begin : row
      assign ah[i][0] = west[i*W +: W];
      for (j = 0; j < M; j = j + 1) begin : col
        if (i == 0) begin : top
          assign bv[0][j] = north[j*W +: W];
        end
        pe #(.W(W), .AW(AW)) u(.clk(clk), .rst(rst), .a_in(ah[i][j]), .b_in(bv[i][j]),
                              .a_out(ah[i][j+1]), .b_out(bv[i+1][j]), .acc(c[(i*M+j)*AW +: AW]));
      end
    end
  endgenerate
endmodule
"""

TB = """module tb;
  reg clk = 0, rst = 1;
  reg [{n}*{w}-1:0] west = 0;
  reg [{m}*{w}-1:0] north = 0;
  wire [{n}*{m}*{aw}-1:0] c;
  integer t, i;
  reg signed [{w}-1:0] A [0:{n}-1][0:{k}-1];
  reg signed [{w}-1:0] B [0:{k}-1][0:{m}-1];
  array #(.N({n}), .M({m}), .W({w}), .AW({aw})) dut(clk, rst, west, north, c);
  always #5 clk = ~clk;
  initial begin
{init}
    @(negedge clk) rst = 0;
    for (t = 0; t < {steps}; t = t + 1) begin
      for (i = 0; i < {n}; i = i + 1)   // row i of A enters delayed by i cycles
        west[i*{w} +: {w}] = (t - i >= 0 && t - i < {k}) ? A[i][t - i] : 0;
      for (i = 0; i < {m}; i = i + 1)   // column i of B enters delayed by i cycles
        north[i*{w} +: {w}] = (t - i >= 0 && t - i < {k}) ? B[t - i][i] : 0;
      @(negedge clk);
    end
    for (i = 0; i < {n}*{m}; i = i + 1) $display("%0d", $signed(c[i*{aw} +: {aw}]));
    $finish;
  end
endmodule
"""


def main(scn):
    n, m, k, w = int(scn["rows"]), int(scn["cols"]), int(scn["inner"]), int(scn["width"])
    rng = random.Random(int(scn["seed"]))
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    A = [[rng.randint(lo, hi) for _ in range(k)] for _ in range(n)]
    B = [[rng.randint(lo, hi) for _ in range(m)] for _ in range(k)]
    aw = 2 * w + k.bit_length() + 1
    steps = k + n + m - 2 + int(scn["extra_cycles"])
    init = "\n".join(
        [f"    A[{i}][{j}] = {A[i][j]};" for i in range(n) for j in range(k)]
        + [f"    B[{i}][{j}] = {B[i][j]};" for i in range(k) for j in range(m)]
    )
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "array.v"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(TB.format(n=n, m=m, k=k, w=w, aw=aw, steps=steps, init=init))
        subprocess.run(
            ["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "array.v"], cwd=tmp, check=True, capture_output=True
        )
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    vals = [int(v) for v in res.stdout.split() if v.lstrip("-").isdigit()]
    exact = [sum(A[i][t] * B[t][j] for t in range(k)) for i in range(n) for j in range(m)]
    return {
        "A": [x for row in A for x in row],
        "B": [x for row in B for x in row],
        "C": vals,
        "cycles": steps,
        "accumulator_bits": aw,
        "complete": vals == exact,
        "n_wrong": sum(1 for v, e in zip(vals, exact) if v != e),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Simulate a token-bucket traffic policer with Icarus Verilog under stochastic stimulus drawn by Verilog's own
standard random functions ($dist_uniform with a seed variable, IEEE 1364 section 17.9.2), recording which packets
conform and the bucket level over time."""

import json
import os
import subprocess
import tempfile

RTL = """module policer #(parameter RATE = 2, parameter DEPTH = 40)
  (input clk, input rst, input valid, input [7:0] size, output reg conform, output reg mark, output reg [15:0] tokens);
  always @(posedge clk) begin
    if (rst) begin
      tokens <= DEPTH; conform <= 0; mark <= 0;
    end else begin
      conform <= 0; mark <= 0;
      if (valid && tokens >= size) begin
        conform <= 1;
        tokens <= (tokens - size + RATE > DEPTH) ? DEPTH : tokens - size + RATE;
      end else begin
        if (valid) mark <= 1;
        tokens <= (tokens + RATE > DEPTH) ? DEPTH : tokens + RATE;
      end
    end
  end
endmodule
"""

TB = """module tb;
  reg clk = 0, rst = 1, valid = 0;
  reg [7:0] size = 0;
  wire conform, mark;
  wire [15:0] tokens;
  integer seed = {seed};
  integer k, r;
  policer #(.RATE({rate}), .DEPTH({depth})) dut(clk, rst, valid, size, conform, mark, tokens);
  always #5 clk = ~clk;
  initial begin
    @(negedge clk) rst = 0;
    for (k = 0; k < {n}; k = k + 1) begin
      r = $dist_uniform(seed, 0, 99);
      valid = (r < {p});
      size = $dist_uniform(seed, {smin}, {smax});
      @(negedge clk) $display("%0d %0d %0d %0d %0d", valid, size, conform, mark, tokens);
    end
    $finish;
  end
endmodule
"""


def main(scn):
    n = int(scn["cycles"])
    smin = int(scn["min_size"])
    smax = max(smin, int(scn["max_size"]))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "policer.v"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(
                TB.format(
                    seed=int(scn["seed"]),
                    rate=int(scn["rate"]),
                    depth=int(scn["depth"]),
                    n=n,
                    p=int(scn["load_percent"]),
                    smin=smin,
                    smax=smax,
                )
            )
        subprocess.run(
            ["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "policer.v"], cwd=tmp, check=True, capture_output=True
        )
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    rows = [[int(x) for x in ln.split()] for ln in res.stdout.splitlines() if ln.strip() and ln.split()[0].isdigit()]
    assert len(rows) == n, res.stdout[-300:]
    sizes = [r[1] for r in rows if r[0]]
    return {
        "packets": sum(r[0] for r in rows),
        "packet_sizes": sizes if sizes else [-1],
        "conforming": sum(r[2] for r in rows),
        "marked": sum(r[3] for r in rows),
        "conforming_bytes": sum(r[1] for r in rows if r[2]),
        "tokens": [r[4] for r in rows],
        "min_tokens": min(r[4] for r in rows),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

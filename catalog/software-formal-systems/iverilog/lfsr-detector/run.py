"""Simulate a Galois LFSR driving an overlapping sequence-detector FSM with Icarus Verilog."""

import json
import os
import subprocess
import tempfile

# Maximal-length Galois tap masks (right-shifting form).
TAPS = {8: 0xB8, 10: 0x240, 12: 0xE08, 14: 0x3802, 16: 0xB400}

RTL = """module lfsr_det #(parameter N = 8, parameter [N-1:0] TAPMASK = 8'hB8, parameter [N-1:0] SEED = 1,
                  parameter L = 4, parameter [L-1:0] PATTERN = 4'b1011)
  (input clk, input rst, output reg [N-1:0] state, output bit_out, output reg hit);
  assign bit_out = state[0];
  // Overlapping detector FSM: window holds the last L bits seen (newest in bit 0), seen counts up to L.
  reg [L-1:0] window;
  reg [7:0] seen;
  always @(posedge clk) begin
    if (rst) begin
      state <= SEED; window <= 0; seen <= 0; hit <= 0;
    end else begin
      state <= bit_out ? ((state >> 1) ^ TAPMASK) : (state >> 1);
      window <= {window[L-2:0], bit_out};
      seen <= (seen < L) ? seen + 1 : seen;
      hit <= (seen >= L - 1) && ({window[L-2:0], bit_out} == PATTERN);
    end
  end
endmodule
"""

TB = """module tb;
  reg clk = 0, rst = 1;
  wire [{n}-1:0] state; wire bit_out; wire hit;
  integer i;
  lfsr_det #(.N({n}), .TAPMASK({n}'h{taps:x}), .SEED({n}'d{seed}), .L({l}), .PATTERN({l}'b{pat}))
    dut(.clk(clk), .rst(rst), .state(state), .bit_out(bit_out), .hit(hit));
  always #5 clk = ~clk;
  initial begin
    @(posedge clk); #1 rst = 0;
    for (i = 0; i < {cycles}; i = i + 1) begin
      #1 $display("%0d %0d %0d", state, bit_out, hit);
      @(posedge clk);
    end
    $finish;
  end
endmodule
"""


def main(scn):
    n = int(scn["lfsr_bits"])
    seed = int(scn["seed"]) % ((1 << n) - 1) + 1          # nonzero seed
    l = int(scn["pattern_length"])
    pat = format(int(scn["pattern"]) % (1 << l), f"0{l}b")
    cycles = int(scn["n_cycles"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "rtl.v"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(TB.format(n=n, taps=TAPS[n], seed=seed, l=l, pat=pat, cycles=cycles))
        subprocess.run(["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "rtl.v"], cwd=tmp, check=True,
                       capture_output=True)
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    rows = [tuple(int(v) for v in line.split()) for line in res.stdout.splitlines()
            if line.strip() and line.split()[0].isdigit()]
    assert len(rows) == cycles, res.stdout[-500:]
    states = [r[0] for r in rows]
    bits = [r[1] for r in rows]
    hits = [i for i, r in enumerate(rows) if r[2]]
    return {
        "seed_state": seed,
        "pattern_bits": pat,
        "first_states": states[:16],
        "final_state": states[-1],
        "bitstream_ones": int(sum(bits)),
        "bitstream_head": "".join(str(b) for b in bits[:64]),
        "n_detections": len(hits),
        "first_detection_cycles": (hits + [-1] * 4)[:4],
        "distinct_states": len(set(states)),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

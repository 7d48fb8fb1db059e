"""Simulate a successive-approximation ADC with Icarus Verilog: a clocked SAR state machine drives a behavioural
real-valued DAC and comparator (Verilog `real` arithmetic, $realtobits/$bitstoreal ports); each conversion
resolves one bit per clock from the MSB down."""

import json
import math
import os
import subprocess
import tempfile

RTL = """module sar_adc #(parameter N = 8, parameter real VREF = 3.3, parameter real OFFSET = 0.0, parameter STRICT = 0)
  (input clk, input start, input [63:0] vin_bits, output reg [N-1:0] code, output reg done);
  reg [N-1:0] trial;
  integer bit_i;
  reg busy = 0;
  real vin, vdac;
  always @(posedge clk) begin
    done <= 0;
    if (start && !busy) begin
      busy <= 1; bit_i <= N - 1; code <= 0;
    end else if (busy) begin
      vin = $bitstoreal(vin_bits);
      trial = code | (1 << bit_i);
      vdac = VREF * trial / (2.0 ** N);
      if (STRICT ? (vin + OFFSET > vdac) : (vin + OFFSET >= vdac)) code <= trial;  // keep the bit: input above DAC
      if (bit_i == 0) begin busy <= 0; done <= 1; end
      else bit_i <= bit_i - 1;
    end
  end
endmodule
"""

TB = """module tb;
  reg clk = 0, start = 0;
  reg [63:0] vin_bits = 0;
  wire [{n}-1:0] code;
  wire done;
  real samples [0:{m}-1];
  integer k, cycles;
  sar_adc #(.N({n}), .VREF({vref}), .OFFSET({offset}), .STRICT({strict})) dut(clk, start, vin_bits, code, done);
  always #5 clk = ~clk;
  initial begin
{init}
    for (k = 0; k < {m}; k = k + 1) begin
      @(negedge clk) vin_bits = $realtobits(samples[k]); start = 1; cycles = 0;
      @(negedge clk) start = 0;
      while (!done) begin @(negedge clk) cycles = cycles + 1; end
      $display("%0d %0d", code, cycles);
    end
    $finish;
  end
endmodule
"""


def main(scn):
    n, vref = int(scn["n_bits"]), float(scn["vref"])
    offset = float(scn["offset_mv"]) / 1000.0
    vin = [float(v) * vref for v in scn["inputs"]]
    init = "\n".join(f"    samples[{k}] = {v!r};" for k, v in enumerate(vin))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "adc.v"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(
                TB.format(
                    n=n, m=len(vin), vref=repr(vref), offset=repr(offset), init=init, strict=int(bool(scn["strict"]))
                )
            )
        subprocess.run(
            ["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "adc.v"], cwd=tmp, check=True, capture_output=True
        )
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    rows = [[int(x) for x in ln.split()] for ln in res.stdout.splitlines() if ln.strip() and ln.split()[0].isdigit()]
    codes = [r[0] for r in rows]
    ideal = [min((1 << n) - 1, max(0, math.floor(v / vref * (1 << n)))) for v in vin]
    return {
        "codes": codes,
        "cycles": [r[1] for r in rows],
        "ideal_codes": ideal,
        "code_errors": [c - i for c, i in zip(codes, ideal)],
        "reconstructed_v": [vref * c / (1 << n) for c in codes],
        "lsb_v": vref / (1 << n),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

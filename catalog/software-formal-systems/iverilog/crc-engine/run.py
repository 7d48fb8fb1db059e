"""Simulate a byte-wide CRC engine (Rocksoft/Williams parameter model: width, polynomial, init, reflect in/out,
final XOR) written with a Verilog function and a bit loop, under Icarus Verilog; the register is traced after every
byte and the result checked against a Python model of the same parameters."""

import json
import os
import subprocess
import tempfile

MODELS = {  # name: (width, poly, init, refin, refout, xorout)
    "crc8": (8, 0x07, 0x00, 0, 0, 0x00),
    "crc8-maxim": (8, 0x31, 0x00, 1, 1, 0x00),
    "crc16-ccitt-false": (16, 0x1021, 0xFFFF, 0, 0, 0x0000),
    "crc16-arc": (16, 0x8005, 0x0000, 1, 1, 0x0000),
    "crc32": (32, 0x04C11DB7, 0xFFFFFFFF, 1, 1, 0xFFFFFFFF),
    "crc32-bzip2": (32, 0x04C11DB7, 0xFFFFFFFF, 0, 0, 0xFFFFFFFF),
}

RTL = """module crc_engine #(parameter W = 8, parameter [W-1:0] POLY = 0, parameter [W-1:0] INIT = 0,
                    parameter REFIN = 0, parameter REFOUT = 0, parameter [W-1:0] XOROUT = 0)
  (input clk, input rst, input valid, input [7:0] data, output [W-1:0] crc);
  reg [W-1:0] r;
  function [W-1:0] step(input [W-1:0] cur, input [7:0] d);
    integer i;
    reg [W-1:0] c;
    reg [7:0] b;
    begin
      c = cur;
      for (i = 0; i < 8; i = i + 1) b[i] = REFIN ? d[i] : d[7 - i];   // b[0] is the first bit sent
      for (i = 0; i < 8; i = i + 1)
        c = ((c[W-1] ^ b[i]) ? ((c << 1) ^ POLY) : (c << 1));
      step = c;
    end
  endfunction
  function [W-1:0] reflect(input [W-1:0] v);
    integer i;
    begin
      for (i = 0; i < W; i = i + 1) reflect[i] = v[W - 1 - i];
    end
  endfunction
  always @(posedge clk)
    if (rst) r <= INIT;
    else if (valid) r <= step(r, data);
  assign crc = (REFOUT ? reflect(r) : r) ^ XOROUT;
endmodule
"""

TB = """module tb;
  reg clk = 0, rst = 1, valid = 0;
  reg [7:0] data = 0;
  reg [7:0] msg [0:{n}-1];
  wire [{w}-1:0] crc;
  integer k;
  crc_engine #(.W({w}), .POLY({w}'h{poly:x}), .INIT({w}'h{init:x}), .REFIN({refin}), .REFOUT({refout}),
               .XOROUT({w}'h{xorout:x})) dut(clk, rst, valid, data, crc);
  always #5 clk = ~clk;
  initial begin
{init_msg}
    @(negedge clk) rst = 0;
    for (k = 0; k < {n}; k = k + 1) begin
      valid = 1; data = msg[k];
      @(negedge clk) $display("%0d", crc);
    end
    $finish;
  end
endmodule
"""


def python_crc(model, message):
    w, poly, init, refin, refout, xorout = model
    top, mask, reg, out = 1 << (w - 1), (1 << w) - 1, init, []
    for byte in message:
        bits = [(byte >> i) & 1 for i in range(8)] if refin else [(byte >> (7 - i)) & 1 for i in range(8)]
        for b in bits:
            reg = ((reg << 1) ^ poly) & mask if (bool(reg & top) ^ b) else (reg << 1) & mask
        val = int(format(reg, f"0{w}b")[::-1], 2) if refout else reg
        out.append(val ^ xorout)
    return out


def simulate(model, message, tmp):
    w, poly, init, refin, refout, xorout = model
    with open(os.path.join(tmp, "tb.v"), "w") as f:
        f.write(
            TB.format(
                n=len(message),
                w=w,
                poly=poly,
                init=init,
                refin=refin,
                refout=refout,
                xorout=xorout,
                init_msg="\n".join(f"    msg[{k}] = 8'd{b};" for k, b in enumerate(message)),
            )
        )
    subprocess.run(["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "crc.v"], cwd=tmp, check=True, capture_output=True)
    res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    return [int(v) for v in res.stdout.split() if v.isdigit()]


def main(scn):
    name = str(scn["model"])
    w, poly, init, refin, refout, xorout = MODELS[name]
    if scn["override_init"]:
        init = int(scn["init_value"]) % (1 << w)
    model = (w, poly, init, refin, refout, xorout)
    message = [int(b) for b in scn["message"]] * int(scn["repeat"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "crc.v"), "w") as f:
            f.write(RTL)
        trace = simulate(model, message, tmp)
        check = simulate(model, [ord(c) for c in "123456789"], tmp)[-1]  # the catalogue check string
    assert trace == python_crc(model, message), "simulation and the Python model disagree"
    return {
        "crc": trace[-1],
        "crc_hex": format(trace[-1], f"0{w // 4}x"),
        "trace": trace,
        "check_value": check,
        "bytes_sent": len(message),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

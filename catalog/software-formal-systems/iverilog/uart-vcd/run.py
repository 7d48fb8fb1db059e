"""Simulate a UART transmitter with Icarus Verilog, dump its line as a VCD waveform ($dumpfile/$dumpvars) and
measure the waveform: transitions, busy time, and the frames decoded back from the line."""

import json
import os
import re
import subprocess
import tempfile

RTL = """module uart_tx #(parameter DIV = 4, parameter PARITY = 0, parameter STOP = 1, parameter MSB = 0)
  (input clk, input rst, input start, input [7:0] data, output reg tx, output reg busy);
  localparam LEN = 10 + (PARITY != 0) + (STOP - 1);
  reg [11:0] frame;
  reg [15:0] cnt;
  reg [3:0] idx;
  wire [7:0] d = MSB ? {data[0], data[1], data[2], data[3], data[4], data[5], data[6], data[7]} : data;
  wire par = (PARITY == 1) ? ^data : ~^data;
  always @(posedge clk) begin
    if (rst) begin
      tx <= 1; busy <= 0; cnt <= 0; idx <= 0; frame <= 12'hfff;
    end else if (!busy) begin
      if (start) begin
        frame <= {2'b11, (PARITY != 0) ? par : 1'b1, d, 1'b0};
        tx <= 0; busy <= 1; cnt <= 0; idx <= 0;
      end
    end else if (cnt == DIV - 1) begin
      cnt <= 0;
      if (idx + 1 == LEN) begin
        busy <= 0; tx <= 1;
      end else begin
        idx <= idx + 1; tx <= frame[idx + 1];
      end
    end else
      cnt <= cnt + 1;
  end
endmodule
"""

TB = """`timescale 1ns/1ps
module tb;
  reg clk = 0, rst = 1, start = 0;
  reg [7:0] data = 0;
  reg [7:0] bytes [0:{n}-1];
  wire tx, busy;
  integer i, k;
  uart_tx #(.DIV({div}), .PARITY({parity}), .STOP({stop}), .MSB({msb})) dut(clk, rst, start, data, tx, busy);
  always #5 clk = ~clk;
  initial begin
    $dumpfile("uart.vcd");
    $dumpvars(1, tb.tx, tb.busy, tb.start);
    {init}
    @(posedge clk); #1 rst = 0;
    for (i = 0; i < {n}; i = i + 1) begin
      while (busy) @(posedge clk) #1;
      for (k = 0; k < {gap}; k = k + 1) @(posedge clk) #1;
      data = bytes[i]; start = 1;
      @(posedge clk); #1 start = 0;
    end
    while (busy) @(posedge clk) #1;
    @(posedge clk); #1 $finish;
  end
endmodule
"""
PARITY = {"none": 0, "even": 1, "odd": 2}


def parse_vcd(text):
    """{signal name: [(time_ns, value)]} from a scalar-only VCD."""
    ids, changes, t = {}, {}, 0
    for line in text.splitlines():
        parts = line.split()
        if parts[:1] == ["$var"]:
            ids[parts[3]] = parts[4]
            changes[parts[4]] = []
        elif line.startswith("#"):
            t = int(line[1:])
        elif line[:1] in "01xz" and line[1:] in ids:
            changes[ids[line[1:]]].append((t // 1000, line[0]))  # VCD time unit is 1 ps
    return changes


def level(changes, t):
    v = "x"
    for tc, val in changes:
        if tc > t:
            break
        v = val
    return v


def main(scn):
    data = [int(b) for b in scn["data"]]
    div, stop, msb = int(scn["baud_divisor"]), int(scn["stop_bits"]), bool(scn["msb_first"])
    par = PARITY[str(scn["parity"])]
    init = " ".join(f"bytes[{i}] = 8'd{b};" for i, b in enumerate(data))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "uart.v"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(
                TB.format(
                    n=len(data), div=div, parity=par, stop=stop, msb=int(msb), init=init, gap=int(scn["idle_gap"])
                )
            )
        subprocess.run(
            ["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "uart.v"], cwd=tmp, check=True, capture_output=True
        )
        subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "uart.vcd")) as f:
            vcd = f.read()
    # vvp stamps $date with the wall clock: a fixed stamp keeps the file's bytes the same in every build
    stamped = re.sub(r"(\$date\s*\n\s*)[^\n]*", r"\g<1>Sat Jan  1 00:00:00 2000", vcd, count=1)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "uart.vcd"), "w") as f:
        f.write(stamped)
    ch = parse_vcd(vcd)
    end_ns = max(t for sig in ch.values() for t, _ in sig)
    frame_len = 10 + (par != 0) + (stop - 1)
    starts = [t for (t, v), (_, prev) in zip(ch["busy"][1:], ch["busy"]) if v == "1" and prev != "1"]
    bits, decoded = [], []
    for t0 in starts:  # the frame begins at the edge busy rose; sample each bit period at its middle
        frame = [int(level(ch["tx"], t0 + 10 * div * k + 5 * div)) for k in range(frame_len)]
        bits.append(frame)
        d = frame[1:9][::-1] if msb else frame[1:9]
        decoded.append(sum(b << i for i, b in enumerate(d)))
    busy_ns = sum(t1 - t0 for (t0, v), (t1, _) in zip(ch["busy"], ch["busy"][1:] + [(end_ns, "0")]) if v == "1")
    return {
        "waveform": "uart.vcd",
        "frame_bits": bits,
        "decoded": decoded,
        "tx_transitions": sum(1 for (_, a), (_, b) in zip(ch["tx"], ch["tx"][1:]) if a != b),
        "busy_cycles": busy_ns // 10,
        "end_time_ns": end_ns,
        "parity_bits": [f[9] for f in bits] if par else [-1 for _ in bits],
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Simulate a synchronous FIFO under random push/pop traffic with Icarus Verilog; the testbench writes a per-cycle
trace as CSV ($fopen/$fdisplay), from which occupancy statistics and the data order are read back."""

import csv
import os
import random
import shutil
import subprocess
import tempfile

RTL = """module fifo #(parameter A = 3, parameter AF = 6)
  (input clk, input rst, input push, input pop, input [7:0] din,
   output reg [7:0] dout, output reg dout_valid, output reg [A:0] count,
   output full, output empty, output almost_full);
  reg [7:0] mem [0:(1<<A)-1];
  reg [A-1:0] rd, wr;
  assign full = (count == (1 << A));
  assign empty = (count == 0);
  assign almost_full = (count >= AF);
  wire do_push = push && !full;
  wire do_pop = pop && !empty;
  always @(posedge clk) begin
    if (rst) begin
      rd <= 0; wr <= 0; count <= 0; dout <= 0; dout_valid <= 0;
    end else begin
      if (do_push) begin mem[wr] <= din; wr <= wr + 1; end
      if (do_pop) begin dout <= mem[rd]; rd <= rd + 1; end
      dout_valid <= do_pop;
      count <= count + do_push - do_pop;
    end
  end
endmodule
"""

TB = """module tb;
  reg clk = 0, rst = 1, push = 0, pop = 0;
  reg [7:0] din = 0;
  wire [7:0] dout; wire dout_valid, full, empty, almost_full;
  wire [{a}:0] count;
  reg [0:{n}-1] push_s, pop_s;
  reg [7:0] data_s [0:{n}-1];
  integer k, fd;
  fifo #(.A({a}), .AF({af})) dut(clk, rst, push, pop, din, dout, dout_valid, count, full, empty, almost_full);
  always #5 clk = ~clk;
  initial begin
    push_s = {n}'b{push_bits}; pop_s = {n}'b{pop_bits};
{data_init}
    fd = $fopen("trace.csv", "w");
    $fdisplay(fd, "cycle,push,pop,din,count,full,empty,almost_full,dout_valid,dout");
    @(posedge clk); #1 rst = 0;
    for (k = 0; k < {n}; k = k + 1) begin
      @(negedge clk) push = push_s[k]; pop = pop_s[k]; din = data_s[k];
      @(posedge clk) #1;
      $fdisplay(fd, "%0d,%0d,%0d,%0d,%0d,%0d,%0d,%0d,%0d,%0d", k, push, pop, din, count, full, empty, almost_full,
                dout_valid, dout);
    end
    $fclose(fd);
    $finish;
  end
endmodule
"""


def stimulus(n, p_push, p_pop, seed):
    """Per cycle, in order: push = rng.random() < p_push, pop = rng.random() < p_pop, data = rng.randrange(256)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        rows.append((int(rng.random() < p_push), int(rng.random() < p_pop), rng.randrange(256)))
    return rows


def main(scn):
    a, n = int(scn["addr_bits"]), int(scn["n_cycles"])
    depth = 1 << a
    af = max(1, min(depth, int(scn["almost_full"])))
    rows = stimulus(n, float(scn["p_push"]), float(scn["p_pop"]), int(scn["seed"]))
    tb = TB.format(
        a=a,
        af=af,
        n=n,
        push_bits="".join(str(r[0]) for r in rows),
        pop_bits="".join(str(r[1]) for r in rows),
        data_init="\n".join(f"    data_s[{k}] = 8'd{r[2]};" for k, r in enumerate(rows)),
    )
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "fifo.v"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.v"), "w") as f:
            f.write(tb)
        subprocess.run(
            ["iverilog", "-g2005", "-o", "sim.vvp", "tb.v", "fifo.v"], cwd=tmp, check=True, capture_output=True
        )
        subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "trace.csv"), newline="") as f:
            trace = [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]
        shutil.copy(os.path.join(tmp, "trace.csv"), os.path.join(os.environ["SWR_ARTIFACTS"], "trace.csv"))
    assert len(trace) == n
    popped = [r["dout"] for r in trace if r["dout_valid"]]
    prev = [0] + [r["count"] for r in trace[:-1]]
    return {
        "trace": "trace.csv",
        "accepted_pushes": sum(1 for r, c in zip(trace, prev) if r["push"] and c < depth),
        "dropped_pushes": sum(1 for r, c in zip(trace, prev) if r["push"] and c == depth),
        "refused_pops": sum(1 for r, c in zip(trace, prev) if r["pop"] and c == 0),
        "popped_data": popped if popped else [-1],
        "final_count": trace[-1]["count"],
        "max_count": max(r["count"] for r in trace),
        "cycles_full": sum(r["full"] for r in trace),
        "cycles_almost_full": sum(r["almost_full"] for r in trace),
        "mean_occupancy": sum(r["count"] for r in trace) / n,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

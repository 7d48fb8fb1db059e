"""Simulate a SystemVerilog traffic-light controller (typedef enum state, always_ff / always_comb, unique case)
with Icarus Verilog in -g2012 mode; pedestrian requests shorten the green phase of the main road."""

import json
import os
import random
import subprocess
import tempfile

STATES = ["MAIN_GREEN", "MAIN_YELLOW", "ALL_RED_A", "SIDE_GREEN", "SIDE_YELLOW", "ALL_RED_B"]

RTL = """module traffic #(parameter int G_MAIN = 8, parameter int G_SIDE = 5, parameter int Y = 2, parameter int R = 1,
                 parameter int G_MIN = 3)
  (input logic clk, input logic rst, input logic ped, output logic [2:0] st);
  typedef enum logic [2:0] {MAIN_GREEN, MAIN_YELLOW, ALL_RED_A, SIDE_GREEN, SIDE_YELLOW, ALL_RED_B} state_t;
  state_t state, next;
  logic [7:0] t;
  logic req;
  always_comb begin
    next = state;
    unique case (state)
      MAIN_GREEN:  if (t + 1 >= G_MAIN || (req && t + 1 >= G_MIN)) next = MAIN_YELLOW;
      MAIN_YELLOW: if (t + 1 >= Y) next = ALL_RED_A;
      ALL_RED_A:   if (t + 1 >= R) next = SIDE_GREEN;
      SIDE_GREEN:  if (t + 1 >= G_SIDE) next = SIDE_YELLOW;
      SIDE_YELLOW: if (t + 1 >= Y) next = ALL_RED_B;
      ALL_RED_B:   if (t + 1 >= R) next = MAIN_GREEN;
    endcase
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      state <= MAIN_GREEN; t <= '0; req <= 1'b0;
    end else begin
      state <= next;
      t <= (next == state) ? t + 1 : '0;
      if (state == SIDE_GREEN) req <= 1'b0;             // served: the side phase carries the pedestrians
      else if (ped) req <= 1'b1;
    end
  end
  assign st = state;
endmodule
"""

TB = """module tb;
  logic clk = 0, rst = 1, ped = 0;
  logic [2:0] st;
  logic peds [0:{n}-1];
  int k;
  traffic #(.G_MAIN({gm}), .G_SIDE({gs}), .Y({y}), .R({r}), .G_MIN({gmin}))
    dut(.clk(clk), .rst(rst), .ped(ped), .st(st));
  always #5 clk = ~clk;
  initial begin
{init}
    @(negedge clk) rst = 0;
    for (k = 0; k < {n}; k++) begin
      ped = peds[k];
      @(negedge clk) $display("%0d", st);
    end
    $finish;
  end
endmodule
"""


def main(scn):
    n = int(scn["cycles"])
    rng = random.Random(int(scn["seed"]))
    peds = [int(rng.random() < float(scn["ped_rate"])) for _ in range(n)]
    gm, gs = int(scn["main_green"]), int(scn["side_green"])
    gmin = min(int(scn["min_green"]), gm)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "traffic.sv"), "w") as f:
            f.write(RTL)
        with open(os.path.join(tmp, "tb.sv"), "w") as f:
            f.write(
                TB.format(
                    n=n,
                    gm=gm,
                    gs=gs,
                    y=int(scn["yellow"]),
                    r=int(scn["all_red"]),
                    gmin=gmin,
                    init="\n".join(f"    peds[{k}] = {p};" for k, p in enumerate(peds)),
                )
            )
        subprocess.run(
            ["iverilog", "-g2012", "-o", "sim.vvp", "tb.sv", "traffic.sv"], cwd=tmp, check=True, capture_output=True
        )
        res = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=tmp, check=True, capture_output=True, text=True)
    states = [int(ln) for ln in res.stdout.splitlines() if ln.strip().isdigit()]
    assert len(states) == n, res.stdout[-300:]
    runs = []  # (state, length) of maximal runs
    for s in states:
        if runs and runs[-1][0] == s:
            runs[-1][1] += 1
        else:
            runs.append([s, 1])
    main_greens = [length for s, length in runs[:-1] if s == 0]  # complete main-green phases only
    return {
        "pedestrian_requests": sum(peds),
        "states": states,
        "cycles_per_state": [states.count(i) for i in range(len(STATES))],
        "completed_main_greens": main_greens if main_greens else [-1],
        "side_phases_started": sum(1 for s, _ in runs if s == 3),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""Hidden designs from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. The eight designs of the fixed
cases they replace, each with its widths, constants, operators, taps, patterns, state codes and case labels
drawn, so that every release proves other modules, and each still decides what it was written for: the carry
an adder keeps in a wider context, the priority of overlapping case items, the context width of `~` and of a
left shift, comparisons, reductions, concatenation and replication, part-select and concatenated register
targets, several always blocks, and registers that keep their value on paths that do not assign them.

Exactly one design (the adder/subtractor) adds at 8 bits or more; every other sum stays below 7 live bits.
(The one-wrong-design cheat breaks only wide adders: it must fail exactly one case.) No expected values: the
verifier proves each netlist against its source."""
from __future__ import annotations

import json
import random
import sys
from typing import Any


def bits(w: int) -> str:
    return f"[{w - 1}:0]"


def addsub(rng: random.Random) -> str:
    """{carry, sum} of a W-bit add or subtract (W = 8..10): the carry needs the context width."""
    w = rng.randint(8, 10)
    op1, op2 = rng.sample(["a - b", "a + b"], 2)
    red = rng.choice(["~|y", "&y", "^y", "~^y"])
    return f"""module addsub{w}(input {bits(w)} a, input {bits(w)} b, input sel, output {bits(w)} y, output c, output z,
                output hi);
  wire [{w}:0] r;
  assign r = sel ? {op1} : {op2};
  assign y = r[{w - 1}:0];
  assign c = r[{w}];
  assign z = {red};
  assign hi = y >= {w}'d{rng.randint(1, 2 ** w - 2)};
endmodule
"""


def priority(rng: random.Random) -> str:
    """A priority encoder, a shift in a wider context, a reduction, logical operators and a select."""
    n = rng.randint(5, 8)
    k, m = rng.randint(1, 3), rng.randint(1, 2)
    iw = max(1, (n - 1).bit_length())
    chain = " :\n               ".join(f"req[{i}] ? {iw}'d{i}" for i in range(n - 1, 0, -1)) + f" : {iw}'d0"
    pad = n - 4
    pair = rng.choice(["{a[1:0], b[3:2]}", "{b[1:0], a[3:2]}", "{a[3], b[2:0]}"])
    return f"""module priority{n}(input {bits(n)} req, input [3:0] a, input [3:0] b, output {bits(iw)} idx, output any,
                   output {bits(n + k)} shl, output par, output [3:0] sel);
  assign any = {rng.choice(['|req', '~&req'])};
  assign idx = {chain};
  assign shl = (req << {k}) ^ ({{{pad}'b0, a}} >> {m});
  assign par = ^req && !(a == b) || {rng.choice(['&a', '&b', '|(a & b)'])};
  assign sel = req[0] ? ~{rng.choice('ab')} : (req[1] | req[2]) ? a ~^ b : {pair};
endmodule
"""


def minmax(rng: random.Random) -> str:
    """Unsigned comparisons both ways, min and max, and a sum of a replication and a concatenation."""
    w = rng.randint(3, 5)
    lo = rng.randint(1, 2)
    return f"""module minmax{w}(input {bits(w)} a, input {bits(w)} b, output {bits(w)} mn, output {bits(w)} mx,
                 output lt, output ge, output gt, output le, output ne, output {bits(2 * w)} pair);
  assign mn = a < b ? a : b;
  assign mx = a >= b ? a : b;
  assign lt = a < b;
  assign ge = a >= b;
  assign gt = {rng.choice(['a > b', 'b < a'])};
  assign le = a <= b;
  assign ne = a != b;
  assign pair = {{2{{a[{lo}:0]}}}} + {{b, 1'b{rng.randint(0, 1)}}};
endmodule
"""


def lfsr(rng: random.Random) -> str:
    """A loadable shift register with feedback taps and an all-zero escape."""
    n = rng.randint(5, 9)
    taps = sorted(rng.sample(range(n - 1), rng.randint(2, 3)), reverse=True)
    fb = " ^ ".join(f"sr[{t}]" for t in [n - 1, *taps])
    return f"""module lfsr{n}(input clk, input load, input {bits(n)} seed, output reg {bits(n)} sr, output bit_out);
  wire fb = {fb};
  assign bit_out = sr[{n - 1}];
  always @(posedge clk)
    if (load) sr <= seed;
    else sr <= {{sr[{n - 2}:0], fb | (sr == {n}'d0)}};
endmodule
"""


def fsm(rng: random.Random) -> str:
    """An overlapping serial pattern detector: its states (the longest pattern prefix seen) under drawn
    codes, the last state's arm as `default`, a registered hit."""
    pattern = rng.choice(["1011", "1101", "0110", "1001", "0010", "1100", "0111", "1010"])
    codes = rng.sample(range(4), 4)
    arms = []
    for s in range(4):
        nxt = []
        for x in "01":
            seen = pattern[:s] + x
            k = next(k for k in range(min(len(seen), 3), -1, -1) if seen.endswith(pattern[:k]))
            hit = seen == pattern
            if hit:  # the whole pattern: go back to its longest proper border
                k = next(k for k in range(3, -1, -1) if pattern.endswith(pattern[:k]))
            nxt.append((codes[k], hit))
        (c0, h0), (c1, h1) = nxt
        label = "default" if s == 3 else f"2'd{codes[s]}"
        if h0 or h1:
            hx, nx, ox = ("x", c1, c0) if h1 else ("!x", c0, c1)
            arms.append(f"""        {label}: begin
          if ({hx}) begin
            state <= 2'd{nx};
            hit <= 1'b1;
          end else
            state <= 2'd{ox};
        end""")
        else:
            arms.append(f"        {label}: state <= x ? 2'd{c1} : 2'd{c0};")
    default = arms.pop(3)
    rng.shuffle(arms)
    body = "\n".join([*arms, default])
    return f"""// detects the serial pattern {pattern} (overlapping)
module seq{pattern}(input clk, input rst, input x, output det, output [1:0] st);
  reg [1:0] state;
  reg hit;
  assign det = hit;
  assign st = state;
  always @(posedge clk) begin
    hit <= 1'b0;
    if (rst) begin
      state <= 2'd{codes[0]};
    end else begin
      case (state)
{body}
      endcase
    end
  end
endmodule
"""


def accum(rng: random.Random) -> str:
    """An accumulator with its carry registered as overflow, and a second always block with a sticky flag
    that keeps its value where no branch assigns it."""
    a, x = rng.randint(4, 6), rng.randint(3, 4)
    return f"""module accum{a}(input clk, input clr, input {bits(x)} x, input inv, output {bits(a)} y, output reg ovf, output sticky);
  reg {bits(a)} acc;
  reg [1:0] flags;
  wire {bits(a + 1)} nxt = acc + x;
  assign y = acc ^ {{{a}{{inv}}}};
  assign sticky = flags[1];
  always @(posedge clk) begin
    if (clr) begin
      acc <= {a}'d{rng.randint(0, 2 ** a - 1)};
      ovf <= 1'b0;
    end else begin
      acc <= nxt[{a - 1}:0];
      ovf <= nxt[{a}];
    end
  end
  always @(posedge clk) begin
    flags[0] <= ovf;
    if (clr) flags[1] <= 1'b0;
    else if (ovf) flags[1] <= 1'b1;
  end
endmodule
"""


def case_lvalues(rng: random.Random) -> str:
    """case items with several labels (one wider than the selector: it never matches), part-select and
    concatenated register targets, bits assigned on some paths only."""
    step, back = rng.randint(1, 3), rng.randint(1, 3)
    ops = rng.sample(range(4), 4)
    return f"""// case with multiple labels, part-select and concatenated register targets
module opreg(input clk, input [1:0] op, input [3:0] d, output reg [3:0] q, output reg [1:0] f, output [2:0] k);
  reg [2:0] cnt;
  assign k = cnt;
  always @(posedge clk) begin
    case (op)
      {ops[0]}, 3'd{rng.randint(4, 7)}: q <= d;
      2'b{ops[1]:02b}: begin q[3:2] <= d[1:0]; q[0] <= ~q[{rng.randint(0, 3)}]; end
      {ops[2]}: {{f, q[1:0]}} <= d + q;
    endcase
    if (op == 2'd{ops[3]}) cnt <= cnt - {back}; else if (!op[{rng.randint(0, 1)}]) cnt <= cnt + 3'd{step};
    if (cnt == {rng.randint(0, 7)}) f[0] <= 1'b1;
  end
endmodule
"""


def widths(rng: random.Random) -> str:
    """~ and << in a context wider than their operand, and a case whose items overlap (the first wins)."""
    a = rng.randint(2, 3)
    nw, k = a + rng.randint(1, 3), rng.randint(1, 3)
    sw = a + k + rng.randint(0, 2)
    both = rng.randint(1, 6)
    first = sorted({both, rng.choice([v for v in range(1, 7) if v != both])})
    second = sorted({both, rng.choice([v for v in range(1, 7) if v not in first])})
    third = rng.choice([v for v in range(0, 8) if v not in first + second])
    lab = lambda vs: ", ".join(f"3'd{v}" for v in vs)  # noqa: E731
    arms = [f"{lab(first)}: q <= b;", f"{lab(second)}: q <= ~b;"]
    if rng.random() < 0.5:
        arms.reverse()
    return f"""// Context widths of ~ and << (IEEE 1364-2005 5.4) and case priority (the first matching item wins)
module widths (
  input clk,
  input {bits(a)} a,
  input [3:0] b,
  input [2:0] s,
  output {bits(nw)} n,
  output {bits(sw)} sh,
  output reg [3:0] q
);
  assign n = ~a;
  assign sh = a << {k};
  always @(posedge clk)
    case (s)
      {arms[0]}
      {arms[1]}
      3'd{third}: q <= b + 4'd{rng.randint(1, 9)};
      default: q <= 4'd{rng.randint(0, 15)};
    endcase
endmodule
"""


DESIGNS = [("addsub", addsub), ("priority", priority), ("minmax", minmax), ("lfsr", lfsr), ("fsm", fsm),
           ("accum", accum), ("case-lvalues", case_lvalues), ("context-widths", widths)]


def cases(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [{"id": f"g{i + 1}-{name}", "input": {"verilog": make(rng)}} for i, (name, make) in enumerate(DESIGNS)]


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))

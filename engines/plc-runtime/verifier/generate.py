"""Hidden PLC cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. The scenarios of the fixed cases
they replace, each with its parameters drawn: names, literals, timer presets, scan times and input traces
(lengths and values), so that every release runs other programs on other traces, and each still decides the
rule it was written for: TP/TOF/TON timing and the first call, gated and doubly called timers, INT/TIME
arithmetic with wrap-around and the sign of MOD, CASE's first matching arm over overlapping labels, counters
stopping at the ends of INT, and programs the spec refuses (an undeclared name, a type error, an assignment
to an input). Expected traces come from the reference (expect.py)."""
from __future__ import annotations

import json
import random
import re
import sys
from typing import Any, Callable

from expect import expected

Case = tuple[str, int, list[dict[str, Any]]]  # program, scan time, input trace
NAMES = ["Alpha", "Bravo", "Delta", "Echo", "Kilo", "Lima", "Oscar", "Sierra", "Tango", "Victor", "Zulu"]


def ident(rng: random.Random, base: str) -> str:
    return f"{base}{rng.choice(NAMES)}"


def bools(rng: random.Random, name: str, n: int, keep: float = 0.4) -> list[dict[str, Any]]:
    """An input trace of one BOOL: runs of random length, and scans that name nothing (the value is kept)."""
    out, v = [], False
    while len(out) < n:
        v = not v
        for k in range(rng.randint(1, 5)):
            out.append({} if k and rng.random() < keep else {name: v})
    return out[:n]


def pulse(rng: random.Random) -> Case:
    """TP with its preset changed on the fly (to 0 too), an R_TRIG on its output, an F_TRIG on the trigger."""
    dt = rng.choice([5, 10, 20, 25])
    trig, width = ident(rng, "Trig"), ident(rng, "Width")
    w = dt * rng.randint(2, 5) + rng.randint(0, dt - 1)
    prog = f"""PROGRAM Pulse{rng.randint(1, 99)}
VAR_INPUT
  {trig} : BOOL;
  {width} : TIME := T#{w}ms;
END_VAR
VAR_OUTPUT
  Pulse : BOOL;
  PulseEt : TIME;
  Pulses : INT;
  Falls : INT;
END_VAR
VAR
  p : TP;
  r : R_TRIG;
  f : F_TRIG;
END_VAR
p(IN := {trig}, PT := {width});
Pulse := p.Q;
PulseEt := p.ET;
r(CLK := p.Q);
IF r.Q THEN Pulses := Pulses + 1; END_IF;
f(CLK := {trig});
IF f.Q THEN
  Falls := Falls + {rng.randint(1, 3)};
END_IF;
END_PROGRAM
"""
    n = rng.randint(18, 30)
    trace = bools(rng, trig, n)
    for k in rng.sample(range(3, n), 2):
        trace[k][width] = rng.choice([0, -dt, dt * rng.randint(1, 3) + rng.randint(0, dt - 1)])
    return prog, dt, trace


def off_delay(rng: random.Random) -> Case:
    """TOF and TON on one input, the TON's preset an expression of the TOF's."""
    dt = rng.choice([50, 100, 125, 250])
    heat, delay = ident(rng, "Heat"), ident(rng, "Delay")
    d = dt * rng.randint(2, 6)
    prog = f"""PROGRAM OffDelay
VAR_INPUT
  {heat} : BOOL;
  {delay} : TIME := T#{d // 1000}s{d % 1000}ms;
END_VAR
VAR_OUTPUT
  Fan : BOOL;
  FanEt : TIME;
  Hot : BOOL;
  HotEt : TIME;
END_VAR
VAR
  fanOff : TOF;
  hotOn : TON;
END_VAR
fanOff(IN := {heat}, PT := {delay});
Fan := fanOff.Q;
FanEt := fanOff.ET;
hotOn(IN := {heat}, PT := {delay} / {rng.randint(2, 4)} + T#{rng.randint(0, 3) * dt}ms);
Hot := hotOn.Q;
HotEt := hotOn.ET;
END_PROGRAM
"""
    n = rng.randint(20, 32)
    trace = bools(rng, heat, n, keep=0.6)
    trace[rng.randrange(n // 2, n)][delay] = dt * rng.randint(1, 8) + rng.choice([0, dt // 2])
    return prog, dt, trace


def lit(rng: random.Random, v: int) -> str:
    """An INT literal in one of the spec's spellings."""
    form = rng.randrange(4)
    if form == 0:
        return f"2#{v:b}"
    if form == 1:
        return f"16#{v:X}" if rng.random() < 0.5 else f"16#{v:x}"
    if form == 2 and v >= 1000:
        return f"{v // 1000}_{v % 1000:03d}"
    return f"8#{v:o}" if form == 3 else str(v)


def arith(rng: random.Random) -> Case:
    """INT arithmetic on input pairs of every sign combination (/ truncates, MOD takes the dividend's sign),
    by zero, at the ends of INT (wrap-around), with a CTU and a CTD driven by the same inputs."""
    a, b, tick = ident(rng, "A"), ident(rng, "B"), ident(rng, "Tick")
    prog = f"""PROGRAM Arith
VAR_INPUT
  {a} : INT;
  {b} : INT;
  {tick} : BOOL;
END_VAR
VAR_OUTPUT
  Sum : INT;
  Diff : INT;
  Prod : INT;
  Quot : INT;
  Rem : INT;
  Prec : INT;
  Up : INT;
  Down : INT;
  UpQ : BOOL;
  DownQ : BOOL;
  Span : TIME;
END_VAR
VAR
  cu : CTU;
  cd : CTD;
  mask : INT := {lit(rng, rng.randint(1, 255))};
END_VAR
Sum := {a} + {b};
Diff := {a} - {b};
Prod := {a} * {b};
Quot := {a} / {b};
Rem := {a} MOD {b};
Prec := -{a} + {rng.randint(2, 5)} * {b} - {lit(rng, rng.randint(5, 30))} MOD {rng.randint(2, 7)} + mask - {lit(rng, rng.randint(1000, 9999))} / {rng.randint(3, 13)};
cu(CU := {tick}, R := {a} = -1 AND {b} = -1, PV := {b});
Up := cu.CV;
UpQ := cu.Q;
cd(CD := {tick}, LD := {a} = 0 AND {b} = 0, PV := {a} - 1);
Down := cd.CV;
DownQ := cd.Q;
Span := T#{rng.randint(1, 5)}m_{rng.randint(1, 59)}s / {b} - T#{rng.randint(1, 9)}s{rng.randint(1, 999)}ms * {a} + T#1d - T#23h{rng.randint(1, 59)}m;
END_PROGRAM
"""
    pairs = []
    for sa, sb in [(1, 1), (-1, 1), (1, -1), (-1, -1)]:
        y = rng.randint(2, 9)
        x = y * rng.randint(0, 20) + rng.randint(1, y - 1)  # not a multiple: the remainder's sign shows
        pairs.append((sa * x, sb * y))
    pairs += [(rng.randint(-99, 99), 0), (32767 - rng.randint(0, 3), rng.randint(4, 9)), (-32768, -1),
              (rng.randint(200, 400), rng.randint(200, 400)), (-1, -1), (0, 0)]
    rng.shuffle(pairs)
    trace = [{a: x, b: y, tick: k % 2 == 1} if rng.random() < 0.8 else {a: x, b: y} for k, (x, y) in enumerate(pairs)]
    trace += [{tick: k % 2 == 0} if rng.random() < 0.8 else {} for k in range(rng.randint(4, 8))]
    return prog, 1000, trace


def gated(rng: random.Random) -> Case:
    """A TON called only under a condition (frozen otherwise), one called up to three times a scan, an R_TRIG
    called twice, and a CTU whose arguments read its own previous input."""
    dt = rng.choice([5, 10, 20])
    gate, go = ident(rng, "Gate"), ident(rng, "Go")
    prog = f"""PROGRAM GatedTimers
VAR_INPUT
  {gate} : BOOL;
  {go} : BOOL;
END_VAR
VAR_OUTPUT
  Q1 : BOOL;
  Et1 : TIME;
  Q2 : BOOL;
  Et2 : TIME;
  Edges : INT;
  Flips : INT;
END_VAR
VAR
  t1 : TON;
  t2 : TON;
  e : R_TRIG;
  flip : CTU;
END_VAR
IF {gate} THEN
  t1(IN := {go}, PT := T#{dt * rng.randint(2, 5)}ms);
END_IF;
Q1 := t1.Q;
Et1 := t1.ET;
t2(IN := {go}, PT := T#{dt * rng.randint(2, 4) + rng.randint(0, dt - 1)}ms);
IF NOT {gate} THEN
  t2(IN := FALSE);
  t2(IN := {go});
END_IF;
Q2 := t2.Q;
Et2 := t2.ET;
e(CLK := {go});
IF e.Q THEN Edges := Edges + 1; END_IF;
e();
IF e.Q THEN Edges := Edges + {rng.choice([10, 100])}; END_IF;
flip(CU := {go}, R := flip.CU AND NOT {go}, PV := {rng.randint(2, 6)});
Flips := flip.CV;
END_PROGRAM
"""
    n = rng.randint(16, 26)
    g, o = bools(rng, gate, n), bools(rng, go, n)
    return prog, dt, [{**x, **y} for x, y in zip(g, o)]


def mixcase(rng: random.Random, word: str) -> str:
    return rng.choice([word.lower(), word.upper(), word.capitalize()])


def sorter(rng: random.Random) -> Case:
    """CASE over overlapping labels and ranges (the first arm in source order wins), an empty arm, a range
    that matches nothing, ELSE; keywords and names in any case; precedence of mixed BOOL operators."""
    k = lambda w: mixcase(rng, w)  # noqa: E731
    code, flag = ident(rng, "Code"), ident(rng, "Flag")
    first = sorted(rng.sample(range(1, 12), 3))
    lo = rng.choice(first[:2])
    hi = lo + rng.randint(2, 5)
    neg = -rng.randint(2, 6)
    single = rng.randint(50, 200)
    empty = rng.choice([v for v in range(0, 20) if v not in first and not lo <= v <= hi])
    arms = [f"  {', '.join(map(str, first))}: LANE := {rng.randint(10, 19)};",
            f"  {lo}..{hi}: lane := {rng.randint(20, 29)};",
            f"  {neg}..-1, {single}: Lane := -1;",
            f"  {hi + 3}..{hi + 1}: Lane := 7;",  # lo > hi: matches nothing
            f"  {empty}: ;"]
    arms[2:] = rng.sample(arms[2:], 3)
    prog = f"""{k('program')} Sorter // keywords and identifiers in any case
{k('var_input')}
  {code} : {k("int")};
  {flag} : {k('bool')};
{k('end_var')}
{k('var_output')}
  Lane : INT;
  Odd : BOOL;
  Mix : BOOL;
  Level : INT;
END_VAR
VAR
  seen, other : BOOL;
  dwell : TIME := t#{rng.randint(1, 2)}h{rng.randint(0, 59)}m{rng.randint(0, 59)}s{rng.randint(0, 999)}ms;
END_VAR
{k('case')} {code.upper()} {k('of')}
{chr(10).join(arms)}
{k('else')}
  Lane := 99;
{k('end_case')};
Odd := {code.lower()} MOD 2 <> 0;
Mix := {flag} XOR Odd AND NOT seen OR other & {flag} = ({code} > {rng.randint(2, 6)});
IF {code} < 0 THEN
  Level := 0;
ELSIF {code} < {rng.randint(2, 4)} THEN
  Level := 1;
ELSIF {code} < {rng.randint(5, 8)} THEN
  Level := 2;
  IF {flag} THEN Level := 3; END_IF;
ELSE
  Level := 4;
END_IF;
seen := seen OR {flag};
other := dwell > T#1h AND (FALSE < TRUE);
END_PROGRAM
"""
    values = sorted({*first, *range(lo, hi + 1), neg, -1, single, empty, hi + 2, neg - 1, 0, 200 + single})
    rng.shuffle(values)
    return prog, rng.choice([1, 5, 10]), [{code: v, flag: rng.random() < 0.5} for v in values]


def first_scan(rng: random.Random) -> Case:
    """What the first call of each block sees: R_TRIG on an initially TRUE input, F_TRIG, TOF, a TP with a
    zero preset, a CTU with a preset from an input; initial values of inputs and outputs."""
    run, limit = ident(rng, "Run"), ident(rng, "Limit")
    prog = f"""PROGRAM FirstScan
VAR_INPUT
  {run} : BOOL := {rng.choice(['TRUE', 'FALSE'])};
  {limit} : INT := {rng.randint(1, 4)};
END_VAR
VAR_OUTPUT
  Rise : BOOL;
  Fall : BOOL;
  OffQ : BOOL;
  ZeroQ : BOOL;
  ZeroEt : TIME;
  Cnt : INT;
  CntQ : BOOL;
  Scans : INT := {rng.randint(-50, 500)};
END_VAR
VAR
  r : R_TRIG;
  f : F_TRIG;
  off : TOF;
  zero : TP;
  c : CTU;
  halt : F_TRIG;
END_VAR
r(CLK := {run});
Rise := r.Q;
halt(CLK := NOT {run});
f(CLK := halt.Q);
Fall := f.Q;
off(IN := NOT {run}, PT := T#{rng.randint(1, 4) * 10}ms);
OffQ := off.Q;
zero(IN := {run}, PT := T#0ms);
ZeroQ := zero.Q;
ZeroEt := zero.ET + T#{rng.randint(1, 9)}ms;
c(CU := {run}, PV := {limit});
Cnt := c.CV;
CntQ := c.Q;
Scans := Scans - 1;
END_PROGRAM
"""
    trace: list[dict[str, Any]] = [{} for _ in range(rng.randint(1, 2))]
    trace += bools(rng, run, rng.randint(8, 14))
    trace[rng.randrange(2, len(trace))][limit] = rng.randint(2, 6)
    return prog, 10, trace


def limits(rng: random.Random) -> Case:
    """A CTU toggled many times a scan until it passes 32767, a CTD loaded near -32768 and counted past it:
    both stop at the end of INT (spec section 5) instead of wrapping."""
    calls = 2 * rng.randint(100, 150)  # calls per scan: calls / 2 rising edges
    scans = -(-32767 // (calls // 2)) + rng.randint(2, 6)
    down_calls = rng.randint(3, 6)
    body = "c(CU := NOT c.CU);\n" * calls
    down = "d(CD := NOT d.CD);\n" * down_calls
    prog = f"""PROGRAM Limits
VAR_INPUT
  Load : BOOL;
END_VAR
VAR_OUTPUT
  Up : INT;
  UpQ : BOOL;
  Down : INT;
  DownQ : BOOL;
END_VAR
VAR
  c : CTU;
  d : CTD;
END_VAR
{body}Up := c.CV;
UpQ := c.Q;
c(PV := {rng.randint(32000, 32767)});
d(CD := NOT d.CD, LD := Load, PV := -{32768 - rng.randint(1, 4)});
{down}Down := d.CV;
DownQ := d.Q;
END_PROGRAM
"""
    return prog, rng.choice([1, 5, 10]), [{"Load": True}, {"Load": False}] + [{} for _ in range(scans)]


REFUSED_BODY = """IF {cond} THEN
  {out} := {val};
END_IF;
"""


def refused(rng: random.Random, why: str) -> Case:
    """A program the spec refuses, the fault placed in a branch that may never run: an undeclared name, a
    type error, or an assignment to a VAR_INPUT variable (spec sections 3, 4)."""
    x, lvl, out = ident(rng, "X"), ident(rng, "Level"), ident(rng, "Y")
    good = f"IF {x} THEN\n  {out} := {lvl} > {rng.randint(1, 99)};\nEND_IF;\n"
    bad = {
        "undeclared": [f"{out} := {ident(rng, 'Z')};", f"IF {ident(rng, 'Z')} THEN {out} := TRUE; END_IF;",
                       f"t(IN := {x}, PT := {ident(rng, 'Z')});",
                       f"CASE {ident(rng, 'Z')} OF 1: {out} := TRUE; END_CASE;"],
        "type": [f"{out} := {lvl};", f"{out} := t.ET;", "Shown := Shown + " + x + ";",
                 f"IF {lvl} THEN {out} := TRUE; END_IF;", f"CASE {x} OF 1: {out} := TRUE; END_CASE;",
                 f"t(IN := {lvl}, PT := T#1s);",
                 "Shown := T#5s MOD T#2s;", f"{out} := {x} AND {lvl} > T#1s;"],
        "input": [f"{lvl} := {rng.randint(0, 100)};", f"{x} := NOT {x};", f"{lvl} := -{lvl};"],
    }[why]
    fault = rng.choice(bad)
    where = rng.choice(["top", "else", "case"])
    if where == "else":
        fault = f"IF {x} THEN\n  ;\nELSE\n  {fault}\nEND_IF;"
    elif where == "case":
        fault = f"CASE {lvl} OF\n  {rng.randint(1000, 2000)}: {fault}\nEND_CASE;"
    stmts = [good, fault + "\n"]
    rng.shuffle(stmts)
    prog = f"""PROGRAM Refused{rng.randint(1, 99)}
VAR_INPUT
  {lvl} : INT;
  {x} : BOOL;
END_VAR
VAR_OUTPUT
  {out} : BOOL;
  Shown : INT;
END_VAR
VAR
  t : TON;
END_VAR
t(IN := {x}, PT := T#{rng.randint(1, 9)}s);
{''.join(stmts)}Shown := {lvl};
END_PROGRAM
"""
    return prog, 10, [{lvl: rng.randint(-50, 150), x: rng.random() < 0.5} for _ in range(rng.randint(1, 4))]


SCENARIOS = [("pulse", pulse), ("off-delay", off_delay), ("arith", arith), ("gated", gated), ("sorter", sorter),
             ("first-scan", first_scan), ("limits", limits)]
# refused programs: an undeclared name, a type error, and three assignments to an input (spec section 3: the
# rule assign-to-input decides a whole case, so it takes three of them to decide three items)
REFUSALS = ["undeclared", "type", "input", "input", "input"]


# ---- rule probes: a few lines spliced into the scenarios ----------------------------------------------------
# The engine is scored per case and passes at 10 of 12 (engine.toml [score]): a rule decided by one or two cases
# could be broken by a passing candidate. So each rule of engine.toml [[rules]] gets a probe of its own in two
# or three more scenarios, drawn from a stream of its own (the scenarios' own draws stay as they were); each
# probe declares its own variables and writes outputs of its own.
Probe = tuple[str, str, str]  # VAR_OUTPUT lines, VAR lines, statements


def ctd_floor(rng: random.Random, n: int) -> Probe:
    """A CTD loaded one or two counts above -32768 on the first scan, then counted down by a CD that is TRUE
    for two scans in four (so a rising edge, not a level, counts): it must stop at -32768 (spec section 5), not
    wrap to 32767."""
    return ("  Floor : INT;\n  FloorQ : BOOL;\n", "  dd : CTD;\n  primed : BOOL;\n  nn : INT;\n",
            f"dd(CD := nn MOD 4 >= 2, LD := NOT primed, PV := -{32768 - rng.randint(1, 2)});\n"
            "nn := nn + 1;\nprimed := TRUE;\nFloor := dd.CV;\nFloorQ := dd.Q;\n")


def ctu_ceiling(rng: random.Random, n: int) -> Probe:
    """A CTU toggled 2E times a scan (E rising edges), E such that it reaches 32767 a few scans before the
    trace's n scans end: it must stop there, not wrap to -32768."""
    edges = -(-32767 // (n - rng.randint(3, 6)))
    return ("  Ceiling : INT;\n", "  uu : CTU;\n", "uu(CU := NOT uu.CU);\n" * (2 * edges) + "Ceiling := uu.CV;\n")


def case_overlap(counter: str) -> Callable[[random.Random, int], Probe]:
    """A CASE over a counter that starts at 0, its first two arms both matching 0: the first in source order
    runs (spec section 5)."""
    def probe(rng: random.Random, n: int) -> Probe:
        return ("  Stage : INT;\n", "",
                f"CASE {counter} OF\n  0..{rng.randint(1, 3)}: Stage := {rng.randint(10, 19)};\n"
                f"  {-rng.randint(0, 5)}..{rng.randint(5, 99)}: Stage := {rng.randint(20, 29)};\n"
                f"ELSE\n  Stage := -1;\nEND_CASE;\n")
    return probe


def mod_negative(dividend: str) -> Callable[[random.Random, int], Probe]:
    """`dividend - c` MOD k for a dividend that starts at or below c: the remainder takes the dividend's sign
    (spec section 4), -7 MOD 2 = -1."""
    def probe(rng: random.Random, n: int) -> Probe:
        k = rng.randint(2, 6)
        c = k * rng.randint(1, 3) + rng.randint(1, k - 1)
        return "  Rest : INT;\n", "", f"Rest := ({dividend} - {c}) MOD {k};\n"
    return probe


def timers(rng: random.Random, n: int) -> Probe:
    """A TOF and a TP on a signal that flips every scan (spec section 5): the TOF, its preset 1 ms, times from
    each fall (its ET 0 there, its Q still TRUE); the TP, its preset hours, runs on through the flips (its ET
    counts while IN is FALSE); and XOR of a timer's output with the signal."""
    return ("  HoldEt : TIME;\n  PulseEt2 : TIME;\n  Either : BOOL;\n",
            "  hold : TOF;\n  once : TP;\n  tk : BOOL;\n",
            "tk := NOT tk;\nhold(IN := tk, PT := T#1ms);\n"
            f"once(IN := tk, PT := T#{rng.randint(2, 9)}h);\n"
            "HoldEt := hold.ET;\nPulseEt2 := once.ET;\nEither := once.Q XOR tk;\n")


MIN_SCANS = 48  # a scenario hosting ctu_ceiling runs at least this many scans (so E stays near 700)
PROBES: dict[str, list[Callable[[random.Random, int], Probe]]] = {
    "pulse": [ctd_floor, ctu_ceiling, case_overlap("Pulses")],
    "off-delay": [ctd_floor, ctu_ceiling],
    "arith": [case_overlap("Up"), timers],
    "gated": [ctd_floor, mod_negative("Edges"), timers],
    "sorter": [mod_negative("Level"), timers],
    "first-scan": [case_overlap("Cnt"), mod_negative("Cnt")],
}


def spliced(prog: str, probes: list[Probe]) -> str:
    """The program with each probe's outputs, variables and statements added (its VAR_OUTPUT, its VAR block,
    before END_PROGRAM; keywords in any letter case)."""
    for outs, local, body in probes:
        prog = re.sub(r"(?im)^(var_output)\n", lambda m: m.group(1) + "\n" + outs, prog, count=1)
        if local:
            prog = re.sub(r"(?m)^VAR\n", lambda m: "VAR\n" + local, prog, count=1)
        prog = re.sub(r"(?m)^END_PROGRAM\n", lambda m: body + "END_PROGRAM\n", prog, count=1)
    return prog


def probed(name: str, case: Case, seed: int) -> Case:
    prog, dt, trace = case
    rng = random.Random(f"plc-rules:{seed}:{name}")
    makers = PROBES.get(name, [])
    if ctu_ceiling in makers and len(trace) < MIN_SCANS:
        trace = trace + [{} for _ in range(MIN_SCANS - len(trace))]  # inputs keep their values
    return spliced(prog, [make(rng, len(trace)) for make in makers]), dt, trace


def cases(seed: int) -> list[dict[str, Any]]:
    """Twelve cases, each one scored item (engine.toml [score])."""
    rng = random.Random(seed)
    out = []
    for name, make in SCENARIOS:
        prog, dt, trace = probed(name, make(rng), seed)
        out.append((name, {"program": prog, "scan_time_ms": dt, "inputs": trace}, False))
    for k, why in enumerate(REFUSALS):
        prog, dt, trace = refused(rng, why)
        name = f"refused-{why}" + (f"{REFUSALS[:k].count(why) + 1}" if REFUSALS.count(why) > 1 else "")
        out.append((name, {"program": prog, "scan_time_ms": dt, "inputs": trace}, True))
    result = []
    for i, (name, inp, refuse) in enumerate(out):
        exp = expected(inp)
        if bool(exp.get("error")) != refuse:  # the scenario must decide what it was drawn for
            raise SystemExit(f"{name}: the reference {'accepts' if refuse else 'refuses'} it: {exp}")
        result.append({"id": f"g{i + 1}-{name}", "input": inp, "expected": exp})
    return result


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))

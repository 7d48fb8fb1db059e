"""Hidden SPICE cases from a seed: stdin {"seed": n} -> stdout {"cases": [...]}. Ten circuit templates, eight
of them one per kind of the fixed cases they replace (a diode clamp swept in .dc, an RLC step, a rectifier, the
AC gain of a diode-biased divider, series diodes at .op, a damped sine into an LC filter, an RC ladder swept
linearly, an .op of sources that only have time functions), and two more that let the engine be scored per
analysis at 9 of 10 (engine.toml [score]) while every rule stays decided by at least two analyses (a .dc sweep
and an AC gain whose operating point come from time functions, each with a resistor in mils), each drawn afresh: component values, scale factors and
units, node and element names, letter case, line order, sweep and time grids, the ladder's length. Every rule the
spec states keeps two or more cases that depend on it: AC phases in degrees, current sources driving from n+ to n-, DC values
taken from time functions, MIL before M. The expected waveforms come from ngspice (expect.py)."""
from __future__ import annotations

import json
import math
import random
import sys
from decimal import Decimal
from typing import Any

E12 = (10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82)
SUFFIX = {9: "G", 6: "Meg", 3: "k", 0: "", -3: "m", -6: "u", -9: "n", -12: "p", -15: "f"}
SCALE_LETTERS = "tgkmunpf"


def dec(x: Decimal) -> str:
    """A Decimal as plain text, no exponent, no trailing zeros: the same on every machine."""
    s = format(x.normalize(), "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


def num(rng: random.Random, value: Decimal, unit: str = "") -> str:
    """`value` as SPICE writes numbers: with a scale factor leaving a mantissa of 0.1 to 1000, in a random
    letter case, or in exponent form, or plain; sometimes followed by a unit that the parser must ignore (never
    a bare unit that starts like a scale factor: `10F` is ten femto)."""
    if value == 0:
        return "0"
    fits = [k for k in SUFFIX if Decimal("0.1") <= abs(value).scaleb(-k) < 1000]
    style = rng.random()
    if style < 0.15:
        e = value.adjusted()
        return f"{dec(value.scaleb(-e))}e{e}"  # no unit after an exponent
    if style < 0.25 and Decimal("0.001") <= abs(value) < 10 ** 6:
        text = dec(value)
    else:
        k = rng.choice(fits)
        text = dec(value.scaleb(-k)) + rng.choice([SUFFIX[k], SUFFIX[k].lower(), SUFFIX[k].upper()])
    if unit and rng.random() < 0.35 and (text[-1].isalpha() or unit[0].lower() not in SCALE_LETTERS):
        text += rng.choice([unit, unit.lower()])
    return text


def e12(rng: random.Random, lo: int, hi: int) -> Decimal:
    """An E12 value in [10^lo, 10^hi)."""
    return Decimal(rng.choice(E12)).scaleb(rng.randint(lo, hi - 1) - 1)


def q(x: float, places: int = 2) -> Decimal:
    """A drawn float as a short decimal (rounded once, by Decimal, from its exact binary value)."""
    return Decimal(x).quantize(Decimal(1).scaleb(-places))


def two(x: float) -> Decimal:
    """x to two significant digits."""
    e = math.floor(math.log10(abs(x)))
    return Decimal(round(x / 10 ** e * 10)).scaleb(e - 1)


class Names:
    """Node and element names: random tokens in a random letter case (the spec makes both case-insensitive)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, options: list[str]) -> str:
        for name in options:
            if name.lower() not in self.used:
                self.used.add(name.lower())
                return name
        raise RuntimeError("no free name")

    def node(self, hint: str) -> str:
        r = self.rng
        name = self._fresh([r.choice([hint, f"{hint}{r.randint(1, 9)}", f"n{r.randint(1, 99)}",
                                      str(r.randint(1, 99))]) for _ in range(50)])
        return name.upper() if r.random() < 0.3 else name

    def elem(self, kind: str) -> str:
        r = self.rng
        name = self._fresh([kind + r.choice(["", "", "x", "s", "b", "load"]) + str(r.randint(1, 9)) for _ in range(50)])
        return name.lower() if r.random() < 0.3 else name


def netlist(rng: random.Random, title: str, lines: list[str], card: str) -> str:
    """Title first, then the element and model lines in a random order, maybe a comment and a blank line,
    the analysis card somewhere among them, and usually .end."""
    body = list(lines)
    rng.shuffle(body)
    if rng.random() < 0.5:
        body.insert(rng.randrange(len(body) + 1), f"* {rng.choice(['drawn', 'hidden', 'note'])} {rng.randint(1, 999)}")
    if rng.random() < 0.5:
        body.insert(rng.randrange(len(body) + 1), "")
    body.insert(rng.randrange(len(body) + 1), card)
    return "\n".join([title, *body, *([".end"] if rng.random() < 0.8 else [])]) + "\n"


def continued(rng: random.Random, line: str) -> str:
    """The line split once onto a `+` continuation line."""
    words = line.split(" ")
    cut = rng.randint(2, len(words) - 1)
    return " ".join(words[:cut]) + "\n+ " + " ".join(words[cut:])


def model(rng: random.Random, name: str, is_lo: int, is_hi: int, n_lo: float, n_hi: float) -> str:
    parts = [f"IS={num(rng, e12(rng, is_lo, is_hi))}"]
    if rng.random() < 0.85:
        parts.append(f"N={dec(q(rng.uniform(n_lo, n_hi)))}")
    rng.shuffle(parts)
    return f".model {name} D({' '.join(parts)})"


def phase(rng: random.Random) -> Decimal:
    """An AC phase in degrees, far enough from 0 and 180 that radians would differ visibly."""
    return Decimal(rng.choice([-1, 1]) * rng.randint(15, 165))


# ---- the templates: each returns (title, lines, card, probes) ------------------------------------------


def dc_clamp(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """A diode clamp swept in .dc, a current source injecting into the output (from n+ = 0 to n- = out)."""
    vin, out, v, i, m = nm.node("in"), nm.node("out"), nm.elem("V"), nm.elem("I"), f"dm{rng.randint(1, 9)}"
    lo, hi = -rng.randint(1, 3), rng.randint(2, 4)
    step = rng.choice([Decimal("0.25"), Decimal("0.2"), Decimal("0.1")])
    lines = [f"{v} {vin} 0 DC 0", f"{nm.elem('R')} {vin} {out} {num(rng, e12(rng, 2, 4), 'ohm')}",
             f"{nm.elem('D')} {out} 0 {m}", f"{i} 0 {out} DC {num(rng, two(rng.uniform(0.3e-3, 2e-3)), 'A')}",
             f"{nm.elem('R')} {out} 0 {num(rng, e12(rng, 3, 5), 'ohm')}", model(rng, m, -15, -12, 1.0, 1.8)]
    return "Diode clamp sweep", lines, f".dc {v} {lo} {hi} {step}", [f"v({out})", f"i({v})"]


def tran_rlc(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """An underdamped RLC step: PULSE source, series R-L into C with a load."""
    vin, a, out, v, lname = nm.node("in"), nm.node("a"), nm.node("out"), nm.elem("V"), nm.elem("L")
    tstep = rng.choice([Decimal("0.02"), Decimal("0.05"), Decimal("0.1")])  # microseconds
    period = float(tstep) * rng.uniform(30, 60)  # of the ringing, microseconds
    ind = e12(rng, -6, -4)
    cap = two((period * 1e-6 / (2 * math.pi)) ** 2 / float(ind))
    amp, k = q(rng.uniform(1, 8), 1), lambda n: num(rng, tstep * n * Decimal("1e-6"), "s")
    pulse = f"PULSE(0 {amp} {k(rng.randint(2, 6))} {k(1)} {k(1)} {k(rng.randint(50, 70))} {k(rng.randint(120, 140))})"
    lines = [f"{v} {vin} 0 {pulse}", f"{nm.elem('R')} {vin} {a} {num(rng, two(rng.uniform(5, 40)), 'ohm')}",
             f"{lname} {a} {out} {num(rng, ind, 'H')}", f"{nm.elem('C')} {out} 0 {num(rng, cap, 'F')}",
             f"{nm.elem('R')} {out} 0 {num(rng, e12(rng, 2, 4), 'ohm')}"]
    card = f".tran {num(rng, tstep * Decimal('1e-6'))} {num(rng, tstep * rng.randint(200, 260) * Decimal('1e-6'))}"
    return "Underdamped RLC step", lines, card, [f"v({out})", f"i({lname})", f"i({v})"]


def tran_rectifier(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """A half-wave rectifier with a reservoir capacitor, driven by a sine."""
    vin, out, v, m = nm.node("in"), nm.node("out"), nm.elem("V"), f"dr{rng.randint(1, 9)}"
    freq = rng.choice([Decimal(500), Decimal(1000), Decimal(2000)])
    period = 1 / freq
    lines = [f"{v} {vin} 0 SIN(0 {q(rng.uniform(3, 8), 1)} {num(rng, freq, 'Hz')})", f"{nm.elem('D')} {vin} {out} {m}",
             f"{nm.elem('C')} {out} 0 {num(rng, two(rng.uniform(1, 4) * 1e-3 / float(freq)), 'F')}",
             f"{nm.elem('R')} {out} 0 {num(rng, e12(rng, 3, 4), 'ohm')}", model(rng, m, -10, -8, 1.5, 2.0)]
    card = f".tran {num(rng, period / 100, 's')} {num(rng, period * rng.randint(2, 3), 's')}"
    return "Half-wave rectifier", lines, card, [f"v({out})", f"i({v})"]


def ac_diode_bias(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """The small-signal gain of a diode-biased divider: a voltage and a current source, both with AC
    phasors at phases in degrees; the current source's AC drives from 0 into node b."""
    vin, a, b, v, m = nm.node("in"), nm.node("a"), nm.node("b"), nm.elem("V"), f"dm{rng.randint(1, 9)}"
    vsrc = f"{v} {vin} 0 DC {q(rng.uniform(1, 4), 1)} AC {q(rng.uniform(0.5, 2), 1)} {phase(rng)}"
    if rng.random() < 0.5:
        vsrc = f"{v} {vin} 0 AC {q(rng.uniform(0.5, 2), 1)} {phase(rng)} DC {q(rng.uniform(1, 4), 1)}"
    isrc = f"{nm.elem('I')} 0 {b} DC 0 AC {num(rng, two(rng.uniform(0.1e-3, 0.5e-3)), 'A')}"
    if rng.random() < 0.5:
        isrc += f" {phase(rng)}"
    lines = [vsrc, f"{nm.elem('R')} {vin} {a} {num(rng, e12(rng, 3, 4), 'ohm')}", f"{nm.elem('D')} {a} 0 {m}",
             f"{nm.elem('C')} {a} {b} {num(rng, e12(rng, -7, -5), 'F')}",
             f"{nm.elem('R')} {b} 0 {num(rng, e12(rng, 2, 4), 'ohm')}", isrc, model(rng, m, -15, -13, 1.0, 1.5)]
    f1 = Decimal(rng.choice([10, 20, 50]))  # whole decades: ngspice spreads a partial one over the range
    card = f".ac dec {rng.randint(5, 10)} {num(rng, f1, 'Hz')} {num(rng, f1 * 10 ** rng.randint(4, 5), 'Hz')}"
    return "Small-signal gain of a biased diode divider", lines, card, [f"v({a})", f"v({b})", f"i({v})"]


def op_diodes(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """Two diodes in series at .op, a current source pulling current out of the top node."""
    vcc, a, b, v, m = nm.node("vcc"), nm.node("a"), nm.node("b"), nm.elem("V"), f"dx{rng.randint(1, 9)}"
    lines = [f"{v} {vcc} 0 {q(rng.uniform(3, 12), 1)}", f"{nm.elem('R')} {vcc} {a} {num(rng, e12(rng, 3, 4), 'ohm')}",
             f"{nm.elem('D')} {a} {b} {m}", f"{nm.elem('D')} {b} 0 {m}",
             f"{nm.elem('R')} {b} 0 {num(rng, e12(rng, 3, 5), 'ohm')}",
             f"{nm.elem('I')} {a} 0 DC {num(rng, two(rng.uniform(0.1e-3, 0.8e-3)), 'A')}",
             f"{nm.elem('R')} {a} 0 {num(rng, e12(rng, 4, 5), 'ohm')}", model(rng, m, -14, -11, 1.0, 1.6)]
    return "Two diodes in series with a current source", lines, ".op", [f"v({a})", f"v({b})", f"i({v})"]


def tran_lc_sin(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """A delayed, damped sine and a current pulse into an LC filter with a load; one line continued."""
    s, a, out, v, lname = nm.node("s"), nm.node("a"), nm.node("out"), nm.elem("V"), nm.elem("L")
    tstep = rng.choice([Decimal("0.25"), Decimal("0.5")])  # microseconds
    us = lambda n: num(rng, tstep * n * Decimal("1e-6"), "s")  # noqa: E731
    freq = two(1e6 / (float(tstep) * rng.uniform(30, 50)))
    sine = f"SIN({q(rng.uniform(-1, 2), 1)} {q(rng.uniform(1, 3), 1)} {num(rng, freq, 'Hz')} {us(rng.randint(10, 30))} " \
           f"{rng.randint(2, 8) * 1000})"
    pulse = f"PULSE(0 {num(rng, two(rng.uniform(5e-3, 30e-3)), 'A')} {us(rng.randint(40, 80))} {us(2)} {us(2)} " \
            f"{us(rng.randint(30, 50))} {us(rng.randint(120, 160))})"
    lines = [f"{v} {s} 0 {sine}", continued(rng, f"{nm.elem('R')} {s} {a} {num(rng, two(rng.uniform(3, 20)), 'ohm')}"),
             f"{lname} {a} {out} {num(rng, e12(rng, -5, -3), 'H')}",
             f"{nm.elem('C')} {out} 0 {num(rng, e12(rng, -7, -6), 'F')}",
             f"{nm.elem('R')} {out} 0 {num(rng, two(rng.uniform(20, 100)), 'ohm')}", f"{nm.elem('I')} {out} 0 {pulse}"]
    card = f".tran {num(rng, tstep * Decimal('1e-6'))} {us(rng.randint(200, 260))}"
    return "Damped sine and current pulse into an LC filter", lines, card, [f"v({out})", f"i({lname})", f"v({s},{a})"]


def ac_ladder(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """An RC ladder of 2 to 4 sections swept linearly in frequency, its source at a phase in degrees."""
    vin, v = nm.node("in"), nm.elem("V")
    nodes = [vin] + [nm.node("n") for _ in range(rng.randint(2, 4))]
    r, c = e12(rng, 2, 4), e12(rng, -9, -7)
    lines = [f"{v} {vin} 0 AC {q(rng.uniform(0.5, 3), 1)} {phase(rng)}"]
    for p, n in zip(nodes, nodes[1:]):
        lines += [f"{nm.elem('R')} {p} {n} {num(rng, r, 'ohm')}", f"{nm.elem('C')} {n} 0 {num(rng, c, 'F')}"]
    corner = 1 / (2 * math.pi * float(r) * float(c))
    f1 = two(corner * rng.uniform(0.05, 0.3))
    npts = rng.randint(15, 30)
    card = f".ac lin {npts} {num(rng, f1, 'Hz')} {num(rng, f1 * rng.randint(20, 60), 'Hz')}"
    return "RC ladder, linear frequency sweep", lines, card, [f"v({nodes[-1]})", f"v({nodes[1]},{nodes[2]})"]


def op_time_functions(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """.op of a PULSE voltage source and a SIN current source without DC values (their values at t = 0
    count), one resistor given in mils (25.4e-6 each, not milli)."""
    vin, a, v = nm.node("in"), nm.node("a"), nm.elem("V")
    v1 = q(rng.uniform(1, 4), 1)
    pulse = f"PULSE({v1} {v1 + q(rng.uniform(1, 4), 1)} 1m 1u 1u 1m 3m)"
    ohms = e12(rng, 3, 4)
    mils = (ohms * rng.choice([Decimal("0.5"), 1, 2]) / Decimal("25.4e-6")).quantize(Decimal(1000))
    lines = [f"{v} {vin} 0 {pulse}", f"{nm.elem('R')} {vin} {a} {num(rng, ohms, 'ohm')}",
             f"{nm.elem('R')} {a} 0 {mils}{rng.choice(['mil', 'MIL', 'Mil'])}",
             f"{nm.elem('I')} {a} 0 SIN({num(rng, two(rng.uniform(0.2e-3, 1e-3)))} 1m 1k)"]
    return "Sources without a DC value and a resistor in mils", lines, ".op", [f"v({a})", f"i({v})"]


def dc_time_sources(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """A .dc sweep of a voltage source into a divider with a resistor in mils, loaded by a current source and
    offset by a second voltage source that only have time functions (their values at t = 0 count in .dc)."""
    vin, a, b, v, vb = nm.node("in"), nm.node("a"), nm.node("b"), nm.elem("V"), nm.elem("V")
    ohms = e12(rng, 3, 4)
    mils = (ohms * rng.choice([Decimal("0.5"), 1, 2]) / Decimal("25.4e-6")).quantize(Decimal(1000))
    v1 = q(rng.uniform(0.5, 2), 1)
    lines = [f"{v} {vin} 0 DC 0", f"{nm.elem('R')} {vin} {a} {num(rng, ohms, 'ohm')}",
             f"{nm.elem('R')} {a} {b} {mils}{rng.choice(['mil', 'MIL', 'Mil'])}",
             f"{vb} {b} 0 PULSE({v1} {v1 + q(rng.uniform(1, 3), 1)} 1m 1u 1u 1m 3m)",
             f"{nm.elem('I')} 0 {a} SIN({num(rng, two(rng.uniform(0.2e-3, 1e-3)))} 1m 1k)",
             f"{nm.elem('R')} {a} 0 {num(rng, e12(rng, 3, 5), 'ohm')}"]
    lo, hi = -rng.randint(1, 4), rng.randint(2, 6)
    card = f".dc {v} {lo} {hi} {rng.choice(['0.5', '0.25', '1'])}"
    return "Divider in mils swept in .dc, sources without a DC value", lines, card, [f"v({a})", f"i({v})", f"i({vb})"]


def ac_time_bias(rng: random.Random, nm: Names) -> tuple[str, list[str], str, list[str]]:
    """The small-signal gain of a diode biased by a source that only has a PULSE (its value at t = 0 sets the
    operating point) through a resistor in mils; the signal enters through a capacitor at a phase in degrees."""
    vb, s, a, out, v, m = nm.node("vb"), nm.node("s"), nm.node("a"), nm.node("out"), nm.elem("V"), f"dq{rng.randint(1, 9)}"
    v1 = q(rng.uniform(1.5, 4), 1)
    ohms = e12(rng, 3, 4)
    mils = (ohms * rng.choice([Decimal("0.5"), 1, 2]) / Decimal("25.4e-6")).quantize(Decimal(1000))
    lines = [f"{nm.elem('V')} {vb} 0 PULSE({v1} {v1 + 1} 1m 1u 1u 1m 3m)",
             f"{nm.elem('R')} {vb} {a} {mils}{rng.choice(['mil', 'MIL', 'Mil'])}",
             f"{nm.elem('D')} {a} 0 {m}", f"{v} {s} 0 AC {q(rng.uniform(0.5, 2), 1)} {phase(rng)}",
             f"{nm.elem('C')} {s} {a} {num(rng, e12(rng, -7, -5), 'F')}",
             f"{nm.elem('R')} {a} {out} {num(rng, e12(rng, 2, 4), 'ohm')}",
             f"{nm.elem('C')} {out} 0 {num(rng, e12(rng, -8, -6), 'F')}", model(rng, m, -15, -13, 1.0, 1.5)]
    f1 = Decimal(rng.choice([10, 20, 50]))
    card = f".ac dec {rng.randint(5, 10)} {num(rng, f1, 'Hz')} {num(rng, f1 * 10 ** rng.randint(4, 5), 'Hz')}"
    return "Diode biased by a time function, AC gain", lines, card, [f"v({a})", f"v({out})", f"i({v})"]


TEMPLATES = (dc_clamp, tran_rlc, tran_rectifier, ac_diode_bias, op_diodes, tran_lc_sin, ac_ladder, op_time_functions,
             dc_time_sources, ac_time_bias)


def cases(seed: int) -> list[dict[str, Any]]:
    """One case per template; each is one scored item (engine.toml [score]): its analysis."""
    out = []
    for k, template in enumerate(TEMPLATES):
        rng = random.Random(f"{seed}:{template.__name__}")
        title, lines, card, probes = template(rng, Names(rng))
        out.append({"id": f"h{k + 1}-{template.__name__.replace('_', '-')}", "items": [card.split()[0][1:].lower()],
                    "input": {"netlist": netlist(rng, title, lines, card), "probes": probes}})
    return out


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))

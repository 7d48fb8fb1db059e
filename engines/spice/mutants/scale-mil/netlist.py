"""Parsing the Berkeley-SPICE netlist subset of spec.md into plain element records and one analysis."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

SCALE = (("meg", 1e6), ("t", 1e12), ("g", 1e9), ("k", 1e3), ("m", 1e-3), ("mil", 25.4e-6), ("u", 1e-6),
         ("n", 1e-9), ("p", 1e-12), ("f", 1e-15))
_NUM = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z]*)$")


class NetlistError(ValueError):
    """Input outside the subset: reported as {"error": ...}."""


def number(tok: str) -> float:
    """A SPICE number: mantissa, optional exponent, optional scale factor, trailing unit letters ignored."""
    m = _NUM.match(tok.lower())
    if not m:
        raise NetlistError(f"not a number: {tok!r}")
    value = float(m.group(1))
    for suffix, factor in SCALE:
        if m.group(2).startswith(suffix):
            return value * factor
    return value


def is_number(tok: str) -> bool:
    return _NUM.match(tok.lower()) is not None


@dataclass
class Source:
    """An independent V or I source: DC value, AC phasor, optional PULSE or SIN time function."""
    name: str
    kind: str  # "v" or "i"
    np: str
    nm: str
    dc: float | None = None
    ac_mag: float = 0.0
    ac_phase: float = 0.0  # degrees
    func: str | None = None  # "pulse" | "sin"
    params: list[float] = field(default_factory=list)

    def value(self, t: float) -> float:
        """The transient value at time t (the DC value when there is no time function)."""
        if self.func == "pulse":
            v1, v2, td, tr, tf, pw, per = self.params
            if t < td:
                return v1
            tau = (t - td) % per if per > 0 else t - td
            if tau < tr:
                return v1 + (v2 - v1) * tau / tr
            if tau < tr + pw:
                return v2
            if tau < tr + pw + tf:
                return v2 + (v1 - v2) * (tau - tr - pw) / tf
            return v1
        if self.func == "sin":
            vo, va, freq, td, theta = self.params
            if t < td:
                return vo
            return vo + va * math.exp(-(t - td) * theta) * math.sin(2 * math.pi * freq * (t - td))
        return self.dc or 0.0

    def dc_value(self) -> float:
        """The .op/.dc value: the DC value when given, else the time function at t = 0."""
        return self.dc if self.dc is not None else self.value(0.0)

    def breakpoints(self, tstop: float) -> list[float]:
        """Times where the waveform's slope jumps (PULSE corners, SIN start)."""
        if self.func == "sin":
            return [self.params[3]] if 0 < self.params[3] < tstop else []
        if self.func != "pulse":
            return []
        _, _, td, tr, tf, pw, per = self.params
        out, start = [], td
        while start < tstop:
            out += [start + d for d in (0.0, tr, tr + pw, tr + pw + tf) if start + d < tstop]
            if per <= 0:
                break
            start += per
        return [t for t in out if t > 0]


@dataclass
class Element:
    name: str
    kind: str  # "r" | "c" | "l" | "d"
    np: str
    nm: str
    value: float = 0.0
    model: str = ""


@dataclass
class Circuit:
    elements: list[Element]
    sources: list[Source]
    models: dict[str, dict[str, float]]
    # ("op", []) | ("dc", [src, start, stop, step]) | ("tran", [tstep, tstop]) | ("ac", [kind, n, f1, f2])
    analysis: tuple[str, list]


def logical_lines(text: str) -> list[list[str]]:
    """Lines after the title, comments dropped, '+' continuations joined, split into lower-case tokens."""
    lines: list[str] = []
    for raw in text.splitlines()[1:]:
        s = raw.strip()
        if not s or s.startswith("*"):
            continue
        if s.startswith("+"):
            if not lines:
                raise NetlistError("a continuation line '+' with nothing to continue")
            lines[-1] += " " + s[1:]
        else:
            lines.append(s)
    return [re.sub(r"[(),]", " ", ln.lower()).replace("=", " = ").split() for ln in lines]


def parse_source(tok: list[str]) -> Source:
    if len(tok) < 3:
        raise NetlistError(f"{tok[0]}: needs two nodes")
    src = Source(tok[0], tok[0][0], tok[1], tok[2])
    rest, i = tok[3:], 0
    while i < len(rest):
        t = rest[i]
        if t == "dc":
            src.dc, i = number(rest[i + 1]), i + 2
        elif t == "ac":
            src.ac_mag, i = number(rest[i + 1]), i + 2
            if i < len(rest) and is_number(rest[i]):
                src.ac_phase, i = number(rest[i]), i + 1
        elif t in ("pulse", "sin"):
            j = i + 1
            while j < len(rest) and is_number(rest[j]):
                j += 1
            src.func, src.params, i = t, [number(x) for x in rest[i + 1:j]], j
        elif is_number(t) and i == 0:
            src.dc, i = number(t), 1
        else:
            raise NetlistError(f"{src.name}: unexpected {t!r}")
    if src.func == "pulse" and (len(src.params) != 7 or min(src.params[3], src.params[4]) <= 0
                                or src.params[6] < sum(src.params[3:6])):
        raise NetlistError(f"{src.name}: PULSE needs 7 values with TR, TF > 0 and PER >= TR + PW + TF")
    if src.func == "sin":
        if not 3 <= len(src.params) <= 5:
            raise NetlistError(f"{src.name}: SIN needs 3 to 5 values")
        src.params += [0.0] * (5 - len(src.params))
    return src


def parse_model(tok: list[str]) -> tuple[str, dict[str, float]]:
    if len(tok) < 3 or tok[2] != "d":
        raise NetlistError(".model: only type D is supported")
    params, rest = {"is": 1e-14, "n": 1.0}, tok[3:]
    for k in range(0, len(rest), 3):
        if k + 2 >= len(rest) or rest[k + 1] != "=" or rest[k] not in params:
            raise NetlistError(f".model {tok[1]}: parameters are IS=value N=value")
        params[rest[k]] = number(rest[k + 2])
    return tok[1], params


def parse_analysis(tok: list[str]) -> tuple[str, list]:
    card = tok[0][1:]
    try:
        if card == "op" and len(tok) == 1:
            return "op", []
        if card == "dc" and len(tok) == 5:
            return "dc", [tok[1]] + [number(x) for x in tok[2:]]
        if card == "tran" and len(tok) == 3:
            return "tran", [number(x) for x in tok[1:]]
        if card == "ac" and len(tok) == 5 and tok[1] in ("dec", "lin"):
            return "ac", [tok[1], int(number(tok[2])), number(tok[3]), number(tok[4])]
    except IndexError:
        pass
    raise NetlistError(f"unsupported analysis card: {' '.join(tok)}")


def parse(text: str) -> Circuit:
    """The whole netlist; exactly one analysis card."""
    elements, sources, models, analyses = [], [], {}, []
    for tok in logical_lines(text):
        head = tok[0]
        if head == ".end":
            break
        if head == ".model":
            name, params = parse_model(tok)
            models[name] = params
        elif head in (".op", ".dc", ".tran", ".ac"):
            analyses.append(parse_analysis(tok))
        elif head[0] in "vi":
            sources.append(parse_source(tok))
        elif head[0] in "rcl" and len(tok) == 4:
            value = number(tok[3])
            if value <= 0:
                raise NetlistError(f"{head}: value must be positive")
            elements.append(Element(head, head[0], tok[1], tok[2], value))
        elif head[0] == "d" and len(tok) == 4:
            elements.append(Element(head, "d", tok[1], tok[2], model=tok[3]))
        else:
            raise NetlistError(f"unsupported line: {' '.join(tok)}")
    if len(analyses) != 1:
        raise NetlistError(f"exactly one analysis card is required, found {len(analyses)}")
    for e in elements:
        if e.kind == "d" and e.model not in models:
            raise NetlistError(f"{e.name}: unknown model {e.model}")
    return Circuit(elements, sources, models, analyses[0])

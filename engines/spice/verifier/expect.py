"""Expected waveforms of one case from ngspice (batch mode, tight tolerances), on the grid spec.md defines.
stdin {"input": {netlist, probes}} -> stdout {"expected": {"analysis", "x", "signals"}}."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

NGSPICE = "/usr/bin/ngspice"
OPTIONS = ".options reltol=1e-7 abstol=1e-16 vntol=1e-11 chgtol=1e-20 trtol=1"
SCALE = (("meg", 1e6), ("mil", 25.4e-6), ("t", 1e12), ("g", 1e9), ("k", 1e3), ("m", 1e-3), ("u", 1e-6),
         ("n", 1e-9), ("p", 1e-12), ("f", 1e-15))


def number(tok: str) -> float:
    m = re.match(r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z]*)$", tok.lower())
    if not m:
        raise ValueError(f"not a number: {tok}")
    return float(m.group(1)) * next((f for s, f in SCALE if m.group(2).startswith(s)), 1.0)


def deck(netlist: str, raw: Path) -> tuple[str, tuple[str, list[str]]]:
    """The netlist for ngspice: `.end` dropped, `.tran` given a small TMAX, options and a control block added."""
    title, *body = netlist.splitlines() or [""]
    lines, card = [title], None
    for ln in body:
        tok = re.sub(r"[(),]", " ", ln.strip().lower()).split()
        if tok and tok[0] == ".end":
            break
        if tok and tok[0] in (".op", ".dc", ".tran", ".ac"):
            card = (tok[0][1:], tok[1:])
            if tok[0] == ".tran":
                ln = f".tran {tok[1]} {tok[2]} 0 {number(tok[1]) / 50!r}"
        lines.append(ln)
    if card is None:
        raise ValueError("no analysis card")
    lines += [OPTIONS, ".control", "set filetype=ascii", "run", f"write {raw} all", ".endc", ".end"]
    return "\n".join(lines) + "\n", card


def read_raw(path: Path) -> dict[str, np.ndarray]:
    """An ngspice ASCII raw file: vector name (lower case) -> values (complex for AC)."""
    text = path.read_text().splitlines()
    nvar = int(next(ln for ln in text if ln.startswith("No. Variables:")).split(":")[1])
    start = text.index("Variables:") + 1
    names = [text[start + k].split()[1].lower() for k in range(nvar)]
    vals_at = text.index("Values:") + 1
    flat = [t for ln in text[vals_at:] for t in ln.split()]
    step = nvar + 1  # each point: its index, then nvar values
    out = {}
    for k, name in enumerate(names):
        col = flat[k + 1::step]
        out[name] = np.array([complex(*map(float, v.split(","))) if "," in v else float(v) for v in col])
    return out


def grid(card: tuple[str, list[str]]) -> list[float]:
    kind, args = card
    if kind == "op":
        return [0.0]
    if kind == "tran":
        tstep, tstop = number(args[0]), number(args[1])
        return [k * tstep for k in range(round(tstop / tstep) + 1)]
    if kind == "dc":
        a, b, s = (number(x) for x in args[1:4])
        return [a + k * s for k in range(math.floor((b - a) / s + 1e-9) + 1)]
    n, f1, f2 = int(number(args[1])), number(args[2]), number(args[3])
    if args[0] == "lin":
        return [f1] if n == 1 else [f1 + k * (f2 - f1) / (n - 1) for k in range(n)]
    return [f1 * 10 ** (k / n) for k in range(math.floor(n * math.log10(f2 / f1) + 1e-9) + 1)]


def vector(vecs: dict[str, np.ndarray], probe: str) -> np.ndarray:
    m = re.fullmatch(r"\s*([vi])\s*\(\s*([^,()\s]+)\s*(?:,\s*([^,()\s]+)\s*)?\)\s*", probe.lower())
    if not m:
        raise ValueError(f"bad probe {probe}")
    if m.group(1) == "i":
        return vecs[f"i({m.group(2)})"]
    n = len(next(iter(vecs.values())))
    one = lambda node: np.zeros(n) if node == "0" else vecs[f"v({node})"]  # noqa: E731
    return one(m.group(2)) - one(m.group(3) or "0")


def expected(inp: dict) -> dict:
    with tempfile.TemporaryDirectory() as d:
        raw = Path(d) / "out.raw"
        text, card = deck(inp["netlist"], raw)
        (Path(d) / "deck.cir").write_text(text)
        res = subprocess.run([NGSPICE, "-b", "deck.cir"], cwd=d, capture_output=True, text=True, timeout=60)
        if not raw.exists():
            raise RuntimeError(f"ngspice wrote no results: {res.stdout[-500:]} {res.stderr[-500:]}")
        vecs = read_raw(raw)
    xs = grid(card)
    axis = None if card[0] == "op" else next(iter(vecs))  # the first vector is the scale (time, sweep, frequency)
    signals: dict = {}
    for p in inp["probes"]:
        v = vector(vecs, p)
        if card[0] == "tran":
            v = np.interp(xs, vecs[axis].real, v.real)
        elif axis is not None:
            got = vecs[axis].real
            if len(got) != len(xs) or not np.allclose(got, xs, rtol=1e-9, atol=1e-12):
                raise RuntimeError(f"ngspice grid {got[:5]}... differs from the spec grid {xs[:5]}...")
        signals[p] = ({"re": v.real.tolist(), "im": v.imag.tolist()} if card[0] == "ac"
                      else np.real(v).astype(float).tolist())
    return {"analysis": card[0], "x": xs, "signals": signals}


if __name__ == "__main__":
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))

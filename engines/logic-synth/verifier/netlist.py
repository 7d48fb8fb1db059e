"""The candidate's netlist as the verifier sees it: the RTL's interface (ports, register bits, clock,
read with yosys), the well-formedness invariant (library cells only, one driver per net, register
correspondence, no combinational loop), and the netlist rewritten as structural Verilog for the proof."""
from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

YOSYS = "/usr/bin/yosys"
LIB = {"AND2": ("A", "B"), "OR2": ("A", "B"), "XOR2": ("A", "B"), "NOT": ("A",), "MUX2": ("A", "B", "S"),
       "DFF": ("C", "D")}
EXPR = {"AND2": "{A} & {B}", "OR2": "{A} | {B}", "XOR2": "{A} ^ {B}", "NOT": "~{A}", "MUX2": "{S} ? {B} : {A}"}
MAX_CELLS = 100_000
NET = re.compile(r"[!-~]{1,200}")  # printable, no blanks


@dataclass
class Interface:
    module: str
    ports: dict[str, tuple[str, int]]  # name -> (input|output, width), in declaration order
    regs: dict[str, int]  # register name -> width
    clock: str | None

    def inputs(self) -> set[str]:
        return {f"{n}[{i}]" for n, (d, w) in self.ports.items() if d == "input" for i in range(w)}

    def reg_bits(self) -> set[str]:
        return {f"{n}[{i}]" for n, w in self.regs.items() for i in range(w)}


def reg_names(source: str) -> set[str]:
    """Names declared `reg` (in the port list or the body): the RTL's registers."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", source, flags=re.S)
    toks = re.findall(r"[A-Za-z_][\w$]*|\d+|\S", text)
    out, k = set(), 0
    while k < len(toks):
        if toks[k] == "reg":
            k += 1
            if k < len(toks) and toks[k] == "[":
                k = toks.index("]", k) + 1
            while k < len(toks) and re.fullmatch(r"[A-Za-z_][\w$]*", toks[k]) and toks[k] not in (
                    "input", "output", "wire", "reg"):
                out.add(toks[k])
                k += 1
                if k < len(toks) and toks[k] == ",":
                    k += 1
                else:
                    break
        else:
            k += 1
    return out


def interface(source: str, work: Path) -> Interface:
    """Ports, registers and clock of the RTL, from yosys' elaboration (read_verilog; proc)."""
    (work / "gold.v").write_text(source)
    res = subprocess.run([YOSYS, "-q", "-p", "read_verilog gold.v; hierarchy -auto-top; proc; write_json gold.json"],
                         cwd=work, capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        raise RuntimeError(f"yosys rejects the RTL: {res.stderr.strip()[-300:]}")
    (name, mod), = json.loads((work / "gold.json").read_text())["modules"].items()
    ports = {p: (v["direction"], len(v["bits"])) for p, v in mod["ports"].items()}
    regs = {r: len(mod["netnames"][r]["bits"]) for r in reg_names(source) if r in mod["netnames"]}
    clocks = {b for c in mod["cells"].values() if c["type"] == "$dff" for b in c["connections"]["CLK"]}
    bit_port = {v["bits"][0]: p for p, v in mod["ports"].items() if len(v["bits"]) == 1}
    clock = bit_port.get(next(iter(clocks))) if len(clocks) == 1 else None
    if regs and clock is None:
        raise RuntimeError("the RTL has registers but no single clock input")
    return Interface(name, ports, regs, clock)


def problems(out: Any, iface: Interface) -> list[str]:
    """Every way the candidate's netlist breaks the invariant (empty: well-formed)."""
    if not isinstance(out, dict) or not isinstance(out.get("cells"), list) or not isinstance(out.get("outputs"), dict):
        return ["output is not {cells: [...], outputs: {...}}"]
    cells = out["cells"]
    if len(cells) > MAX_CELLS:
        return [f"more than {MAX_CELLS} cells"]
    bad: list[str] = []
    for k, c in enumerate(cells):
        if not isinstance(c, dict) or not isinstance(c.get("type"), str) or c["type"] not in LIB:
            bad.append(f"cell {k}: type {c.get('type') if isinstance(c, dict) else c!r} is not a library cell")
            continue
        want = {"type", *LIB[c["type"]], "Q" if c["type"] == "DFF" else "Y"}
        if set(c) - {"name"} != want or not all(isinstance(c[p], str) and NET.fullmatch(c[p]) for p in want - {"type"}):
            bad.append(f"cell {k} ({c['type']}): pins must be exactly {sorted(want - {'type'})}, each a net name")
    if bad:
        return bad[:20]
    bad, known = drivers(cells, iface)
    return (bad + outputs(out["outputs"], iface, known) + loops(cells))[:20]


def drivers(cells: list[dict], iface: Interface) -> tuple[list[str], set[str]]:
    """Driver problems, and the nets that are driven (constants, inputs, cell outputs)."""
    sources, regs, bad = {"0", "1"} | iface.inputs(), iface.reg_bits(), []
    driven: dict[str, int] = {}
    for k, c in enumerate(cells):
        y = c["Q"] if c["type"] == "DFF" else c["Y"]
        if y in sources or y in driven:
            bad.append(f"net {y!r} has more than one driver (cell {k})")
        elif (c["type"] == "DFF") != (y in regs):
            bad.append(f"cell {k}: {'a DFF output must be' if c['type'] == 'DFF' else 'only a DFF may drive'} "
                       f"a register bit (net {y!r})")
        if c["type"] == "DFF" and c["C"] != f"{iface.clock}[0]":
            bad.append(f"cell {k}: DFF clock {c['C']!r} is not the clock input {iface.clock}[0]")
        driven[y] = k
    bad += [f"register bit {r} has no DFF" for r in sorted(regs - set(driven))]
    known = sources | set(driven)
    for k, c in enumerate(cells):
        bad += [f"cell {k}: input {p} reads undriven net {c[p]!r}" for p in LIB[c["type"]] if c[p] not in known]
    return bad, known


def outputs(outs: dict, iface: Interface, known: set[str]) -> list[str]:
    want = {n: w for n, (d, w) in iface.ports.items() if d == "output"}
    if set(outs) != set(want):
        return [f"outputs must name exactly the output ports {sorted(want)}"]
    bad = []
    for n, w in want.items():
        bits = outs[n]
        if not isinstance(bits, list) or len(bits) != w or not all(isinstance(b, str) for b in bits):
            bad.append(f"outputs[{n!r}] must be a list of {w} net names")
        elif any(b not in known for b in bits):
            bad.append(f"outputs[{n!r}] reads an undriven net {next(b for b in bits if b not in known)!r}")
        elif n in iface.regs and bits != [f"{n}[{i}]" for i in range(w)]:
            bad.append(f"outputs[{n!r}] is a register: its bits are the register's nets")
    return bad


def loops(cells: list[dict]) -> list[str]:
    """Kahn's algorithm over the combinational cells (a DFF breaks a path)."""
    comb = [c for c in cells if c["type"] != "DFF"]
    by_out = {c["Y"]: k for k, c in enumerate(comb)}
    fanout: dict[int, list[int]] = {}
    indeg = [0] * len(comb)
    for k, c in enumerate(comb):
        for p in LIB[c["type"]]:
            if c[p] in by_out:
                fanout.setdefault(by_out[c[p]], []).append(k)
                indeg[k] += 1
    ready, done = [k for k, d in enumerate(indeg) if d == 0], 0
    while ready:
        k = ready.pop()
        done += 1
        for j in fanout.get(k, []):
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
    if done == len(comb):
        return []
    stuck = next(c["Y"] for k, c in enumerate(comb) if indeg[k] > 0)
    return [f"combinational loop through {len(comb) - done} cells (e.g. net {stuck!r})"]


def gate_verilog(out: dict, iface: Interface, module: str) -> str:
    """The netlist as Verilog: one continuous assignment per cell, one clocked assignment per DFF; ports
    and register names as in the RTL (so the miter and `expose -shared` pair them), other nets renamed."""
    known = iface.inputs() | iface.reg_bits()
    local: dict[str, str] = {}

    def ref(net: str) -> str:
        if net in ("0", "1"):
            return f"1'b{net}"
        if net in known:
            return net
        return local.setdefault(net, f"\\swr$n{len(local)} ")

    decl = [f"{'output' if d == 'output' else 'input'}{' reg' if n in iface.regs else ''} [{w - 1}:0] {n}"
            for n, (d, w) in iface.ports.items()]
    body = [f"  reg [{w - 1}:0] {n};" for n, w in iface.regs.items() if n not in iface.ports]
    for c in out["cells"]:
        if c["type"] == "DFF":
            body.append(f"  always @(posedge {iface.clock}) {c['Q']} <= {ref(c['D'])};")
        else:
            body.append(f"  assign {ref(c['Y'])} = {EXPR[c['type']].format(**{p: ref(c[p]) for p in LIB[c['type']]})};")
    for n, bits in out["outputs"].items():
        if n not in iface.regs:
            body.append(f"  assign {n} = {{{', '.join(ref(b) for b in reversed(bits))}}};")
    wires = [f"  wire {name};" for name in local.values()]
    return f"module {module}({', '.join(decl)});\n" + "\n".join(wires + body) + "\nendmodule\n"

"""Hidden verifier of the logic-synth engine.

- `netlist_wellformed` (invariant): library cells only, exactly one driver per net, one DFF per RTL
  register bit named after it and clocked by the RTL's clock, outputs complete, no combinational loop.
- `equivalence` (proof): yosys builds a miter of the RTL (read_verilog; proc) against the netlist (as
  structural Verilog), with the registers of both exposed as outputs (`expose -dff -shared`), and proves
  it with SAT by temporal induction from the all-zero initial state (`sat -tempinduct -set-init-zero`).
  For a combinational design this is a plain SAT proof over all inputs. A counterexample fails the case.
Any output is tolerated: a malformed one fails, never an exception."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from netlist import YOSYS, Interface, gate_verilog, interface, problems

PROOF, INVARIANT = "equivalence", "netlist_wellformed"
MAX_STEPS = 12


def prove(out: dict, iface: Interface, work: Path) -> tuple[int | None, str]:
    """(induction length when proven, else None; a short why)."""
    (work / "gate.v").write_text(gate_verilog(out, iface, "swr_gate"))
    script = "\n".join([
        "read_verilog gold.v", f"hierarchy -top {iface.module}", "proc", f"rename {iface.module} swr_gold",
        "read_verilog gate.v", "proc", "expose -dff -shared swr_gold swr_gate",
        "miter -equiv -flatten -make_outputs swr_gold swr_gate swr_miter", "hierarchy -top swr_miter",
        f"sat -tempinduct -prove trigger 0 -set-init-zero -maxsteps {MAX_STEPS} -show-ports swr_miter"])
    (work / "proof.ys").write_text(script + "\n")
    try:
        res = subprocess.run([YOSYS, "-q", "-l", "proof.log", "proof.ys"], cwd=work, capture_output=True,
                             text=True, timeout=90)
    except subprocess.TimeoutExpired:
        return None, "yosys timed out"
    log = (work / "proof.log").read_text() if (work / "proof.log").exists() else ""
    if res.returncode != 0 or "ERROR" in log:
        return None, f"yosys failed: {(res.stderr or log).strip()[-300:]}"
    if "model found for base case: FAIL" in log:
        return None, "counterexample: " + counterexample(log)
    m = re.search(r"Induction step proven: SUCCESS!", log)
    if not m:
        return None, f"not proven within {MAX_STEPS} induction steps (next-state logic differs on some state)"
    steps = re.findall(r"Trying induction with length (\d+)", log)
    return int(steps[-1]) if steps else 1, "equivalent (temporal induction)"


def counterexample(log: str) -> str:
    """The last step of the base-case trace: inputs and the outputs on which gold and gate differ."""
    table = log.rsplit("Time Signal Name", 1)[-1]
    rows = re.findall(r"^\s+(\d+)\s+\\(\S+)\s+(\S+)", table, re.M)
    if not rows:
        return "(trace not available)"
    last = max(int(t) for t, _, _ in rows)
    vals = {n: v for t, n, v in rows if int(t) == last}
    ins = [f"{n[3:]}={v}" for n, v in vals.items() if n.startswith("in_")]
    diff = [f"{n[5:]}: rtl={v} netlist={vals.get('gate_' + n[5:])}" for n, v in vals.items()
            if n.startswith("gold_") and vals.get("gate_" + n[5:]) != v]
    return f"cycle {last}: " + ", ".join(ins + diff)[:400]


def judge(inp: dict, out: Any) -> list[dict]:
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        try:
            iface = interface(inp["verilog"], work)
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
            why = f"the case's RTL could not be elaborated: {e}"
            return [record(INVARIANT, None, False, why), record(PROOF, None, False, why)]
        bad = problems(out, iface)
        inv = record(INVARIANT, len(bad), not bad, "; ".join(bad) if bad else "well-formed")
        if bad:
            return [inv, record(PROOF, None, False, "not attempted: the netlist is not well-formed")]
        steps, why = prove(out, iface, work)
        return [inv, record(PROOF, steps, steps is not None, why)]


def record(check: str, measured: int | None, ok: bool, detail: str) -> dict:
    return {"check": check, "measured": measured, "pass": ok, "detail": detail[:600]}


def main() -> None:
    d = json.load(sys.stdin)
    try:
        recs = judge(d["input"], d.get("output"))
    except Exception as e:  # noqa: BLE001 - untrusted output never crashes the verifier
        why = f"unverifiable output: {type(e).__name__}: {e}"[:300]
        recs = [record(c, None, False, why) for c in (INVARIANT, PROOF)]
    print(json.dumps({"checks": recs}))


if __name__ == "__main__":
    main()

"""The real reference tool: a model as a CalculiX input deck, `ccx` run on it, nodal displacements (U) and
reaction forces (RF) read back from the .dat file."""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path


def deck(model: dict) -> str:
    """The Abaqus/CalculiX keyword deck of a model (elements numbered 1.. in input order)."""
    lines = ["*HEADING", "swr fe-elastic case", "*NODE, NSET=NALL"]
    lines += [f"{int(n[0])}, {float(n[1])!r}, {float(n[2])!r}, {float(n[3])!r}" for n in model["nodes"]]
    for eid, e in enumerate(model["elements"], 1):
        lines += [f"*ELEMENT, TYPE={e['type']}, ELSET=EALL", f"{eid}, " + ", ".join(str(int(n)) for n in e["nodes"])]
    mat = model["material"]
    lines += ["*MATERIAL, NAME=MAT", "*ELASTIC", f"{float(mat['E'])!r}, {float(mat['nu'])!r}",
              "*SOLID SECTION, ELSET=EALL, MATERIAL=MAT", "*STEP", "*STATIC", "*BOUNDARY"]
    lines += [f"{int(n)}, {int(d)}, {int(d)}, {float(v)!r}" for n, d, v in model["fixed"]]
    if model.get("loads"):
        lines += ["*CLOAD"] + [f"{int(n)}, {int(d)}, {float(v)!r}" for n, d, v in model["loads"]]
    lines += ["*NODE PRINT, NSET=NALL", "U", "*NODE PRINT, NSET=NALL, TOTALS=NO", "RF", "*END STEP", ""]
    return "\n".join(lines)


def _blocks(dat: str) -> dict[str, dict[int, list[float]]]:
    """The .dat tables: 'displacements' and 'forces' -> {node: [x, y, z]}."""
    out: dict[str, dict[int, list[float]]] = {}
    current = None
    for line in dat.splitlines():
        low = line.strip().lower()
        if low.startswith("displacements"):
            current = out.setdefault("U", {})
        elif low.startswith("forces"):
            current = out.setdefault("RF", {})
        elif current is not None and low:
            parts = line.split()
            try:
                current[int(parts[0])] = [float(p) for p in parts[1:4]]
            except (ValueError, IndexError):
                current = None
    return out


def run_ccx(model: dict) -> dict:
    """Displacements in input node order and reactions in `fixed` order, computed by ccx."""
    with tempfile.TemporaryDirectory() as d:
        Path(d, "job.inp").write_text(deck(model))
        env = {**os.environ, "OMP_NUM_THREADS": "1", "CCX_NPROC_EQUATION_SOLVER": "1"}
        res = subprocess.run(["ccx", "-i", "job"], cwd=d, capture_output=True, text=True, env=env, timeout=300)
        dat = Path(d, "job.dat")
        if res.returncode != 0 or not dat.exists() or "*ERROR" in res.stdout:
            raise RuntimeError(f"ccx failed: {res.stdout[-800:]} {res.stderr[-400:]}")
        tables = _blocks(dat.read_text())
    U, RF = tables["U"], tables["RF"]
    disp = [U[int(n[0])] for n in model["nodes"]]
    reac = [RF[int(n)][int(dof) - 1] for n, dof, _ in model["fixed"]]
    return {"displacements": disp, "reactions": reac}

"""Output characteristics of a bipolar transistor from a nested DC sweep with ngspice in batch mode (`dc VCE ... IB
...`: collector current against collector-emitter voltage for a family of base currents), and the parameters a
device engineer extracts from them: current gain at a bias point, Early voltage from a straight-line fit in the
active region, and the knee (saturation) voltage.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there.
"""

import os
import subprocess
import tempfile
import tomllib
from pathlib import Path

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
C = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
VCE_MAX, VCE_STEP, VCE_GAIN, KNEE = C["VCE_MAX_V"], C["VCE_STEP_V"], C["VCE_GAIN_V"], C["KNEE_FRACTION"]

NETLIST = """* BJT output characteristics
VCE c 0 0
IB 0 b {ib1:.12g}
Q1 c b 0 QN
.model QN NPN(IS=1e-14 BF={bf:.12g} VAF={vaf:.12g} BR=2 RC={rc:.12g} RB=50 IKF={ikf:.12g})
.options reltol=1e-7 abstol=1e-15 vntol=1e-10 temp={temp:.12g}
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
dc VCE 0 {vmax:.12g} {vstep:.12g} IB {ib1:.12g} {ib2:.12g} {ibstep:.12g}
let ic = -i(vce)
wrdata oc.txt ic
quit
.endc
.end
"""


def read_columns(path):
    """Columns of an ngspice wrdata file (its header line skipped) as lists of floats."""
    with open(path) as fh:
        rows = [[float(v) for v in ln.split()] for ln in fh.readlines()[1:] if ln.strip()]
    return [list(col) for col in zip(*rows)]


def line_fit(x, y):
    """Least-squares slope and intercept of y = slope x + intercept."""
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    slope = sxy / sxx
    return slope, my - slope * mx


def main(scn):
    step = float(scn["ib_step_uA"]) * 1e-6
    n_curves = int(scn["n_curves"])
    p = {"ib1": step, "ib2": step * n_curves, "ibstep": step, "bf": float(scn["BF"]), "vaf": float(scn["VAF_V"]),
         "rc": float(scn["RC_ohm"]), "ikf": float(scn["IKF_mA"]) * 1e-3, "temp": float(scn["temperature_C"]),
         "vmax": VCE_MAX, "vstep": VCE_STEP}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "oc.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "oc.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        path = os.path.join(tmp, "oc.txt")
        if proc.returncode != 0 or not os.path.exists(path):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        vce, ic = read_columns(path)
    per = int(round(VCE_MAX / VCE_STEP)) + 1
    if len(vce) != per * n_curves:
        raise RuntimeError(f"unexpected sweep length {len(vce)}")
    fit_from = float(scn["fit_from_V"])
    curves = []
    for k in range(n_curves):
        v, i = vce[k * per:(k + 1) * per], ic[k * per:(k + 1) * per]
        ib = step * (k + 1)
        j = min(range(per), key=lambda m: abs(v[m] - VCE_GAIN))
        sel = [m for m in range(per) if v[m] >= fit_from - 1e-9]
        slope, icpt = line_fit([v[m] for m in sel], [i[m] for m in sel])
        target = KNEE * i[j]
        m = next(m for m in range(1, per) if i[m] >= target)
        knee = v[m - 1] + (target - i[m - 1]) * (v[m] - v[m - 1]) / (i[m] - i[m - 1])
        curves.append({"ib_uA": ib * 1e6, "ic_at_gain_point_mA": i[j] * 1e3, "beta": i[j] / ib,
                       "output_conductance_uS": slope * 1e6, "early_voltage_V": icpt / slope, "knee_V": knee})
    return {"n_points_per_curve": per, "curves": curves}

"""Temperature behaviour of a bandgap voltage-reference core with ngspice in batch mode: two diode-connected BJTs of
area ratio N biased by equal currents give a CTAT base-emitter voltage and a PTAT difference; a behavioural source
adds them with gain K; a `dc temp` sweep over the industrial range gives the reference voltage, from which the designer
reads the temperature coefficient (box method), the curvature peak and the PTAT slope.

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
T_MIN, T_MAX, T_STEP, T_NOM = C["T_MIN_C"], C["T_MAX_C"], C["T_STEP_C"], C["T_NOM_C"]

NETLIST = """* bandgap core
I1 0 e1 {ibias:.12g}
I2 0 e2 {ibias:.12g}
Q1 e1 e1 0 QN
Q2 e2 e2 0 QN {ratio:d}
BREF ref 0 V = v(e1) + {k:.12g}*(v(e1) - v(e2))
RREF ref 0 1e6
.model QN NPN(IS={is_:.12g} BF=100 EG={eg:.12g} XTI={xti:.12g})
.options reltol=1e-7 abstol=1e-15 vntol=1e-10
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
dc temp {tmin:.12g} {tmax:.12g} {tstep:.12g}
wrdata bg.txt v(ref) v(e1) v(e2)
quit
.endc
.end
"""


def read_columns(path):
    """Columns of an ngspice wrdata file (its header line skipped) as lists of floats."""
    with open(path) as fh:
        rows = [[float(v) for v in ln.split()] for ln in fh.readlines()[1:] if ln.strip()]
    return [list(col) for col in zip(*rows)]


def main(scn):
    p = {"ibias": float(scn["bias_uA"]) * 1e-6, "ratio": int(scn["area_ratio"]), "k": float(scn["ptat_gain"]),
         "is_": float(scn["IS_A"]), "eg": float(scn["EG_eV"]), "xti": float(scn["XTI"]),
         "tmin": T_MIN, "tmax": T_MAX, "tstep": T_STEP}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bg.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "bg.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        path = os.path.join(tmp, "bg.txt")
        if proc.returncode != 0 or not os.path.exists(path):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        temp, vref, ve1, ve2 = read_columns(path)
    inom = min(range(len(temp)), key=lambda i: abs(temp[i] - T_NOM))
    vnom = vref[inom]
    top = max(range(len(vref)), key=lambda i: (vref[i], -i))
    dvbe = [a - b for a, b in zip(ve1, ve2)]
    return {
        "temperatures_C": temp,
        "vref_V": vref,
        "vref_nominal_V": vnom,
        "tempco_box_ppm_per_C": (max(vref) - min(vref)) / (vnom * (T_MAX - T_MIN)) * 1e6,
        "peak_temperature_C": temp[top],
        "vbe_slope_mV_per_C": (ve1[-1] - ve1[0]) / (T_MAX - T_MIN) * 1e3,
        "delta_vbe_slope_uV_per_C": (dvbe[-1] - dvbe[0]) / (T_MAX - T_MIN) * 1e6,
        "delta_vbe_nominal_mV": dvbe[inom] * 1e3,
    }

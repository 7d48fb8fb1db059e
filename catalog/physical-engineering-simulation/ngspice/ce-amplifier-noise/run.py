"""Noise analysis of a voltage-divider-biased common-emitter BJT amplifier with ngspice in batch mode (`op`, `ac`,
`noise`): the bias point, the mid-band gain, the output and input-referred noise spectral densities (thermal, shot
and flicker sources of the models), their integrals and the spot noise figure, as an audio/instrumentation designer
checks a preamplifier stage against its source resistance.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there.
"""

import math
import os
import re
import subprocess
import tempfile
import tomllib
from pathlib import Path

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
K_BOLTZMANN = CONSTANTS["K_BOLTZMANN"]

NETLIST = """* common-emitter amplifier noise
.options reltol=1e-7 abstol=1e-15 vntol=1e-10 temp={temp:.12g} tnom=27
VCC vcc 0 12
VIN in 0 DC 0 AC 1
RS in b1 {rs:.12g}
CIN b1 b 10u
R1 vcc b 47k
R2 b 0 10k
RC vcc c {rc:.12g}
RE e 0 {re:.12g}
{bypass}
COUT c out 10u
RL out 0 100k
Q1 c b e NPN1
.model NPN1 NPN(IS=1e-14 BF=200 VAF=100 RB=100 KF={kf:.12g} AF=1 CJE=10p CJC=5p TF=0.3n)
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
op
print @q1[ic] v(c) v(e) v(b)
ac dec 10 10 1e7
meas ac gain_db FIND vdb(out) AT=1000
noise v(out) VIN dec 10 10 {fmax:.12g}
setplot noise1
wrdata spec.txt onoise_spectrum inoise_spectrum
setplot noise2
print onoise_total inoise_total
quit
.endc
.end
"""
VAL = re.compile(r"^\s*(@q1\[ic\]|v\(c\)|v\(e\)|v\(b\)|gain_db|onoise_total|inoise_total)\s*=\s*([-+0-9.eE]+)", re.M)



def read_columns(path):
    """Columns of an ngspice wrdata file (its header line skipped) as lists of floats."""
    with open(path) as fh:
        rows = [[float(v) for v in ln.split()] for ln in fh.readlines()[1:] if ln.strip()]
    return [list(col) for col in zip(*rows)]



def interp(x, xs, ys):
    """Linear interpolation of ys(xs) at x, xs increasing (the end values outside the range, as numpy.interp)."""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    k = next(i for i in range(1, len(xs)) if xs[i] >= x)
    return ys[k - 1] + (ys[k] - ys[k - 1]) * (x - xs[k - 1]) / (xs[k] - xs[k - 1])


def main(scn):
    temp = float(scn["temperature_C"])
    rs = float(scn["source_R_ohm"])
    p = {"temp": temp, "rs": rs, "rc": float(scn["collector_R_kohm"]) * 1e3, "re": float(scn["emitter_R_ohm"]),
         "bypass": "CE e 0 100u" if bool(scn["bypass_emitter"]) else "* no emitter bypass",
         "kf": float(scn["flicker_KF"]), "fmax": float(scn["f_max_Hz"])}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "ce.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "ce.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        path = os.path.join(tmp, "spec.txt")
        if proc.returncode != 0 or not os.path.exists(path):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        f, onoise, inoise = read_columns(path)
    vals = {k: float(v) for k, v in VAL.findall(proc.stdout)}
    if len(vals) != 7:
        raise RuntimeError(f"values missing: {sorted(vals)}")
    in_1k = interp(3.0, [math.log10(x) for x in f], inoise)
    t_k = temp + CONSTANTS["ZERO_CELSIUS_K"]
    nf_db = 10.0 * math.log10(in_1k ** 2 / (4.0 * K_BOLTZMANN * t_k * rs))
    decades = [{"f_Hz": f[i], "onoise_V_rtHz": onoise[i], "inoise_V_rtHz": inoise[i]}
               for i in range(0, len(f), 10)]
    return {
        "ic_mA": vals["@q1[ic]"] * 1e3,
        "v_collector_V": vals["v(c)"],
        "v_emitter_V": vals["v(e)"],
        "v_base_V": vals["v(b)"],
        "gain_1kHz_dB": vals["gain_db"],
        "onoise_total_Vrms": vals["onoise_total"],
        "inoise_total_Vrms": vals["inoise_total"],
        "inoise_1kHz_V_rtHz": in_1k,
        "noise_figure_1kHz_dB": nf_db,
        "spectrum_decades": decades,
    }

"""Transient simulation of a guitar-pedal style diode clipper with ngspice in batch mode: a sine drives a series
resistor into anti-parallel diode strings shunted by a tone capacitor; the clipped output is resampled on a fixed
audio grid (`linearize`), written as a WAV file, and its harmonic distortion measured by ngspice's `fourier`.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there; the WAV goes to $SWR_ARTIFACTS.
"""

import os
import re
import subprocess
import tempfile

import numpy as np
import soundfile

FULL_SCALE_V = 2.0

NETLIST = """* diode clipper
.options reltol=1e-6 abstol=1e-12 vntol=1e-9
VS in 0 SIN(0 {amp:.12g} {freq:.12g})
R1 in out {r:.12g}
C1 out 0 {c:.12g}
{diodes}
.model DCLIP D(IS={is_:.12g} N={n:.12g} RS=1)
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
tran {tstep:.12g} {tstop:.12g} 0 {tmax:.12g}
fourier {freq:.12g} v(out)
linearize v(out)
wrdata out.txt v(out)
quit
.endc
.end
"""
THD = re.compile(r"THD:\s*([-+0-9.eE]+)\s*%")
HARM = re.compile(r"^\s*([1-9])\s+([-+0-9.eE]+)\s+([-+0-9.eE]+)\s+([-+0-9.eE]+)\s+([-+0-9.eE]+)", re.M)


def diode_strings(n_up, n_down):
    """Anti-parallel strings from out to ground: n_up diodes conducting on positive swings, n_down on negative."""
    lines = []
    for tag, n, a, k in (("P", n_up, "out", "0"), ("N", n_down, "0", "out")):
        nodes = [a] + [f"{tag.lower()}{i}" for i in range(1, n)] + [k]
        lines += [f"D{tag}{i} {nodes[i]} {nodes[i + 1]} DCLIP" for i in range(n)]
    return "\n".join(lines)


def main(scn):
    fs = int(scn["sample_rate_Hz"])
    freq = float(scn["freq_Hz"])
    n_cycles = int(scn["n_cycles"])
    tstop = n_cycles / freq
    p = {"amp": float(scn["amplitude_V"]), "freq": freq, "r": float(scn["series_R_kohm"]) * 1e3,
         "c": float(scn["tone_C_nF"]) * 1e-9, "diodes": diode_strings(int(scn["n_up"]), int(scn["n_down"])),
         "is_": 2.52e-9, "n": 1.752, "tstep": 1.0 / fs, "tstop": tstop, "tmax": 0.1 / fs}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "clip.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "clip.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        out = os.path.join(tmp, "out.txt")
        if proc.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        data = np.loadtxt(out, skiprows=1)
    t, v = data[:, 0], data[:, 1]
    soundfile.write(os.path.join(os.environ["SWR_ARTIFACTS"], "clipped.wav"), v / FULL_SCALE_V, fs, subtype="FLOAT")
    thd = THD.findall(proc.stdout)
    harm = {int(h[0]): (float(h[2]), float(h[4])) for h in HARM.findall(proc.stdout)}
    if not thd or 1 not in harm:
        raise RuntimeError("fourier output missing")
    last = t >= tstop - 1.0 / freq
    return {
        "n_samples": int(v.size),
        "peak_positive_V": float(v.max()),
        "peak_negative_V": float(v.min()),
        "rms_last_cycle_V": float(np.sqrt(np.mean(v[last] ** 2))),
        "mean_last_cycle_V": float(np.mean(v[last])),
        "thd_percent": float(thd[0]),
        "fundamental_amplitude_V": harm[1][0],
        "h3_normalized": harm[3][1],
        "h5_normalized": harm[5][1],
        "audio": "clipped.wav",
    }

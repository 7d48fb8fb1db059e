"""Transient simulation of a guitar-pedal style diode clipper with ngspice in batch mode: a sine drives a series
resistor into anti-parallel diode strings shunted by a tone capacitor; the clipped output is resampled on a fixed
audio grid (`linearize`), written as a WAV file, and its harmonic distortion measured by ngspice's `fourier`.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there; the WAV goes to $SWR_ARTIFACTS.
"""

import math
import os
import re
import struct
import subprocess
import tempfile
import tomllib
import wave
from pathlib import Path

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
FULL_SCALE_V = CONSTANTS["FULL_SCALE_V"]

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


def read_columns(path):
    """Columns of an ngspice wrdata file (its header line skipped) as lists of floats."""
    with open(path) as fh:
        rows = [[float(v) for v in ln.split()] for ln in fh.readlines()[1:] if ln.strip()]
    return [list(col) for col in zip(*rows)]


def write_wav(path, samples, rate):
    """Mono 32-bit PCM WAV (stdlib wave): each sample clipped to [-1, 1], times 2^31 - 1, rounded to an integer."""
    frames = b"".join(struct.pack("<i", int(round(max(-1.0, min(1.0, s)) * 2147483647))) for s in samples)
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(4)
        out.setframerate(rate)
        out.writeframes(frames)

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
        t, v = read_columns(out)
    write_wav(os.path.join(os.environ["SWR_ARTIFACTS"], "clipped.wav"), [x / FULL_SCALE_V for x in v], fs)
    thd = THD.findall(proc.stdout)
    harm = {int(h[0]): (float(h[2]), float(h[4])) for h in HARM.findall(proc.stdout)}
    if not thd or 1 not in harm:
        raise RuntimeError("fourier output missing")
    last = [x for ti, x in zip(t, v) if ti >= tstop - 1.0 / freq]
    return {
        "n_samples": len(v),
        "peak_positive_V": max(v),
        "peak_negative_V": min(v),
        "rms_last_cycle_V": math.sqrt(sum(x * x for x in last) / len(last)),
        "mean_last_cycle_V": sum(last) / len(last),
        "thd_percent": float(thd[0]),
        "fundamental_amplitude_V": harm[1][0],
        "h3_normalized": harm[3][1],
        "h5_normalized": harm[5][1],
        "audio": "clipped.wav",
    }

"""A unity-gain Sallen-Key active filter (op-amp as a finite-gain VCVS) designed for a corner frequency and Q,
simulated with ngspice in batch mode: AC sweep with .meas of the corner, and the transient response to a two-tone
signal resampled on an audio grid (`linearize`) and written as WAV, as an audio engineer checks a crossover stage.

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
R_OHM = CONSTANTS["R_OHM"]
FULL_SCALE_V = CONSTANTS["FULL_SCALE_V"]

NETLIST = """* unity-gain Sallen-Key {kind}
.options reltol=1e-7 abstol=1e-15 vntol=1e-10
V1 s1 0 DC 0 AC 1 SIN(0 {a1:.12g} {f1:.12g})
V2 in s1 DC 0 SIN(0 {a2:.12g} {f2:.12g})
{z1} in x {v1:.12g}
{z2} x p {v2:.12g}
{z3} p 0 {v3:.12g}
{z4} x out {v4:.12g}
EOA n 0 p n {gain:.12g}
ROUT n out 1e-3
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
ac dec 40 {fmin:.12g} {fmax:.12g}
let gdb = vdb(out)
meas ac g1 FIND gdb AT={f1:.12g}
meas ac g2 FIND gdb AT={f2:.12g}
meas ac fc WHEN gdb=-3 {edge}
tran {tstep:.12g} {tstop:.12g} 0 {tmax:.12g}
linearize v(out)
wrdata out.txt v(out)
quit
.endc
.end
"""
MEAS = re.compile(r"^\s*(g1|g2|fc)\s*=\s*([-+0-9.eE]+)", re.M)



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


def main(scn):
    fc, q, kind = float(scn["corner_Hz"]), float(scn["Q"]), str(scn["kind"])
    w = 2.0 * math.pi * fc
    if kind == "lowpass":  # R1 = R2 = R: C1 (feedback) = 2Q/(wR), C2 (to ground) = 1/(2QwR)
        z, v = ("R1", "R2", "C2", "C1"), (R_OHM, R_OHM, 1.0 / (2 * q * w * R_OHM), 2 * q / (w * R_OHM))
        edge = "FALL=1"
    else:  # C1 = C2 = 1/(wR): R2 (to ground) = 2QR, R1 (feedback) = R/(2Q)
        c = 1.0 / (w * R_OHM)
        z, v = ("C1", "C2", "R2", "R1"), (c, c, 2 * q * R_OHM, R_OHM / (2 * q))
        edge = "RISE=1"
    fs = int(scn["sample_rate_Hz"])
    tstop = float(scn["duration_ms"]) * 1e-3
    p = {"kind": kind, "a1": float(scn["tone1_V"]), "f1": float(scn["tone1_Hz"]), "a2": float(scn["tone2_V"]),
         "f2": float(scn["tone2_Hz"]), "z1": z[0], "z2": z[1], "z3": z[2], "z4": z[3], "v1": v[0], "v2": v[1],
         "v3": v[2], "v4": v[3], "gain": float(scn["opamp_gain"]), "fmin": 10.0, "fmax": 20000.0, "edge": edge,
         "tstep": 1.0 / fs, "tstop": tstop, "tmax": 0.1 / fs}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "sk.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "sk.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        out = os.path.join(tmp, "out.txt")
        if proc.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        t, vout = read_columns(out)
    meas = {k: float(x) for k, x in MEAS.findall(proc.stdout)}
    if set(meas) != {"g1", "g2", "fc"}:
        raise RuntimeError(f"measurements missing: {sorted(meas)}")
    write_wav(os.path.join(os.environ["SWR_ARTIFACTS"], "filtered.wav"), [x / FULL_SCALE_V for x in vout], fs)
    half = [x for ti, x in zip(t, vout) if ti >= tstop / 2]
    return {
        "components": {k + ("_nF" if k[0] == "C" else "_ohm"): x * 1e9 if k[0] == "C" else x for k, x in zip(z, v)},
        "gain_tone1_dB": meas["g1"],
        "gain_tone2_dB": meas["g2"],
        "corner_3dB_Hz": meas["fc"],
        "n_samples": len(vout),
        "rms_second_half_V": math.sqrt(sum(x * x for x in half) / len(half)),
        "peak_abs_V": max(abs(x) for x in vout),
        "audio": "filtered.wav",
    }

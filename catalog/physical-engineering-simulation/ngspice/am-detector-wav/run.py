"""Envelope (diode) detection of an amplitude-modulated carrier with ngspice in batch mode: an AM source drives a
diode into an RC hold network, a coupling capacitor strips the DC, and the recovered audio is resampled on a fixed
audio grid (`linearize`) and written as WAV; ngspice's `fourier` measures the recovered tone and its distortion, as
a radio designer sizes the detector's RC against the carrier and the modulation.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there; the WAV goes to $SWR_ARTIFACTS.
"""

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
STEPS_PER_CARRIER = CONSTANTS["STEPS_PER_CARRIER"]

NETLIST = """* AM envelope detector
.options reltol=1e-6 abstol=1e-12 vntol=1e-9
VS in 0 AM({va:.12g} {vo:.12g} {mf:.12g} {fc:.12g} 0)
D1 in det DET
CH det 0 {ch:.12g}
RH det 0 {rh:.12g}
CC det out {cc:.12g}
RL out 0 {rl:.12g}
.model DET D(IS=2e-8 N=1.05 RS=10 CJO=1p)
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
tran {tstep:.12g} {tstop:.12g} 0 {tmax:.12g}
fourier {mf:.12g} v(out)
meas tran vdet_avg AVG v(det) FROM={half:.12g} TO={tstop:.12g}
linearize v(out) v(det)
wrdata out.txt v(out) v(det)
quit
.endc
.end
"""
THD = re.compile(r"THD:\s*([-+0-9.eE]+)\s*%")
HARM1 = re.compile(r"^\s*1\s+([-+0-9.eE]+)\s+([-+0-9.eE]+)\s+([-+0-9.eE]+)", re.M)
AVG = re.compile(r"^\s*vdet_avg\s*=\s*([-+0-9.eE]+)", re.M)



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
    fs, fc, mf = int(scn["sample_rate_Hz"]), float(scn["carrier_kHz"]) * 1e3, float(scn["tone_Hz"])
    tstop = int(scn["n_tone_cycles"]) / mf
    m = float(scn["modulation_index"])
    p = {"va": float(scn["carrier_V"]) * m, "vo": 1.0 / m, "mf": mf, "fc": fc,
         "ch": float(scn["hold_C_nF"]) * 1e-9, "rh": float(scn["hold_R_kohm"]) * 1e3, "cc": 1e-7, "rl": 1e4,
         "tstep": 1.0 / fs, "tstop": tstop, "tmax": 1.0 / (STEPS_PER_CARRIER * fc), "half": tstop / 2}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "am.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "am.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        out = os.path.join(tmp, "out.txt")
        if proc.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        t, vout, vdet = read_columns(out)
    thd, h1, avg = THD.findall(proc.stdout), HARM1.findall(proc.stdout), AVG.findall(proc.stdout)
    if not (thd and h1 and avg):
        raise RuntimeError("fourier/meas output missing")
    write_wav(os.path.join(os.environ["SWR_ARTIFACTS"], "demodulated.wav"), [x / FULL_SCALE_V for x in vout], fs)
    return {
        "n_samples": len(vout),
        "tone_amplitude_V": float(h1[0][1]),
        "thd_percent": float(thd[0]),
        "detector_mean_second_half_V": float(avg[0]),
        "out_peak_to_peak_V": max(vout) - min(vout),
        "audio": "demodulated.wav",
    }

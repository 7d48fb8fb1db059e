"""Noise reduction with a measured noise profile (noiseprof / noisered) and silence trimming with SoX,
written as a WAV."""

import os
import subprocess
import tempfile


def fmt(x):
    return f"{float(x):.6f}"


def sox(*argv):
    subprocess.run(["sox", *argv], capture_output=True, text=True, check=True)


def main(scn):
    rate, noise = str(scn["rate"]), str(scn["noise_type"])
    dur, lead, trail = float(scn["duration_s"]), float(scn["lead_s"]), float(scn["trail_s"])
    total = dur + lead + trail
    thr = f"{fmt(scn['threshold_pct'])}%"
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "cleaned.wav")
    with tempfile.TemporaryDirectory() as tmp:
        p = {k: os.path.join(tmp, k) for k in ("sample.wav", "noise.prof", "tone.wav", "bed.wav", "noisy.wav")}
        sox(
            "-R",
            "-r",
            rate,
            "-n",
            "-b",
            "16",
            p["sample.wav"],
            "synth",
            "0.500000",
            noise,
            "vol",
            fmt(scn["noise_vol"]),
        )
        sox(p["sample.wav"], "-n", "noiseprof", p["noise.prof"])
        sox(
            "-R",
            "-r",
            rate,
            "-n",
            "-b",
            "16",
            p["tone.wav"],
            "synth",
            fmt(dur),
            "sine",
            fmt(scn["freq_hz"]),
            "vol",
            "0.5",
            "fade",
            "q",
            "0.010000",
            fmt(dur),
            "0.010000",
            "pad",
            fmt(lead),
            fmt(trail),
        )
        sox("-R", "-r", rate, "-n", "-b", "16", p["bed.wav"], "synth", fmt(total), noise, "vol", fmt(scn["noise_vol"]))
        sox("-R", "-m", p["tone.wav"], p["bed.wav"], "-b", "16", p["noisy.wav"])
        sox(
            "-R",
            p["noisy.wav"],
            "-b",
            "16",
            out,
            "noisered",
            p["noise.prof"],
            fmt(scn["amount"]),
            "silence",
            "1",
            "0.020000",
            thr,
            "reverse",
            "silence",
            "1",
            "0.020000",
            thr,
            "reverse",
        )
    return {"audio": "cleaned.wav"}

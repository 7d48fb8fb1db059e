"""A notched chirp written as a WAV together with SoX's own spectrogram of it (the spectrogram effect) as a PNG."""

import os
import subprocess

SWEEPS = {"linear": "-", "exponential": ":"}


def fmt(x):
    return f"{float(x):.6f}"


def main(scn):
    out = os.environ["SWR_ARTIFACTS"]
    wav, png = os.path.join(out, "chirp.wav"), os.path.join(out, "spectrogram.png")
    sweep = f"{fmt(scn['start_hz'])}{SWEEPS[str(scn['sweep'])]}{fmt(scn['end_hz'])}"
    argv = [
        "sox",
        "-R",
        "-r",
        "16000",
        "-n",
        "-b",
        "16",
        wav,
        "synth",
        fmt(scn["duration_s"]),
        "sine",
        sweep,
        "vol",
        "0.8",
        "bandreject",
        fmt(scn["notch_hz"]),
        "4q",
        "spectrogram",
        "-o",
        png,
        "-x",
        "200",
        "-y",
        "129",
        "-z",
        fmt(scn["dynamic_range_db"]),
        "-w",
        str(scn["window"]),
        "-r",
    ]
    if scn["monochrome"]:
        argv.append("-m")
    if scn["light_background"]:
        argv.append("-l")
    subprocess.run(argv, capture_output=True, text=True, check=True)
    return {"audio": "chirp.wav", "spectrogram": "spectrogram.png"}

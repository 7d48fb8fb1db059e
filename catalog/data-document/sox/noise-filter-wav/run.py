"""Coloured noise shaped by SoX band, equalizer, treble and high-pass filters, normalised, written as a WAV."""

import os
import subprocess


def command(scn, path):
    def f(key):
        return f"{float(scn[key]):.6f}"

    return [
        "sox",
        "-R",
        "-r",
        str(scn["rate"]),
        "-c",
        "1",
        "-b",
        "16",
        "-n",
        path,
        "synth",
        f("duration_s"),
        str(scn["noise_type"]),
        "vol",
        "0.5",
        str(scn["filter_type"]),
        f("center_hz"),
        f("width_q") + "q",
        "equalizer",
        f("eq_hz"),
        "1.0q",
        f("eq_gain_db"),
        "treble",
        f("treble_db"),
        "highpass",
        "30",
        "norm",
        f("norm_db"),
    ]


def main(scn):
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "noise.wav")
    subprocess.run(command(scn, path), capture_output=True, text=True, check=True)
    return {"audio": "noise.wav"}

"""Remix, FIR band-limit (sinc), resample (rate) and dither a two-tone stereo signal with SoX, written as a WAV."""

import os
import subprocess


def fmt(x):
    return f"{float(x):.6f}"


def main(scn):
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "resampled.wav")
    mix = float(scn["mix"])
    argv = [
        "sox",
        "-R",
        "-r",
        "48000",
        "-c",
        "2",
        "-n",
        "-b",
        "16",
        path,
        "synth",
        fmt(scn["duration_s"]),
        "sine",
        fmt(scn["left_hz"]),
        "square",
        fmt(scn["right_hz"]),
        "remix",
        f"1v{mix:.6f},2v{1.0 - mix:.6f}",
        "2v0.500000",
        "sinc",
        "-a",
        fmt(scn["stopband_db"]),
        f"{fmt(scn['low_cut_hz'])}-{fmt(scn['high_cut_hz'])}",
        "rate",
        f"-{scn['quality']}",
        str(scn["out_rate"]),
        "dither",
    ] + (["-s"] if scn["shaped_dither"] else [])
    subprocess.run(argv, capture_output=True, text=True, check=True)
    return {"audio": "resampled.wav"}

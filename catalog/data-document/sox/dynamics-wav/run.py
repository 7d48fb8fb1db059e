"""Dynamic-range processing with SoX: compand (attack/release, soft knee, ratio), overdrive and
contrast, written as a WAV."""

import os
import subprocess


def fmt(x):
    return f"{float(x):.6f}"


def command(scn, path):
    thr, ratio = float(scn["threshold_db"]), float(scn["ratio"])
    out0 = thr * (1.0 - 1.0 / ratio)
    dur = fmt(scn["duration_s"])
    return [
        "sox",
        "-R",
        "-r",
        "22050",
        "-c",
        "1",
        "-b",
        "16",
        "-n",
        path,
        "synth",
        dur,
        str(scn["waveform"]),
        fmt(scn["freq_hz"]),
        "synth",
        dur,
        "sine",
        "amod",
        fmt(scn["am_hz"]),
        "0",
        "compand",
        f"{fmt(float(scn['attack_ms']) / 1000.0)},{fmt(float(scn['release_ms']) / 1000.0)}",
        f"6:-80,-80,{fmt(thr)},{fmt(thr)},0,{fmt(out0)}",
        "0",
        "-90",
        "0",
        "overdrive",
        fmt(scn["drive_db"]),
        "20",
        "contrast",
        fmt(scn["contrast"]),
        "gain",
        "-n",
        "-1",
    ]


def main(scn):
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "dynamics.wav")
    subprocess.run(command(scn, path), capture_output=True, text=True, check=True)
    return {"audio": "dynamics.wav"}

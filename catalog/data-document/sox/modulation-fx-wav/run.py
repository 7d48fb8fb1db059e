"""Chorus, flanger or phaser modulation of a two-tone stereo signal with SoX, written as a WAV."""

import os
import subprocess


def fmt(x):
    return f"{float(x):.6f}"


def effect(scn):
    delay, speed, depth = float(scn["delay_ms"]), float(scn["speed_hz"]), float(scn["depth_ms"])
    kind = str(scn["effect"])
    if kind == "chorus":
        return ["chorus", "0.7", "0.9", fmt(delay), "0.4", fmt(speed), fmt(depth), "-s"]
    if kind == "flanger":
        return ["flanger", fmt(delay / 10.0), fmt(depth), fmt(scn["regen_pct"]), "71", fmt(speed), "sine", "25", "lin"]
    return ["phaser", "0.6", "0.66", fmt(delay / 20.0), "0.5", fmt(speed), "-t"]


def main(scn):
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "modulated.wav")
    wave, f = str(scn["waveform"]), float(scn["freq_hz"])
    argv = (
        [
            "sox",
            "-R",
            "-r",
            "44100",
            "-c",
            "2",
            "-b",
            "16",
            "-n",
            path,
            "synth",
            fmt(scn["duration_s"]),
            wave,
            fmt(f),
            wave,
            fmt(1.5 * f),
        ]
        + effect(scn)
        + ["gain", "-n", "-2"]
    )
    subprocess.run(argv, capture_output=True, text=True, check=True)
    return {"audio": "modulated.wav"}

"""Combine two synthesized clips with SoX's multi-input modes (mix, merge, splice with cross-fade)
into a 24-bit FLAC."""

import os
import subprocess
import tempfile


def fmt(x):
    return f"{float(x):.6f}"


def clip(path, rate, dur, wave, freq):
    subprocess.run(
        [
            "sox",
            "-R",
            "-r",
            rate,
            "-n",
            "-b",
            "16",
            path,
            "synth",
            fmt(dur),
            wave,
            fmt(freq),
            "fade",
            "q",
            "0.020000",
            fmt(dur),
            "0.020000",
        ],
        capture_output=True,
        text=True,
        check=True,
    )


def main(scn):
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "combined.flac")
    rate, mode = str(scn["rate"]), str(scn["mode"])
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a.wav"), os.path.join(tmp, "b.wav")
        clip(a, rate, scn["duration_a_s"], "sine", scn["freq_a_hz"])
        clip(b, rate, scn["duration_b_s"], "triangle", scn["freq_b_hz"])
        inputs = ["-v", fmt(scn["volume_a"]), a, "-v", fmt(scn["volume_b"]), b]
        if mode == "mix":
            argv = ["sox", "-R", "-m"] + inputs + ["-b", "24", out]
        elif mode == "merge":
            argv = ["sox", "-R", "-M"] + inputs + ["-b", "24", out]
        else:
            argv = (
                ["sox", "-R"]
                + inputs
                + ["-b", "24", out, "splice", "-q", f"{fmt(scn['duration_a_s'])},{fmt(scn['crossfade_s'])}"]
            )
        subprocess.run(argv, capture_output=True, text=True, check=True)
    return {"audio": "combined.flac"}

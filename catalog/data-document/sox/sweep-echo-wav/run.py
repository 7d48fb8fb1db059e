"""Synthesize a stereo sweep + plucked note with SoX, apply echo, reverb, fade and normalisation, write a WAV."""

import os
import subprocess


def command(scn, path):
    dur = float(scn["duration_s"])
    f = lambda key: f"{float(scn[key]):.6f}"  # noqa: E731
    return [
        "sox", "-R", "-r", str(scn["rate"]), "-c", "2", "-b", "16", "-n", path,
        "synth", f"{dur:.6f}", "sine", f"{f('sweep_start_hz')}:{f('sweep_end_hz')}", "pluck", f("pluck_hz"),
        "vol", "0.5",
        "echo", "0.8", "0.7", f("echo_delay_ms"), f("echo_decay"),
        "reverb", f("reverberance_pct"),
        "fade", "q", "0.05", f"{dur:.6f}", f("fade_out_s"),
        "gain", "-n", f("normalize_db"),
    ]


def main(scn):
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "sweep.wav")
    subprocess.run(command(scn, path), capture_output=True, text=True, check=True)
    return {"audio": "sweep.wav"}

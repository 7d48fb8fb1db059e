"""Time-stretch (WSOLA tempo) and pitch-shift a tremolo tone with SoX, written as a WAV."""

import os
import subprocess

MODES = {"music": "-m", "speech": "-s", "linear": "-l"}


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
        str(scn["waveform"]),
        f("freq_hz"),
        "tremolo",
        f("tremolo_hz"),
        f("tremolo_depth_pct"),
        "tempo",
        MODES[str(scn["tempo_mode"])],
        f("tempo_factor"),
        "pitch",
        f("pitch_cents"),
        "gain",
        "-n",
        "-1",
    ]


def main(scn):
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "stretched.wav")
    subprocess.run(command(scn, path), capture_output=True, text=True, check=True)
    return {"audio": "stretched.wav"}

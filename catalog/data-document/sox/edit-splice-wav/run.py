"""Edit a synthesized tone with SoX's editing effects (trim, pad, repeat, reverse, speed + rate), written as a WAV."""

import os
import subprocess


def fmt(x):
    return f"{float(x):.6f}"


def main(scn):
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "edited.wav")
    rate = str(scn["rate"])
    argv = [
        "sox",
        "-R",
        "-r",
        rate,
        "-c",
        "1",
        "-b",
        "16",
        "-n",
        path,
        "synth",
        "2.000000",
        "sine",
        f"{fmt(scn['start_hz'])}-{fmt(scn['end_hz'])}",
        "fade",
        "h",
        "0.050000",
        "2.000000",
        "0.200000",
        "trim",
        fmt(scn["trim_start_s"]),
        fmt(scn["trim_length_s"]),
        "pad",
        fmt(scn["pad_before_s"]),
        fmt(scn["pad_after_s"]),
        "repeat",
        str(int(scn["repeats"])),
    ]
    if scn["reverse"]:
        argv.append("reverse")
    argv += ["speed", fmt(scn["speed"]), "rate", "-h", rate]
    subprocess.run(argv, capture_output=True, text=True, check=True)
    return {"audio": "edited.wav"}

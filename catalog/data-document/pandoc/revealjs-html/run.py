"""Render a filled Markdown talk as a reveal.js slide deck (slide levels, incremental lists, theme,
notes) with pandoc."""

import math
import os
import subprocess
from pathlib import Path

BANDS = ["0.1-1 Hz", "1-5 Hz", "5-20 Hz", "20-50 Hz"]


def fill(template_text, scn):
    base, ratio = float(scn["base_db"]), float(scn["day_night_ratio"])
    levels = [base - 6.0 * k + 10.0 * math.log10(ratio) * (k / 3.0) for k in range(len(BANDS))]
    table = "\n".join(f"| {b} | {lv:.1f} |" for b, lv in zip(BANDS, levels))
    return template_text.format(
        station=str(scn["station"]),
        peak_period=float(scn["peak_period_s"]),
        hours=8,
        n_days=int(scn["n_days"]),
        window_min=30,
        table=table,
        storm_day=int(scn["n_days"]) // 2,
        ratio=ratio,
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "slides.html")
    argv = [
        "pandoc",
        "-f",
        "markdown",
        "-t",
        "revealjs",
        "--standalone",
        "--mathml",
        f"--slide-level={int(scn['slide_level'])}",
        "-V",
        f"theme={scn['theme']}",
        "-o",
        out,
    ]
    if scn["incremental"]:
        argv.insert(-2, "--incremental")
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "slides.html"}

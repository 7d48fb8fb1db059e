"""Convert a filled LaTeX article (macros, equations, tabular, cross-references) to standalone HTML5 with pandoc."""

import math
import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    tau, amp, dt, n = float(scn["tau_s"]), float(scn["amplitude"]), float(scn["dt_s"]), int(scn["rows"])
    ys = [amp * math.exp(-k * dt / tau) for k in range(n)]
    rows = [f"{k} & {k * dt:.3f} & {y:.5f} \\\\" for k, y in enumerate(ys)]
    return template_text.format(
        tau=tau, amplitude=amp, rows=n, table="\n".join(rows), last=ys[-1], half_life=tau * math.log(2.0)
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "article.html")
    argv = [
        "pandoc",
        "-f",
        "latex",
        "-t",
        "html5",
        "--standalone",
        f"--{scn['math']}",
        "--section-divs",
        "--metadata",
        "lang=en",
        "--metadata",
        "pagetitle=Decay",
        "-o",
        out,
    ]
    if scn["number_sections"]:
        argv.insert(-2, "--number-sections")
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "article.html"}

"""Convert a filled DocBook 5 article (info block with author e-mail, sections, CALS table, footnote, quote,
program listing) to standalone HTML5 with pandoc's DocBook reader."""

import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    slope, b, step, n = float(scn["slope"]), float(scn["intercept"]), float(scn["step"]), int(scn["n_points"])
    xs = [step * (k + 1) for k in range(n)]
    ys = [slope * x + b + 0.01 * slope * ((3 * k) % 5 - 2) for k, x in enumerate(xs)]
    rows = "\n".join(
        f"          <row><entry>{k}</entry><entry>{x:.3f}</entry><entry>{y:.4f}</entry></row>"
        for k, (x, y) in enumerate(zip(xs, ys))
    )
    return template_text.format(
        instrument=str(scn["instrument"]),
        day=int(scn["day"]),
        n_points=n,
        slope=slope,
        intercept=b,
        step=step,
        unit=str(scn["unit"]),
        rows=rows,
        mean_y=sum(ys) / n,
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "calibration.html")
    argv = [
        "pandoc",
        "-f",
        "docbook",
        "-t",
        "html5",
        "--standalone",
        "--section-divs",
        f"--email-obfuscation={scn['email_obfuscation']}",
        "--metadata",
        "lang=en",
        "-o",
        out,
    ]
    if scn["html_q_tags"]:
        argv.insert(-2, "--html-q-tags")
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "calibration.html"}

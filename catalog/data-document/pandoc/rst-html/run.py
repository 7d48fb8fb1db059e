"""Convert a filled reStructuredText protocol (list-table, math, admonition, footnotes) to standalone
HTML5 with pandoc."""

import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    c0, f, n = float(scn["stock_mm"]), float(scn["dilution_factor"]), int(scn["rows"])
    conc = [c0 / f**k for k in range(n)]
    lines = []
    for k, c in enumerate(conc):
        lines += [f"   * - {k}", f"     - {f**k:.4g}", f"     - {c:.6g}"]
    return template_text.format(
        temp_c=float(scn["temp_c"]),
        ph=float(scn["ph"]),
        stock_mm=c0,
        rows=n,
        admonition=str(scn["admonition"]),
        table="\n".join(lines),
        lowest=conc[-1],
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "protocol.html")
    argv = [
        "pandoc",
        "-f",
        "rst",
        "-t",
        "html5",
        "--standalone",
        "--mathml",
        "--toc",
        f"--toc-depth={int(scn['toc_depth'])}",
    ]
    if scn["number_sections"]:
        argv.append("--number-sections")
    argv += ["--metadata", "lang=en", "-o", out]
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "protocol.html"}

"""Convert a filled Org-mode lab book (headlines with TODO states and tags, drawers, tables, src
blocks) to HTML5 with pandoc."""

import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    c, v0, n = float(scn["molarity"]), float(scn["volume_ml"]), int(scn["trials"])
    vols = [v0 * (1.0 + 0.01 * ((k * 7) % 5 - 2)) for k in range(n)]
    rows = "\n".join(f"   | {k + 1} | {v:.3f} | {c * v / 1000.0:.6f} |" for k, v in enumerate(vols))
    mean_v = sum(vols) / n
    return template_text.format(
        run=str(scn["run"]),
        day=int(scn["day"]),
        volume=v0,
        molarity=c,
        table=rows,
        mean_v=mean_v,
        moles=c * mean_v / 1000.0,
        first=vols[0],
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "labbook.html")
    argv = [
        "pandoc",
        "-f",
        "org",
        "-t",
        "html5",
        "--standalone",
        "--mathml",
        "--section-divs",
        f"--id-prefix={scn['id_prefix']}",
        "--metadata",
        "lang=en",
        "-o",
        out,
    ]
    if scn["toc"]:
        argv.insert(-2, "--toc")
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "labbook.html"}

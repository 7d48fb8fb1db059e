"""Render a filled Jupyter notebook (markdown, code, stream/rich/error outputs) to HTML5 with pandoc's ipynb reader."""

import math
import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    r, k, n = float(scn["rate_per_h"]), float(scn["capacity"]), int(scn["points"])
    n0 = float(scn["initial"])
    t0 = math.log(k / n0 - 1.0) / r
    dens = [k / (1.0 + math.exp(-r * (t - t0))) for t in range(n)]
    plain = "\\n".join(f"{t:3d}  {d:12.4f}" for t, d in enumerate(dens))
    html = (
        "<table><tr><th>t (h)</th><th>N</th></tr>"
        + "".join(f"<tr><td>{t}</td><td>{d:.4f}</td></tr>" for t, d in enumerate(dens))
        + "</table>"
    )
    values = {
        "culture": str(scn["culture"]),
        "rate": f"{r:.4f}",
        "capacity": f"{k:.1f}",
        "points": str(n),
        "plain": plain,
        "html": html.replace('"', '\\"'),
        "doubling": f"{math.log(2.0) / r:.3f}",
        "final": f"{dens[-1]:.3f}",
    }
    for name, value in values.items():
        template_text = template_text.replace(f"<<{name}>>", value)
    return template_text


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "notebook.html")
    argv = [
        "pandoc",
        "-f",
        "ipynb",
        "-t",
        "html5",
        "--standalone",
        "--mathml",
        f"--ipynb-output={scn['ipynb_output']}",
        "--metadata",
        "lang=en",
        "--metadata",
        "pagetitle=notebook",
        "-o",
        out,
    ]
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "notebook.html"}

"""Apply a Lua filter (number rescaling or outline/attribute tagging) while converting filled Markdown
to HTML5 with pandoc."""

import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    base, n = float(scn["base_value"]), int(scn["n_channels"])
    values = [base * (k + 1) ** 0.5 for k in range(n)]
    items = "\n".join(f"- channel {k}: [{v:.6f}]{{.num}} (raw {v:.4f})" for k, v in enumerate(values))
    return template_text.format(
        site=str(scn["site"]),
        scale=float(scn["scale"]),
        digits=int(scn["digits"]),
        t=base * 1.5,
        p=base * 40.0,
        n=n,
        items=items,
        first=values[0],
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "filtered.html")
    argv = [
        "pandoc",
        "-f",
        "markdown",
        "-t",
        "html5",
        "--standalone",
        f"--lua-filter={scn['filter']}",
        "--metadata",
        "lang=en",
        "-o",
        out,
    ]
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "filtered.html"}

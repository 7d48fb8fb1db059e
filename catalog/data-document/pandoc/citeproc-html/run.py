"""Resolve citations against a BibTeX file with pandoc's citeproc (default Chicago author-date style) into HTML5."""

import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    n, step = int(scn["n_samples"]), float(scn["step"])
    acceptance = 1.0 / (1.0 + step * step)
    page = int(scn["page"])
    nocite = "@*" if scn["nocite_all"] else ""
    return template_text.format(n_samples=n, step=step, acceptance=acceptance, page=page, page2=page + 3, nocite=nocite)


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "cited.html")
    argv = [
        "pandoc",
        "-f",
        "markdown",
        "-t",
        "html5",
        "--standalone",
        "--citeproc",
        f"--bibliography={scn['bib']}",
        "--metadata",
        f"link-citations={'true' if scn['link_citations'] else 'false'}",
        "--metadata",
        f"reference-section-title={scn['reference_title']}",
        "--metadata",
        "lang=en",
    ]
    argv += ["-o", out]
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "cited.html"}

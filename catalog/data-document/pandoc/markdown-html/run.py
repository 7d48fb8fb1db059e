"""Convert a filled Markdown template to a standalone HTML5 document with pandoc (numbered sections, TOC, MathML)."""

import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    x0, dx, a, n = float(scn["x0"]), float(scn["dx"]), float(scn["a"]), int(scn["table_rows"])
    xs = [x0 + i * dx for i in range(n)]
    ys = [a * x * x for x in xs]
    rows = ["| i | x | y |", "|--:|:--|--:|"] + [f"| {i} | {x:.4f} | {y:.4f} |" for i, (x, y) in enumerate(zip(xs, ys))]
    return template_text.format(x0=x0, dx=dx, a=a, table="\n".join(rows), ymax=max(ys), ymean=sum(ys) / n)


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "document.html")
    argv = ["pandoc", "-f", "markdown", "-t", "html5", "--standalone", "--toc", "--number-sections",
            "--mathml", f"--shift-heading-level-by={int(scn['shift_heading'])}",
            f"--number-offset={int(scn['number_offset'])}", "--metadata", "lang=en", "-o", out]
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "document.html"}

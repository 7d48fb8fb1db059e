"""Convert a filled groff man page (.TH header, sections, .TP option list, .EX example, .IP list, .RS nesting)
to standalone HTML5 with pandoc's man reader."""

import os
import subprocess
from pathlib import Path

OPTIONS = ["tol", "max-iter", "seed", "window", "order", "scale"]


def fill(template_text, scn):
    tol, n = float(scn["tolerance"]), int(scn["n_options"])
    defaults = [f"{tol:.2e}", str(10 * n), "0", str(2 * n + 1), str(n // 2), "1.0"]
    options = "\n".join(f'.TP\n.BR \\-\\-{OPTIONS[k]} " " \\fIvalue\\fR\ndefault {defaults[k]}' for k in range(n))
    tool = str(scn["tool"])
    return template_text.format(
        tool=tool,
        TOOL=tool.upper(),
        day=int(scn["day"]),
        version=f"{int(scn['major'])}.{int(scn['minor'])}",
        tolerance=tol,
        options=options,
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "manual.html")
    argv = [
        "pandoc",
        "-f",
        "man",
        "-t",
        "html5",
        "--standalone",
        f"--shift-heading-level-by={int(scn['shift_heading'])}",
        "--metadata",
        "lang=en",
        "-o",
        out,
    ]
    if scn["toc"]:
        argv.insert(-2, "--toc")
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "manual.html"}

"""Convert a filled Markdown article (metadata, table, math, footnotes) to JATS XML with pandoc."""

import os
import subprocess
from pathlib import Path


def fill(template_text, scn):
    t_lo, t_hi, n = float(scn["t_low_k"]), float(scn["t_high_k"]), int(scn["points"])
    k0, slope = float(scn["k_at_300"]), float(scn["slope"])
    ts = [t_lo + (t_hi - t_lo) * i / (n - 1) for i in range(n)]
    ks = [k0 + slope * (t - 300.0) for t in ts]
    table = "\n".join(f"| {t:.1f} | {k:.4f} |" for t, k in zip(ts, ks))
    return template_text.format(
        material=str(scn["material"]), t_lo=t_lo, t_hi=t_hi, n=n, slope=slope, table=table, mean=sum(ks) / n
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "article.xml")
    argv = ["pandoc", "-f", "markdown", "-t", str(scn["flavor"]), "--standalone", "-o", out]
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "article.xml"}

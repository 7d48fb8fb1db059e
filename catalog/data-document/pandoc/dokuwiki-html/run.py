"""Convert a filled DokuWiki lab-wiki page (headings, ^/| tables, nested lists, footnotes, code, links) to
standalone HTML5 with pandoc's DokuWiki reader."""

import os
import subprocess
from pathlib import Path

REAGENTS = [("Buffer 10x", 10.0), ("dNTP 10 mM", 50.0), ("Primer F 10 uM", 25.0), ("Primer R 10 uM", 25.0)]


def fill(template_text, scn):
    n, template_ul = int(scn["n_samples"]), float(scn["template_ul"])
    enzyme = float(scn["polymerase_ul"])
    volume = float(scn["reaction_ul"])
    parts = [(name, volume / dilution) for name, dilution in REAGENTS] + [
        ("Polymerase", enzyme),
        ("Template", template_ul),
    ]
    water = volume - sum(v for _, v in parts)
    parts.append(("Water", water))
    table = "\n".join(f"| {name} | {v:.2f} | {v * (n + 1):.2f} |" for name, v in parts)
    return template_text.format(
        target=str(scn["target"]),
        n_samples=n,
        anneal_c=float(scn["anneal_c"]),
        cycles=int(scn["cycles"]),
        table=table,
        per_rxn=sum(v for _, v in parts),
    )


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    out = os.path.join(os.environ["SWR_ARTIFACTS"], "wiki.html")
    argv = ["pandoc", "-f", "dokuwiki", "-t", "html5", "--standalone", "--metadata", f"title={scn['target']} PCR"]
    argv += ["--metadata", "lang=en", f"--reference-location={scn['reference_location']}", "-o", out]
    if scn["number_sections"]:
        argv.insert(-2, "--number-sections")
    subprocess.run(argv, input=text, capture_output=True, text=True, check=True)
    return {"document": "wiki.html"}

"""Render a filled Markdown template with pandoc to its JSON AST and report structural facts."""

import json
import subprocess
from pathlib import Path

BLOCKS = ["Plain", "Para", "LineBlock", "CodeBlock", "RawBlock", "BlockQuote", "OrderedList", "BulletList",
          "DefinitionList", "Header", "HorizontalRule", "Table", "Figure", "Div"]
INLINES = ["Str", "Emph", "Strong", "Quoted", "Code", "Space", "SoftBreak", "LineBreak", "Math", "RawInline",
           "Link", "Image", "Note", "Span"]


def fill(template_text, scn):
    x0, dx, a, n = float(scn["x0"]), float(scn["dx"]), float(scn["a"]), int(scn["table_rows"])
    xs = [x0 + i * dx for i in range(n)]
    ys = [a * x * x for x in xs]
    rows = ["| i | x | y |", "|--:|:--|--:|"] + [f"| {i} | {x:.4f} | {y:.4f} |" for i, (x, y) in enumerate(zip(xs, ys))]
    return template_text.format(x0=x0, dx=dx, a=a, table="\n".join(rows), ymax=max(ys), ymean=sum(ys) / n)


def walk(node, visit):
    if isinstance(node, dict):
        if "t" in node:
            visit(node)
        for v in node.values():
            walk(v, visit)
    elif isinstance(node, list):
        for v in node:
            walk(v, visit)


def stringify(node):
    parts = []

    def visit(n):
        t = n["t"]
        if t in ("Str", "Code", "Math"):
            parts.append(n["c"] if t == "Str" else n["c"][1])
        elif t in ("Space", "SoftBreak", "LineBreak"):
            parts.append(" ")

    walk(node, visit)
    return "".join(parts)


def main(scn):
    text = fill(Path(str(scn["template"])).read_text(encoding="utf-8"), scn)
    proc = subprocess.run(["pandoc", "-f", "markdown", "-t", "json"], input=text, capture_output=True,
                          text=True, check=True)
    doc = json.loads(proc.stdout)
    counts = {k: 0.0 for k in BLOCKS + INLINES}
    headers, links, maths, numbers, tables = [], [], [], [], []

    def visit(n):
        t = n["t"]
        if t in counts:
            counts[t] += 1.0
        if t == "Header":
            headers.append({"level": float(n["c"][0]), "id": n["c"][1][0], "text": stringify(n["c"][2])})
        elif t == "Link":
            links.append(n["c"][2][0])
        elif t == "Math":
            maths.append(n["c"][1])
        elif t == "Str":
            try:
                numbers.append(float(n["c"].rstrip(".,;:)")))
            except ValueError:
                pass
        elif t == "Table":
            _attr, caption, colspecs, _head, bodies, _foot = n["c"]
            cells = []
            for body in bodies:
                for row in body[3]:
                    cells.append([stringify(cell[4]) for cell in row[1]])
            tables.append({"caption": stringify(caption[1]),
                           "alignments": [spec[0]["t"] for spec in colspecs],
                           "n_rows": float(len(cells)),
                           "column_sums": [float(sum(float(r[j]) for r in cells)) for j in range(len(colspecs))]})

    walk(doc["blocks"], visit)
    meta = doc["meta"]
    return {
        "api_version": ".".join(str(v) for v in doc["pandoc-api-version"]),
        "meta_keys": sorted(meta),
        "title": stringify(meta.get("title", {})),
        "n_top_blocks": float(len(doc["blocks"])),
        "counts": counts,
        "headers": headers,
        "links": links,
        "math": maths,
        "tables": tables,
        "numbers_sum": float(sum(numbers)),
        "numbers_count": float(len(numbers)),
    }

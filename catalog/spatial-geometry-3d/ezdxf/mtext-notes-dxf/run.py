"""Drawing notes as formatted MTEXT with ezdxf's text tools: the MText markup built with
ezdxf.tools.text.MTextEditor (bullet list, colour and underline of a critical note, a stacked tolerance), placed with
an attachment point, rotation and column width, written as DXF text with ezdxf's fixed metadata, and parsed back:
plain text lines (MText.plain_text) and the markup's tokens (ezdxf.tools.text.MTextParser).
"""

import io
import os

import ezdxf
from ezdxf.tools.text import MTextEditor, MTextParser

NOTES = ["BREAK ALL SHARP EDGES", "DEBURR ALL HOLES", "ANODISE CLEAR", "MATERIAL 6061-T6", "SURFACE RA 1.6",
         "INSPECT PER PLAN"]
BULLETS = {"dash": lambda i: "-", "bullet": lambda i: "\u2022", "numbered": lambda i: f"{i + 1}."}
ATTACH = {"top_left": 1, "middle_center": 5, "bottom_right": 9}


def markup(scn):
    n, crit, dec = int(scn["n_notes"]), int(scn["critical_note"]), int(scn["decimals"])
    items = []
    for i, note in enumerate(NOTES[:n]):
        if i == crit:
            items.append(str(MTextEditor().color("red").underline(note)))
        else:
            items.append(note)
    ed = MTextEditor("GENERAL NOTES").append(MTextEditor.NEW_PARAGRAPH)
    ed.bullet_list(indent=float(scn["indent"]), bullets=[BULLETS[str(scn["bullets"])](i) for i in range(n)],
                   content=items)
    ed.append(MTextEditor.NEW_PARAGRAPH).append("TOLERANCE ")
    ed.stack(f"+{float(scn['tol_upper']):.{dec}f}", f"-{float(scn['tol_lower']):.{dec}f}", "^")
    return str(ed)


def main(scn: dict) -> dict:
    ezdxf.options.write_fixed_meta_data_for_testing = True
    text = markup(scn)
    doc = ezdxf.new("R2010", setup=False)
    msp = doc.modelspace()
    mtext = msp.add_mtext(text, dxfattribs={
        "char_height": float(scn["text_height"]), "width": float(scn["column_width"]),
        "rotation": float(scn["rotation_deg"]), "attachment_point": ATTACH[str(scn["attachment"])],
        "insert": (10.0, 20.0)})
    stream = io.StringIO()
    doc.write(stream)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "notes.dxf"), "w", encoding="utf-8", newline="") as fh:
        fh.write(stream.getvalue())
    tokens: dict[str, int] = {}
    for tok in MTextParser(text):
        tokens[tok.type.name] = tokens.get(tok.type.name, 0) + 1
    lines = mtext.plain_text(split=True)
    return {
        "drawing": "notes.dxf",
        "markup_length": len(text),
        "plain_lines": lines,
        "tokens": dict(sorted(tokens.items())),
        "words": sum(len(ln.split()) for ln in lines),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

"""A CAD layer standard applied with ezdxf and audited after a DXF round trip: layer table entries with ACI and true
colours (ezdxf.colors), linetypes, lineweights, transparency and plot flags, entities distributed over them, empty
layers purged, the drawing written to DXF text and read back (ezdxf.read), and the read-back layer table exported as a
YAML configuration file.

Entry workflow: main() creates a new document per call and never mutates module state.
"""

import io
import os
import random

import ezdxf
import yaml
from ezdxf import colors

GROUPS = ["WALL", "DOOR", "GLAZ", "FLOR", "CLNG", "FURN", "EQPM", "ANNO", "DIMS", "GRID"]
LINETYPES = ["Continuous", "DASHED", "CENTER", "PHANTOM", "DOT"]
LINEWEIGHTS = [13, 18, 25, 35, 50, 70]  # 1/100 mm
TRANSPARENCIES = [0.0, 0.2, 0.5]


def build(scn):
    rng = random.Random(int(scn["seed"]))
    doc = ezdxf.new(str(scn["dxfversion"]), setup=True)
    names = [f"{scn['discipline']}-{GROUPS[i]}" for i in range(int(scn["n_layers"]))]
    for name in names:
        layer = doc.layers.add(name, color=rng.randint(1, 255), linetype=rng.choice(LINETYPES),
                               lineweight=rng.choice(LINEWEIGHTS))
        layer.transparency = rng.choice(TRANSPARENCIES)
        rgb = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        if scn["true_colors"]:
            layer.rgb = rgb
        if rng.random() < float(scn["noplot_rate"]):
            layer.dxf.plot = 0
    msp = doc.modelspace()
    for _ in range(int(scn["n_entities"])):
        name = names[rng.randrange(len(names))]
        msp.add_line((rng.randint(0, 100), rng.randint(0, 100)), (rng.randint(0, 100), rng.randint(0, 100)),
                     dxfattribs={"layer": name})
    return doc, names


def main(scn: dict) -> dict:
    doc, names = build(scn)
    counts = {n: len(doc.modelspace().query(f'*[layer=="{n}"]')) for n in names}
    removed = [n for n in names if counts[n] == 0] if scn["purge_empty"] else []
    for n in removed:
        doc.layers.remove(n)
    stream = io.StringIO()
    doc.write(stream)
    back = ezdxf.read(io.StringIO(stream.getvalue()))
    table = {}
    for layer in back.layers:
        name = layer.dxf.name
        if name not in counts:
            continue
        table[name] = {
            "color": layer.color,
            "true_color": list(layer.rgb) if layer.rgb is not None else None,
            "display_rgb": list(layer.rgb if layer.rgb is not None else colors.aci2rgb(layer.color)),
            "linetype": layer.dxf.linetype,
            "lineweight_mm": layer.dxf.lineweight / 100.0,
            "transparency": round(layer.transparency, 6),
            "plot": bool(layer.dxf.plot),
            "entities": len(back.modelspace().query(f'*[layer=="{name}"]')),
        }
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "layers.yaml"), "w", encoding="utf-8") as fh:
        yaml.safe_dump({"dxfversion": back.dxfversion, "layers": table}, fh, sort_keys=True)
    busiest = max(sorted(table), key=lambda n: table[n]["entities"]) if table else None
    return {
        "config": "layers.yaml",
        "dxfversion": back.dxfversion,
        "layers_kept": len(table),
        "layers_removed": removed,
        "busiest_layer": busiest,
        "non_plotting": sorted(n for n, v in table.items() if not v["plot"]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

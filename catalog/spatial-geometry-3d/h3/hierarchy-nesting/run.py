"""How H3's logical hierarchy departs from geometric nesting (Uber's H3 v4): the children of a cell
(h3.cell_to_children) against the cells that fill its boundary polygon (h3.polygon_to_cells_experimental on
h3.cell_to_boundary) under a containment mode, their overlap, the area ratio of children to parent, and the outline of
the children's union (h3.cells_to_h3shape).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import h3


def main(s: dict) -> dict:
    res, depth, unit = int(s["resolution"]), int(s["depth"]), str(s["area_unit"])
    parent = h3.latlng_to_cell(float(s["lat"]), float(s["lng"]), res)
    child_res = res + depth
    children = sorted(h3.cell_to_children(parent, child_res))
    poly = h3.LatLngPoly(h3.cell_to_boundary(parent))
    geometric = sorted(h3.polygon_to_cells_experimental(poly, child_res, contain=str(s["containment"])))
    both = set(children) & set(geometric)
    union = set(children) | set(geometric)
    outline = h3.cells_to_h3shape(children, tight=True)
    parent_area = h3.cell_area(parent, unit=unit)
    children_area = sum(h3.cell_area(c, unit=unit) for c in children)
    return {
        "parent": parent,
        "is_pentagon": h3.is_pentagon(parent),
        "children": len(children),
        "center_child": h3.cell_to_center_child(parent, child_res),
        "geometric_cells": len(geometric),
        "common": len(both),
        "jaccard": len(both) / len(union) if union else 1.0,
        "children_outside": sorted(set(children) - set(geometric)),
        "area_defect_ppb": (children_area / parent_area - 1.0) * 1e9,
        "parent_area": parent_area,
        "outline_polygons": len(outline.polys) if hasattr(outline, "polys") else 1,
        "outline_vertices": sum(len(p.outer) + sum(len(h) for h in p.holes)
                                for p in (outline.polys if hasattr(outline, "polys") else [outline])),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

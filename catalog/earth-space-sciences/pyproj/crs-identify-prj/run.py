"""Identify a UTM coordinate reference system given as a PROJ string against the EPSG registry with pyproj
(CRS.from_proj4, CRS.to_epsg, CRS.list_authority, CRS.equals, CRS.to_wkt), as a GIS analyst recovers the code of a
legacy data set and writes its .prj file.

Entry workflow: main(dict) -> dict; the .prj (WKT) file goes to $SWR_ARTIFACTS.
"""

import os

from pyproj import CRS


def main(s: dict) -> dict:
    south = " +south" if bool(s["south"]) else ""
    proj = f"+proj=utm +zone={int(s['zone'])}{south} +datum={s['datum']} +units={s['units']} +no_defs +type=crs"
    crs = CRS.from_proj4(proj)
    conf = int(s["min_confidence"])
    code = crs.to_epsg(min_confidence=conf)
    matches = [[m.auth_name, m.code, int(m.confidence)] for m in crs.list_authority(min_confidence=conf)]
    ref = CRS.from_epsg(code) if code is not None else None
    wkt = crs.to_wkt(version=str(s["wkt_version"]), pretty=True)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "layer.prj"), "w", encoding="utf-8") as fh:
        fh.write(wkt + "\n")
    axis = crs.axis_info[0]
    return {
        "prj": "layer.prj",
        "proj_string": proj,
        "epsg": code,
        "matches": matches,
        "epsg_name": ref.name if ref is not None else None,
        "equals_epsg": bool(crs.equals(ref, ignore_axis_order=True)) if ref is not None else False,
        "unit_name": axis.unit_name,
        "unit_factor_m": float(axis.unit_conversion_factor),
        "wkt_lines": wkt.count("\n") + 1,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

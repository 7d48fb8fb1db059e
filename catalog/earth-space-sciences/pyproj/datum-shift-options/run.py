"""The candidate datum transformations between a legacy geographic CRS and a modern one with pyproj's
TransformerGroup (PROJ's operation search, with accuracies, areas and unavailable grid-based operations), each applied
to a point and its shift measured on the WGS 84 ellipsoid (Geod.inv), as a surveyor chooses how to move old
coordinates without transformation grids.

Entry workflow: main(dict) -> dict.
"""

import warnings

from pyproj import CRS, Geod
from pyproj.transformer import TransformerGroup


def main(s: dict) -> dict:
    src = CRS.from_epsg(int(s["source_epsg"]))
    dst = CRS.from_epsg(4326)
    area = src.area_of_use
    lon = area.west + float(s["frac_x"]) * (area.east - area.west)
    lat = area.south + float(s["frac_y"]) * (area.north - area.south)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        group = TransformerGroup(src, dst, always_xy=True, allow_ballpark=bool(s["allow_ballpark"]))
    geod = Geod(ellps="WGS84")
    options = []
    for tr in group.transformers[: int(s["top_n"])]:
        x, y = tr.transform(lon, lat)
        _, _, dist = geod.inv(lon, lat, x, y)
        acc = tr.accuracy
        options.append({"description": tr.description, "accuracy_m": float(acc) if acc is not None else -1.0,
                        "lon_deg": float(x), "lat_deg": float(y), "shift_m": float(dist)})
    return {
        "source_name": src.name,
        "target_name": dst.name,
        "point": [lon, lat],
        "n_transformers": len(group.transformers),
        "n_unavailable": len(group.unavailable_operations),
        "best_available": bool(group.best_available),
        "options": options,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

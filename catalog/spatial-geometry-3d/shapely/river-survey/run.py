"""A river centreline, a road crossing it and a noisy GPS survey of the bank, processed with shapely's
line operations (GEOS): split at the crossing, snap the survey to the centreline, shared paths, discrete
Frechet distance, densification, a reach cut out by substring, and the shortest line to a well.

Entry workflow: served by warm workers that import this module once; main() builds new geometries per call.
"""

import math

import numpy as np
import shapely
from shapely.ops import split, substring


def river(scenario: dict) -> shapely.LineString:
    n, length = int(scenario["n_vertices"]), float(scenario["length"])
    amp, wl = float(scenario["amplitude"]), float(scenario["wavelength"])
    x = np.linspace(0.0, length, n)
    return shapely.LineString(np.column_stack([x, amp * np.sin(2.0 * math.pi * x / wl)]))


def survey(centre: shapely.LineString, scenario: dict) -> shapely.LineString:
    rng = np.random.default_rng(int(scenario["seed"]))
    xy = shapely.get_coordinates(centre)
    track = xy + rng.normal(0.0, float(scenario["gps_sigma"]), xy.shape)
    return shapely.LineString(track[::-1] if bool(scenario["surveyed_upstream"]) else track)


def main(scenario: dict) -> dict:
    centre = river(scenario)
    length = float(scenario["length"])
    a = math.radians(float(scenario["road_angle_deg"]))
    x0 = float(scenario["road_x_frac"]) * length
    reach = 2.0 * length
    road = shapely.LineString(
        [(x0 - reach * math.cos(a), -reach * math.sin(a)), (x0 + reach * math.cos(a), reach * math.sin(a))]
    )
    pieces = list(split(centre, road).geoms)
    gps = survey(centre, scenario)
    snapped = shapely.snap(gps, centre, float(scenario["snap_tolerance"]))
    forward, backward = shapely.shared_paths(snapped, centre).geoms
    spacing = float(scenario["length"]) / (int(scenario["n_vertices"]) - 1)  # x step between vertices
    dense = shapely.segmentize(centre, float(scenario["densify_fraction"]) * spacing)
    s0, s1 = sorted((float(scenario["reach_start_frac"]), float(scenario["reach_end_frac"])))
    cut = substring(centre, s0, s1, normalized=True)
    well = shapely.Point(x0, float(scenario["well_y"]))
    link = shapely.shortest_line(well, centre)
    return {
        "river_length": float(centre.length),
        "crossings": int(len(pieces) - 1),
        "piece_lengths": [float(p.length) for p in pieces],
        "snapped_vertices": int(shapely.get_num_coordinates(snapped)),
        "snapped_length": float(snapped.length),
        "shared_forward_length": float(forward.length),
        "shared_backward_length": float(backward.length),
        "frechet_survey": float(shapely.frechet_distance(gps, centre)),
        "densified_vertices": int(shapely.get_num_coordinates(dense)),
        "reach_length": float(cut.length),
        "reach_ends": [[float(v) for v in cut.coords[0]], [float(v) for v in cut.coords[-1]]],
        "well_link": {"length": float(link.length), "foot": [float(v) for v in link.coords[-1]]},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

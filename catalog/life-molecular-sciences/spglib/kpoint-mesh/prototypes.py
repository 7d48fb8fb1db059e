"""Crystal prototypes: conventional cells as (lattice rows, fractional positions, atomic numbers)."""

import math

U_WURTZITE = 0.375
X_RUTILE = 0.305


def _hex(a, c):
    return [[a, 0.0, 0.0], [-a / 2.0, a * math.sqrt(3.0) / 2.0, 0.0], [0.0, 0.0, c]]


def _cubic(a):
    return [[a, 0.0, 0.0], [0.0, a, 0.0], [0.0, 0.0, a]]


def _fcc(basis):
    out = []
    for t in ([0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]):
        for p, z in basis:
            out.append(([(p[i] + t[i]) % 1.0 for i in range(3)], z))
    return out


def build(name, a, c_over_a):
    """Return (lattice, positions, numbers). c_over_a is used by the hexagonal and tetragonal prototypes only."""
    c = a * c_over_a
    if name == "rocksalt":
        sites, lat = _fcc([([0, 0, 0], 11), ([0.5, 0, 0], 17)]), _cubic(a)
    elif name == "zincblende":
        sites, lat = _fcc([([0, 0, 0], 30), ([0.25, 0.25, 0.25], 16)]), _cubic(a)
    elif name == "diamond":
        sites, lat = _fcc([([0, 0, 0], 14), ([0.25, 0.25, 0.25], 14)]), _cubic(a)
    elif name == "fluorite":
        sites, lat = _fcc([([0, 0, 0], 20), ([0.25, 0.25, 0.25], 9), ([0.75, 0.75, 0.75], 9)]), _cubic(a)
    elif name == "cscl":
        sites, lat = [([0, 0, 0], 55), ([0.5, 0.5, 0.5], 17)], _cubic(a)
    elif name == "perovskite":
        sites = [([0, 0, 0], 38), ([0.5, 0.5, 0.5], 22),
                 ([0.5, 0.5, 0], 8), ([0.5, 0, 0.5], 8), ([0, 0.5, 0.5], 8)]
        lat = _cubic(a)
    elif name == "hcp":
        sites, lat = [([1 / 3, 2 / 3, 0.25], 12), ([2 / 3, 1 / 3, 0.75], 12)], _hex(a, c)
    elif name == "wurtzite":
        sites = [([1 / 3, 2 / 3, 0.0], 30), ([2 / 3, 1 / 3, 0.5], 30),
                 ([1 / 3, 2 / 3, U_WURTZITE], 8), ([2 / 3, 1 / 3, 0.5 + U_WURTZITE], 8)]
        lat = _hex(a, c)
    elif name == "rutile":
        x = X_RUTILE
        sites = [([0, 0, 0], 22), ([0.5, 0.5, 0.5], 22), ([x, x, 0], 8), ([1 - x, 1 - x, 0], 8),
                 ([0.5 + x, 0.5 - x, 0.5], 8), ([0.5 - x, 0.5 + x, 0.5], 8)]
        lat = [[a, 0.0, 0.0], [0.0, a, 0.0], [0.0, 0.0, c]]
    else:
        raise ValueError(name)
    return lat, [p for p, _ in sites], [z for _, z in sites]


NAMES = ["rocksalt", "zincblende", "diamond", "fluorite", "cscl", "perovskite", "hcp", "wurtzite", "rutile"]

"""FITS for the scientific-data comparator: each HDU a group (its header keywords the attributes, order-free),
an image HDU with data is itself a variable (path /HDU), a table HDU's columns one variable each (/HDU/column).

HDUs are keyed by EXTNAME (and EXTVER when above 1), else PRIMARY or HDU<i>: readers address extensions by name, so
the order of named extensions is not graded; unnamed ones keep their position. Structure and scaling cards (BITPIX,
NAXISn, PCOUNT, TFORMn, BZERO, BSCALE, BLANK, TNULLn...), checksums, COMMENT, HISTORY and card comments are
encoding, not content: astropy applies them to the values, which are compared. BUNIT and TUNITn become the
variable's `units`, compared as units. A gzip-wrapped file is refused (astropy would inflate it unbounded): a FITS
file starts with its SIMPLE card."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from ._common import Budget, file_size
from .scidata_tree import Node, Tree, attr_value, masked

ENCODING = re.compile(
    r"SIMPLE|BITPIX|NAXIS\d*|EXTEND|XTENSION|PCOUNT|GCOUNT|TFIELDS|THEAP|EXTNAME|EXTVER|BZERO|BSCALE|BLANK|"
    r"CHECKSUM|DATASUM|COMMENT|HISTORY|"
    r"T(FORM|TYPE|UNIT|DIM|NULL|SCAL|ZERO|DISP)\d+|Z.*"
)
SIMPLE = b"SIMPLE  ="


def hdu_name(i: int, hdu: Any) -> str:
    """EXTNAME (with EXTVER above 1), PRIMARY for the first HDU, else HDU<i>."""
    name = str(hdu.header.get("EXTNAME", "")).strip()
    if not name:
        return "PRIMARY" if i == 0 else f"HDU{i}"
    ver = hdu.header.get("EXTVER", 1)
    return name if ver in (1, None) else f"{name},{ver}"


def header_attrs(header: Any) -> dict[str, Any]:
    """Keywords that carry meaning (values only: card comments and order are free); BUNIT as `units`."""
    out: dict[str, Any] = {}
    for card in header.cards:
        key = str(card.keyword)
        if not key or ENCODING.fullmatch(key):
            continue
        value = attr_value(card.value)
        out["units" if key == "BUNIT" else key] = value.rstrip() if isinstance(value, str) else value
    return out


def read_fits(path: Path, budget: Budget) -> Tree:
    """Every HDU's header, then its data, each admitted (nodes, declared decoded size) before it is read."""
    from astropy.io import fits

    file_size(path, budget)
    with open(path, "rb") as fh:
        if fh.read(len(SIMPLE)) != SIMPLE:
            raise ValueError("not a FITS file (it does not start with the SIMPLE card)")
    tree: Tree = {}
    nodes = 0
    with fits.open(path, memmap=False, lazy_load_hdus=True, cache=False) as hdul:
        for i, hdu in enumerate(hdul):  # headers are read one HDU at a time
            nodes += 1 + len(hdu.header)
            budget.admit("nodes", nodes)
            name = "/" + hdu_name(i, hdu)
            if name in tree:
                raise ValueError(f"two HDUs named {name[1:]!r}")
            tree[name] = Node("group", header_attrs(hdu.header))
            if isinstance(hdu, (fits.BinTableHDU, fits.TableHDU)):
                nodes = _table(name, hdu, tree, budget, nodes)
            elif isinstance(hdu, (fits.PrimaryHDU, fits.ImageHDU, fits.CompImageHDU)):
                _image(name, hdu, tree, budget)
            else:
                raise ValueError(f"HDU {i}: {type(hdu).__name__} is not an image or a table")
    return tree


def _image(name: str, hdu: Any, tree: Tree, budget: Budget) -> None:
    """An image HDU with data is the variable `name` (its header keywords its attributes, BUNIT its units), its
    values scaled by BZERO/BSCALE and BLANK masked; a header-only HDU (an empty primary) stays a group."""
    shape = tuple(int(n) for n in (hdu.shape or ()))
    if not shape:
        return
    budget.admit("decoded", budget.seen.get("decoded", 0) + 8 * int(np.prod(shape)))
    blank = hdu.header.get("BLANK")
    data = hdu.data
    node = tree[name]
    node.kind, node.shape, node.dtype = "variable", shape, np.asarray(data).dtype.str
    node.data, node.mask = masked(data, [] if blank is None else [blank])


def _table(name: str, hdu: Any, tree: Tree, budget: Budget, nodes: int) -> int:
    """A table HDU's columns (scaled, TNULL masked) as variables `name/column`, rows in order (a row is a record the
    file's readers index), with TUNITn as units; variable-length arrays admitted by their descriptors' lengths."""
    header = hdu.header
    rows, width = int(header.get("NAXIS2", 0)), int(header.get("NAXIS1", 0))
    cols = hdu.columns
    nodes += len(cols)
    budget.admit("nodes", nodes)
    budget.admit("decoded", budget.seen.get("decoded", 0) + 8 * rows * max(len(cols), width // 2))
    data = hdu.data
    for k, col in enumerate(cols):
        values = data[col.name] if data is not None else np.array([])
        if type(values).__name__ == "_VLF":  # variable-length arrays: views of the heap until made into values
            budget.admit("decoded", budget.seen.get("decoded", 0) + 8 * sum(len(v) for v in values))
            values = np.array([repr(np.asarray(v).tolist()) for v in values], dtype=object)  # compared exactly
        null = header.get(f"TNULL{k + 1}")
        attrs = {"units": col.unit} if col.unit else {}
        node = Node("variable", attrs, tuple(np.shape(values)), np.asarray(values).dtype.str)
        node.data, node.mask = masked(values, [] if null is None else [null])
        tree[f"{name}/{col.name}"] = node
    return nodes

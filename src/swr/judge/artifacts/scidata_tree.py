"""The tree the scientific-data comparator compares (scidata.py), and the pieces its readers share (scidata.py for
HDF5 and NetCDF, scidata_fits.py for FITS): a node per group, variable, link or dimension; missing cells as a mask;
attributes as plain Python; variable-length text read slice by slice within the decode budget."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._common import BOUNDS, Budget


@dataclass
class Node:
    """One entry of the tree: a group (or FITS HDU), a variable, a link or a NetCDF dimension."""

    kind: str  # group | variable | link | dimension
    attrs: dict[str, Any] = field(default_factory=dict)
    shape: tuple[int, ...] = ()
    dtype: str = ""  # stored numpy dtype, e.g. '<f4'
    dims: tuple[str, ...] | None = None  # NetCDF dimension names
    data: Any = None  # np.ndarray (values) once read
    mask: Any = None  # np.ndarray of bool: missing cells
    target: str | None = None  # link target, dimension size as text


Tree = dict[str, Node]


def kind_of(dtype: np.dtype[Any]) -> str:
    """int, float, complex, str, bool or other: what the values mean, not how wide they are stored."""
    k = dtype.kind
    return {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex", "S": "str", "U": "str"}.get(
        k, "str" if k == "O" else "other"
    )


def room(budget: Budget, unit: str) -> float:
    """How much more of `unit` the candidate may decode (infinite for the reference, which sets the bound)."""
    if budget.reference is None:
        return math.inf
    limit = BOUNDS[budget.kind][unit].limit(budget.reference.seen.get(unit, 0))
    return limit - budget.seen.get(unit, 0)


def masked(values: Any, fills: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """(values as an ndarray, mask of missing cells): NaN, a masked-array mask, or a value equal to a fill."""
    mask = np.ma.getmaskarray(values) if np.ma.isMaskedArray(values) else None
    arr = np.ma.getdata(values) if mask is not None else np.asarray(values)
    if arr.dtype.kind == "O":
        arr = np.array([_text(v) for v in arr.ravel()], dtype=object).reshape(arr.shape)
    elif arr.dtype.kind == "S":
        arr = np.char.decode(arr, "utf-8", errors="replace")
    miss = np.zeros(arr.shape, dtype=bool) if mask is None else mask.copy()
    if arr.dtype.kind in "fc":
        miss |= np.isnan(arr)
    for fill in fills:
        f = np.asarray(fill)
        if f.size == 1 and arr.dtype.kind in "iuf" and f.dtype.kind in "iuf":
            miss |= arr == f.item()
    return arr, miss


def _text(v: Any) -> str:
    return v.decode("utf-8", errors="replace") if isinstance(v, bytes) else str(v)


def attr_value(v: Any) -> Any:
    """An attribute as plain Python: text decoded, one-element arrays unwrapped, arrays as lists."""
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="replace").rstrip("\0")
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "SO" or v.dtype.kind == "U":
            items = [attr_value(x) for x in v.ravel().tolist()]
            return items[0] if len(items) == 1 else items
        return v.item() if v.size == 1 else v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    return v


def read_sliced(read: Callable[[slice], Any], n: int, budget: Budget, fsize: int) -> Any:
    """A variable-length (string) variable read in slices of its first axis, each slice's text admitted as it is
    decoded: an element is at most the file's size (heap objects are stored uncompressed), so a slice never holds
    more than the room left, even when every element names one shared heap object."""
    parts, start = [], 0
    while start < n:
        step = max(1, int(min(n - start, room(budget, "decoded") // max(fsize, 1))))
        part = read(slice(start, start + step))
        size = sum(len(x) if isinstance(x, (str, bytes)) else 8 for x in np.asarray(part, dtype=object).ravel())
        budget.admit("decoded", budget.seen.get("decoded", 0) + size)
        parts.append(part)
        start += step
    return np.concatenate(parts) if parts else np.array([], dtype=object)

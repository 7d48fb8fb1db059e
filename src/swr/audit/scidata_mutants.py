"""Mutants of scientific-data artifacts (HDF5, NetCDF, FITS): the same data written the way another correct program
would (chunked and compressed, another NetCDF format, FITS cards re-ordered and re-commented: valid by construction)
and the slips the scidata comparator must catch (a value off by 1 + |x|, a unit scaled by kilo, a text attribute
changed, a variable dropped: invalid)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

Writer = Callable[[Path], object]  # artifact_mutants' aliases, repeated: it imports this module (no import cycle)
Edit = tuple[str, bool, Writer, str | None]  # class, valid, writer, another file suffix or None


def gross(x: float) -> float:
    """A value beyond any tolerance a task would set: off by 1 + |x|."""
    return x + 1.0 + abs(x)


def _h5_copy(src: Path, dest: Path, skip: str | None = None) -> None:
    """The file re-written: every non-scalar dataset chunked, shuffled and gzip-compressed, every object's attributes
    created in reverse order (and tracked in creation order), `skip` left out."""
    import h5py

    def attrs(a: object, b: object) -> None:
        for k in reversed(list(a.attrs)):  # type: ignore[attr-defined]
            b.attrs[k] = a.attrs[k]  # type: ignore[attr-defined]

    with h5py.File(src, "r") as fi, h5py.File(dest, "w", track_order=True) as fo:
        attrs(fi, fo)

        def visit(name: str, obj: object) -> None:
            if skip is not None and ("/" + name == skip or ("/" + name).startswith(skip + "/")):
                return
            if isinstance(obj, h5py.Group):
                attrs(obj, fo.create_group(name, track_order=True))
            elif isinstance(obj, h5py.Dataset):
                big = obj.shape and obj.size > 1
                kw = {"chunks": True, "compression": "gzip", "shuffle": True} if big else {}
                attrs(obj, fo.create_dataset(name, data=obj[()], dtype=obj.dtype, track_order=True, **kw))

        fi.visititems(visit)


def _nc_copy(src: Path, dest: Path, fmt: Any, skip: str | None = None) -> None:
    """A NetCDF file re-written in format `fmt`, packed values and fills as stored, attributes in reverse order."""
    import netCDF4

    with netCDF4.Dataset(src) as fi, netCDF4.Dataset(dest, "w", format=fmt) as fo:
        fi.set_auto_maskandscale(False)
        fo.setncatts({k: fi.getncattr(k) for k in reversed(fi.ncattrs())})
        for name, dim in fi.dimensions.items():
            fo.createDimension(name, None if dim.isunlimited() else len(dim))
        for name, var in fi.variables.items():
            if "/" + name == skip:
                continue
            fill = var.getncattr("_FillValue") if "_FillValue" in var.ncattrs() else None
            out = fo.createVariable(name, var.dtype, var.dimensions, fill_value=fill)
            out.set_auto_maskandscale(False)
            out.setncatts({k: var.getncattr(k) for k in reversed(var.ncattrs()) if k != "_FillValue"})
            out[...] = var[...]


def _nc_convertible(src: Path) -> list[str]:
    """The other NetCDF formats the file can be written in without losing anything (no groups, no strings, no
    64-bit integers in the classic ones)."""
    import netCDF4

    with netCDF4.Dataset(src) as nc:
        types = [None if v.dtype is str else np.dtype(v.dtype) for v in nc.variables.values()]
        simple = not nc.groups and all(
            t is not None and (t.kind == "f" or (t.kind == "i" and t.itemsize <= 4) or t.str == "|S1") for t in types
        )
        own = nc.data_model
    formats = ["NETCDF4", "NETCDF4_CLASSIC", "NETCDF3_CLASSIC", "NETCDF3_64BIT_OFFSET"] if simple else ["NETCDF4"]
    return [f for f in formats if f != own]


def _sci_targets(source: Path) -> tuple[str | None, str | None, str | None]:
    """(a float variable, a variable carrying units, a text attribute's holder) of the reference, by path."""
    from swr.judge.artifacts._common import Budget
    from swr.judge.artifacts.scidata import load_tree

    tree = load_tree(source, source.suffix.lower(), Budget("scidata"))
    floats = [p for p, n in tree.items() if n.kind == "variable" and n.data is not None and n.data.dtype.kind == "f"]
    floats = [p for p in floats if (~tree[p].mask).any()]
    units = [p for p, n in tree.items() if isinstance(n.attrs.get("units"), str) and n.attrs["units"].strip()]
    texts = [p for p, n in tree.items() if any(isinstance(v, str) and k != "units" for k, v in n.attrs.items())]
    return (floats[0] if floats else None), (units[0] if units else None), (texts[0] if texts else None)


def _h5_edit(source: Path, dest: Path, fn: Callable[[Any], None]) -> None:
    import h5py

    shutil.copyfile(source, dest)
    with h5py.File(dest, "r+") as f:
        fn(f)


def _bump_first(arr: np.ndarray) -> np.ndarray:
    """The array with its largest finite value made gross."""
    out = np.array(arr, dtype=arr.dtype, copy=True)
    flat = out.reshape(-1)
    finite = np.flatnonzero(np.isfinite(flat))
    i = finite[np.argmax(np.abs(flat[finite]))]
    flat[i] = gross(float(flat[i]))
    return out


def h5_edits(source: Path, value: str | None, unit: str | None, text: str | None) -> Iterator[Edit]:
    """HDF5: chunked, compressed, attributes reordered (valid); a value, a unit, a text attribute changed and a
    dataset dropped (invalid)."""
    yield "scidata_h5_chunked_compressed", True, lambda dest: _h5_copy(source, dest), None
    if value:

        def bump(f: Any) -> None:
            f[value].write_direct(_bump_first(f[value][()]))

        yield "scidata_value_beyond_tolerance", False, lambda d: _h5_edit(source, d, bump), None
        yield "scidata_variable_dropped", False, lambda dest: _h5_copy(source, dest, skip=value), None
    if unit:

        def kilo(f: Any) -> None:
            f[unit].attrs["units"] = "k" + _text_attr(f[unit].attrs["units"])

        yield "scidata_unit_changed", False, lambda d: _h5_edit(source, d, kilo), None
    if text:
        key = _text_key(source, text)

        def retitle(f: Any) -> None:
            f[text].attrs[key] = _text_attr(f[text].attrs[key]) + "x"

        yield "scidata_attribute_changed", False, lambda d: _h5_edit(source, d, retitle), None


def _text_attr(v: object) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


def _text_key(source: Path, holder: str) -> str:
    from swr.judge.artifacts._common import Budget
    from swr.judge.artifacts.scidata import load_tree

    attrs = load_tree(source, source.suffix.lower(), Budget("scidata"))[holder].attrs
    return next(k for k, v in attrs.items() if isinstance(v, str) and k != "units")


def _nc_obj(nc: Any, path: str) -> Any:
    """The group or variable at a tree path ("/", "/g/v")."""
    parts = [p for p in path.split("/") if p]
    for part in parts[:-1]:
        nc = nc.groups[part]
    if not parts:
        return nc
    return nc.variables[parts[-1]] if parts[-1] in nc.variables else nc.groups[parts[-1]]


def _nc_edit(source: Path, dest: Path, fn: Callable[[Any], None]) -> None:
    import netCDF4

    shutil.copyfile(source, dest)
    with netCDF4.Dataset(dest, "a") as nc:
        fn(nc)


def _nc_writer(source: Path, fmt: str) -> Writer:
    return lambda dest: _nc_copy(source, dest, fmt)


def nc_edits(source: Path, value: str | None, unit: str | None, text: str | None) -> Iterator[Edit]:
    """NetCDF: the same data in each other format it fits (valid); a value, a unit, a text attribute changed and a
    variable dropped (invalid)."""
    for fmt in _nc_convertible(source):
        yield f"scidata_netcdf_as_{fmt.lower()}", True, _nc_writer(source, fmt), None
    if value:

        def bump(nc: object) -> None:
            v = _nc_obj(nc, value)
            v[...] = np.ma.masked_array(_bump_first(np.ma.filled(v[...], np.nan)), np.ma.getmaskarray(v[...]))

        yield "scidata_value_beyond_tolerance", False, lambda d: _nc_edit(source, d, bump), None
        yield "scidata_variable_dropped", False, lambda d: _nc_copy(source, d, "NETCDF4", skip=value), None
    if unit:

        def kilo(nc: object) -> None:
            v = _nc_obj(nc, unit)
            v.setncattr("units", "k" + v.getncattr("units"))

        yield "scidata_unit_changed", False, lambda d: _nc_edit(source, d, kilo), None
    if text:
        key = _text_key(source, text)

        def retitle(nc: object) -> None:
            v = _nc_obj(nc, text)
            v.setncattr(key, v.getncattr(key) + "x")

        yield "scidata_attribute_changed", False, lambda d: _nc_edit(source, d, retitle), None


def fits_edits(source: Path, value: str | None, unit: str | None, text: str | None) -> Iterator[Edit]:
    """FITS: header cards in reverse order with new comments and a COMMENT card (valid); a value, a unit, a text
    keyword changed and a table column dropped (invalid)."""
    from astropy.io import fits

    from swr.judge.artifacts.scidata_fits import ENCODING

    def rewrite(dest: Path, edit: Callable[[fits.HDUList], None]) -> None:
        with fits.open(source, memmap=False) as hdul:
            hdul.readall()
            edit(hdul)
            hdul.writeto(dest, output_verify="silentfix")

    def reorder(hdul: fits.HDUList) -> None:
        for hdu in hdul:
            free = [c for c in hdu.header.cards if c.keyword and not ENCODING.fullmatch(c.keyword)]
            for c in free:
                del hdu.header[c.keyword]
            for c in reversed(free):
                hdu.header.append((c.keyword, c.value, "re-ordered"))
            hdu.header.add_comment("written by another program")

    def hdu_of(hdul: fits.HDUList, p: str) -> tuple[fits.hdu.base._BaseHDU, str | None]:
        from swr.judge.artifacts.scidata_fits import hdu_name

        head, _, col = p[1:].partition("/")
        return next(h for i, h in enumerate(hdul) if hdu_name(i, h) == head), col or None

    yield "scidata_fits_cards_reordered", True, lambda dest: rewrite(dest, reorder), None
    if value:

        def bump(hdul: fits.HDUList) -> None:
            hdu, col = hdu_of(hdul, value)
            if col is None:
                hdu.data = _bump_first(hdu.data)
            else:
                hdu.data[col] = _bump_first(np.asarray(hdu.data[col]))

        yield "scidata_value_beyond_tolerance", False, lambda dest: rewrite(dest, bump), None
    if unit:

        def kilo(hdul: fits.HDUList) -> None:
            hdu, col = hdu_of(hdul, unit)
            if col is None:
                hdu.header["BUNIT"] = "k" + hdu.header["BUNIT"]
            else:
                k = hdu.columns.names.index(col) + 1
                hdu.header[f"TUNIT{k}"] = "k" + hdu.header[f"TUNIT{k}"]

        yield "scidata_unit_changed", False, lambda dest: rewrite(dest, kilo), None
    if text:
        key = _text_key(source, text)

        def retitle(hdul: fits.HDUList) -> None:
            hdu, _ = hdu_of(hdul, text)
            hdu.header[key] = str(hdu.header[key]) + "x"

        yield "scidata_attribute_changed", False, lambda dest: rewrite(dest, retitle), None


def scidata_edits(source: Path) -> Iterator[Edit]:
    """The valid re-encodings and invalid slips of one HDF5, NetCDF or FITS reference."""
    value, unit, text = _sci_targets(source)
    suffix = source.suffix.lower()
    make = h5_edits if suffix in (".h5", ".hdf5") else nc_edits if suffix == ".nc" else fits_edits
    yield from make(source, value, unit, text)

"""The scidata comparator (HDF5, NetCDF, FITS): equivalent encodings pass, wrong data fails on the right check, links
are never followed, options are validated, and the false-reject study over the audit's mutants."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import h5py
import netCDF4
import numpy as np
import pytest
from astropy.io import fits

from swr.audit.artifact_mutants import artifact_mutants
from swr.judge import Tolerances
from swr.judge.artifacts import ArtifactConfigError, ArtifactResult, compare_artifact
from swr.judge.artifacts.fields import Reference
from swr.judge.artifacts.scidata import same_units

X = np.linspace(-2.0, 3.0, 60).reshape(6, 10)


def run(ref: Path, cand: Path, **kw: object) -> ArtifactResult:
    res = compare_artifact(ref, cand, **kw)  # type: ignore[arg-type]
    json.dumps(asdict(res), allow_nan=False)
    assert res.ok == (res.detail is None)
    return res


def failing(res: ArtifactResult) -> set[str]:
    return {k for k, c in res.checks.items() if not c["ok"]}


def h5(path: Path, data: np.ndarray = X, units: str = "m s-1", **kw: object) -> Path:
    with h5py.File(path, "w") as f:
        f.attrs["title"] = "run 1"
        g = f.create_group("fields")
        d = g.create_dataset("u", data=data, **kw)  # type: ignore[arg-type]
        d.attrs["units"] = units
        d.attrs["scale"] = 0.5
        f.create_dataset("names", data=["a", "bb"], dtype=h5py.string_dtype())
    return path


def nc(path: Path, fmt: str = "NETCDF4", data: np.ndarray = X, units: str = "degC", nan_for_fill: bool = False) -> Path:
    with netCDF4.Dataset(path, "w", format=fmt) as ds:
        ds.title = "cast"
        ds.createDimension("time", None)
        ds.createDimension("z", data.shape[1])
        v = ds.createVariable("T", "f8", ("time", "z"), fill_value=None if nan_for_fill else -999.0)
        v.units = units
        gaps = data.copy()
        gaps[0, 0] = np.nan
        v[:] = gaps if nan_for_fill else np.ma.masked_invalid(gaps)
    return path


def fits_file(path: Path, data: np.ndarray = X, bunit: str = "adu", reorder: bool = False) -> Path:
    p = fits.PrimaryHDU(data.astype(np.float32))
    cards = [("OBJECT", "field"), ("BUNIT", bunit), ("EXPTIME", 30.0)]
    for k, v in reversed(cards) if reorder else cards:
        p.header[k] = (v, "other comment" if reorder else None)
    cols = [fits.Column("id", "J", array=[1, 2, 3]), fits.Column("ra", "D", unit="deg", array=[1.0, 2.0, 3.5])]
    t = fits.BinTableHDU.from_columns(cols[::-1] if reorder else cols, name="CAT")
    fits.HDUList([p, t]).writeto(path)
    return path


def test_hdf5_equivalent_encodings_pass(tmp_path: Path) -> None:
    ref = h5(tmp_path / "ref.h5")
    cand = h5(tmp_path / "c.h5", X.astype(np.float32), "m/s", chunks=(2, 5), compression="gzip", shuffle=True)
    assert run(ref, cand, rtol=1e-6).ok


@pytest.mark.parametrize(
    ("edit", "check"),
    [
        ({"data": X + np.eye(6, 10) * 1e-2}, "values"),
        ({"units": "km s-1"}, "units"),
        ({"data": X.astype(np.int64)}, "kinds"),
        ({"data": X[:5]}, "shapes"),
    ],
)
def test_hdf5_wrong_data_fails_on_its_check(tmp_path: Path, edit: dict, check: str) -> None:
    res = run(h5(tmp_path / "ref.h5"), h5(tmp_path / "c.h5", **edit))
    assert not res.ok and check in failing(res), res.detail


def test_hdf5_links_are_recorded_never_followed(tmp_path: Path) -> None:
    """An external link naming a host file is compared as a link (a mismatch), never opened; a virtual dataset (its
    values in another file) is refused."""
    ref = h5(tmp_path / "ref.h5")
    cand = h5(tmp_path / "c.h5")
    with h5py.File(cand, "a") as f:
        f["leak"] = h5py.ExternalLink("/etc/passwd", "/x")
    res = run(ref, cand)
    assert not res.ok and "nodes" in failing(res) and "/leak" in json.dumps(res.checks["nodes"])
    vds = tmp_path / "v.h5"
    with h5py.File(vds, "w") as f:
        layout = h5py.VirtualLayout(shape=(6, 10), dtype="f8")
        layout[:] = h5py.VirtualSource(str(ref), "/fields/u", shape=(6, 10))
        f.create_virtual_dataset("fields/u", layout)
    res = run(ref, vds)
    assert not res.ok and "virtual" in (res.detail or ""), res.detail


@pytest.mark.parametrize("fmt", ["NETCDF3_CLASSIC", "NETCDF3_64BIT_OFFSET", "NETCDF4_CLASSIC"])
def test_netcdf_formats_and_nan_for_fill_pass(tmp_path: Path, fmt: str) -> None:
    res = run(nc(tmp_path / "ref.nc"), nc(tmp_path / "c.nc", fmt, units="deg_C", nan_for_fill=True))
    assert res.ok, res.detail


def test_netcdf_value_where_the_reference_is_missing_fails(tmp_path: Path) -> None:
    ref = nc(tmp_path / "ref.nc")
    cand = tmp_path / "c.nc"
    with netCDF4.Dataset(cand, "w") as ds:
        ds.title = "cast"
        ds.createDimension("time", None)
        ds.createDimension("z", 10)
        v = ds.createVariable("T", "f8", ("time", "z"))
        v.units = "degC"
        v[:] = X
    res = run(ref, cand)
    assert not res.ok and "masks" in failing(res), res.detail


def test_fits_card_order_comments_and_column_order_are_free(tmp_path: Path) -> None:
    assert run(fits_file(tmp_path / "ref.fits"), fits_file(tmp_path / "c.fits", reorder=True)).ok


@pytest.mark.parametrize(("edit", "check"), [({"bunit": "W"}, "units"), ({"data": X * 1.01}, "values")])
def test_fits_wrong_data_fails(tmp_path: Path, edit: dict, check: str) -> None:
    res = run(fits_file(tmp_path / "ref.fits"), fits_file(tmp_path / "c.fits", **edit))
    assert not res.ok and check in failing(res), res.detail


def test_per_variable_tolerance_and_width_option(tmp_path: Path) -> None:
    ref = h5(tmp_path / "ref.h5")
    off = h5(tmp_path / "c.h5", X + 1e-3)
    assert not run(ref, off).ok
    assert run(ref, off, options={"variables": {"/fields/u": {"atol": 2e-3}}}).ok
    narrow = h5(tmp_path / "n.h5", X.astype(np.float32))
    assert run(ref, narrow, rtol=1e-6).ok
    assert "widths" in failing(run(ref, narrow, rtol=1e-6, options={"dtype_width": True}))


@pytest.mark.parametrize(
    "options",
    [{"variables": {"/nope": {"atol": 1}}}, {"variables": {"/fields/u": {"tol": 1}}}, {"dtype_width": "yes"}, {"x": 1}],
)
def test_bad_options_are_the_tasks_error(tmp_path: Path, options: dict) -> None:
    ref = h5(tmp_path / "ref.h5")
    with pytest.raises(ArtifactConfigError):
        compare_artifact(ref, h5(tmp_path / "c.h5", X + 1), options=options)


@pytest.mark.parametrize(
    "junk", [b"", b"\x89HDF\r\n\x1a\n" + b"\0" * 100, b"SIMPLE  = T", b"CDF\x01garbage", b"x" * 5000]
)
@pytest.mark.parametrize("suffix", [".h5", ".nc", ".fits"])
def test_junk_candidate_fails_without_raising(tmp_path: Path, junk: bytes, suffix: str) -> None:
    ref = {".h5": h5, ".nc": nc, ".fits": fits_file}[suffix](tmp_path / f"ref{suffix}")
    (tmp_path / f"c{suffix}").write_bytes(junk)
    res = run(ref, tmp_path / f"c{suffix}")
    assert not res.ok and res.detail.startswith("cannot read candidate scidata"), res.detail


def test_gzipped_fits_is_not_inflated(tmp_path: Path) -> None:
    import gzip

    ref = fits_file(tmp_path / "ref.fits")
    (tmp_path / "c.fits").write_bytes(gzip.compress(ref.read_bytes()))
    res = run(ref, tmp_path / "c.fits")
    assert not res.ok and "SIMPLE" in (res.detail or "")


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("m s-1", "m/s", True),
        ("W m-2", "W/m2", True),
        ("degC", "deg_C", True),
        ("km", "m", False),
        ("days since 2000-01-01", "days  since 2000-01-01", True),
        ("degrees_north", "degrees_east", False),
    ],
)
def test_units_compared_as_units(a: str, b: str, same: bool) -> None:
    assert same_units(a, b) is same


def judge_every_mutant(d: Path, names: list[str], scratch: Path) -> dict[bool, list[int]]:
    """Every artifact mutant of the references `names` in `d` judged by compare_artifact, each asserted to be decided
    as designed (valid passes, invalid fails); the tally {valid: [decided right, total]} of those that changed bytes."""
    scratch.mkdir()
    tally = {True: [0, 0], False: [0, 0]}
    for m in artifact_mutants(Reference({k: k for k in names}, d), Tolerances(), scratch):
        for key, name in json.loads(m.stdout).items():
            if (m.files / name).read_bytes() == (d / key).read_bytes():
                continue
            res = compare_artifact(d / key, m.files / name)
            tally[m.valid][1] += 1
            tally[m.valid][0] += res.ok == m.valid
            assert res.ok == m.valid, (m.klass, key, res.detail)
    return tally


def test_false_reject_study(tmp_path: Path) -> None:
    """Every valid mutant of several references passes and every invalid one fails: zero false rejects, zero false
    accepts (the numbers are in the report of issue 26)."""
    d = tmp_path / "ref"
    d.mkdir()
    rng = np.random.default_rng(7)
    refs = {
        "a.h5": h5(d / "a.h5", rng.normal(size=(8, 5))),
        "b.h5": h5(d / "b.h5", rng.normal(size=(40,)) * 1e3),
        "a.nc": nc(d / "a.nc", data=rng.normal(size=(3, 7))),
        "b.nc": nc(d / "b.nc", "NETCDF3_CLASSIC", data=rng.normal(size=(5, 4)) + 10),
        "a.fits": fits_file(d / "a.fits", rng.normal(size=(16, 16))),
    }
    tally = judge_every_mutant(d, list(refs), tmp_path / "scratch")
    assert tally[True][1] >= 9 and tally[False][1] >= 19, tally


def test_netcdf4_external_link_to_the_reference_is_refused(tmp_path: Path) -> None:
    """netCDF4 follows HDF5 external links: a candidate whose variable is a link to the reference's own file would be
    graded on the reference's values. It is refused before netCDF4 opens it."""
    ref = nc(tmp_path / "ref.nc")
    cand = tmp_path / "c.nc"
    with netCDF4.Dataset(cand, "w") as ds:
        ds.title = "cast"
        ds.createDimension("time", None)
        ds.createDimension("z", 10)
    with h5py.File(cand, "a") as f:
        f["T"] = h5py.ExternalLink(str(ref), "/T")
    res = run(ref, cand)
    assert not res.ok and "external link" in (res.detail or ""), res.detail


def test_the_bounded_child_judges_scidata_and_config(tmp_path: Path) -> None:
    """Grading decodes a candidate's file in the bounded child (bounded.py): both new kinds decode and judge there."""
    from swr.judge.artifacts.bounded import compare_bounded

    ref, same = h5(tmp_path / "ref.h5"), h5(tmp_path / "c.h5", chunks=(2, 5), compression="gzip")
    wrong = h5(tmp_path / "w.h5", units="km s-1")
    kw = {"atol": 1e-6, "rtol": 1e-4, "options": None, "kind": "scidata"}
    assert compare_bounded(ref, same, **kw).ok  # type: ignore[arg-type]
    assert "units" in (compare_bounded(ref, wrong, **kw).detail or "")  # type: ignore[arg-type]
    (tmp_path / "r.yaml").write_text("a: [1, 2]\nb: x\n")
    (tmp_path / "c.yaml").write_text("b: 'x'\na:\n  - 1\n  - 2.0\n")
    assert compare_bounded(tmp_path / "r.yaml", tmp_path / "c.yaml", **{**kw, "kind": "config"}).ok  # type: ignore[arg-type]


THREADS = """
import pathlib, sys
from concurrent.futures import ThreadPoolExecutor
from swr.judge.artifacts.scidata import compare_scidata
d = pathlib.Path(sys.argv[1])
def work(name):
    for _ in range(100):
        assert compare_scidata(d / name, d / name, 1e-9, 1e-9, {}).ok
with ThreadPoolExecutor(3) as ex:
    list(ex.map(work, ["a.nc", "b.nc", "c.h5"]))
print("judged")
"""


def test_netcdf_and_hdf5_judged_from_several_threads_at_once(tmp_path: Path) -> None:
    """`swr build -n 2` judges in threads; netCDF4/HDF5 are not thread-safe: two gates reading NetCDF at once
    crashed the build (SIGSEGV/SIGBUS). In a process of its own, so a crash is this test's failure, not pytest's."""
    import subprocess
    import sys

    for name in ("a.nc", "b.nc"):
        with netCDF4.Dataset(tmp_path / name, "w", format="NETCDF4_CLASSIC") as nc:
            nc.createDimension("x", 2000)
            v = nc.createVariable("v", "f8", ("x",))
            v.units = "m"
            v[:] = np.arange(2000.0)
    with h5py.File(tmp_path / "c.h5", "w") as f:
        f.create_dataset("v", data=np.arange(2000.0)).attrs["units"] = "m"
    res = subprocess.run([sys.executable, "-c", THREADS, str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0 and res.stdout.strip() == "judged", (res.returncode, res.stderr[-2000:])

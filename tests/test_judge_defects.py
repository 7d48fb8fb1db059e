"""Regression tests for the comparator defects of issue 12 (tables, images, HTML, meshes): each
false accept now fails, and each equivalent output that used to be rejected now passes."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import trimesh
from PIL import Image, ImageCms
from test_artifacts import failing, run

from swr.judge.artifacts import ArtifactConfigError, check_options
from swr.kinds.workflow.spec import load_spec


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def parquet(path: Path, columns: dict[str, pa.Array | list], index: list[str] | None = None) -> Path:
    """A Parquet file with the pandas metadata pandas' to_parquet writes (index_columns names the
    stored index columns; an empty list stands for a default RangeIndex, which is not stored)."""
    table = pa.table(columns)
    meta = {
        "index_columns": index
        if index is not None
        else [{"kind": "range", "name": None, "start": 0, "stop": table.num_rows, "step": 1}],
        "columns": [
            {"name": None if n.startswith("__index_level_") else n, "field_name": n} for n in table.column_names
        ],
    }
    pq.write_table(table.replace_schema_metadata({b"pandas": json.dumps(meta).encode()}), path)
    return path


# ---------------------------------------------------------------- 1. tables: text IDs and integers


def test_table_leading_zero_ids_compare_as_text(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.csv", "zip,n\n02139,1\n00501,2\n")
    assert failing(run(ref, write(tmp_path / "num.csv", "zip,n\n2139,1\n501,2\n"))) == {"cells"}
    assert run(ref, write(tmp_path / "quoted.csv", 'zip,n\n"02139",1\n"00501",2.0\n')).ok
    same = parquet(tmp_path / "same.parquet", {"zip": ["02139", "00501"], "n": [1, 2]})
    assert run(ref, same).ok
    ints = parquet(tmp_path / "ints.parquet", {"zip": [2139, 501], "n": [1, 2]})
    assert failing(run(ref, ints)) == {"cells"}


def test_table_parquet_string_column_compares_as_text(tmp_path: Path) -> None:
    ref = parquet(tmp_path / "ref.parquet", {"code": ["10", "7"], "x": [0.5, 1.5]})
    assert run(ref, write(tmp_path / "c.csv", "code,x\n10,0.5\n7,1.5\n")).ok  # CSV cannot say "string"
    res = run(ref, write(tmp_path / "float.csv", "code,x\n10.0,0.5\n7,1.5\n"))
    assert failing(res) == {"cells"} and res.checks["cells"]["where"] == "row 0, column 'code'"


def test_table_declared_text_column(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.csv", "code,x\n10,0.5\n7,1.5\n")
    cand = write(tmp_path / "c.csv", "code,x\n10.0,0.5\n7,1.5\n")
    assert run(ref, cand).ok  # an integer column: 10.0 is exactly 10
    assert failing(run(ref, cand, options={"text_columns": ["code"]})) == {"cells"}
    with pytest.raises(ArtifactConfigError, match="text_columns"):
        run(ref, cand, options={"text_columns": ["nope"]})


def test_table_integer_columns_compare_exactly(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.csv", "count,x\n1000000,2.0\n7,3.0\n")
    res = run(ref, write(tmp_path / "off.csv", "count,x\n1000001,2.0\n7,3.0\n"))  # inside rtol 1e-4
    assert failing(res) == {"cells"} and res.checks["cells"]["tol"] is None
    assert run(ref, write(tmp_path / "float.csv", "count,x\n1000000.0,2.0002\n7e0,3\n")).ok
    ref_pq = parquet(tmp_path / "ref.parquet", {"count": pa.array([10**15, 7], pa.int64())})
    assert failing(run(ref_pq, write(tmp_path / "big.csv", "count\n1000000000000001\n7\n"))) == {"cells"}
    assert run(ref_pq, write(tmp_path / "same.csv", "count\n1000000000000000\n7\n")).ok


# ---------------------------------------------------------------- 2. tables: missing values


@pytest.mark.parametrize("spelling", ["NaN", "NA", "nan", "N/A", "null"])
def test_table_missing_spellings_are_missing(tmp_path: Path, spelling: str) -> None:
    ref = write(tmp_path / "ref.csv", "x,s,n\n1.5,a,1\n,,\n")
    cand = write(tmp_path / "c.csv", f"x,s,n\n1.5,a,1\n{spelling},{spelling},{spelling}\n")
    res = run(ref, cand)
    assert res.ok, res.detail


def test_a_text_na_is_a_value_of_the_reference(tmp_path: Path) -> None:
    """Issue 23: a country code `NA` (Namibia) in the reference equalled an empty cell, so a candidate that
    dropped it passed. The reference's text is literal; a candidate's missing spelling still matches the
    reference's empty cell (pandas writes either)."""
    ref = write(tmp_path / "ref.csv", "country,pop\nNA,2.6\nFR,68.0\n,1.0\n")
    assert run(ref, write(tmp_path / "same.csv", "country,pop\nNA,2.6\nFR,68.0\n,1.0\n")).ok
    assert run(ref, write(tmp_path / "nan.csv", "country,pop\nNA,2.6\nFR,68.0\nNaN,1.0\n")).ok
    assert failing(run(ref, write(tmp_path / "lost.csv", "country,pop\n,2.6\nFR,68.0\n,1.0\n"))) == {"cells"}
    assert failing(run(ref, write(tmp_path / "na.csv", "country,pop\nN/A,2.6\nFR,68.0\n,1.0\n"))) == {"cells"}
    pq_ref = parquet(tmp_path / "ref.parquet", {"country": ["NA", "FR"], "pop": [2.6, 68.0]})
    assert failing(run(pq_ref, write(tmp_path / "lost2.csv", "country,pop\n,2.6\nFR,68.0\n"))) == {"cells"}


def test_table_parquet_nan_and_null_are_missing(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.csv", "station,mean_low,mean_high\nA,1.5,\nB,,2.5\n")
    cand = parquet(
        tmp_path / "c.parquet",
        {"station": ["A", "B"], "mean_low": [1.5, float("nan")], "mean_high": pa.array([None, 2.5], pa.float64())},
    )
    assert run(ref, cand).ok
    assert run(cand, ref).ok  # a Parquet reference with NaN accepts the CSV's empty cells
    assert run(cand, write(tmp_path / "nan.csv", "station,mean_low,mean_high\nA,1.5,NaN\nB,NA,2.5\n")).ok


def test_table_missing_never_equals_a_present_value(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.csv", "x,s\n1.5,a\n,b\n0,\n")
    for i, body in enumerate(["1.5,a\n0,b\n0,\n", "1.5,a\nNaN,b\nNaN,\n", "1.5,a\n,NA\n0,\n"]):
        res = run(ref, write(tmp_path / f"c{i}.csv", "x,s\n" + body))
        assert failing(res) == {"cells"}, body
    res = run(ref, write(tmp_path / "s.csv", "x,s\n1.5,a\n,b\n0,x\n"))
    assert res.checks["cells"]["expected"] is None and res.checks["cells"]["got"] == "x"
    assert run(ref, write(tmp_path / "ok.csv", "x,s\n1.5,a\nNaN,b\n0,NA\n")).ok


# ---------------------------------------------------------------- 3. Parquet: pandas index columns


def test_parquet_index_columns_follow_the_reference(tmp_path: Path) -> None:
    """Ignored when the reference has a default RangeIndex; compared as columns when it stores one."""
    ref = parquet(tmp_path / "ref.parquet", {"a": [1.5, 2.5], "b": ["x", "y"]})
    cand = parquet(
        tmp_path / "c.parquet",
        {"a": [1.5, 2.5], "b": ["x", "y"], "__index_level_0__": [10, 11]},
        index=["__index_level_0__"],
    )
    assert run(ref, cand).ok
    assert run(write(tmp_path / "ref.csv", "a,b\n1.5,x\n2.5,y\n"), cand).ok
    wrong = parquet(
        tmp_path / "w.parquet",
        {"a": [1.5, 2.6], "b": ["x", "y"], "__index_level_0__": [10, 11]},
        index=["__index_level_0__"],
    )
    assert failing(run(ref, wrong)) == {"cells"}

    named = parquet(tmp_path / "named.parquet", {"a": [1.5, 2.5], "st": ["p", "q"]}, index=["st"])
    assert run(named, write(tmp_path / "plain.csv", "st,a\np,1.5\nq,2.5\n")).ok  # as an ordinary column
    assert failing(run(named, write(tmp_path / "bad.csv", "st,a\np,1.5\nr,2.5\n"))) == {"cells"}
    assert failing(run(named, write(tmp_path / "none.csv", "a\n1.5\n2.5\n"))) == {"columns"}
    unnamed = parquet(tmp_path / "u.parquet", {"a": [1.5], "__index_level_0__": [4]}, index=["__index_level_0__"])
    other = parquet(tmp_path / "o.parquet", {"a": [1.5], "__index_level_0__": [5]}, index=["__index_level_0__"])
    assert failing(run(unnamed, other)) == {"cells"}


def test_a_named_index_is_a_column_when_the_reference_has_none(tmp_path: Path) -> None:
    """Issue 23 (a regression of SWR-J003's fix): `df.groupby('category').agg(...).to_parquet()` stores the key as
    a named index; it was dropped with the unnamed ones, and both table workflows failed on a correct table."""
    import pandas as pd

    ref = write(tmp_path / "ref.csv", "category,total\na,1.5\nb,2.5\n")
    good = tmp_path / "good.parquet"
    pd.DataFrame({"category": ["a", "b"], "total": [1.5, 2.5]}).set_index("category").to_parquet(good)
    assert run(ref, good).ok
    bad = tmp_path / "bad.parquet"
    pd.DataFrame({"category": ["a", "c"], "total": [1.5, 2.5]}).set_index("category").to_parquet(bad)
    assert failing(run(ref, bad)) == {"cells"}
    plain = tmp_path / "plain.parquet"  # the unnamed RangeIndex pandas writes by default is still ignored
    pd.DataFrame({"category": ["a", "b"], "total": [1.5, 2.5]}).to_parquet(plain, index=True)
    assert run(ref, plain).ok


# ---------------------------------------------------------------- 4. images: what a viewer shows


def pattern(h: int = 24, w: int = 32, low: int = 0) -> np.ndarray:
    """An asymmetric RGB picture with values in [low, 255]."""
    y, x = np.mgrid[0:h, 0:w]
    arr = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x * y) % 256], axis=2)
    return (low + arr * (255 - low) // 255).astype(np.uint8)


def with_orientation(arr: np.ndarray, path: Path, orientation: int) -> Path:
    exif = Image.Exif()
    exif[0x0112] = orientation
    Image.fromarray(arr).save(path, exif=exif)
    return path


def with_gamma(arr: np.ndarray, path: Path, gamma: float) -> Path:
    """A PNG with a gAMA chunk (Pillow reads but does not write it), inserted after IHDR."""
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG")
    data = buf.getvalue()
    body = b"gAMA" + struct.pack(">I", round(gamma * 100000))
    chunk = struct.pack(">I", 4) + body + struct.pack(">I", zlib.crc32(body))
    end_ihdr = 8 + 8 + 13 + 4
    path.write_bytes(data[:end_ihdr] + chunk + data[end_ihdr:])
    return path


def test_image_exif_orientation_is_applied(tmp_path: Path) -> None:
    arr = pattern()
    Image.fromarray(arr).save(tmp_path / "ref.png")
    turned = with_orientation(arr, tmp_path / "turned.png", 3)  # a viewer shows it upside down
    assert failing(run(tmp_path / "ref.png", turned)) == {"pixels"}
    stored = with_orientation(arr[::-1, ::-1].copy(), tmp_path / "stored.png", 3)
    assert run(tmp_path / "ref.png", stored).ok
    sideways = with_orientation(np.rot90(arr, 1).copy(), tmp_path / "side.png", 6)  # 90° clockwise
    assert run(tmp_path / "ref.png", sideways).ok
    # Pillow's TIFF decoder applies the orientation itself: it must not be applied twice
    assert run(tmp_path / "ref.png", with_orientation(arr[::-1, ::-1].copy(), tmp_path / "s.tiff", 3)).ok
    assert not run(tmp_path / "ref.png", with_orientation(arr, tmp_path / "t.tiff", 3)).ok


def test_image_png_gamma_is_applied(tmp_path: Path) -> None:
    arr = pattern(low=80)
    Image.fromarray(arr).save(tmp_path / "ref.png")
    assert failing(run(tmp_path / "ref.png", with_gamma(arr, tmp_path / "linear.png", 1.0))) == {"pixels"}
    assert run(tmp_path / "ref.png", with_gamma(arr, tmp_path / "srgb.png", 0.45455)).ok
    encoded = np.round(255 * (arr / 255) ** 2.2).astype(np.uint8)  # the same picture, linear-coded
    assert run(tmp_path / "ref.png", with_gamma(encoded, tmp_path / "lin_ok.png", 1.0)).ok


def _s15(values: tuple[float, ...]) -> bytes:
    return b"".join(struct.pack(">i", round(v * 65536)) for v in values)


def linear_rgb_icc() -> bytes:
    """A minimal ICC v2 display profile: sRGB primaries (D50-adapted) with a linear tone curve, so
    stored values are linear light; Pillow can only create sRGB, Lab and XYZ profiles itself."""
    desc_text = b"linear RGB\0"
    tags = {
        b"desc": b"desc\0\0\0\0" + struct.pack(">I", len(desc_text)) + desc_text + bytes(4 + 4 + 2 + 1 + 67),
        b"wtpt": b"XYZ \0\0\0\0" + _s15((0.9642, 1.0, 0.8249)),
        b"rXYZ": b"XYZ \0\0\0\0" + _s15((0.4361, 0.2225, 0.0139)),
        b"gXYZ": b"XYZ \0\0\0\0" + _s15((0.3851, 0.7169, 0.0971)),
        b"bXYZ": b"XYZ \0\0\0\0" + _s15((0.1431, 0.0606, 0.7141)),
        b"cprt": b"text\0\0\0\0" + b"none\0",
    }
    curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, 0x0100) + b"\0\0"  # gamma 1.0
    tags.update({b"rTRC": curve, b"gTRC": curve, b"bTRC": curve})
    offset = 128 + 4 + 12 * len(tags)
    table, body = struct.pack(">I", len(tags)), b""
    for sig, data in tags.items():
        data += bytes(-len(data) % 4)
        table += sig + struct.pack(">II", offset + len(body), len(data))
        body += data
    size = offset + len(body)
    header = (
        struct.pack(">I", size)
        + b"none"
        + struct.pack(">I", 0x02100000)
        + b"mntrRGB XYZ "
        + bytes(12)
        + b"acsp"
        + bytes(4 + 4 + 4 + 4 + 8)
        + struct.pack(">I", 0)
        + _s15((0.9642, 1.0, 0.8249))
        + bytes(4 + 16 + 28)
    )
    assert len(header) == 128
    return header + table + body


def to_linear(arr: np.ndarray) -> np.ndarray:
    """sRGB-encoded 8-bit values as linear light, 8-bit."""
    c = arr / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return np.round(255 * lin).astype(np.uint8)


def test_image_icc_profile_is_applied(tmp_path: Path) -> None:
    arr = pattern(low=80)
    Image.fromarray(arr).save(tmp_path / "ref.png")
    linear = linear_rgb_icc()
    Image.fromarray(arr).save(tmp_path / "lin.png", icc_profile=linear)  # shown far brighter
    assert failing(run(tmp_path / "ref.png", tmp_path / "lin.png")) == {"pixels"}
    Image.fromarray(to_linear(arr)).save(tmp_path / "lin_ok.png", icc_profile=linear)
    assert run(tmp_path / "ref.png", tmp_path / "lin_ok.png").ok  # the same picture, linear-coded
    flat = np.zeros((8, 8, 3), np.uint8)
    flat[:4], flat[4:] = (200, 120, 90), (100, 180, 240)
    Image.fromarray(flat).save(tmp_path / "flat.png")
    Image.fromarray(to_linear(flat)).quantize(4).save(tmp_path / "pal.png", icc_profile=linear)
    Image.fromarray(flat).quantize(4).save(tmp_path / "pal_bad.png", icc_profile=linear)
    assert run(tmp_path / "flat.png", tmp_path / "pal.png").ok  # a palette image's colours converted
    assert failing(run(tmp_path / "flat.png", tmp_path / "pal_bad.png")) == {"pixels"}
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    Image.fromarray(arr).save(tmp_path / "srgb.png", icc_profile=srgb)
    Image.fromarray(arr).save(tmp_path / "srgb.tiff", tiffinfo={34675: srgb})  # the ICC tag
    assert run(tmp_path / "ref.png", tmp_path / "srgb.png").ok
    assert run(tmp_path / "srgb.png", tmp_path / "srgb.tiff").ok


def test_image_colour_metadata_that_cannot_be_applied_must_match(tmp_path: Path) -> None:
    arr = pattern()
    Image.fromarray(arr).save(tmp_path / "ref.png")
    xyz = ImageCms.ImageCmsProfile(ImageCms.createProfile("XYZ")).tobytes()  # no RGB -> sRGB transform
    Image.fromarray(arr).save(tmp_path / "xyz.png", icc_profile=xyz)
    Image.fromarray(arr).save(tmp_path / "xyz.tiff", tiffinfo={34675: xyz})
    assert failing(run(tmp_path / "ref.png", tmp_path / "xyz.png")) == {"colour"}
    assert failing(run(tmp_path / "xyz.png", tmp_path / "ref.png")) == {"colour"}
    assert run(tmp_path / "xyz.png", tmp_path / "xyz.tiff").ok


# ---------------------------------------------------------------- 5. HTML: parsed, not lines

PAGE = """<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="generator" content="pandoc" />
  <title>report</title>
  <style>
    body { margin: 0 auto; }
  </style>
</head>
<body>
<nav id="TOC" role="doc-toc">
<ul>
<li><a href="#intro"><span class="toc-section-number">1</span>
Intro</a></li>
</ul>
</nav>
<h1 data-number="1" id="intro"><span
class="header-section-number">1</span> Intro</h1>
<p>Some <em>text</em> with
<math display="inline" xmlns="http://www.w3.org/1998/Math/MathML"><semantics><msup><mi>x</mi><mn>2</mn></msup></semantics></math>
and &amp; more.</p>
<pre><code>  a  b
c</code></pre>
</body>
</html>
"""

EQUIVALENT_HTML = {
    "no_slash": lambda s: s.replace(" />", ">"),
    "attr_order_quotes": lambda s: s.replace(
        '<meta name="generator" content="pandoc" />', "<META content='pandoc' name=generator>"
    ),
    "reflowed": lambda s: (
        s.replace("<span\nclass", "<span class")
        .replace("with\n<math", "with <math")
        .replace("  <meta", "<meta")
        .replace("\n", "\r\n")
    ),
    "entity": lambda s: s.replace("&amp;", "&#38;"),
    "css_reindented": lambda s: s.replace("    body { margin: 0 auto; }", "body {\n margin: 0 auto;\n}"),
    "pre_trailing_spaces": lambda s: s.replace("  a  b\nc</code>", "  a  b   \nc\t </code>"),  # nothing drawn after
}
WRONG_HTML = {
    "word": (lambda s: s.replace("Some <em>text</em>", "Some <em>test</em>"), "html > body > p > em"),
    "attribute": (lambda s: s.replace('href="#intro"', 'href="#intro2"'), "html > body > nav > ul > li"),
    "element": (lambda s: s.replace("<em>text</em>", "<strong>text</strong>"), "html > body > p"),
    "lost_space": (lambda s: s.replace("</span> Intro</h1>", "</span>Intro</h1>"), "html > body > h1"),
    "pre_spacing": (lambda s: s.replace("  a  b", "a b"), "html > body > pre > code"),
    "pre_leading_space": (lambda s: s.replace("\nc</code>", "\n c</code>"), "html > body > pre > code"),
    "lang": (lambda s: s.replace('lang="en"', 'lang="de"'), "document"),
}


def test_html_compares_parsed_documents(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.html", PAGE)
    for name, edit in EQUIVALENT_HTML.items():
        res = run(ref, write(tmp_path / f"{name}.html", edit(PAGE)))
        assert res.ok and res.kind == "html", (name, res.detail)
    for name, (edit, where) in WRONG_HTML.items():
        res = run(ref, write(tmp_path / f"{name}.html", edit(PAGE)))
        assert failing(res) == {"document"}, name
        assert res.checks["document"]["where"] == where, (name, res.detail)
    truncated = run(ref, write(tmp_path / "cut.html", PAGE[: PAGE.index("<pre>")]))
    assert not truncated.ok


def test_html_pre_spaces_count_only_where_something_is_drawn_after_them(tmp_path: Path) -> None:
    """Issue 23: trailing spaces inside <pre> failed though nothing after them is drawn; a space before an
    inline element on the same line is drawn, and still counts."""
    ref = write(tmp_path / "ref.html", "<pre>x = 1\ny <b>z</b>\nend</pre>")
    assert run(ref, write(tmp_path / "trailing.html", "<pre>x = 1  \ny <b>z</b>\t\nend   </pre>")).ok
    assert failing(run(ref, write(tmp_path / "joined.html", "<pre>x = 1\ny<b>z</b>\nend</pre>"))) == {"document"}
    assert failing(run(ref, write(tmp_path / "indent.html", "<pre> x = 1\ny <b>z</b>\nend</pre>"))) == {"document"}


def test_html_hostile_markup_does_not_hang_the_judge(tmp_path: Path) -> None:
    """Unclosed tags a candidate can write (Python 3.11's html.parser is quadratic on them) are
    parsed in one pass; the child's timeout is a guard against a hang, not a measured time."""
    ref = write(tmp_path / "ref.html", PAGE + "<!-- padding -->" * 40_000)
    for i, blob in enumerate(["<a" * 500_000, "</" * 500_000, "<div>" * 200_000, '<a b="' * 300_000]):
        cand = write(tmp_path / f"c{i}.html", blob)
        code = (
            "import sys; from swr.judge.artifacts import compare_artifact as c; "
            "r = c(sys.argv[1], sys.argv[2]); print(r.ok, r.kind)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, str(ref), str(cand)], capture_output=True, text=True, timeout=120, check=True
        )
        assert out.stdout.split() == ["False", "html"], out.stderr[-2000:]


# ---------------------------------------------------------------- 6. meshes


def box() -> trimesh.Trimesh:
    return trimesh.creation.box(extents=(2.0, 1.0, 0.5))


def with_faces(mesh: trimesh.Trimesh, vertices: np.ndarray, faces: list[list[int]]) -> trimesh.Trimesh:
    """The mesh plus extra vertices and faces, unprocessed (as a writer would emit them)."""
    v = np.vstack([mesh.vertices, vertices]) if len(vertices) else mesh.vertices
    return trimesh.Trimesh(v, np.vstack([mesh.faces, faces]), process=False)


def test_mesh_zero_area_faces_do_not_break_watertightness(tmp_path: Path) -> None:
    ref, mesh = tmp_path / "ref.stl", box()
    mesh.export(str(ref))
    a, b = mesh.faces[0][:2]
    mid = (mesh.vertices[a] + mesh.vertices[b]) / 2
    sliver = with_faces(mesh, mid[None, :], [[a, b, len(mesh.vertices)]])  # a zero-area fin on an edge
    sliver.export(str(tmp_path / "sliver.stl"))
    collinear = with_faces(mesh, np.empty((0, 3)), [[a, b, a]])
    collinear.export(str(tmp_path / "pinched.obj"))
    for name in ("sliver.stl", "pinched.obj"):
        res = run(ref, tmp_path / name)
        assert res.ok, (name, res.detail)
    holed = trimesh.Trimesh(mesh.vertices, mesh.faces[1:], process=False)  # one real face missing
    holed.export(str(tmp_path / "holed.stl"))
    assert "watertight" in failing(run(ref, tmp_path / "holed.stl"))


def test_mesh_translation_invariant_option(tmp_path: Path) -> None:
    mesh = box()
    mesh.export(str(tmp_path / "ref.stl"))
    moved = box()
    moved.apply_translation((5.0, -3.0, 2.0))
    moved.export(str(tmp_path / "moved.stl"))
    strict = run(tmp_path / "ref.stl", tmp_path / "moved.stl")
    assert "bounds" in failing(strict)
    res = run(tmp_path / "ref.stl", tmp_path / "moved.stl", options={"translation_invariant": True})
    assert res.ok, res.detail
    assert res.checks["translation"]["got"] == pytest.approx([5.0, -3.0, 2.0])
    scaled = box()
    scaled.apply_scale(1.05)
    scaled.apply_translation((1.0, 1.0, 1.0))
    scaled.export(str(tmp_path / "scaled.stl"))
    bad = run(tmp_path / "ref.stl", tmp_path / "scaled.stl", options={"translation_invariant": True})
    assert not bad.ok and "bounds" in failing(bad)
    with pytest.raises(ArtifactConfigError, match="translation_invariant"):
        run(tmp_path / "ref.stl", tmp_path / "moved.stl", options={"translation_invariant": "yes"})


def test_translation_invariant_reads_from_workflow_toml(tmp_path: Path) -> None:
    (tmp_path / "workflow.toml").write_text(
        'name = "part"\nfamily = "f"\ndomain = "spatial-geometry-3d"\nsummary = "s"\nentry = "run:main"\n'
        '[inputs.n]\ntype = "integer"\nmin = 1\nmax = 2\n'
        '[outputs.fields."mesh"]\nartifact = {translation_invariant = true}\n'
    )
    tol = load_spec(tmp_path).tolerances
    options = tol.options_for(("mesh",))
    assert options == {"translation_invariant": True}
    check_options("mesh", options)  # what the build and the grader validate


def with_chrm(arr: np.ndarray, path: Path, chrm: tuple[float, ...], compress_level: int = 6) -> Path:
    """A PNG with a cHRM chunk (white point and primaries, Pillow reads but does not write it) after IHDR."""
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG", compress_level=compress_level)
    data = buf.getvalue()
    body = b"cHRM" + struct.pack(">8I", *(round(v * 100000) for v in chrm))
    chunk = struct.pack(">I", 32) + body + struct.pack(">I", zlib.crc32(body))
    end_ihdr = 8 + 8 + 13 + 4
    path.write_bytes(data[:end_ihdr] + chunk + data[end_ihdr:])
    return path


SRGB_CHRM = (0.3127, 0.329, 0.64, 0.33, 0.3, 0.6, 0.15, 0.06)
BT2020_CHRM = (0.3127, 0.329, 0.708, 0.292, 0.17, 0.797, 0.131, 0.046)  # wide-gamut primaries: other colours


def test_image_png_chrm_other_than_srgb_changes_the_colours(tmp_path: Path) -> None:
    """SWR-D022: a cHRM chunk was ignored, so the same samples under BT.2020 primaries (shown far more saturated
    by a colour-managed viewer) equalled the sRGB reference. Now a cHRM other than sRGB's must be the
    reference's; sRGB's own, and a re-encoding that keeps the chunks, still pass."""
    arr = pattern()
    ref = tmp_path / "ref.png"
    Image.fromarray(arr).save(ref)
    wide = with_chrm(arr, tmp_path / "wide.png", BT2020_CHRM)
    assert failing(run(ref, wide)) == {"colour"}
    assert run(ref, with_chrm(arr, tmp_path / "srgb.png", SRGB_CHRM)).ok
    same = with_chrm(arr, tmp_path / "same.png", BT2020_CHRM, compress_level=0)  # another encoding, same chunks
    assert run(wide, same).ok
    assert failing(run(wide, ref)) == {"colour"}
    other = with_chrm(arr, tmp_path / "other.png", (0.3457, 0.3585, *BT2020_CHRM[2:]))  # D50 white point
    assert failing(run(wide, other)) == {"colour"}


def test_mesh_one_displaced_vertex_among_40962_fails(tmp_path: Path) -> None:
    """SWR-D023: above 10,000 vertices only a seeded subset was probed, so a dent at an unprobed vertex (index
    20481 here, outside the old subset; area, volume and bounds within tolerance) passed. Every vertex is probed
    now (a KD-tree bound clears those next to a vertex of the other mesh; the rest are measured exactly)."""
    mesh = trimesh.creation.icosphere(subdivisions=6)
    assert len(mesh.vertices) == 40962
    diag = float(np.linalg.norm(mesh.extents))
    vertices = mesh.vertices.copy()
    vertices[20481] -= 0.003 * diag * mesh.vertex_normals[20481]  # three times the distance tolerance
    dented = trimesh.Trimesh(vertices, mesh.faces, process=False)
    mesh.export(str(tmp_path / "ref.stl"))
    dented.export(str(tmp_path / "c.stl"))
    res = run(tmp_path / "ref.stl", tmp_path / "c.stl")
    assert failing(res) == {"distance"}
    assert res.checks["distance"]["got"] == pytest.approx(0.003 * diag, rel=1e-2)
    mesh.export(str(tmp_path / "same.stl"))
    assert run(tmp_path / "ref.stl", tmp_path / "same.stl").ok

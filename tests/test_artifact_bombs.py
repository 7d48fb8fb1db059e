"""Decompression bombs in the unsandboxed judge: a candidate artifact that decodes far beyond the
reference's size is a mismatch decided from headers and metadata, in bounded memory; an equivalent
artifact, even a large one, still passes. Bombs are judged in a child process under RLIMIT_AS."""

from __future__ import annotations

import gzip
import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
import soundfile
import trimesh
from PIL import Image

from swr.judge.artifacts import compare_artifact
from swr.judge.artifacts._common import BOUNDS, Bound

AS_LIMIT = 1 << 30  # the child's address space: today's code runs out of it on these bombs
PEAK_LIMIT_KIB = 512 << 10  # resident peak of a bounded comparison (imports included)
GUARD_S = 300  # kills a hung child; never a measured time

_CHILD = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
from dataclasses import asdict
from swr.judge.artifacts import compare_artifact
from swr.judge.artifacts.fields import digest
if sys.argv[2] == "digest":
    out = {"digest": digest(sys.argv[3])}
else:
    out = asdict(compare_artifact(sys.argv[2], sys.argv[3]))
# this process's own resident peak (ru_maxrss would carry over the forking pytest's through exec)
out["peak_kib"] = int(next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM:")))
print(json.dumps(out))
"""


def judge_limited(*args: Any) -> dict[str, Any]:
    """compare_artifact (or digest) in a child under RLIMIT_AS; its result and resident peak."""
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(AS_LIMIT), *map(str, args)], capture_output=True, text=True, timeout=GUARD_S
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def assert_refused(res: dict[str, Any], unit: str) -> None:
    """A mismatch naming the bound, decided without decoding (the peak stays small)."""
    assert res["ok"] is False, res
    assert "bound" in res["checks"], res["detail"]
    assert res["checks"]["bound"]["unit"] == unit
    assert f"{unit}, beyond the bound of" in res["detail"] and "not decoded" in res["detail"]
    assert res["peak_kib"] < PEAK_LIMIT_KIB, res["peak_kib"]


# ---------------------------------------------------------------- crafting


def png(path: Path, width: int, height: int) -> Path:
    """An RGB PNG of one colour, compressed row by row (the test never holds the pixels)."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    comp, row = zlib.compressobj(9), b"\0" + b"\x7f" * (3 * width)
    idat = b"".join(comp.compress(row) for _ in range(height)) + comp.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
    return path


def binary_stl(path: Path, facets: int) -> Path:
    """A binary STL of random facets whose header count is honest."""
    dt = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("attr", "<u2")])
    blob = np.zeros(facets, dtype=dt)
    blob["corners"] = np.random.default_rng(0).random((facets, 3, 3), dtype=np.float32)
    path.write_bytes(b"\0" * 80 + struct.pack("<I", facets) + blob.tobytes())
    return path


def glb(path: Path, doc: dict[str, Any], binary: bytes = b"") -> Path:
    """A GLB container of a glTF document and an optional binary chunk."""
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    binary += b"\0" * (-len(binary) % 4)
    body = struct.pack("<I4s", len(js), b"JSON") + js
    if binary:
        body += struct.pack("<I4s", len(binary), b"BIN\0") + binary
    path.write_bytes(struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body)
    return path


def triangle_soup_doc(triangles: int, primitives: int, buffer: dict[str, Any]) -> dict[str, Any]:
    """One mesh whose `primitives` primitives all reuse the same triangle-soup accessors."""
    n = 3 * triangles
    return {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}] * primitives}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"bufferView": 1, "componentType": 5125, "count": n, "type": "SCALAR"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 12 * n},
            {"buffer": 0, "byteOffset": 12 * n, "byteLength": 4 * n},
        ],
        "buffers": [buffer],
    }


@pytest.fixture
def box_stl(tmp_path: Path) -> Path:
    path = tmp_path / "ref.stl"
    trimesh.creation.box().export(str(path))
    return path


# ---------------------------------------------------------------- bombs, judged under RLIMIT_AS


def test_png_bomb_refused_from_its_header(tmp_path: Path) -> None:
    """300 KB that decode to 10^8 pixels (2.4 GB as float64 RGB)."""
    ref, bomb = png(tmp_path / "ref.png", 64, 64), png(tmp_path / "bomb.png", 10_000, 10_000)
    assert bomb.stat().st_size < 1 << 20
    assert_refused(judge_limited(ref, bomb), "pixels")


def test_only_the_image_suffixes_decoders_run(tmp_path: Path) -> None:
    """PIL picks a decoder by content (EPS would run Ghostscript): a GIF named .png is not read."""
    pic = np.random.default_rng(3).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    Image.fromarray(pic).save(tmp_path / "ref.png")
    Image.fromarray(pic).save(tmp_path / "cand.png", format="GIF")
    res = compare_artifact(tmp_path / "ref.png", tmp_path / "cand.png")
    assert not res.ok and res.detail.startswith("cannot read candidate image"), res.detail


def test_parquet_row_bomb_refused_from_its_footer(tmp_path: Path) -> None:
    """A few KB of Parquet declaring 4 million rows of one repeated value."""
    pq.write_table(pa.table({"a": [0.0, 1.0], "b": [1.0, 2.0], "c": [2.0, 3.0]}), tmp_path / "ref.parquet")
    n = 4_000_000
    pq.write_table(pa.table({k: np.zeros(n) for k in "abc"}), tmp_path / "bomb.parquet")
    assert (tmp_path / "bomb.parquet").stat().st_size < 1 << 20
    assert_refused(judge_limited(tmp_path / "ref.parquet", tmp_path / "bomb.parquet"), "cells")


@pytest.mark.parametrize("arrow_schema", [False, True])
def test_parquet_dictionary_bomb_refused_before_expansion(tmp_path: Path, arrow_schema: bool) -> None:
    """Few rows (within the cell bound) of one 200 KB string stored once in a dictionary page:
    the footer's sizes are small, expanded cells are 12 GB. Counted from value lengths, whether
    the file reads back as a dictionary (its Arrow schema says so) or as plain strings."""
    pq.write_table(pa.table({"s": ["x", "y"]}), tmp_path / "ref.parquet")
    big = pa.DictionaryArray.from_arrays(pa.array(np.zeros(60_000, dtype=np.int32)), pa.array(["x" * 200_000]))
    pq.write_table(pa.table({"s": big}), tmp_path / "bomb.parquet", store_schema=arrow_schema)
    assert (tmp_path / "bomb.parquet").stat().st_size < 1 << 20
    assert_refused(judge_limited(tmp_path / "ref.parquet", tmp_path / "bomb.parquet"), "bytes")


def test_csv_with_millions_of_cells_refused_from_a_byte_scan(tmp_path: Path) -> None:
    (tmp_path / "ref.csv").write_text("a,b,c,d\n0,1,2,3\n")
    with open(tmp_path / "bomb.csv", "w") as fh:
        fh.write("a,b,c,d\n")
        fh.writelines("0,1,2,3\n" for _ in range(1_500_000))
    assert_refused(judge_limited(tmp_path / "ref.csv", tmp_path / "bomb.csv"), "cells")


def test_flac_of_silence_refused_from_its_header(tmp_path: Path) -> None:
    """Half a MB of FLAC holding 10^8 frames of silence."""
    soundfile.write(tmp_path / "ref.flac", np.zeros(8000), 8000)
    zeros = np.zeros(1 << 20)
    with soundfile.SoundFile(tmp_path / "bomb.flac", "w", 8000, 1, format="FLAC") as sf:
        for _ in range(100):
            sf.write(zeros)
    assert (tmp_path / "bomb.flac").stat().st_size < 1 << 20
    assert_refused(judge_limited(tmp_path / "ref.flac", tmp_path / "bomb.flac"), "samples")


def test_flac_header_claiming_huge_length_refused(tmp_path: Path) -> None:
    """A STREAMINFO claiming 2^35 samples over a few bytes of data."""
    soundfile.write(tmp_path / "ref.flac", np.zeros(8000), 8000)
    data = bytearray((tmp_path / "ref.flac").read_bytes())
    field = int.from_bytes(data[18:26], "big")  # STREAMINFO's last 36 bits of these are the length
    data[18:26] = ((field & ~((1 << 36) - 1)) | (1 << 35)).to_bytes(8, "big")
    (tmp_path / "lie.flac").write_bytes(bytes(data))
    assert soundfile.info(tmp_path / "lie.flac").frames == 1 << 35
    assert_refused(judge_limited(tmp_path / "ref.flac", tmp_path / "lie.flac"), "samples")


@pytest.mark.parametrize(("facets", "unit"), [(1_500_000, "bytes"), (160_000, "values")])
def test_stl_beyond_bound_refused_from_size_and_header(tmp_path: Path, box_stl: Path, facets: int, unit: str) -> None:
    """A 75 MB STL (refused by its size) and an 8 MB one (by its header's facet count)."""
    assert_refused(judge_limited(box_stl, binary_stl(tmp_path / "cand.stl", facets)), unit)


def test_obj_token_bomb_refused_from_a_byte_scan(tmp_path: Path, box_stl: Path) -> None:
    """8 MB of `f 1 2 3` lines: a million faces, each costing trimesh hundreds of bytes."""
    with open(tmp_path / "cand.obj", "w") as fh:
        fh.write("v 0 0 0\nv 1 0 0\nv 0 1 0\n")
        fh.writelines("f 1 2 3\n" for _ in range(1_000_000))
    assert_refused(judge_limited(box_stl, tmp_path / "cand.obj"), "values")


@pytest.mark.parametrize("trick", ["reused", "bufferless"])
def test_glb_accessor_bombs_refused_from_its_json(tmp_path: Path, box_stl: Path, trick: str) -> None:
    """500 KB of GLB whose 500 primitives reuse one 30 000-vertex accessor (15 M vertices), and
    a GLB with an unused bufferless accessor of 10^8 4x4 matrices (trimesh fills it with zeros)."""
    tri = 10_000 if trick == "reused" else 1
    verts = np.random.default_rng(0).random((3 * tri, 3), dtype=np.float32)
    blob = verts.tobytes() + np.arange(3 * tri, dtype=np.uint32).tobytes()
    doc = triangle_soup_doc(tri, 500 if trick == "reused" else 1, {"byteLength": len(blob)})
    if trick == "bufferless":
        doc["accessors"].append({"componentType": 5126, "count": 100_000_000, "type": "MAT4"})
    assert_refused(judge_limited(box_stl, glb(tmp_path / "cand.glb", doc, blob)), "values")


def test_gltf_counts_and_indices_must_be_real() -> None:
    """A negative count or index must not shrink the total (Python would accept seq[-1])."""
    from swr.judge.artifacts.mesh import gltf_values

    acc = {"count": 10, "type": "VEC3"}
    assert gltf_values(
        {
            "accessors": [acc],
            "meshes": [{"primitives": [{"attributes": {"P": 0}}]}],
            "nodes": [{"mesh": 0}, {"mesh": 0}],
        }
    ) == 30 + 3 * (64 + 30)
    for doc in (
        {"accessors": [acc, {"count": -(10**9), "type": "SCALAR"}]},
        {"accessors": [acc], "meshes": [{"primitives": [{"attributes": {"P": -1}}]}]},
        {"accessors": [acc], "meshes": [], "nodes": [{"mesh": 0}]},
    ):
        with pytest.raises(ValueError):
            gltf_values(doc)


def test_glb_texture_bomb_is_never_decoded(tmp_path: Path, box_stl: Path) -> None:
    """A correct box whose embedded texture is a 10^8-pixel PNG: geometry is judged, the
    texture never decoded, so it passes in bounded memory."""
    box = trimesh.creation.box()
    box.visual = trimesh.visual.TextureVisuals(uv=np.zeros((len(box.vertices), 2)), image=Image.new("RGB", (8, 8)))
    raw = box.export(file_type="glb")
    jlen = struct.unpack("<I", raw[12:16])[0]
    doc, blob = json.loads(raw[20 : 20 + jlen]), raw[28 + jlen :]
    bomb = png(tmp_path / "texture.png", 10_000, 10_000).read_bytes()
    view = doc["bufferViews"][doc["images"][0]["bufferView"]]
    view["byteOffset"], view["byteLength"] = len(blob), len(bomb)
    blob += bomb
    doc["buffers"][0]["byteLength"] = len(blob)
    res = judge_limited(box_stl, glb(tmp_path / "cand.glb", doc, blob))
    assert res["ok"], res["detail"]
    assert res["peak_kib"] < PEAK_LIMIT_KIB


def test_glb_buffer_naming_a_fifo_beside_it_is_not_opened(tmp_path: Path, box_stl: Path) -> None:
    """A buffer URI naming a FIFO the candidate left in $SWR_ARTIFACTS used to block the judge
    forever in open(); no file beside a mesh is ever read."""
    os.mkfifo(tmp_path / "pipe.bin")
    doc = triangle_soup_doc(1, 1, {"byteLength": 48, "uri": "pipe.bin"})
    res = judge_limited(box_stl, glb(tmp_path / "cand.glb", doc))
    assert res["ok"] is False and res["detail"].startswith("cannot read candidate mesh"), res


def test_text_bomb_refused_from_its_size(tmp_path: Path) -> None:
    """64 MB of line breaks: 64 M lines as Python strings."""
    (tmp_path / "ref.txt").write_text("one\ntwo\n")
    with open(tmp_path / "cand.txt", "wb") as fh:
        for _ in range(64):
            fh.write(b"\n" * (1 << 20))
    assert_refused(judge_limited(tmp_path / "ref.txt", tmp_path / "cand.txt"), "bytes")


def gzip_bomb(path: Path, megabytes: int, head: bytes, one_member: bool) -> Path:
    """`head` then `megabytes` MB of one repeated line of bases, gzipped: as one deflate stream, or as a
    BGZF-like run of members (one 1 MB member written over and over: a few hundred KB on disk)."""
    block = b"ACGT" * 15 + b"\n"
    block *= (1 << 20) // len(block)
    with open(path, "wb") as fh:
        fh.write(gzip.compress(head, mtime=0))
        if one_member:
            comp = zlib.compressobj(6, zlib.DEFLATED, 31)
            fh.writelines(comp.compress(block) for _ in range(megabytes))
            fh.write(comp.flush())
        else:
            fh.write(gzip.compress(block, mtime=0) * megabytes)
    return path


@pytest.mark.parametrize("ref_name", ["ref.fasta", "ref.fa.gz", "ref.vcf", "ref.bam"])
def test_sequence_gzip_bomb_refused_while_inflating(tmp_path: Path, ref_name: str) -> None:
    """Hundreds of MB of bases in a gzip candidate of under 1 MB (a BGZF-like one for a BAM): counted block by
    block as it inflates, refused past the reference's bound before any parser sees it."""
    ref = tmp_path / ref_name
    if ref_name.endswith(".bam"):
        import pysam

        with pysam.AlignmentFile(str(ref), "wb", header={"HD": {"VN": "1.6"}, "SQ": [{"SN": "c1", "LN": 100}]}):
            pass
    elif ref_name.endswith(".vcf"):
        ref.write_text("##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n")
    else:
        fasta = b">a\nACGT\n"
        ref.write_bytes(gzip.compress(fasta) if ref_name.endswith(".gz") else fasta)
    one = ref_name == "ref.fasta"  # one deflate stream: 48 MB (compressing costs the test), past 32 MB + 4x the ref
    bomb = gzip_bomb(tmp_path / ("cand" + "".join(ref.suffixes)), 48 if one else 300, b">a\n", one_member=one)
    assert bomb.stat().st_size < 1 << 20
    assert_refused(judge_limited(ref, bomb), "decompressed")


def test_sequence_record_bomb_refused_from_a_line_count(tmp_path: Path) -> None:
    """Six million one-letter FASTQ lines in 12 MB (within the byte bound of a 2 MB reference): each a record
    of Python objects, refused from a streamed count of line breaks."""
    ref = tmp_path / "ref.fastq"
    ref.write_bytes(b"@r\n" + b"A" * (2 << 20) + b"\n+\n" + b"I" * (2 << 20) + b"\n")
    with open(tmp_path / "cand.fastq", "wb") as fh:
        for _ in range(12):
            fh.write(b"@\n" * (1 << 19))
    assert_refused(judge_limited(ref, tmp_path / "cand.fastq"), "records")


def test_pcap_packet_bomb_refused_from_its_record_headers(tmp_path: Path) -> None:
    """60,000 empty packet records in under 1 MB: counted from the record headers, refused before scapy
    dissects one."""
    head = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    ref = tmp_path / "ref.pcap"
    ref.write_bytes(head + struct.pack("<IIII", 1, 0, 14, 14) + bytes(14))
    cand = tmp_path / "cand.pcap"
    cand.write_bytes(head + struct.pack("<IIII", 1, 0, 0, 0) * 60_000)
    assert_refused(judge_limited(ref, cand), "packets")


def test_digest_of_a_sparse_artifact_is_bounded(tmp_path: Path) -> None:
    """Anti-shortcut digests every candidate artifact: an 8 TiB hole (a sparse file costs no
    disk) used to keep the judge reading zeros for an hour."""
    sparse, small = tmp_path / "hole.bin", tmp_path / "small.bin"
    with open(sparse, "wb") as fh:
        fh.truncate(1 << 43)
    small.write_bytes(b"abc")
    res = judge_limited("digest", sparse)
    assert res["digest"].startswith("artifact:sha256-head:") and res["digest"].endswith(f":size:{1 << 43}")
    assert judge_limited("digest", small)["digest"] == (
        "artifact:sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


# ---------------------------------------------------------------- equivalent artifacts still pass


def test_large_equivalent_artifacts_pass(tmp_path: Path) -> None:
    """Re-serialisations of large references pass: the bound is relative, and generous across formats."""
    rng = np.random.default_rng(1)
    pic = rng.integers(0, 256, (900, 1600, 3), dtype=np.uint8)
    Image.fromarray(pic).save(tmp_path / "ref.png")
    Image.fromarray(pic).save(tmp_path / "cand.tiff")
    n = 200_000
    table = pa.table({"x": rng.random(n), "k": rng.integers(0, 9, n), "s": [f"r{i % 97}" for i in range(n)]})
    pq.write_table(table, tmp_path / "ref.parquet")
    pacsv.write_csv(table, tmp_path / "cand.csv")
    sound = rng.uniform(-0.5, 0.5, (44_100 * 20, 2))
    soundfile.write(tmp_path / "ref.wav", sound, 44_100, subtype="PCM_24")
    soundfile.write(tmp_path / "cand.flac", sound, 44_100, subtype="PCM_24")
    pairs = [
        ("ref.png", "cand.tiff"),
        ("ref.parquet", "cand.csv"),
        ("cand.csv", "ref.parquet"),
        ("ref.wav", "cand.flac"),
    ]
    for ref, cand in pairs:
        res = compare_artifact(tmp_path / ref, tmp_path / cand)
        assert res.ok, (ref, cand, res.detail)


@pytest.mark.parametrize("cand", ["ascii.stl", "obj", "glb", "ply", "off"])
def test_large_mesh_reserialisations_pass(tmp_path: Path, cand: str) -> None:
    """A 20 480-facet binary STL re-written as ASCII STL (1.75x its values), OBJ, GLB, PLY, OFF."""
    mesh = trimesh.creation.icosphere(subdivisions=5)
    mesh.export(str(tmp_path / "ref.stl"))
    path = tmp_path / f"cand.{cand}"
    if cand == "ascii.stl":
        path.write_text(trimesh.exchange.stl.export_stl_ascii(mesh))
    else:
        mesh.export(str(path))
    res = compare_artifact(tmp_path / "ref.stl", path)
    assert res.ok, res.detail


def test_long_text_with_other_line_endings_passes(tmp_path: Path) -> None:
    lines = [f"line {i}" for i in range(300_000)]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "cand.txt").write_bytes(("\r\n".join(lines) + "\r\n").encode())
    assert compare_artifact(tmp_path / "ref.txt", tmp_path / "cand.txt").ok


def test_bound_is_relative_and_never_below_the_reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a ceiling below the reference's own size, an identical candidate still passes (the
    bound is never below the reference) and one pixel more row is refused."""
    assert Bound(4, 10, 100).limit(5) == 30 and Bound(4, 10, 100).limit(50) == 100
    assert Bound(4, 10, 100).limit(500) == 500
    monkeypatch.setitem(BOUNDS["image"], "pixels", Bound(4, 0, 100))
    pic = np.random.default_rng(2).integers(0, 256, (20, 20, 3), dtype=np.uint8)
    Image.fromarray(pic).save(tmp_path / "ref.png")
    Image.fromarray(pic).save(tmp_path / "same.bmp")
    Image.fromarray(np.vstack([pic, pic[:1]])).save(tmp_path / "taller.png")
    assert compare_artifact(tmp_path / "ref.png", tmp_path / "same.bmp").ok
    res = compare_artifact(tmp_path / "ref.png", tmp_path / "taller.png")
    assert not res.ok and res.checks["bound"]["expected"] == 400 and res.checks["bound"]["got"] == 420


def test_line_count_is_bounded_apart_from_bytes(tmp_path: Path) -> None:
    """Under the byte bound but with too many lines: refused by the line count."""
    (tmp_path / "ref.txt").write_text("a\n")
    (tmp_path / "cand.txt").write_bytes(b"\n" * 600_000)
    res = compare_artifact(tmp_path / "ref.txt", tmp_path / "cand.txt")
    assert not res.ok and res.checks["bound"]["unit"] == "lines", res.detail


# ---------------------------------------------------------------- issue 22, items 6 and 8: grading's bounds

IMAGE_WORKFLOW = """name = "shade-image"
family = "fixtures"
domain = "data-document"
summary = "A 1000 x 1000 grey PNG whose shade follows `a`."
command = ["python3", "run.py"]
timeout_s = 30

[inputs.a]
type = "number"
min = 0.0
max = 1.0

[outputs.fields."image"]
description = "PNG file name in $SWR_ARTIFACTS."
"""
IMAGE_RUN = """import json, os, sys
from PIL import Image
s = json.load(sys.stdin)
if s["a"] == BOMB_A:
    import shutil
    shutil.copyfile("bomb.jpg", os.path.join(os.environ["SWR_ARTIFACTS"], "img.png"))
else:
    Image.new("L", (1000, 1000), round(250 * s["a"])).save(os.path.join(os.environ["SWR_ARTIFACTS"], "img.png"))
print(json.dumps({"image": "img.png", "a": s["a"]}))
"""


def many_scans_jpeg(path: Path, width: int, height: int, scans: int) -> Path:
    """A progressive JPEG with `scans` extra AC scans that carry no data: a legal size and a few MB, but the
    decoder walks every block of the image for every scan (CPU per byte, the "many scans" DoS)."""
    import io

    buf = io.BytesIO()
    Image.new("L", (width, height), 128).save(buf, "JPEG", progressive=True, quality=90)
    data = buf.getvalue()
    i, ac_scan = 2, b""
    while data[i + 1] != 0xD9:
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if data[i + 1] == 0xDA:
            head = data[i : i + 2 + length]
            ac_scan = ac_scan or (head if head[-3] > 0 else b"")  # Ss > 0: an AC scan
            i += 2 + length
            while data[i] != 0xFF or data[i + 1] == 0 or 0xD0 <= data[i + 1] <= 0xD7:
                i += 1  # the entropy-coded data, up to the next marker
        else:
            i += 2 + length
    assert ac_scan
    path.write_bytes(data[:i] + ac_scan * scans + data[i:])
    return path


@pytest.fixture(scope="module")
def image_task(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from swr.assemble import BuildOptions, build
    from swr.core.release_dir import task_dir
    from swr.kinds.workflow.cache import ExecutionCache
    from swr.kinds.workflow.task import load_workflow_task

    base = tmp_path_factory.mktemp("shade")
    (base / "wf").mkdir()
    (base / "wf" / "workflow.toml").write_text(IMAGE_WORKFLOW)
    (base / "wf" / "run.py").write_text(IMAGE_RUN.replace("BOMB_A", "None"))
    opts = BuildOptions(variants=1, public=2, hidden=2, jobs=2, cache=ExecutionCache(base / "cache"))
    results = build([base / "wf"], base / "release", opts)
    assert not results[0].failure, results[0].failure
    return load_workflow_task(task_dir(base / "release", "shade-image-v1"))


def test_a_jpeg_of_many_scans_is_a_graded_failure_within_the_decode_budget(image_task: Any, tmp_path: Path) -> None:
    """A candidate image that costs the decoder CPU per byte (half a million empty scans, 4.5 MB, 4 Mpixel:
    within the size bound) is decoded in the bounded child and fails its scenario as `artifact_mismatch`
    once the CPU budget is spent: `swr grade` ends with 1 (a graded failure), not 2 and not a hang. The
    candidate's other scenarios still pass."""
    from conftest import swr, write_candidate

    bomb_a = image_task.hidden[0].scenario["a"]
    cand = write_candidate(tmp_path / "cand", IMAGE_RUN.replace("BOMB_A", repr(bomb_a)))
    many_scans_jpeg(cand / "bomb.jpg", 2000, 2000, 500_000)
    res = swr("grade", str(image_task.root), str(cand), "--json", timeout=GUARD_S)
    assert res.returncode == 1, res.stderr[-2000:]
    v = json.loads(res.stdout)
    first, *rest = v["scenarios"]
    assert first["label"] == "artifact_mismatch" and all(s["pass"] for s in rest), v["scenarios"]
    assert "decode budget exceeded" in first["mismatches"][0]["got"], first["mismatches"]


def test_a_grade_holds_at_most_jobs_runs_of_artifacts(
    linear_release: Path, backend: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every scenario's run writes nearly the task's disk limit of artifacts; the grade's scratch on the host
    never holds more than `jobs` runs' worth (each scenario is judged and dropped as it finishes), where it
    used to keep every scenario's files until the verdict."""
    import dataclasses
    import tempfile
    import threading

    from conftest import write_candidate

    from swr.core.release_dir import task_dir
    from swr.kinds.workflow.grading import grade
    from swr.kinds.workflow.task import load_workflow_task

    scratch = Path(tempfile.mkdtemp(prefix="swr-test-scratch-"))
    scratch.chmod(0o755)
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    task = load_workflow_task(task_dir(linear_release, "good-linear-v1"))
    cap, jobs = 4 << 20, 2
    task = dataclasses.replace(task, limits=dataclasses.replace(task.limits, disk_bytes=cap))
    cand = write_candidate(
        tmp_path / "cand",
        """import json, os, sys
s = json.load(sys.stdin)
for i in range(3):
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "junk%d" % i), "wb") as f:
        f.write(os.urandom(1 << 20))
print(json.dumps({"y": 2 * s["a"] + s["b"], "z": [s["a"], s["b"]]}))
""",
    )
    peak, samples, done = [0], [0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            held = 0
            for d in scratch.glob("swr-grade-*"):
                for root, _, names in os.walk(d):
                    for n in names:
                        try:
                            held += os.lstat(os.path.join(root, n)).st_size
                        except OSError:
                            pass
            peak[0], samples[0] = max(peak[0], held), samples[0] + 1
            done.wait(0.005)

    t = threading.Thread(target=watch)
    t.start()
    try:
        v = grade(task, cand, backend, jobs=jobs)
    finally:
        done.set()
        t.join()
        import shutil

        shutil.rmtree(scratch, ignore_errors=True)
    assert v.passed, v.label
    assert len(v.scenarios) == len(task.hidden) + len(task.public) > jobs
    assert samples[0] > 0 and peak[0] <= jobs * cap, (peak[0], samples[0])


def test_the_bounded_child_keeps_a_bad_reference_the_tasks_error(tmp_path: Path) -> None:
    """Through the child, a reference that cannot be read is still the task's error (exit 2 in `swr grade`),
    never a graded failure of the candidate; a candidate that cannot be read is the candidate's."""
    from swr.judge.artifacts import ArtifactConfigError
    from swr.judge.artifacts.fields import compare_file
    from swr.judge.tolerance import Tolerances

    (tmp_path / "ref.png").write_bytes(b"\x89PNG\r\n\x1a\nnot an image")
    Image.new("L", (4, 4)).save(tmp_path / "cand.png")
    with pytest.raises(ArtifactConfigError, match="cannot read reference"):
        compare_file(tmp_path / "ref.png", tmp_path / "cand.png", "cand.png", ("image",), Tolerances())
    res = compare_file(tmp_path / "cand.png", tmp_path / "ref.png", "ref.png", ("image",), Tolerances())
    assert not res.ok and res.detail.startswith("cannot read candidate image"), res.detail


# ---------------------------------------------------------------- issue 26: scientific data and configuration files


def test_hdf5_gzip_bomb_refused_from_its_declared_shape(tmp_path: Path) -> None:
    """A few hundred KB of HDF5 whose gzip-compressed dataset of zeros is 3.2 GB as float64."""
    import h5py

    with h5py.File(tmp_path / "ref.h5", "w") as f:
        f.create_dataset("x", data=np.zeros((10, 10)))
    with h5py.File(tmp_path / "bomb.h5", "w") as f:
        f.create_dataset("x", shape=(20_000, 20_000), dtype="f8", chunks=(1000, 1000), compression="gzip", fillvalue=0)
        f["x"][:1000, :1000] = 0.0
    assert (tmp_path / "bomb.h5").stat().st_size < 1 << 20
    assert_refused(judge_limited(tmp_path / "ref.h5", tmp_path / "bomb.h5"), "decoded")


def test_netcdf_compressed_bomb_refused_from_its_declared_shape(tmp_path: Path) -> None:
    import netCDF4

    with netCDF4.Dataset(tmp_path / "ref.nc", "w") as nc:
        nc.createDimension("n", 10)
        nc.createVariable("x", "f8", ("n",))[:] = np.arange(10.0)
    with netCDF4.Dataset(tmp_path / "bomb.nc", "w") as nc:
        nc.createDimension("a", 20_000)
        nc.createDimension("b", 20_000)
        nc.createVariable("x", "f8", ("a", "b"), zlib=True, chunksizes=(1000, 1000), fill_value=0.0)
    assert (tmp_path / "bomb.nc").stat().st_size < 1 << 20
    assert_refused(judge_limited(tmp_path / "ref.nc", tmp_path / "bomb.nc"), "decoded")


def test_fits_tile_compressed_bomb_refused_from_its_header(tmp_path: Path) -> None:
    """A Rice-compressed image of zeros declaring 1.6 x 10^7 pixels (ZNAXISn), a few hundred KB on disk."""
    from astropy.io import fits

    fits.PrimaryHDU(np.zeros((8, 8), dtype=np.float32)).writeto(tmp_path / "ref.fits")
    big = fits.CompImageHDU(np.zeros((4000, 4000), dtype=np.int16), compression_type="RICE_1")
    fits.HDUList([fits.PrimaryHDU(), big]).writeto(tmp_path / "bomb.fits")
    assert (tmp_path / "bomb.fits").stat().st_size < 4 << 20
    assert_refused(judge_limited(tmp_path / "ref.fits", tmp_path / "bomb.fits"), "decoded")


def test_yaml_alias_bomb_refused_from_its_expanded_count(tmp_path: Path) -> None:
    """A billion laughs in YAML aliases: 10^11 nodes as expanded, a kilobyte on disk."""
    (tmp_path / "ref.yaml").write_text("a: [1, 2, 3]\n")
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 11)]
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    assert_refused(judge_limited(tmp_path / "ref.yaml", tmp_path / "bomb.yaml"), "nodes")


def test_xml_billion_laughs_is_refused_without_expansion(tmp_path: Path) -> None:
    (tmp_path / "ref.xml").write_text("<cfg><a>1</a></cfg>")
    ents = ['<!ENTITY lol0 "lol">'] + [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)]
    (tmp_path / "bomb.xml").write_text(f"<?xml version='1.0'?><!DOCTYPE cfg [{''.join(ents)}]><cfg><a>&lol9;</a></cfg>")
    res = judge_limited(tmp_path / "ref.xml", tmp_path / "bomb.xml")
    assert res["ok"] is False and "EntitiesForbidden" in res["detail"], res
    assert res["peak_kib"] < PEAK_LIMIT_KIB


def test_deeply_nested_xml_refused_from_its_depth(tmp_path: Path) -> None:
    (tmp_path / "ref.xml").write_text("<cfg><a>1</a></cfg>")
    (tmp_path / "bomb.xml").write_text("<a>" * 100_000 + "</a>" * 100_000)
    assert_refused(judge_limited(tmp_path / "ref.xml", tmp_path / "bomb.xml"), "depth")


def _code_judge(tmp_path: Path, cand: Path, opts: dict[str, Any], calls: list[int] | None = None) -> Any:
    """A code artifact judged as the workflow grader does: the probe in the bwrap sandbox, the records in the child."""
    from swr.judge.artifacts.fields import compare_file
    from swr.judge.tolerance import Tolerances
    from swr.kinds.workflow.coderun import sandbox_runner
    from swr.sandbox import get_sandbox

    (tmp_path / "ref.c").write_text("double f(double x) { return 2.0 * x + 1.0; }\n")
    runner = sandbox_runner(get_sandbox("bwrap"))

    def counted(probe: Any) -> Any:
        if calls is not None:
            calls.append(1)
        return runner(probe)

    tol = Tolerances.from_spec({"fields": {"code": {"artifact": opts}}})
    return compare_file(tmp_path / "ref.c", cand, cand.name, ("code",), tol, False, counted)


CODE_OPTS = {"entry": "f", "args": ["double"], "inputs": [[0.5], [-3.0]]}


def test_code_source_bomb_refused_from_its_size_before_it_is_read_or_run(tmp_path: Path) -> None:
    """A sparse 2 GiB source: refused by the code bound from its size; only the reference's probe ever ran."""
    cand = tmp_path / "cand.c"
    with open(cand, "wb") as fh:
        fh.truncate(2 << 30)
    calls: list[int] = []
    res = _code_judge(tmp_path, cand, {**CODE_OPTS, "seed": 101}, calls)  # a plan of its own: no cached reference
    assert not res.ok and "bound" in res.checks, res.detail
    assert calls == [1]


def test_code_compiler_bomb_is_a_graded_failure_within_the_sandbox_limits(tmp_path: Path) -> None:
    """Macros that expand to 2^30 tokens: gcc runs out of the probe's time or memory in the sandbox, and the
    candidate fails its field; the judge neither hangs nor raises."""
    defs = "".join(f"#define A{i + 1} A{i}+A{i}\n" for i in range(30))
    cand = tmp_path / "cand.c"
    cand.write_text(f"#define A0 x\n{defs}double f(double x) {{ return A30; }}\n")
    res = _code_judge(tmp_path, cand, {**CODE_OPTS, "timeout_s": 5})
    assert not res.ok and "limit" in str(res.detail), res.detail


def test_code_record_bomb_is_a_graded_failure_in_the_bounded_child(tmp_path: Path) -> None:
    """A run record nested 400,000 deep, inside the size bound (what code writing to the probe's answer could leave): the records'
    comparison in the bounded child fails the candidate instead of recursing the judge to death."""
    from swr.judge.artifacts.bounded import compare_bounded

    (tmp_path / "ref.json").write_text(json.dumps({"results": [{"value": 1.0}]}))
    (tmp_path / "cand.json").write_text('{"results": [{"value": ' + "[" * 400_000 + "]" * 400_000 + "}]}")
    res = compare_bounded(
        tmp_path / "ref.json", tmp_path / "cand.json", atol=0.0, rtol=0.0, options=CODE_OPTS, kind="code"
    )
    assert not res.ok and res.detail.startswith("cannot read candidate code"), res.detail

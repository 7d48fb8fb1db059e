"""Artifact comparators: files a candidate writes (meshes, images, audio, tables, HTML, text) judged
by what they mean, not their bytes, so a faithful re-serialisation passes and a wrong one fails."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ._common import ArtifactConfigError, ArtifactResult, load_failure, options_for, tol_value

KINDS: dict[str, str] = {
    **dict.fromkeys((".stl", ".obj", ".ply", ".off", ".glb"), "mesh"),
    **dict.fromkeys((".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".ppm", ".pgm"), "image"),
    **dict.fromkeys((".wav", ".flac", ".ogg"), "audio"),
    **dict.fromkeys((".csv", ".tsv", ".parquet"), "table"),
    **dict.fromkeys((".html", ".htm"), "html"),
    **dict.fromkeys((".h5", ".hdf5", ".nc", ".fits", ".fit"), "scidata"),
    **dict.fromkeys((".yaml", ".yml", ".toml", ".ini", ".cfg", ".xml"), "config"),
    **dict.fromkeys((".py", ".c"), "code"),
    **dict.fromkeys((".fasta", ".fa", ".fna", ".faa", ".fastq", ".fq", ".sam", ".bam", ".vcf", ".vcf.gz"), "sequence"),
    **dict.fromkeys((".fasta.gz", ".fa.gz", ".fna.gz", ".faa.gz", ".fastq.gz", ".fq.gz"), "sequence"),
    **dict.fromkeys((".pcap", ".pcapng"), "pcap"),
}

Comparator = Callable[[Path, Path, float, float, Mapping[str, Any] | None], ArtifactResult]


def artifact_kind(path: Path) -> str:
    """The comparator kind for a reference file, by its suffix (or two: `.vcf.gz`); anything unknown is text."""
    return KINDS.get("".join(Path(path).suffixes[-2:]).lower()) or KINDS.get(Path(path).suffix.lower(), "text")


def _comparator(kind: str) -> Comparator:
    """Imported lazily so a task that only has tables never imports trimesh or Pillow."""
    if kind == "mesh":
        from .mesh import compare_mesh as fn
    elif kind == "image":
        from .image import compare_image as fn
    elif kind == "audio":
        from .audio import compare_audio as fn
    elif kind == "table":
        from .table import compare_table as fn
    elif kind == "html":
        from .html import compare_html as fn
    elif kind == "scidata":
        from .scidata import compare_scidata as fn
    elif kind == "config":
        from .config import compare_config as fn
    elif kind == "code":
        from .code import compare_code as fn
    elif kind == "sequence":
        from .sequence import compare_sequence as fn
    elif kind == "pcap":
        from .pcap import compare_pcap as fn
    else:
        from .text import compare_text as fn
    return fn


def check_options(kind: str, options: Mapping[str, Any] | None) -> None:
    """Raise ArtifactConfigError for an option the kind's comparator does not know."""
    import importlib

    defaults = importlib.import_module(f"{__name__}.{kind}").DEFAULTS
    options_for(kind, options, defaults)


def compare_artifact(
    reference: Path,
    candidate: Path,
    *,
    atol: float = 1e-6,
    rtol: float = 1e-4,
    options: dict[str, Any] | None = None,
    kind: str | None = None,
) -> ArtifactResult:
    """Compare a candidate artifact with the reference, choosing the comparator by the
    reference's suffix. Never raises on candidate bytes; a bad reference or bad options raise
    ArtifactConfigError, since that is the task's fault and must not be graded as the candidate's. `kind`: the
    comparator when the files are not the artifact itself (a code artifact's run records, code.judge_code)."""
    reference, candidate = Path(reference), Path(candidate)
    kind = kind or artifact_kind(reference)
    atol, rtol = tol_value("atol", atol), tol_value("rtol", rtol)
    if options is not None and not isinstance(options, Mapping):
        raise ArtifactConfigError(f"options must be a mapping, got {type(options).__name__}")
    if not reference.is_file():
        raise ArtifactConfigError(f"reference {kind} not found: {reference}")
    if not candidate.is_file():
        return ArtifactResult(False, kind, {}, f"cannot read candidate {kind}: no file {candidate.name}")
    fn = _comparator(kind)
    try:
        return fn(reference, candidate, atol, rtol, options)
    except ArtifactConfigError:
        raise
    except Exception as exc:  # noqa: BLE001 - candidate bytes must never crash the judge
        return load_failure(kind, kind, exc)


__all__ = ["KINDS", "ArtifactConfigError", "ArtifactResult", "check_options", "compare_artifact", "artifact_kind"]

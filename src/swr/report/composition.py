"""Composition statistics of a release as the SWR paper reports them (section 3, Appendix B): the parameters' types
and counts (Figure 4), the output types of each family with its median number of checkable fields (Figure 8), and
the checkable output fields per task (Figure 11). `swr tasks RELEASE --stats` prints them, the report shows them.

Each task answers through the kinds protocol (KindTask.composition): its parameters' types, one graded output and
the files that output names. What is counted here:
- output types, multi-valued per task: every artifact file by its suffix (SUFFIX_TYPES), and the JSON output's own
  fields: a list of records or of equal-length rows is a table, a string of several lines is text, an object
  below the top level is structured JSON. A task whose output is only scalars has none of these types.
- checkable fields: the scalar leaves of the graded output (an artifact file is one leaf), without the digest-like
  profiling fields the paper leaves out: content hashes (by value or by a key such as `sha256`) and timings (keys
  such as `wall_s`, `elapsed`). Fields a task declares ungraded are not in the output the kind gives."""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.release_dir import list_tasks
from swr.kinds.protocol import PARAMETER_TYPES, Composition

OUTPUT_TYPES = (
    "tables",
    "logs/text",
    "JSON",
    "images",
    "audio",
    "scientific data",
    "code",
    "biological sequences",
    "geometry",
    "markup",
    "packet captures",
    "configuration files",
)
_SUFFIXES = {
    "tables": ".csv .tsv .parquet .xlsx .xls .arrow .feather",
    "logs/text": ".txt .log .out .err .dat",
    "JSON": ".json .jsonl .ndjson",
    "images": ".png .jpg .jpeg .bmp .gif .tif .tiff .ppm .pgm .webp .svgz .exr",
    "audio": ".wav .flac .ogg .mp3 .aiff .aif",
    "scientific data": ".h5 .hdf5 .nc .nc4 .cdf .fits .fit .fts .npy .npz .mat .zarr .grib .grb",
    "code": ".py .c .h .cc .cpp .hpp .f .f90 .f95 .v .sv .vhd .sql .js .ts .r .jl .rs .go .java .sh .m",
    "biological sequences": ".fasta .fa .fna .faa .fastq .fq .sam .bam .cram .vcf .bcf .gb .gbk .aln .sto .pdb .cif",
    "geometry": ".stl .obj .ply .off .glb .gltf .step .stp .iges .igs .dxf .geojson .vtk .vtu .msh .shp .3mf .gpkg",
    "markup": ".html .htm .xml .svg .md .rst .tex .xhtml",
    "packet captures": ".pcap .pcapng .cap",
    "configuration files": ".yaml .yml .ini .toml .cfg .conf .properties .env",
}
SUFFIX_TYPES: dict[str, str] = {suffix: kind for kind, text in _SUFFIXES.items() for suffix in text.split()}
_DIGEST_VALUE = re.compile(r"(?:(?:sha\d*|md5|blake2\w*|artifact:sha256)[:-])?[0-9a-fA-F]{32,}")
_DIGEST_KEY = re.compile(r"(?:^|_)(?:sha\d*|md5|digest|hash|checksum|crc32)$", re.IGNORECASE)
_TIMING_KEY = re.compile(r"(?:^|_)(?:wall|elapsed|runtime|duration|cpu_time|time_ms|time_s|timing|profile)(?:_s|_ms)?$")
BUCKETS = ((0, 0), (1, 1), (2, 5), (6, 10), (11, 20), (21, 50), (51, 100), (101, 1000), (1001, None))


def file_type(name: str) -> str | None:
    """The paper's output type of an artifact file by its suffix (None: a suffix of none of them)."""
    return SUFFIX_TYPES.get(Path(name).suffix.lower())


def _digest_like(key: Any, value: Any) -> bool:
    """A content hash or a timing: what a program's profile reports, not what it computes."""
    if isinstance(key, str) and (_DIGEST_KEY.search(key) or _TIMING_KEY.search(key.lower())):
        return True
    return isinstance(value, str) and bool(_DIGEST_VALUE.fullmatch(value))


def checkable_fields(doc: Any, key: Any = None) -> int:
    """Scalar leaves of a graded output, digest-like profiling fields left out (an empty container counts one:
    its emptiness is checked)."""
    if isinstance(doc, dict):
        return sum(checkable_fields(v, k) for k, v in doc.items() if not _digest_like(k, v)) if doc else 1
    if isinstance(doc, list):
        return sum(checkable_fields(v, key) for v in doc) if doc else 1
    return 0 if _digest_like(key, doc) else 1


def _is_table(value: list[Any]) -> bool:
    if len(value) < 2:
        return False
    if all(isinstance(v, dict) and v for v in value):
        return len({frozenset(v) for v in value}) == 1
    return all(isinstance(v, list) and v for v in value) and len({len(v) for v in value}) == 1


def json_types(doc: Any, depth: int = 0) -> set[str]:
    """The output types of an output document's own fields (see the module's docstring)."""
    found: set[str] = set()
    if isinstance(doc, dict):
        if depth >= 1 and doc:
            found.add("JSON")
        for v in doc.values():
            found |= json_types(v, depth + 1)
    elif isinstance(doc, list):
        if _is_table(doc):
            found.add("tables")
        for v in doc:
            found |= json_types(v, depth + 1)
    elif isinstance(doc, str) and "\n" in doc.strip():
        found.add("logs/text")
    return found


def output_types(comp: Composition) -> set[str]:
    """Every output type of one task: its files' and its JSON fields'."""
    files = {t for t in map(file_type, comp.artifacts) if t}
    names = set(comp.artifacts)
    return files | json_types(_without(comp.output, names))


def _without(doc: Any, names: set[str]) -> Any:
    """The document with its artifact names blanked (a file name is not a line of text)."""
    if isinstance(doc, dict):
        return {k: _without(v, names) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_without(v, names) for v in doc]
    return None if isinstance(doc, str) and doc in names else doc


def task_row(root: Path) -> dict[str, Any]:
    """One task's composition as the statistics use it."""
    task = kinds.load(root)
    comp = task.composition()
    meta = task.meta
    return {
        "task": root.name,
        "kind": meta.kind,
        "workflow": meta.source,
        "family": meta.family,
        "domain": meta.domain,
        "parameters": list(comp.parameters),
        "output_types": sorted(output_types(comp), key=OUTPUT_TYPES.index),
        "checkable_fields": None if comp.output is None else checkable_fields(comp.output),
    }


def _median(values: list[int]) -> float | None:
    return float(statistics.median(values)) if values else None


def _percentile(values: list[int], q: float) -> float | None:
    """numpy's default (linear) percentile, the paper's 90th (95.3 is not a count)."""
    if not values:
        return None
    s = sorted(values)
    pos = (len(s) - 1) * q
    lo, hi = int(pos), min(int(pos) + 1, len(s) - 1)
    return round(s[lo] + (s[hi] - s[lo]) * (pos - lo), 3)


def _bucket(n: int) -> str:
    lo, hi = next((lo, hi) for lo, hi in BUCKETS if n >= lo and (hi is None or n <= hi))
    return str(lo) if lo == hi else f"{lo}+" if hi is None else f"{lo}-{hi}"


def composition_stats(release: Path) -> dict[str, Any]:
    """The release's composition: per task rows, and the paper's three figures as tables."""
    rows = [task_row(root) for root in list_tasks(release)]
    return summarise(rows)


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures 4, 8 and 11 from task rows (task_row)."""
    n = len(rows)
    axes = Counter(t for r in rows for t in r["parameters"])
    total_axes = sum(axes.values())
    workflows: dict[str, dict[str, Any]] = {}
    for r in rows:
        w = workflows.setdefault(r["workflow"], {"workflow": r["workflow"], "family": r["family"], "tasks": 0})
        w["tasks"] += 1
        w["parameters"] = len(r["parameters"])
        w["types"] = dict(sorted(Counter(r["parameters"]).items()))
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_family[r["family"]].append(r)
    fields = [r["checkable_fields"] for r in rows if r["checkable_fields"] is not None]
    return {
        "tasks": n,
        "parameters": {  # Figure 4
            "tasks_by_count": {str(k): v for k, v in sorted(Counter(len(r["parameters"]) for r in rows).items())},
            "types": {t: axes.get(t, 0) for t in PARAMETER_TYPES},
            "type_shares": {t: round(axes.get(t, 0) / total_axes, 4) if total_axes else 0.0 for t in PARAMETER_TYPES},
            "workflows": sorted(workflows.values(), key=lambda w: (w["family"], w["workflow"])),
        },
        "output_types": {t: sum(t in r["output_types"] for r in rows) for t in OUTPUT_TYPES},
        "families": [_family(name, members) for name, members in sorted(by_family.items())],  # Figure 8
        "checkable_fields": {  # Figure 11
            "tasks": len(fields),
            "median": _median(fields),
            "p90": _percentile(fields, 0.9),
            "histogram": {b: c for b, c in _histogram(fields).items()},
        },
        "rows": rows,
    }


def _family(name: str, members: list[dict[str, Any]]) -> dict[str, Any]:
    """A family's output types ("all" its tasks produce it, "some" do) and its median checkable fields."""
    counts = Counter(t for r in members for t in r["output_types"])
    fields = [r["checkable_fields"] for r in members if r["checkable_fields"] is not None]
    return {
        "family": name,
        "domain": members[0]["domain"],
        "tasks": len(members),
        "output_types": {t: "all" if counts[t] == len(members) else "some" for t in OUTPUT_TYPES if counts[t]},
        "median_checkable_fields": _median(fields),
    }


def _histogram(fields: list[int]) -> dict[str, int]:
    counts = Counter(_bucket(f) for f in fields)
    order = [_bucket(lo) for lo, _ in BUCKETS]
    return {b: counts[b] for b in order if counts[b]}


def render(stats: dict[str, Any]) -> list[Any]:
    """The three figures as rich tables, for `swr tasks --stats`."""
    from rich.table import Table

    p = stats["parameters"]
    params = Table(title=f"parameters (Fig. 4): {stats['tasks']} tasks")
    for col in ("parameters per task", "tasks", "type", "axes", "share"):
        params.add_column(col)
    counts, types = list(p["tasks_by_count"].items()), list(p["types"].items())
    for i in range(max(len(counts), len(types))):
        c = counts[i] if i < len(counts) else ("", "")
        t = types[i] if i < len(types) else ("", "")
        share = f"{p['type_shares'][t[0]]:.1%}" if t[0] else ""
        params.add_row(c[0], str(c[1]), t[0], str(t[1]), share)
    fam = Table(title="output types per family (Fig. 8): ● every task, ○ some")
    for col in ("domain", "family", "tasks", "output types", "median checkable fields"):
        fam.add_column(col)
    for f in stats["families"]:
        marks = ", ".join(f"{'●' if v == 'all' else '○'} {t}" for t, v in f["output_types"].items()) or "scalars only"
        med = f["median_checkable_fields"]
        fam.add_row(f["domain"], f["family"], str(f["tasks"]), marks, "n/a" if med is None else f"{med:g}")
    c = stats["checkable_fields"]
    med, p90 = c["median"], c["p90"]
    fields = Table(title=f"checkable output fields per task (Fig. 11): median {med}, 90th percentile {p90}")
    fields.add_column("fields")
    fields.add_column("tasks")
    for bucket, count in c["histogram"].items():
        fields.add_row(bucket, str(count))
    per_type = Table(title="tasks per output type (multi-valued)")
    per_type.add_column("output type")
    per_type.add_column("tasks")
    for t, count in stats["output_types"].items():
        per_type.add_row(t, str(count))
    return [params, per_type, fam, fields]


def page_tables(stats: dict[str, Any]) -> list[dict[str, Any]]:
    """The three figures as the report's tables (id, title, headers, rows, caption)."""
    p, c = stats["parameters"], stats["checkable_fields"]
    shares = p["type_shares"]
    return [
        {
            "id": "parameters",
            "title": f"Parameters (Fig. 4): tasks by parameter count, and the type of every parameter axis "
            f"({stats['tasks']} tasks)",
            "headers": ["parameters per task", "tasks"],
            "rows": list(p["tasks_by_count"].items()),
            "caption": [", ".join(f"{t} {n} ({shares[t]:.1%})" for t, n in p["types"].items())],
        },
        {
            "id": "output-types",
            "title": "Tasks per output type (multi-valued: a task may have several)",
            "headers": ["output type", "tasks"],
            "rows": [(t, n) for t, n in stats["output_types"].items() if n],
            "caption": [],
        },
        {
            "id": "families",
            "title": "Output types per family (Fig. 8): ● every task of the family, ○ some",
            "headers": ["domain", "family", "tasks", "output types", "median checkable fields"],
            "rows": [
                (
                    f["domain"],
                    f["family"],
                    f["tasks"],
                    ", ".join(f"{'●' if v == 'all' else '○'} {t}" for t, v in f["output_types"].items())
                    or "scalars only",
                    "n/a" if f["median_checkable_fields"] is None else f"{f['median_checkable_fields']:g}",
                )
                for f in stats["families"]
            ],
            "caption": [],
        },
        {
            "id": "checkable-fields",
            "title": f"Checkable output fields per task (Fig. 11; digest-like profiling fields excluded): "
            f"median {c['median']}, 90th percentile {c['p90']}",
            "headers": ["fields", "tasks"],
            "rows": list(c["histogram"].items()),
            "caption": [],
        },
    ]

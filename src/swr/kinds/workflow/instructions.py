"""What the agent is told: instruction.md and public/schema.json, rendered from the workflow spec."""

from __future__ import annotations

from typing import Any

from swr.kinds.workflow.spec import InputSpec, WorkflowSpec
from swr.sandbox import Limits, MiB

ARTIFACT_RULES = {
    "mesh": "a mesh matches on volume, area, bounds, Euler characteristic, watertightness and surface distance "
    "(any of STL, OBJ, PLY, OFF; facet order and vertex numbering are free)",
    "image": "an image matches on size, channels and per-pixel values as displayed, within tolerance (any lossless "
    "format; an ICC profile or PNG gAMA is applied, a PNG cHRM other than sRGB's must be the reference's)",
    "audio": "audio matches on sample rate, length and samples within tolerance",
    "sequence": "sequence files match as records: FASTA/FASTQ by id, description, bases (and qualities), line "
    "wrapping, case and record order free; SAM and BAM alike by header @SQ and reads as a set; VCF by header "
    "definitions and records, floats within tolerance, header line order free; gzip accepted",
    "pcap": "a capture matches packet by packet in order: timestamps within the reference's resolution, every "
    "decoded layer's fields equal (pcap or pcapng, either byte order)",
    "table": "a table matches on columns, row count, column types and cells within tolerance (CSV, TSV or Parquet)",
    "html": "HTML matches as parsed: elements, attributes and rendered text (layout, attribute order and "
    "`<br>` vs `<br/>` are free)",
    "text": "text matches line by line (line endings and trailing whitespace are free)",
    "scidata": "HDF5/NetCDF/FITS data matches on its tree of groups, variables and HDUs, shapes, value kinds, values "
    "within tolerance (missing cells as NaN or a fill value alike), attributes and units as units (chunking, "
    "compression, attribute and header-card order, NetCDF-3 vs NetCDF-4 classic and float width are free)",
    "config": "a configuration file matches as parsed: keys (order free), list items in order, numbers within "
    "tolerance, text exactly (YAML style, quoting, comments, XML attribute order, indentation and namespace prefixes "
    "are free)",
    "code": "generated code (Python, or C99 compiled by gcc) is not read: its function is called on hidden inputs and "
    "must return the reference's values within tolerance (layout, names and comments are free; printing counts for "
    "nothing)",
}
_KIND = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}


def infer_schema(values: list[Any]) -> dict[str, Any]:
    """A JSON-Schema-like description of the values seen (merging int and float into number)."""
    kinds = {_KIND.get(type(v), "object" if isinstance(v, dict) else "array") for v in values}
    if kinds <= {"integer", "number"} and "number" in kinds:
        kinds = {"number"}
    if len(kinds) != 1:
        return {"type": sorted(kinds)}
    kind = kinds.pop()
    if kind == "object":
        keys = sorted({k for v in values for k in v})
        return {"type": "object", "properties": {k: infer_schema([v[k] for v in values if k in v]) for k in keys}}
    if kind == "array":
        items = [x for v in values for x in v]
        return {"type": "array", "items": infer_schema(items) if items else {}}
    return {"type": kind}


def _input_schema(inp: InputSpec) -> dict[str, Any]:
    d = inp.model_dump(exclude_none=True, exclude_defaults=True)
    d["type"] = inp.type
    return d


def schema(spec: WorkflowSpec, outputs: list[Any], artifacts: dict[str, str] | None = None) -> dict[str, Any]:
    """Input and output schema; `artifacts` maps dotted output paths that name files to their kind."""
    out = infer_schema(outputs) if outputs else {}
    for path, f in spec.outputs.fields.items():
        node = out.get("properties", {}).get(path)
        if node is not None:
            node.update({k: v for k, v in (("description", f.description), ("units", f.units)) if v})
    for path, kind in sorted((artifacts or {}).items()):
        node = out.get("properties", {}).get(path)
        if node is not None:
            node["artifact"] = kind
    result = {"inputs": {n: _input_schema(i) for n, i in sorted(spec.inputs.items())}, "outputs": out}
    if artifacts:
        result["artifacts"] = dict(sorted(artifacts.items()))
    return result


def _range(inp: InputSpec) -> str:
    if inp.type in ("number", "integer"):
        return f"{inp.min:g} … {inp.max:g}" + (" (log-uniform)" if inp.log else "")
    if inp.type == "array":
        inner = f"{inp.min:g} … {inp.max:g}" if inp.min is not None else ", ".join(map(str, inp.choices or ()))
        return f"{inp.length[0]}–{inp.length[1]} items of {inp.items} ({inner})"  # type: ignore[index]
    if inp.type in ("categorical", "path"):
        return ", ".join(f"`{c}`" for c in inp.choices or ())
    return "true / false"


def _cell(text: str | None) -> str:
    return (text or "").replace("|", "\\|").replace("\n", " ")


def render(
    spec: WorkflowSpec,
    out_schema: dict[str, Any],
    limits: Limits,
    n_public: int,
    artifacts: dict[str, str] | None = None,
) -> str:
    """The task statement: summary, inputs, outputs, the candidate contract, and how to check."""
    tol = spec.outputs
    lines = [
        f"# {spec.name}",
        "",
        spec.summary.strip(),
        "",
        f"Software family: {spec.family}. Domain: {spec.domain}.",
        "",
        "## Inputs",
        "",
        "Each scenario is one JSON object with these fields:",
        "",
        "| field | type | range or choices | units | meaning |",
        "|---|---|---|---|---|",
    ]
    for name, inp in sorted(spec.inputs.items()):
        lines.append(
            f"| `{name}` | {inp.type} | {_cell(_range(inp))} | {_cell(inp.units)} | {_cell(inp.description)} |"
        )
    if any(i.type == "path" for i in spec.inputs.values()):
        lines += [
            "",
            "Path inputs name files relative to the working directory; they are in `public/files/` "
            "and are placed beneath your solution's directory when it runs.",
        ]
    lines += [
        "",
        "## Outputs",
        "",
        "Print one JSON object with these fields:",
        "",
        "| field | type | units | meaning | tolerance |",
        "|---|---|---|---|---|",
    ]
    for name, node in sorted(out_schema.get("properties", {}).items()):
        f = spec.outputs.fields.get(name)
        tol_text = "not graded" if name in tol.ignore else _tolerance(spec, name)
        kind = f"file ({node['artifact']})" if "artifact" in node else node.get("type", "")
        lines.append(
            f"| `{name}` | {_cell(str(kind))} | {_cell(f.units if f else '')} | "
            f"{_cell(f.description if f else '')} | {tol_text} |"
        )
    nested = [
        (p, f) for p, f in sorted(spec.outputs.fields.items()) if "." in p and (f.atol or f.rtol or f.period or f.zero)
    ]
    if nested:
        lines += [
            "",
            "Tolerances of nested fields (`*` is any list item or key): "
            + "; ".join(f"`{p}`: {_tolerance(spec, p)}" for p, _ in nested)
            + ".",
        ]
    if ignored := [p for p in tol.ignore if "." in p]:
        lines += ["", "Not graded: " + ", ".join(f"`{p}`" for p in ignored) + "."]
    if artifacts:
        lines += [
            "",
            "File fields: " + ", ".join(f"`{p}` ({k})" for p, k in sorted(artifacts.items())) + ". Write "
            "the file into the directory named by `$SWR_ARTIFACTS` and print its bare file name. The file is "
            "judged by what it means, not its bytes: "
            + "; ".join(ARTIFACT_RULES[k] for k in sorted(set(artifacts.values())))
            + ". The examples' files lie next to their `output.json`.",
        ]
    lines += [
        "",
        "Numbers match when |yours − reference| ≤ atol + rtol·|reference|; integers, strings and booleans "
        "must match exactly; lists must have the reference's length; extra fields are ignored.",
        "",
        "## Examples",
        "",
        f"`public/examples/<i>/scenario.json` and `output.json` hold {n_public} worked examples; "
        "`public/schema.json` describes inputs and outputs.",
        "",
        "## What to deliver",
        "",
        "An executable `solution/run`. For each scenario it is started afresh, in a sandbox with no network, "
        "with `solution/` as its working directory; it reads the scenario JSON on stdin and writes one JSON "
        "object on stdout. Files it writes into `$SWR_ARTIFACTS` may be referenced from the output by file "
        "name. stderr is kept for diagnosis only.",
        f"Limits per scenario: {limits.time_s:g} s wall time, {limits.memory_bytes // MiB} MiB memory, "
        f"{limits.pids} processes, {limits.stdout_bytes // MiB} MiB of stdout.",
        "",
        "## Checking your work",
        "",
        "`./feedback` (or `swr feedback . solution`) runs your solution on the public examples and prints "
        "the verdict. You are graded on hidden scenarios you have not seen: reproduce the computation, "
        "do not copy the examples.",
        "",
    ]
    return "\n".join(lines)


def _tolerance(spec: WorkflowSpec, name: str) -> str:
    """The band a field is graded with, as the judge resolves it (a `zero` field's rtol is 0), and its period."""
    f = spec.outputs.fields.get(name)
    atol = f.atol if f and f.atol is not None else spec.outputs.atol
    rtol = f.rtol if f and f.rtol is not None else 0.0 if f and f.zero else spec.outputs.rtol
    text = f"atol {atol:g}, rtol {rtol:g}"
    if f and f.zero:
        text += " (zero by construction)"
    if f and f.period:
        text += f", compared modulo {f.period:g}"
    return text

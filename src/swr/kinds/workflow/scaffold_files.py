"""The text of a scaffolded workflow: workflow.toml (hand-rendered, so that it carries comments saying what is a
proposal and how each tolerance was measured) and run.py (a function call, or a command line run per scenario)."""

from __future__ import annotations

import json
import math
from typing import Any

from swr.kinds.workflow.scaffold import PLACEHOLDER, Draft

# The line above the measured block of workflow.toml: `swr new tune` rewrites everything below it (and nothing
# above it), so a workflow without this line was not made by the kit and is never rewritten.
MARKER = "# --- measured by `swr new` (below this line `swr new tune` rewrites; edit above it) ---"


def value(x: Any) -> str:
    """A TOML value: JSON's spelling of strings, numbers, booleans and flat lists is TOML's."""
    if isinstance(x, float):
        return repr(x) if math.isfinite(x) else '"nan"'
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(value(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{ " + ", ".join(f"{key(str(k))} = {value(v)}" for k, v in x.items()) + " }"
    return json.dumps(x)


def key(k: str) -> str:
    """A TOML key segment: bare when it can be, quoted otherwise."""
    return k if k.replace("_", "a").replace("-", "a").isalnum() and k.isascii() else json.dumps(k)


def workflow_toml(
    *, name: str, family: str, domain: str, source: str, runner: str, draft: Draft, summary: str, outputs: str
) -> str:
    """`runner` is `entry = ...` or `command = [...]`; `outputs` the measured block (tolerances.render_outputs)."""
    head = [
        f"# Scaffolded by `swr new workflow` from {source}. Every input range below is a proposal from the",
        "# signature and its defaults: edit the ranges and write the descriptions (the agent's instructions are",
        "# rendered from them), then `swr new tune <this directory>` re-measures the outputs below the marker.",
        f"name = {value(name)}",
        f"family = {value(family)}",
        f"domain = {value(domain)}",
        f"summary = {value(summary)}",
        runner,
        "timeout_s = 30",
    ]
    for n, spec in draft.inputs.items():
        head += ["", f"[inputs.{key(n)}]"]
        head += [f"{k} = {value(v)}" for k, v in spec.items()]
        head.append(f"description = {value(f'Argument `{n}` (proposed range: edit it).')}")
    head += ["", "[requires]", f"pip = {value(draft.pip)}", f"apt = {value(draft.apt)}", "", MARKER, outputs]
    return "\n".join(head).rstrip() + "\n"


JSONABLE = '''

def jsonable(x):
    """The value as JSON: numpy arrays and scalars, pandas frames and series, tuples, sets, dataclasses,
    namedtuples, fractions, decimals and complex numbers become lists, numbers and objects."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if hasattr(x, "_asdict"):
        return jsonable(x._asdict())
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return jsonable(dataclasses.asdict(x))
    if hasattr(x, "columns") and hasattr(x, "to_dict"):
        return {str(c): jsonable(x[c].tolist()) for c in x.columns}
    if hasattr(x, "tolist"):
        return jsonable(x.tolist())
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return sorted((jsonable(v) for v in x), key=repr)
    if isinstance(x, complex):
        return {"real": x.real, "imag": x.imag}
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, (numbers.Real, decimal.Decimal)):
        return float(x)
    if isinstance(x, bytes):
        return x.hex()
    if hasattr(x, "isoformat"):
        return x.isoformat()
    raise TypeError(f"cannot make a {type(x).__name__} JSON: convert it in run.py")
'''


def function_run_py(target: str, draft: Draft) -> str:
    module, _, attr = target.partition(":")
    head, *rest = attr.split(".")
    call = ", ".join([*(f"s[{n!r}]" for n in draft.args), *(f"{n}=s[{n!r}]" for n in draft.kwargs)])
    return (
        f'"""{target} wrapped for swr (scaffolded by `swr new workflow`; edit freely).\n\n'
        "main() takes the scenario (one value per input of workflow.toml) and returns a JSON-able dict.\n"
        '"""\n\nimport dataclasses\nimport decimal\nimport json\nimport numbers\nimport sys\n\n'
        f"from {module} import {head}\n\nTARGET = {'.'.join([head, *rest])}\n\n\n"
        "def main(s):\n"
        f"    out = jsonable(TARGET({call}))\n"
        '    return out if isinstance(out, dict) else {"result": out}\n' + JSONABLE + "\n\n"
        'if __name__ == "__main__":\n    json.dump(main(json.load(sys.stdin)), sys.stdout)\n'
    )


def command_run_py(template: list[str], timeout_s: float) -> str:
    return f'''"""`{" ".join(template)}` wrapped for swr (scaffolded by `swr new workflow --from-cli`; edit freely).

The scenario arrives as JSON on stdin; its values fill the command's placeholders; the program's stdout becomes
the output: a JSON object as it is, numbers as `values`, any other text as `lines`.
"""

import json
import re
import subprocess
import sys

TEMPLATE = {json.dumps(template)}
PLACEHOLDER = re.compile({PLACEHOLDER.pattern!r})
NUMBER = re.compile(r"^[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$")


def text(v):
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def parse(out):
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    if isinstance(doc, dict):
        return doc
    if doc is not None:
        return {{"result": doc}}
    tokens = [t.rstrip(":,;") for t in out.split()]
    if tokens and all(NUMBER.match(t) for t in tokens):
        return {{"values": [int(t) if t.lstrip("+-").isdigit() else float(t) for t in tokens]}}
    return {{"lines": [line.rstrip() for line in out.splitlines()]}}


def main():
    s = json.load(sys.stdin)
    argv = [PLACEHOLDER.sub(lambda m: text(s[m.group(1)]), tok) for tok in TEMPLATE]
    p = subprocess.run(argv, capture_output=True, text=True, timeout={timeout_s!r})
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        sys.exit(p.returncode)
    json.dump(parse(p.stdout), sys.stdout)


if __name__ == "__main__":
    main()
'''

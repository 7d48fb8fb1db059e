"""`swr new workflow`: a first workflow.toml and run.py for a Python function or a command line, written where the
catalog keeps them. Inputs come from the function's signature (type hints, defaults) or the command's `{name:type}`
placeholders; every range is a proposal the author edits, and every guess is named in the notes the kit prints."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.kinds.workflow.spec import DOMAINS, SPEC_FILE
from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, run

PROBE = Path(__file__).with_name("signature_probe.py")
PROBE_DST = "/sandbox/swr/probe.py"
TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
FAMILY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)(?::([^{}\s]+))?\}")
ARRAY_LENGTH = (2, 8)  # a sequence parameter's proposed length range, when its default says nothing
TYPE_WORDS = {"int": "integer", "integer": "integer", "float": "number", "number": "number", "path": "path"}
TYPE_WORDS |= {"bool": "boolean", "boolean": "boolean"}


@dataclass
class Draft:
    """What the scaffold writes: the inputs (TOML-ready tables), how run.py calls the program, and the notes
    (one line each) that tell the author which proposals are guesses."""

    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)  # positional parameters, in order
    kwargs: list[str] = field(default_factory=list)  # keyword parameters
    notes: list[str] = field(default_factory=list)
    pip: list[str] = field(default_factory=list)
    apt: list[str] = field(default_factory=list)
    data: list[Path] = field(default_factory=list)  # files a `{name:path}` placeholder chooses from


def destination(root: Path, target: str, domain: str | None) -> tuple[Path, str, str, str]:
    """(directory, domain, family, name) of `FAMILY/NAME` in the catalog at `root`: the domain is the existing
    family's, or `--domain` for a new family. A workflow already there, or of that name anywhere in the catalog,
    is refused: the kit never overwrites what it did not create."""
    family, _, name = target.partition("/")
    if not FAMILY.match(family) or not NAME.match(name):
        raise SwrError("give FAMILY/NAME, NAME in lowercase letters, digits and dashes", field="FAMILY/NAME")
    if domain is not None and domain not in DOMAINS:
        raise SwrError(f"unknown domain {domain!r}; one of: {', '.join(DOMAINS)}", field="--domain")
    have = sorted(d.parent.name for d in root.glob(f"*/{family}") if d.is_dir() and d.parent.name in DOMAINS)
    if have and domain and domain not in have:
        raise SwrError(f"family {family!r} is in domain {have[0]!r}, not {domain!r}", field="--domain")
    if not have and domain is None:
        raise SwrError(f"family {family!r} is new here: say its --domain ({', '.join(DOMAINS)})", field="--domain")
    dom = domain or have[0]
    directory = root / dom / family / name
    if directory.exists() or directory.is_symlink():
        raise SwrError("already exists: swr new never overwrites a workflow", file=directory)
    clash = [p.parent for p in root.glob(f"*/*/*/{SPEC_FILE}") if name in (p.parent.name, _name_in(p))]
    if clash:
        raise SwrError(f"a workflow named {name!r} exists already (task ids would collide)", file=clash[0])
    return directory, dom, family, name


def _name_in(spec_file: Path) -> str | None:
    """The `name` a workflow.toml declares (None when unreadable: its directory's name still counts)."""
    try:
        name = tomllib.loads(spec_file.read_text()).get("name")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return name if isinstance(name, str) else None


def probe(target: str, sandbox: Sandbox) -> dict[str, Any]:
    """The function's signature, read by importing it inside the sandbox (signature_probe.py)."""
    if not TARGET.match(target):
        raise SwrError(f"{target!r} is not module:function", field="--from")
    with tempfile.TemporaryDirectory(prefix="swr-probe-") as tmp:
        job = Job(
            [sys.executable, PROBE_DST, target],
            Mount(Path(tmp), WORKDIR, "overlay"),
            Limits(time_s=60.0),
            extra_mounts=(Mount(PROBE, PROBE_DST),),
        )
        res = run(sandbox, job, b"")
    try:
        doc = json.loads(res.stdout) if res.ok else None
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        tail = res.stderr.decode(errors="replace").strip().splitlines()
        raise SwrError(f"cannot read {target}: {tail[-1] if tail else 'the probe failed'}", field="--from")
    if "error" in doc:
        raise SwrError(str(doc["error"]), field="--from")
    return doc


def from_signature(doc: dict[str, Any]) -> Draft:
    """Inputs from a probed signature: hints give the type, defaults the proposed range."""
    d, by_keyword = Draft(), False
    for p in doc["params"]:
        name, kind = p["name"], p["kind"]
        if kind in ("VAR_POSITIONAL", "VAR_KEYWORD"):
            d.notes.append(f"parameter *{name} is not exposed (variadic): add inputs for it in run.py if it matters")
            continue
        spec, guessed = input_for(p)
        if spec is None:
            if p["has_default"]:
                d.notes.append(f"parameter {name} keeps its default (its type cannot be a scenario value)")
                by_keyword = True  # the parameters after a skipped one go by name
                continue
            spec, guessed = {"type": "number", "min": 0.0, "max": 1.0}, True
        if guessed:
            d.notes.append(f"inputs.{name}: type and range guessed (no usable type hint or default): check them")
        d.inputs[name] = spec
        by_keyword = by_keyword or kind == "KEYWORD_ONLY"
        (d.kwargs if by_keyword and kind != "POSITIONAL_ONLY" else d.args).append(name)
    if doc.get("dist"):
        dist, version = doc["dist"]
        d.pip.append(f"{dist}>={version}")
    return d


def input_for(p: dict[str, Any]) -> tuple[dict[str, Any] | None, bool]:
    """(input table, guessed) for one parameter; None when it cannot be a scenario value."""
    hint, default, has = p["hint"], p["default"], p["has_default"]
    kind = hint["type"]
    if kind == "unknown" and has and default is not None:
        kind = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}[type(default)]
    if kind == "boolean":
        return {"type": "boolean"}, False
    if kind in ("integer", "number"):
        return number_range(kind, default if isinstance(default, (int, float)) else None), not has
    if kind == "categorical":
        return ({"type": "categorical", "choices": hint["choices"]}, False) if hint.get("choices") else (None, False)
    if kind == "string":
        return ({"type": "categorical", "choices": [default]}, True) if isinstance(default, str) else (None, False)
    if kind == "array":
        return array_input(hint, default), not (has and default)
    return None, False


def number_range(kind: str, default: float | None) -> dict[str, Any]:
    """A range around the default (half to twice it); without one, [0, 1] or [1, 100]: a proposal to edit."""
    if kind == "integer":
        if default is None:
            return {"type": "integer", "min": 1, "max": 100}
        d = int(default)
        lo, hi = (max(1, d // 2), max(2 * d, d + 10)) if d > 0 else ((0, 10) if d == 0 else (2 * d - 10, d // 2))
        return {"type": "integer", "min": lo, "max": hi}
    if default is None:
        return {"type": "number", "min": 0.0, "max": 1.0}
    x = float(default)
    lo_f, hi_f = (x / 2, 2 * x) if x > 0 else ((-1.0, 1.0) if x == 0 else (2 * x, x / 2))
    return {"type": "number", "min": lo_f, "max": hi_f}


def array_input(hint: dict[str, Any], default: Any) -> dict[str, Any]:
    items = hint.get("items") or "number"
    values = [v for v in default or () if isinstance(v, (int, float)) and not isinstance(v, bool)]
    n = hint.get("length") or (len(default) if default else None)
    length = [n, n] if n else list(ARRAY_LENGTH)
    if values:
        lo, hi = min(values), max(values)
        span = max(hi - lo, abs(hi), 1.0)
        rng = number_range(items, None)
        rng.update(min=lo - span / 2 if items == "number" else int(lo - span // 2), max=hi + span / 2)
        if items == "integer":
            rng["max"] = int(rng["max"])
    else:
        rng = number_range(items, None)
    return {"type": "array", "items": items, "length": length, "min": rng["min"], "max": rng["max"]}


def from_command(template: str, data: list[Path]) -> Draft:
    """Inputs from a command line's `{name}` / `{name:type}` placeholders (types: integer, number, boolean, path,
    or `a|b|c` choices); a path chooses among the `--data` files, which travel with the task."""
    try:
        argv = shlex.split(template)
    except ValueError as e:
        raise SwrError(f"not a command line: {e}", field="--from-cli") from None
    if not argv:
        raise SwrError("the command line is empty", field="--from-cli")
    names = [p.name for p in data]
    if len(set(names)) < len(names):
        raise SwrError("two --data files share a name (they are copied into data/)", field="--data")
    d = Draft(data=list(data))
    for name, typ in {m.group(1): m.group(2) for a in argv for m in PLACEHOLDER.finditer(a)}.items():
        d.inputs[name] = _placeholder(name, typ, d)
        d.args.append(name)
    if not d.inputs:
        raise SwrError("no {name} placeholder: the program would read no input", field="--from-cli")
    if d.data and not any(i["type"] == "path" for i in d.inputs.values()):
        raise SwrError("--data files given but no {name:path} placeholder chooses among them", field="--data")
    if pkg := _apt_package(argv[0]):
        d.apt.append(pkg)
    return d


def _placeholder(name: str, typ: str | None, d: Draft) -> dict[str, Any]:
    word = TYPE_WORDS.get(typ or "number")
    if typ and word is None:
        choices = typ.split("|")
        if len(choices) < 2:
            raise SwrError(f"placeholder {{{name}:{typ}}}: a type (integer, number, boolean, path) or a|b choices")
        return {"type": "categorical", "choices": choices}
    if word == "path":
        if not d.data:
            raise SwrError(f"placeholder {{{name}:path}} needs --data files to choose from", field="--data")
        missing = [p for p in d.data if not p.is_file()]
        if missing:
            raise SwrError("not a file", file=missing[0], field="--data")
        return {"type": "path", "choices": [f"data/{p.name}" for p in d.data]}
    if word == "boolean":
        return {"type": "boolean"}
    if typ is None:
        d.notes.append(f"inputs.{name}: untyped placeholder taken as a number in [0, 1]: check it")
    return number_range(str(word), None)


def _apt_package(program: str) -> str | None:
    """The Debian package that owns the program, for [requires] apt (None off Debian or for python)."""
    path = shutil.which(program)
    if path is None or program.startswith("python") or shutil.which("dpkg-query") is None:
        return None
    real = str(Path(path).resolve())
    for candidate in dict.fromkeys((path, real, real.removeprefix("/usr"))):
        res = subprocess.run(["dpkg-query", "-S", candidate], capture_output=True, text=True)
        if res.returncode == 0 and res.stdout:
            return res.stdout.split(":")[0].strip()
    return None

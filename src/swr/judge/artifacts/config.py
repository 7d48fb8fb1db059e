"""Configuration-file comparator (YAML, TOML, INI, XML): the file is parsed and its tree compared, so key order,
quoting, flow or block style, comments, attribute order, indentation and namespace prefixes do not matter.

What is graded: mapping keys as a set (a missing or an extra key fails; their order is not graded, since every
reader of these formats looks keys up by name); list items in order (a YAML or TOML sequence, XML child elements and
an XML text's tokens are ordered for their consumers: search paths, pipeline steps, a vertex list; a task whose list
is a set must say so in its output, not rely on the judge); numbers within atol + rtol·|ref| (integers exactly, a
bool never equals a number); strings, dates and null exactly. INI and XML have no types: a value that spells a number
on both sides is compared as a number, anything else as text (XML text split on whitespace, so indentation and line
breaks inside it are insignificant); a leading-zero integer (007, 02139) is an identifier, and paths named in the
`text` option are text (a version "1.10" is not 1.1). YAML is read with YAML 1.2's floats (1e+14 is a number, as
every YAML 1.2 writer means it, where PyYAML's 1.1 rules would read text).

Decoding is bounded: the file's size is admitted first; YAML is loaded by the safe loader only (no tag constructs an
object) and its aliases are counted as expanded before anything walks them (a billion-laughs alias file is refused
from a count, and an alias that contains itself fails); XML is parsed by defusedxml with entity declarations refused
(entity expansion is never performed) and its elements and depth admitted while it is parsed."""

from __future__ import annotations

import configparser
import math
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ._common import ArtifactConfigError, ArtifactResult, Budget, check, file_size, finish, load_pair, options_for

DEFAULTS: dict[str, Any] = {
    "ignore": [],  # paths ("/section/key", "/servers/0/host") not graded: a timestamp or a generator's version
    "ini_case_sensitive": False,  # configparser's reading: INI keys are case-insensitive
    "text": [],  # paths whose values are always text, never numbers: a version "1.10" in an INI or XML file
}
YAML, TOML, INI, XML = (".yaml", ".yml"), (".toml",), (".ini", ".cfg"), (".xml",)
SUFFIXES = YAML + TOML + INI + XML
_LEADING_ZERO = re.compile(r"[+-]?0\d+")  # 007, 02139: an identifier in an untyped format, not a number
# YAML 1.2 (and every YAML 1.2 emitter: yaml-cpp, ruamel) reads 1e+14 as a float; PyYAML's 1.1 rules need a dot
_EXP_FLOAT = re.compile(r"^[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+$")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|nan)", re.IGNORECASE)
_SHOWN = 10
_ADMIT_EVERY = 1024  # XML elements parsed between two admissions to the budget


class Element:
    """An XML element as graded: its namespaced tag ({uri}local: the prefix is free), attributes (order-free),
    text and tail as whitespace-separated tokens, children in document order."""

    __slots__ = ("tag", "attrib", "text", "tail", "children")

    def __init__(self, tag: str, attrib: dict[str, str], text: list[str], tail: list[str]) -> None:
        self.tag, self.attrib, self.text, self.tail = tag, attrib, text, tail
        self.children: list[Element] = []


def _admit_tree(doc: Any, budget: Budget) -> None:
    """Nodes as expanded (an alias shared n times counts n times) and depth, computed once per distinct object so a
    billion-laughs alias file costs its own size; an alias inside itself (a cycle) is a ValueError."""
    sizes: dict[int, tuple[int, int]] = {}
    on_stack: set[int] = set()
    stack: list[tuple[Any, bool]] = [(doc, False)]
    while stack:
        node, done = stack.pop()
        kids = _children(node)
        if kids is None:
            continue
        key = id(node)
        if done:
            on_stack.discard(key)
            sub = [sizes.get(id(k), (1, 0)) for k in kids]
            sizes[key] = (1 + sum(s for s, _ in sub), 1 + max((d for _, d in sub), default=0))
            continue
        if key in sizes:
            continue
        if key in on_stack:
            raise ValueError("a YAML alias refers to a node that contains it (a recursive structure)")
        on_stack.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in kids if id(k) not in sizes)
    total, depth = sizes.get(id(doc), (1, 0))
    budget.admit("depth", depth)
    budget.admit("nodes", total)


def _children(node: Any) -> list[Any] | None:
    """A container's children (keys too: a YAML key may be a tuple of aliases), or None for a scalar."""
    if isinstance(node, dict):
        return [*node.keys(), *node.values()]
    if isinstance(node, (list, tuple)):
        return list(node)
    return None


def load_yaml(path: Path, budget: Budget) -> Any:
    """Every document of the file by the safe loader (no tag constructs an object), aliases bounded as expanded."""
    import yaml

    file_size(path, budget)
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when built: same rules, faster

    class Loader(base):  # type: ignore[valid-type,misc]
        """The safe loader, with YAML 1.2's exponent-only floats."""

    Loader.add_implicit_resolver("tag:yaml.org,2002:float", _EXP_FLOAT, list("-+0123456789"))
    loader = Loader
    with open(path, "rb") as fh:
        docs = list(yaml.load_all(fh, Loader=loader))  # noqa: S506 - a safe loader
    _admit_tree(docs, budget)
    return docs[0] if len(docs) == 1 else docs


def load_toml(path: Path, budget: Budget) -> Any:
    import tomllib

    file_size(path, budget)
    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    _admit_tree(doc, budget)
    return doc


def load_ini(path: Path, budget: Budget, case_sensitive: bool) -> dict[str, dict[str, str]]:
    """Sections (DEFAULT among them) of their own keys, raw (no interpolation: `%(x)s` is text the consumer expands)."""
    file_size(path, budget)
    parser = configparser.ConfigParser(interpolation=None, strict=True, default_section="DEFAULT")
    if case_sensitive:
        parser.optionxform = str  # type: ignore[assignment,method-assign]
    with open(path, encoding="utf-8-sig") as fh:
        parser.read_file(fh)
    doc = {"DEFAULT": dict(parser.defaults())}
    for name in parser.sections():
        doc[name] = {k: v for k, v in parser.items(name, raw=True) if _own(parser, name, k)}
    _admit_tree(doc, budget)
    return doc


def _own(parser: configparser.ConfigParser, section: str, key: str) -> bool:
    """A key the section sets itself (not one it only inherits from DEFAULT)."""
    return key in parser._sections[section]  # type: ignore[attr-defined]


def load_xml(path: Path, budget: Budget) -> Element:
    """The element tree, parsed by defusedxml (entity declarations and external references refused), elements and
    depth admitted to the budget while parsing, comments and processing instructions dropped."""
    from defusedxml.ElementTree import iterparse

    file_size(path, budget)
    stack: list[Element] = []
    root: Element | None = None
    count = 0
    for event, el in iterparse(str(path), events=("start", "end"), forbid_dtd=False, forbid_entities=True):
        if event == "start":
            node = Element(el.tag, dict(el.attrib), [], [])
            if stack:
                stack[-1].children.append(node)
            else:
                root = node
            stack.append(node)
            count += 1 + len(el.attrib)
            if count % _ADMIT_EVERY == 0 or len(stack) > 16:
                budget.admit("nodes", count)
                budget.admit("depth", len(stack))
        else:
            node = stack.pop()
            node.text, node.tail = (el.text or "").split(), (el.tail or "").split()
            el.clear()  # the parser's own copy is no longer needed
    budget.admit("nodes", count)
    if root is None:
        raise ValueError("no root element")
    return root


def load_config(path: Path, fmt: str, budget: Budget, opts: Mapping[str, Any]) -> Any:
    """Dispatch on the reference's format (a candidate is read as the format its consumer expects)."""
    if fmt in YAML:
        return load_yaml(path, budget)
    if fmt in TOML:
        return load_toml(path, budget)
    if fmt in INI:
        return load_ini(path, budget, bool(opts["ini_case_sensitive"]))
    return load_xml(path, budget)


def _number(value: Any, untyped: bool) -> int | float | None:
    """The number a value is: int or float (never bool), or, in an untyped format, a string spelling one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if untyped and isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        text = value.strip()
        if _LEADING_ZERO.fullmatch(text):
            return None
        try:
            return int(text) if re.fullmatch(r"[+-]?\d+", text) else float(text)
        except ValueError:
            return None
    return None


def _scalar_ok(ref: Any, got: Any, atol: float, rtol: float, untyped: bool) -> tuple[bool, str, float | None]:
    """(equal, the check it belongs to, tolerance used): numbers by tolerance, everything else exactly."""
    r, g = _number(ref, untyped), _number(got, untyped)
    if r is not None:
        if g is None:
            return False, "kinds", None
        if isinstance(r, int) and isinstance(g, int):
            return r == g, "values", None
        rf, gf = float(r), float(g)
        tol = atol + rtol * abs(rf) if math.isfinite(rf) else 0.0
        if math.isnan(rf) or math.isnan(gf):
            return math.isnan(rf) and math.isnan(gf), "values", tol
        if math.isinf(rf) or math.isinf(gf):
            return rf == gf, "values", tol
        return abs(gf - rf) <= tol, "values", tol
    if type(ref) is not type(got) and not (isinstance(ref, str) and isinstance(got, str)):
        return False, "kinds", None
    if isinstance(ref, str) and untyped:
        return ref.strip() == got.strip(), "values", None
    return ref == got, "values", None


def _pairs(ref: Any, got: Any, where: str) -> Iterator[tuple[str, str, Any, Any]]:
    """The differences of two containers one level down, as (check, where, expected, got), and the pairs of
    children to walk next as ("walk", where, ref child, got child)."""
    if isinstance(ref, Element):
        if not isinstance(got, Element) or got.tag != ref.tag:
            yield "structure", f"{where}", ref.tag, getattr(got, "tag", type(got).__name__)
            return
        yield "walk", f"{where}/@", ref.attrib, got.attrib
        yield "walk", f"{where}/text()", ref.text, got.text
        yield "walk", f"{where}/tail()", ref.tail, got.tail
        yield "walk", f"{where}/*", ref.children, got.children
        return
    if isinstance(ref, dict):
        if not isinstance(got, dict):
            yield "kinds", where or "/", "mapping", type(got).__name__
            return
        missing, extra = [k for k in ref if k not in got], [k for k in got if k not in ref]
        if missing or extra:
            yield "structure", where or "/", sorted(map(str, missing))[:_SHOWN], sorted(map(str, extra))[:_SHOWN]
        for k in ref:
            if k in got:
                yield "walk", f"{where}/{k}", ref[k], got[k]
        return
    if not isinstance(got, (list, tuple)):
        yield "kinds", where or "/", "list", type(got).__name__
        return
    if len(ref) != len(got):
        yield "structure", where or "/", f"{len(ref)} items", f"{len(got)} items"
        return
    for i, (a, b) in enumerate(zip(ref, got)):
        yield "walk", f"{where}/{i}", a, b


def compare_tree(
    ref: Any, got: Any, atol: float, rtol: float, untyped: bool, ignore: set[str], text: frozenset[str] = frozenset()
) -> dict[str, dict[str, Any]]:
    """Walk both trees (iteratively: depth is bounded, not the interpreter's stack) and report, per check
    (structure, kinds, values), whether it holds, the first difference and how many there are."""
    first: dict[str, tuple[str | None, Any, Any, float | None]] = {}
    counts = {"structure": 0, "kinds": 0, "values": 0}
    stack: list[tuple[str, Any, Any]] = [("", ref, got)]
    while stack:
        where, a, b = stack.pop()
        if where in ignore:
            continue
        if isinstance(a, (dict, list, tuple, Element)):
            found = list(_pairs(a, b, where))
            stack.extend((w, x, y) for kind, w, x, y in reversed(found) if kind == "walk")
            for kind, w, x, y in found:
                if kind != "walk":
                    counts[kind] += 1
                    first.setdefault(kind, (w, x, y, None))
            continue
        if where in text:
            ok, kind, tol = str(a).strip() == str(b).strip() and type(a) is type(b), "values", None
        else:
            ok, kind, tol = _scalar_ok(a, b, atol, rtol, untyped)
        if not ok:
            counts[kind] += 1
            first.setdefault(kind, (where or "/", a, b, tol))
    checks = {}
    for kind, n in counts.items():
        at, x, y, tol = first.get(kind, (None, None, None, None))
        checks[kind] = check(n == 0, x, y, tol, where=at, differences=n)
    return checks


def _paths(name: str, raw: Any) -> set[str]:
    if isinstance(raw, str) or not isinstance(raw, (list, tuple)) or not all(isinstance(p, str) for p in raw):
        raise ArtifactConfigError(f"config option {name} must be a list of paths like '/section/key', got {raw!r}")
    return {p.rstrip("/") for p in raw}


def compare_config(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Both files parsed as the reference's format; trees compared as the module docstring says."""
    opts = options_for("config", options, DEFAULTS)
    ignore, text = _paths("ignore", opts["ignore"]), frozenset(_paths("text", opts["text"]))
    if not isinstance(opts["ini_case_sensitive"], bool):
        raise ArtifactConfigError(f"config option ini_case_sensitive must be a bool: {opts['ini_case_sensitive']!r}")
    fmt = reference.suffix.lower()
    if fmt not in SUFFIXES:
        raise ArtifactConfigError(f"not a configuration file suffix: {reference.name}")
    pair = load_pair(
        "config",
        reference,
        lambda b: load_config(reference, fmt, b, opts),
        lambda b: load_config(candidate, fmt, b, opts),
    )
    if isinstance(pair, ArtifactResult):
        return pair
    ref, got = pair
    return finish("config", compare_tree(ref, got, atol, rtol, fmt in INI + XML, ignore, text))

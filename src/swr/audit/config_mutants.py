"""Mutants of configuration-file artifacts (YAML, TOML, INI, XML): the same settings in another style (YAML flow vs
block, keys re-ordered, XML attributes re-ordered and re-indented with other namespace prefixes: valid by
construction) and the slips the config comparator must catch (a number off by 1 + |x|, a key dropped or added, a
list's items swapped, a text changed: invalid)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .scidata_mutants import Edit, Writer, gross


def _text(data: str) -> Writer:
    return lambda dest: dest.write_text(data, encoding="utf-8")


def _reversed_keys(doc: Any) -> Any:
    """The same document with every mapping's keys in reverse order (a valid re-ordering)."""
    if isinstance(doc, dict):
        return {k: _reversed_keys(doc[k]) for k in reversed(list(doc))}
    if isinstance(doc, list):
        return [_reversed_keys(v) for v in doc]
    return doc


def _scalars(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(path, value) of every scalar leaf, in document order."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _scalars(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _scalars(v, (*path, i))
    else:
        yield path, doc


def _containers(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(path, container) of every mapping and list, outermost first."""
    if isinstance(doc, (dict, list)):
        yield path, doc
        for k, v in doc.items() if isinstance(doc, dict) else enumerate(doc):
            yield from _containers(v, (*path, k))


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for seg in path:
        doc = doc[seg]
    return doc


def _number_text(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v) if isinstance(v, str) and v.strip() else None
    except ValueError:
        return None


def _tree_slips(doc: Any) -> Iterator[tuple[str, Any]]:
    """(class, edited copy) of a parsed YAML/TOML/INI document: a number made gross, a key dropped, a key added, a
    list's first two distinct items swapped, a text value changed; every one changes what the file says."""
    import copy

    leaves = list(_scalars(doc))
    nums = [(p, v) for p, v in leaves if _number_text(v) is not None and p]
    if nums:
        p, v = next(((p, v) for p, v in nums if isinstance(v, float)), nums[0])
        out = copy.deepcopy(doc)
        new = gross(float(_number_text(v) or 0.0)) if not isinstance(v, int) else v + 1
        _at(out, p[:-1])[p[-1]] = str(new) if isinstance(v, str) else new
        yield "config_number_beyond_tolerance", out
    maps = [(p, c) for p, c in _containers(doc) if isinstance(c, dict) and c]
    if maps:
        p, m = maps[-1]
        out = copy.deepcopy(doc)
        del _at(out, p)[list(m)[-1]]
        yield "config_key_dropped", out
        out = copy.deepcopy(doc)
        _at(out, p)["swr_added_key"] = "1"
        yield "config_key_added", out
    lists = [(p, c) for p, c in _containers(doc) if isinstance(c, list) and len(c) > 1 and c[0] != c[1]]
    if lists:
        out = copy.deepcopy(doc)
        lst = _at(out, lists[0][0])
        lst[0], lst[1] = lst[1], lst[0]
        yield "config_list_reordered", out
    texts = [(p, v) for p, v in leaves if isinstance(v, str) and _number_text(v) is None and p]
    if texts:
        p, v = texts[0]
        out = copy.deepcopy(doc)
        _at(out, p[:-1])[p[-1]] = v + "x"
        yield "config_string_changed", out


def _dump_ini(doc: dict[str, dict[str, str]], dest: Path, spaced: bool) -> None:
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_dict(doc)
    with open(dest, "w", encoding="utf-8") as fh:
        fh.write("# re-written by another program\n")
        parser.write(fh, space_around_delimiters=spaced)


def _writer(fmt: str, doc: Any, flow: bool = False) -> Writer:
    """Write `doc` in the format of suffix `fmt`."""
    import tomli_w
    import yaml

    if fmt in (".yaml", ".yml"):
        return _text(yaml.safe_dump(doc, default_flow_style=flow, sort_keys=False, allow_unicode=True))
    if fmt == ".toml":
        return _text(tomli_w.dumps(doc))
    return lambda dest: _dump_ini(doc, dest, not flow)


def xml_edits(source: Path) -> Iterator[Edit]:
    """XML: attributes in reverse order, re-indented, namespace prefixes renamed (valid); a number made gross, the
    last child dropped, an attribute added, two distinct siblings swapped, a text changed (invalid)."""
    import copy
    import xml.etree.ElementTree as ET

    from defusedxml.ElementTree import parse

    root = parse(str(source), forbid_entities=True).getroot()

    def write(tree: ET.Element) -> Writer:
        return lambda dest: ET.ElementTree(tree).write(dest, encoding="utf-8", xml_declaration=True)

    valid = copy.deepcopy(root)
    for el in valid.iter():
        items = list(el.attrib.items())
        el.attrib.clear()
        el.attrib.update(reversed(items))
    ET.indent(valid, space="    ")  # whitespace-only text and tails: insignificant
    yield "config_xml_attributes_reordered_reindented", True, write(valid), None
    els = list(root.iter())
    for klass, pick in (
        ("config_number_beyond_tolerance", lambda e: _number_text(e.text) is not None),
        ("config_number_beyond_tolerance", lambda e: any(_number_text(v) is not None for v in e.attrib.values())),
    ):
        hit = next((i for i, e in enumerate(els) if pick(e)), None)
        if hit is not None:
            out = copy.deepcopy(root)
            e = list(out.iter())[hit]
            if _number_text(e.text) is not None:
                e.text = str(gross(float(e.text or 0)))
            else:
                k = next(k for k, v in e.attrib.items() if _number_text(v) is not None)
                e.attrib[k] = str(gross(float(e.attrib[k])))
            yield klass, False, write(out), None
            break
    if len(root):
        out = copy.deepcopy(root)
        out.remove(out[-1])
        yield "config_key_dropped", False, write(out), None
    out = copy.deepcopy(root)
    out.set("swr_added", "1")
    yield "config_key_added", False, write(out), None
    parent = next((i for i, e in enumerate(els) if len(e) > 1 and ET.tostring(e[0]) != ET.tostring(e[1])), None)
    if parent is not None:
        out = copy.deepcopy(root)
        e = list(out.iter())[parent]
        first, second = e[0], e[1]
        e.remove(first)
        e.insert(1, first)
        first.tail, second.tail = second.tail, first.tail
        yield "config_list_reordered", False, write(out), None
    text = next((i for i, e in enumerate(els) if (e.text or "").strip() and _number_text(e.text) is None), None)
    if text is not None:
        out = copy.deepcopy(root)
        e = list(out.iter())[text]
        e.text = (e.text or "").strip() + "x"
        yield "config_string_changed", False, write(out), None


def config_edits(source: Path) -> Iterator[Edit]:
    """The valid re-encodings and invalid slips of one YAML, TOML, INI or XML reference."""
    from swr.judge.artifacts._common import Budget
    from swr.judge.artifacts.config import DEFAULTS, load_config

    fmt = source.suffix.lower()
    if fmt == ".xml":
        yield from xml_edits(source)
        return
    if fmt in (".yaml", ".yml"):
        import yaml

        if len(list(yaml.safe_load_all(source.read_text(encoding="utf-8")))) != 1:
            return  # several documents: not re-written here
    doc = load_config(source, fmt, Budget("config"), {**DEFAULTS, "ini_case_sensitive": True})
    if fmt in (".yaml", ".yml"):
        yield "config_yaml_flow_style", True, _writer(fmt, _reversed_keys(doc), flow=True), None
        yield "config_yaml_block_style", True, _writer(fmt, _reversed_keys(doc), flow=False), None
    elif fmt == ".toml":
        yield "config_toml_keys_reordered", True, _writer(fmt, _reversed_keys(doc)), None
    else:
        yield "config_ini_keys_reordered", True, _writer(fmt, _reversed_keys(doc), flow=True), None
    for klass, edited in _tree_slips(doc):
        yield klass, False, _writer(fmt, edited), None

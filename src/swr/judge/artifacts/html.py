"""HTML comparator: the parsed document (elements, attributes, text with whitespace normalised as a
browser collapses it), so `<meta charset="utf-8">` equals `<meta charset="utf-8" />`, attribute
order, quoting, entity spelling, omitted end tags and line layout are free, and a changed element
or word is not. Parsed by libxml2 (lxml): in linear time, where the stdlib's html.parser of
Python 3.11 is quadratic on some inputs a candidate can write."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._common import ArtifactResult, Budget, check, finish, load_pair, options_for

DEFAULTS: dict[str, Any] = {}
_SHOW = 200  # characters of a differing event quoted in a check
# elements whose boundaries end a line box: whitespace next to them is not rendered
_BLOCK = frozenset(
    (
        "html head body title meta link base style script noscript template div p h1 h2 h3 h4 h5 h6 ul ol li "
        "dl dt dd table thead tbody tfoot tr td th caption colgroup col section article nav header footer "
        "aside main figure figcaption blockquote pre hr br form fieldset legend address details summary "
        "option select textarea"
    ).split()
)
_RAW = frozenset(("pre", "textarea", "script"))  # text kept as written (newlines normalised); CSS collapses
_INLINE_VOID = frozenset(("img", "input", "embed"))  # inline content: the space after them shows
_FOREIGN = frozenset(("math", "svg"))  # MathML and SVG: whitespace between elements is nothing
_SPACE = re.compile(r"[ \t\n\r\f]+")
Event = tuple[Any, ...]  # ("start", tag, attrs) | ("end", tag) | ("text" | "raw" | "doctype", str)


class _Events:
    """lxml parser target: start/end/text events, with the end tags HTML lets a document omit made
    explicit by the parser, and comments and processing instructions dropped."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.text: list[str] = []

    def _flush(self) -> None:
        """Text split by the parser (or by a dropped comment) becomes one event."""
        if self.text:
            self.events.append(("text", "".join(self.text)))
            self.text = []

    def start(self, tag: Any, attrib: Mapping[str, Any]) -> None:
        """Attributes as a sorted set: their order and quoting are not what a reader sees."""
        self._flush()
        attrs = tuple(sorted((str(k).lower(), "" if v is None else str(v)) for k, v in attrib.items()))
        self.events.append(("start", str(tag).lower(), attrs))

    def end(self, tag: Any) -> None:
        """Also called for void elements and end tags the document left out."""
        self._flush()
        self.events.append(("end", str(tag).lower()))

    def data(self, data: str) -> None:
        """Entities already decoded by the parser."""
        self.text.append(data)

    def doctype(self, name: str | None, pubid: str | None, system: str | None) -> None:
        """`<!DOCTYPE html>` and `<!doctype  HTML>` are the same declaration."""
        self._flush()
        parts = " ".join(p for p in (name, pubid, system) if p)
        self.events.append(("doctype", _SPACE.sub(" ", parts).strip().lower()))

    def comment(self, text: str) -> None:
        """Not rendered: dropped, and the text either side joins up."""

    def pi(self, target: str, data: str | None = None) -> None:
        """Not rendered: dropped."""

    def close(self) -> list[Event]:
        """What the parser returns from close()."""
        self._flush()
        return self.events


def parse(data: bytes) -> list[Event]:
    """The document's raw events, decoded as UTF-8 whatever a meta tag claims; none for a blank one."""
    from lxml import etree

    if not data.strip():
        return []
    target = _Events()
    parser = etree.HTMLParser(
        target=target, encoding="utf-8", recover=True, no_network=True, remove_comments=True, remove_pis=True
    )
    parser.feed(data)
    events: list[tuple[Any, ...]] = parser.close()
    return events


def _block(event: Event) -> bool:
    """Whether whitespace next to this event is not rendered (a block boundary or the doctype)."""
    return event[0] == "doctype" or (event[0] in ("start", "end") and event[1] in _BLOCK)


def _collapse(events: list[Event]) -> list[Event]:
    """Forward pass: text in pre, textarea and script kept as written ("raw"); other text collapsed
    to single spaces, without a leading one at a line start or after a space, and none in MathML/SVG."""
    out: list[Event] = []
    raw = foreign = 0
    at_break, after_space = True, False
    for ev in events:
        if ev[0] in ("start", "end"):
            step = 1 if ev[0] == "start" else -1
            raw += step if ev[1] in _RAW else 0
            foreign += step if ev[1] in _FOREIGN else 0
            at_break = at_break or _block(ev)
            after_space = after_space and ev[1] not in _INLINE_VOID
        elif ev[0] == "text" and raw:
            text = ev[1].replace("\r\n", "\n").replace("\r", "\n")
            if out and out[-1][0] == "start" and out[-1][1] in ("pre", "textarea"):
                text = text.removeprefix("\n")  # HTML drops the newline right after <pre>
            if not _in_script(out):  # spaces at a line's end in <pre> are not seen: nothing is drawn after them
                text = _LINE_END_SPACE.sub("", text)
            ev, at_break, after_space = ("raw", text), False, False
        elif ev[0] == "text":
            text = _SPACE.sub(" ", ev[1])
            if at_break or after_space or foreign:
                text = text.lstrip(" ")
            text = text.rstrip(" ") if foreign else text
            if not text:
                continue
            ev, at_break, after_space = ("text", text), False, text.endswith(" ")
        else:
            at_break = True
        out.append(ev)
    return out


_LINE_END_SPACE = re.compile(r"[ \t]+(?=\n)")


def _in_script(out: list[Event]) -> bool:
    """Whether the innermost open raw element is a <script> (its text is code, kept exactly)."""
    depth = 0
    for ev in reversed(out):
        if ev[0] in ("start", "end") and ev[1] in _RAW:
            if ev[0] == "end":
                depth += 1
            elif depth:
                depth -= 1
            else:
                return bool(ev[1] == "script")
    return False


def normalise(events: list[Event]) -> list[Event]:
    """Text as a browser renders it (see _collapse), then trailing spaces before a line end dropped."""
    out = _collapse(events)
    at_break, pre_end = True, False
    for i in range(len(out) - 1, -1, -1):
        ev = out[i]
        if ev[0] == "text" and at_break:
            out[i] = ("text", ev[1].rstrip(" "))
        if ev[0] == "raw" and pre_end:  # the last line of a <pre>: nothing is drawn after its spaces either
            out[i] = ("raw", ev[1].rstrip(" \t"))
        pre_end = (ev[0] == "end" and (ev[1] in ("pre", "textarea") or pre_end)) or (
            pre_end and ev[0] == "raw" and not out[i][1]
        )
        if ev[0] in ("text", "raw"):
            at_break = at_break and not out[i][1]
        elif ev[0] in ("start", "end") and ev[1] in _INLINE_VOID:
            at_break = False
        elif _block(ev):
            at_break = True
    return [ev for ev in out if ev[0] != "text" or ev[1]]


def read_html(path: Path, budget: Budget) -> list[Event]:
    """The document's normalised events. The size is admitted to the budget before it is read."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        budget.admit("bytes", size)
        data = fh.read(size)
    return normalise(parse(data.removeprefix(b"\xef\xbb\xbf")))


def _show(event: Event | None) -> str | None:
    """An event as HTML-like text for the report."""
    if event is None:
        return None
    kind, value = event[0], event[1]
    if kind == "start":
        attrs = "".join(f' {k}="{v}"' for k, v in event[2])
        text = f"<{value}{attrs}>"
    else:
        text = {"end": f"</{value}>", "doctype": f"<!{value}>"}.get(kind, str(value))
    text = text.encode("utf-8", errors="backslashreplace").decode("utf-8")
    return text if len(text) <= _SHOW else text[:_SHOW] + "..."


def _where(events: list[Event], index: int) -> str:
    """The element path of event `index`, e.g. html > body > p."""
    stack: list[str] = []
    for ev in events[:index]:
        if ev[0] == "start":
            stack.append(ev[1])
        elif ev[0] == "end" and stack:
            stack.pop()
    return " > ".join(stack) or "document"


def compare_html(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Equal parsed documents; reports the first differing element, attribute set or text.
    atol/rtol are unused: numbers inside HTML are compared as written."""
    options_for("html", options, DEFAULTS)
    pair = load_pair("html", reference, lambda b: read_html(reference, b), lambda b: read_html(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    ref, cand = pair
    first = next((i for i, (a, b) in enumerate(zip(ref, cand)) if a != b), None)
    if first is None and len(ref) != len(cand):
        first = min(len(ref), len(cand))
    if first is None:
        return finish("html", {"document": check(True, None, None)})
    exp = ref[first] if first < len(ref) else None
    got = cand[first] if first < len(cand) else None
    where = _where(ref if exp is not None else cand, first)
    return finish("html", {"document": check(False, _show(exp), _show(got), None, where=where)})

"""Untrusted text (a candidate's stderr, keys, values, pytest's account) made inert for a rich console: what
every renderer of verdicts, whatever the kind, shares."""

from __future__ import annotations

import re

from rich.markup import escape
from rich.text import Text

# ANSI escape sequences (CSI, OSC, other ESC), then any control character or bidi override left over
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_LINE_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # but tab and newline


def plain(text: str) -> str:
    """Untrusted text (a candidate's stderr, keys, values) made inert for a rich console: no terminal
    escapes, no control characters, no markup."""
    return escape(_CONTROLS.sub("\ufffd", _ESCAPES.sub("", text)))


def plain_lines(text: str) -> Text:
    """Untrusted multi-line text (pytest's account of a run) made inert as plain(), but keeping its lines: a
    newline, \\r\\n or a lone \\r is a line break and a tab a tab, not a replacement character. A Text is never
    read as markup, so nothing is escaped."""
    lines = _ESCAPES.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    return Text(_LINE_CONTROLS.sub("\ufffd", lines))


def one_line(text: str) -> str:
    """A multi-line detail in a table cell: its whitespace runs, line breaks included, as single spaces."""
    return " ".join(text.split())

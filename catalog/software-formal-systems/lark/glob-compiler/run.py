"""A glob-to-regex compiler built with lark: an extended glob pattern (**, *, ?, [classes], [!negated], {brace,
alternatives}) is parsed with the Earley parser over a basic lexer, translated bottom-up into a Python regular
expression, and shipped as a module whose match(path) an agent's code must reproduce on hidden paths."""

import os
import re

from lark import Lark, Transformer

GRAMMAR = r"""
start: part+
?part: DSTARSLASH -> anydirs
     | DSTAR -> dstar
     | STAR -> star
     | QMARK -> qmark
     | "[" NEG? CHARS "]" -> cls
     | "{" alt ("," alt)* "}" -> brace
     | CHARS -> lit
     | SLASH -> slash
alt: part*
DSTARSLASH.3: "**/"
DSTAR.2: "**"
STAR: "*"
QMARK: "?"
NEG: "!"
SLASH: "/"
CHARS: /[A-Za-z0-9_.\-]+/
"""
PARSER = Lark(GRAMMAR, parser="earley", lexer="basic")  # fixed grammar: built once, at import
SAMPLES = [
    "src/main.py",
    "src/pkg/test_io.py",
    "docs/index.md",
    "docs/api/Ref.txt",
    "src/_private.c",
    "lib/core.pyx",
    "main.h",
    "src/Main.PY",
    "docs/guide/test_run.md",
    "src/a/b/c/x.py",
]
MODULE = '''"""Glob matcher generated from the pattern {pattern!r} (lark parse, regex translation)."""

import re

_PATTERN = re.compile({regex!r}{flags})


def match(path):
    """Whether the whole path matches the glob pattern."""
    return _PATTERN.fullmatch(path) is not None
'''


class ToRegex(Transformer):
    def start(self, c):
        return "".join(c)

    def alt(self, c):
        return "".join(c)

    def anydirs(self, _):
        return "(?:.*/)?"

    def dstar(self, _):
        return ".*"

    def star(self, _):
        return "[^/]*"

    def qmark(self, _):
        return "[^/]"

    def cls(self, c):
        text = str(c[-1])  # a '-' between two characters is a range, any other character is itself
        chars = "".join(ch if ch == "-" and 0 < i < len(text) - 1 else re.escape(ch) for i, ch in enumerate(text))
        return f"[^{chars}/]" if len(c) == 2 else f"[{chars}]"

    def brace(self, c):
        return "(?:" + "|".join(c) + ")"

    def lit(self, c):
        return re.escape(str(c[0]))

    def slash(self, _):
        return "/"


def pattern(scn):
    """The glob of the scenario: root, then '**/' when recursive, then stem, then '.' and the extensions."""
    exts = list(dict.fromkeys(str(e) for e in scn["extensions"]))
    ext = exts[0] if len(exts) == 1 else "{" + ",".join(exts) + "}"
    root = str(scn["root"])
    return f"{root}/" + ("**/" if scn["recursive"] else "") + f"{scn['stem']}.{ext}"


def main(scn):
    glob = pattern(scn)
    tree = PARSER.parse(glob)
    regex = ToRegex().transform(tree)
    flags = ", re.IGNORECASE" if scn["ignore_case"] else ""
    source = MODULE.format(pattern=glob, regex=regex, flags=flags)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "globmatch.py"), "w", encoding="utf-8") as fh:
        fh.write(source)
    compiled = re.compile(regex, re.IGNORECASE if scn["ignore_case"] else 0)
    return {
        "matcher_module": "globmatch.py",
        "pattern": glob,
        "sample_matches": [compiled.fullmatch(p) is not None for p in SAMPLES],
        "n_parts": len(tree.children),
        "n_wildcards": sum(1 for t in tree.iter_subtrees() if t.data in ("star", "dstar", "anydirs", "qmark", "cls")),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")

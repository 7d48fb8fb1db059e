"""Identifiability of an obfuscated revival variant: what in its workspace still names the original project, and
how much of the original's order survives the renaming. Renaming code is not enough: the package metadata, the
author list, the README and setup.py's keywords name the project and its people. The variant's workspace keeps
the one notice its license requires (LICENSE, COPYING, NOTICE: a BSD or MIT licence must travel with the code)
and nothing else that names them: author and change lists are dropped, PKG-INFO and the README are written
anew from the variant's own name and summary, and setup.py, setup.cfg and pyproject.toml lose their people,
URLs and keywords (and packages the variant dropped). `identifiability` reports the measures beside similarity."""

from __future__ import annotations

import ast
import re
from email.parser import HeaderParser
from pathlib import Path
from typing import Any

from swr.kinds.revival.obfuscate_order import concordant, name_lists

LICENSE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE)([.-].*)?$", re.IGNORECASE)
PEOPLE = re.compile(
    r"^(AUTHORS?|CONTRIBUTORS?|MAINTAINERS?|CREDITS|THANKS|CHANGELOG|CHANGES|HISTORY|NEWS"
    r"|CITATION|CODE_OF_CONDUCT|FUNDING)([.-].*)?$",
    re.IGNORECASE,
)
README = re.compile(r"^README([.-].*)?$", re.IGNORECASE)
META_KEYS = {
    "author",
    "author_email",
    "maintainer",
    "maintainer_email",
    "url",
    "download_url",
    "project_urls",
    "keywords",
    "home_page",
    "home-page",
    "author-email",
    "maintainer-email",
    "project-urls",
    "download-url",
    "description",
}
META_TABLES = ("metadata", "project", "tool.poetry")
URL_TABLES = ("project.urls", "tool.poetry.urls")
PKG_FIELDS = ("Name", "Author", "Maintainer", "Author-email", "Maintainer-email")
MAX_SCAN = 4 << 20
HOLDER = re.compile(
    r"^\s*copyright\s+(?:\(c\)\s*|©\s*)?\d{4}(?:\s*[-,]\s*\d{4})*,?\s+(?:by\s+)?(.+)$", re.IGNORECASE | re.MULTILINE
)


def identity(pkg_info: str) -> list[str]:
    """The project's name and its people as the original's PKG-INFO gives them (names and e-mail addresses;
    a field holding a URL names no one)."""
    msg = HeaderParser().parsestr(pkg_info)
    out: list[str] = []
    for key in PKG_FIELDS:
        for value in msg.get_all(key) or []:
            for part in re.split(r",|\band\b|<|>", str(value)):
                part = part.strip().strip('"')
                if part and "://" not in part and len(part) >= 3:
                    out.append(part)
    return list(dict.fromkeys(out))


def license_holders(project: Path) -> list[str]:
    """Who the license files' copyright lines name: they may appear there, and nowhere else."""
    out = []
    for p in sorted(project.iterdir()):
        if p.is_file() and not p.is_symlink() and LICENSE.match(p.name):
            for m in HOLDER.finditer(p.read_text(errors="replace")):
                holder = re.sub(r"\ball rights reserved\.?", "", m.group(1), flags=re.IGNORECASE).strip(" .,")
                if len(holder) >= 3:
                    out.append(holder)
    return list(dict.fromkeys(out))


def scrub(project: Path, name: str, summary: str) -> list[str]:
    """Rewrite the variant's top-level metadata in place; the files changed or removed, sorted."""
    touched = []
    for p in sorted(project.iterdir()):
        if not p.is_file() or p.is_symlink() or LICENSE.match(p.name):
            continue
        if PEOPLE.match(p.name):
            p.unlink()
        elif p.name == "PKG-INFO":
            p.write_text(_pkg_info(p.read_text(errors="replace"), name, summary))
        elif README.match(p.name):
            p.write_text(f"{name}\n{'=' * len(name)}\n\n{summary}\n")
        elif p.name == "setup.py":
            p.write_text(_setup_py(p.read_text(errors="replace"), project, summary))
        elif p.name in ("setup.cfg", "pyproject.toml"):
            p.write_text(_drop_keys(p.read_text(errors="replace")))
        else:
            continue
        touched.append(p.name)
    return touched


def _pkg_info(text: str, name: str, summary: str) -> str:
    msg = HeaderParser().parsestr(text)
    keep = {
        "Metadata-Version": msg.get("Metadata-Version", "1.2"),
        "Name": name,
        "Version": msg.get("Version"),
        "Summary": summary,
        "License": msg.get("License"),
    }
    return "".join(f"{k}: {v}\n" for k, v in keep.items() if v)


def _setup_py(text: str, project: Path, summary: str) -> str:
    """setup(...) without people, URLs and keywords, its description the variant's summary, and only the
    packages the project still has."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", "")) == "setup"):
            continue
        call.keywords = [k for k in call.keywords if k.arg not in META_KEYS - {"description"}]
        for k in call.keywords:
            if k.arg == "description":
                k.value = ast.Constant(summary)
            if k.arg == "packages" and isinstance(k.value, (ast.List, ast.Tuple)):
                k.value.elts = [
                    e
                    for e in k.value.elts
                    if not (
                        isinstance(e, ast.Constant)
                        and isinstance(e.value, str)
                        and not (project / e.value.replace(".", "/")).is_dir()
                    )
                ]
    return ast.unparse(tree) + "\n"


def _drop_keys(text: str) -> str:
    """setup.cfg's or pyproject.toml's metadata lines that name people, URLs or keywords (and their continuation
    lines, and the whole [project.urls] table) left out; the rest as it was."""
    out, skipping, table = [], False, ""
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("["):
            table, skipping = stripped.strip("[]").strip(), False
        if table in URL_TABLES:
            continue
        if skipping and (line[:1].isspace() or stripped[:1] in ("]", "}", ")")):
            continue  # a multi-line value of a key left out, its closing bracket too
        if stripped and not line[:1].isspace() and not stripped.startswith("["):
            key = re.split(r"\s*[=:]", stripped, maxsplit=1)[0].strip().lower()
            skipping = table in META_TABLES and key in META_KEYS | {"authors", "maintainers"}
        if not skipping:
            out.append(line)
    return "".join(out)


def mentions(project: Path, needles: list[str]) -> dict[str, int]:
    """{file: occurrences} of any needle (case-insensitive) in the project's files and paths, the license
    files aside."""
    rx = re.compile("|".join(re.escape(n) for n in sorted(needles, key=len, reverse=True)), re.IGNORECASE)
    found: dict[str, int] = {}
    for p in sorted(project.rglob("*")):
        rel = p.relative_to(project).as_posix()
        if p.is_symlink() or not p.is_file() or LICENSE.match(p.name) or "__pycache__" in rel:
            continue
        with p.open("rb") as f:
            text = f.read(MAX_SCAN).decode("utf-8", errors="replace")
        if n := len(rx.findall(text)) + len(rx.findall(rel)):
            found[rel] = n
    return found


def order_kept(pairs: list[tuple[Path, Path]], names: dict[str, str]) -> dict[str, Any]:
    """Over (original file, renamed file) pairs: the share of pairs of names, in every list `name_lists`
    finds, that keep their relative order (1.0: all of it; a random order: about 0.5)."""
    back = {new: old for old, new in names.items()}
    same = total = 0
    for orig, renamed in pairs:
        try:
            a, b = name_lists(ast.parse(orig.read_text())), name_lists(ast.parse(renamed.read_text()))
        except (SyntaxError, ValueError):
            continue
        for key, new in b.items():
            old_key = tuple(".".join(back.get(p, p) for p in k.split(".")) for k in key)
            if old_key in a:
                s, t = concordant(a[old_key], [back.get(n, n) for n in new])
                same, total = same + s, total + t
    return {"pairs": total, "kept": same, "order_kept": round(same / total, 4) if total else None}


def public_names(module: Path) -> list[str]:
    """A module's public names: its `__all__`, else its top-level definitions without a leading underscore."""
    lists = name_lists(ast.parse(module.read_text()))
    return lists.get(("all",)) or [n for n in lists[("defs",)] if not n.startswith("_")]

"""Errors a user can act on: one line naming the file and field, exit code 2."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError


class SwrError(Exception):
    """A usage or input error; the CLI prints `str(err)` on one line and exits 2."""

    def __init__(self, message: str, *, file: str | Path | None = None, field: str | None = None):
        self.file = str(file) if file is not None else None
        self.field = field
        self.message = message
        super().__init__(self.render())

    def render(self) -> str:
        where = self.file or ""
        if self.field:
            where = f"{where}: field `{self.field}`" if where else f"field `{self.field}`"
        text = f"{where}: {self.message}" if where else self.message
        return " ".join(text.split())


class SandboxUnavailable(SwrError):
    """The sandbox backend cannot start here (missing binary, no namespaces)."""


def first_problem(e: ValidationError, *, tagged: bool = False) -> tuple[str, str | None]:
    """(message, dotted field) of a pydantic error's first problem. `tagged`: a union chosen by its `kind` field,
    whose tag leads every location (an unknown tag is a problem of `kind` itself)."""
    err = e.errors()[0]
    loc = [str(p) for p in err["loc"]]
    if tagged:
        loc = ["kind"] if err["type"] == "union_tag_invalid" else loc[1:]
    return err["msg"], ".".join(loc) or None


def load_json(path: Path, missing: SwrError | None = None) -> Any:
    """A JSON file's value; a missing (`missing`, else "not found"), unreadable, non-UTF-8 or invalid file
    is one line naming it."""
    return _parsed(path, json.loads, ValueError, "JSON", missing)


def load_toml(path: Path, missing: SwrError | None = None) -> dict[str, Any]:
    """A TOML file's table; a missing (`missing`, else "not found"), unreadable, non-UTF-8 or invalid file
    is one line naming it."""
    return _parsed(path, tomllib.loads, tomllib.TOMLDecodeError, "TOML", missing)


def _parsed(
    path: Path, parse: Callable[[str], Any], invalid: type[Exception], kind: str, missing: SwrError | None
) -> Any:
    try:
        return parse(path.read_text())
    except FileNotFoundError:
        raise (missing or SwrError("not found", file=path)) from None
    except OSError as e:
        raise SwrError(f"unreadable: {e.strerror}", file=path) from None
    except UnicodeDecodeError:
        raise SwrError("not UTF-8 text", file=path) from None
    except invalid as e:
        raise SwrError(f"invalid {kind}: {e}", file=path) from None

"""What every `swr` command module shares: the typer app, the consoles, the common options and `handled`.
Its own module so main.py and every sub-command module (run.py, audit.py, export.py, ...) import it, and no
sub-command module imports main.py (which imports them all)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from swr.core.errors import SwrError

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Software-in-the-loop reconstruction: verified tasks for coding agents.",
)
out = Console()
err = Console(stderr=True)

JOBS = typer.Option(os.cpu_count() or 2, "-n", "--jobs", help="Parallel sandboxed runs.")
SANDBOX = typer.Option(
    "bwrap", "--sandbox", "-e", help="Sandbox backend: bwrap, podman, docker, or none (trusted code only)."
)
JSON = typer.Option(False, "--json", help="Print JSON instead of a table.")


def _absolute(value: Any) -> Any:
    """A path (or list of paths) made absolute against the cwd, without following symlinks."""
    if isinstance(value, Path):
        return value.absolute()
    if isinstance(value, list) and value and all(isinstance(v, Path) for v in value):
        return [v.absolute() for v in value]
    return value


def handled(fn: Callable[..., Any]) -> Callable[..., Any]:
    """One line on stderr and exit 2 for anything the user can fix; no traceback. Every path the user
    gives becomes absolute here, since sandboxed runs start in "/" where a relative path means nothing."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from swr.sandbox import leftovers

        leftovers.install()  # a dead swr's mounts and scratch swept; ours removed on SIGTERM/SIGHUP/SIGINT
        try:
            return fn(*map(_absolute, args), **{k: _absolute(v) for k, v in kwargs.items()})
        except SwrError as e:
            err.print(f"swr: {e}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            err.print("swr: interrupted", markup=False)
            raise typer.Exit(130) from None
        except (typer.Exit, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - an infrastructure error is still one line and exit 2
            if os.environ.get("SWR_DEBUG"):
                raise
            err.print(
                f"swr: internal error: {type(e).__name__}: {e} (SWR_DEBUG=1 shows the traceback)",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
            raise typer.Exit(2) from None

    return wrapper

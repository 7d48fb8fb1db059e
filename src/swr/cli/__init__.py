"""The `swr` command (swr.cli.main) and its sub-command modules."""

from swr.cli.main import app, main

__all__ = ["app", "main"]

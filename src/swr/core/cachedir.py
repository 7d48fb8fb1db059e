"""Where swr keeps what it can recompute (executions, environments, sdists, wheels): one root for every cache."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    if env := os.environ.get("SWR_CACHE"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "swr"

"""The one JSON style of every file swr writes."""

from __future__ import annotations

import json
from typing import Any


def dump_json(obj: Any) -> str:
    """The release's one JSON style: sorted keys, 2-space indent, trailing newline."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"

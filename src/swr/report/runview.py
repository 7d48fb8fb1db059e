"""One run's page content: its ATIF trajectory as steps, its diff as classified lines, its verdict. All of it
is agent output: it is only ever handed to the templates as text, which autoescape renders inert."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swr.harness.store import RunRecord
from swr.harness.trajectory import validate_atif
from swr.kinds.verdict import verdict_json

MAX_TEXT = 20_000  # characters of one message, argument list or observation shown on the page
MAX_DIFF = 400_000  # characters of a diff
MAX_STEPS = 2_000


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """The text up to `limit` characters, and how much was left out."""
    return text if len(text) <= limit else f"{text[:limit]}\n… ({len(text) - limit} more characters not shown)"


@dataclass
class StepView:
    step_id: int
    source: str
    message: str
    reasoning: str | None = None
    calls: list[tuple[str, str, str]] = field(default_factory=list)  # (id, function, arguments as JSON)
    results: list[tuple[str, str]] = field(default_factory=list)  # (source call id, content)
    tokens: str = ""


@dataclass
class TrajectoryView:
    steps: list[StepView]
    note: str | None = None  # why the trajectory is missing or not shown as steps
    raw: str | None = None  # the file's text when it is not ATIF


def trajectory_view(path: Path) -> TrajectoryView:
    """The run's trajectory as steps; a missing or malformed file is a note on the page, not an error."""
    if not path.is_file():
        return TrajectoryView([], "no trajectory recorded")
    text = path.read_text(errors="replace")
    try:
        traj = validate_atif(json.loads(text))
    except ValueError as e:
        return TrajectoryView([], f"not an ATIF trajectory: {clip(str(e), 500)}", clip(text))
    steps = [_step(s) for s in traj.steps[:MAX_STEPS]]
    more = len(traj.steps) - len(steps)
    return TrajectoryView(steps, f"{more} more steps not shown" if more > 0 else None)


def _step(s: Any) -> StepView:
    calls = [
        (c.tool_call_id, c.function_name, clip(json.dumps(c.arguments, indent=1, sort_keys=True)))
        for c in s.tool_calls or []
    ]
    results = [
        (r.source_call_id or "", clip(r.content or "")) for r in (s.observation.results if s.observation else [])
    ]
    m = s.metrics
    tokens = f"{m.prompt_tokens or 0} in, {m.completion_tokens or 0} out" if m else ""
    return StepView(
        s.step_id,
        s.source,
        clip(s.message),
        clip(s.reasoning_content) if s.reasoning_content else None,
        calls,
        results,
        tokens,
    )


def diff_lines(path: Path) -> list[tuple[str, str]] | None:
    """(class, line) for each line of the run's diff: file, hunk, add, del or context; None: no diff kept."""
    if not path.is_file():
        return None
    out = []
    for line in clip(path.read_text(errors="replace"), MAX_DIFF).splitlines():
        if line.startswith(("diff ", "+++ ", "--- ", "index ", "new file", "deleted file", "Binary files")):
            kind = "file"
        elif line.startswith("@@"):
            kind = "hunk"
        else:
            kind = {"+": "add", "-": "del"}.get(line[:1], "ctx")
        out.append((kind, line))
    return out


VERDICT_FIELDS = ("pass", "label", "labels", "score", "r_hid", "r_pub", "field_agreement", "detail")


def verdict_view(r: RunRecord) -> dict[str, Any]:
    """The verdict's headline fields and the whole of it as indented JSON (what the store holds)."""
    v = verdict_json(r.verdict) if r.verdict else {}
    head = [
        (k, v[k] if not isinstance(v[k], list) else ", ".join(map(str, v[k])) or "-") for k in VERDICT_FIELDS if k in v
    ]
    return {
        "head": head,
        "json": clip(json.dumps(v, indent=1, sort_keys=True), MAX_DIFF) if v else None,
        "cheats": [clip(json.dumps(c, sort_keys=True), 2000) for c in r.cheats],
    }

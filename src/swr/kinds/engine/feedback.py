"""`./feedback` for an engine task: the candidate on the three worked examples, its output next to the
expected one (a summary of where they differ). The hidden verifier is not in the workspace, so this
says nothing about passing; it shows what the examples show."""

from __future__ import annotations

import math
from typing import Any

from swr.kinds.engine.grading import CandidateTerms, run_candidate
from swr.kinds.engine.verdict import EngineVerdict
from swr.sandbox import Sandbox

MAX_NAMED = 10


def differences(expected: Any, got: Any, path: str = "") -> list[tuple[str, float | None]]:
    """(dotted path, relative difference or None for a mismatch of kind, key or length) per differing leaf."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [(path or ".", None)]
        return [
            d
            for k, v in expected.items()
            for d in (
                differences(v, got[k], f"{path}.{k}".lstrip(".")) if k in got else [(f"{path}.{k}".lstrip("."), None)]
            )
        ]
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return [(path or ".", None)]
        return [d for i, (e, g) in enumerate(zip(expected, got)) for d in differences(e, g, f"{path}.{i}".lstrip("."))]
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        if isinstance(got, bool) or not isinstance(got, (int, float)) or not math.isfinite(float(got)):
            return [(path, None)]
        rel = abs(float(got) - expected) / max(abs(float(expected)), 1e-300)
        return [(path, rel)] if rel > 1e-12 else []
    return [] if got == expected else [(path, None)]


def engine_feedback(
    terms: CandidateTerms, task_id: str, candidate: Any, public: list[dict[str, Any]], sandbox: Sandbox
) -> EngineVerdict:
    rows = []
    for case in public:
        ran = run_candidate(terms, candidate, case, sandbox)
        diffs = differences(case.get("expected"), ran.output) if ran.output is not None else []
        worst = max((d for _, d in diffs if d is not None), default=0.0)
        rows.append(
            {
                "case": case["id"],
                "failure": ran.failure,
                "detail": ran.detail[-500:],
                "differing_leaves": len(diffs),
                "worst_relative_difference": worst,
                "first_differences": [p for p, _ in diffs[:MAX_NAMED]],
            }
        )
    return EngineVerdict.model_validate(
        {
            "task": task_id,
            "kind": "engine",
            "split": "public",
            "pass": None,
            "note": "the hidden verifier grades other cases with its own checks; this compares the examples only",
            "examples": rows,
        }
    )

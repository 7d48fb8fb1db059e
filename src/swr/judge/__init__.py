"""The judge: tolerant JSON comparison, labelled diagnostics and task verdicts."""

from .compare import LABEL_ORDER, Comparison, Mismatch, compare, equal
from .decision import (
    STAGE_ORDER,
    Execution,
    judge_scenario,
    missing_candidate,
    to_json,
    verdict,
)
from .shape import structure
from .tolerance import Tolerances

__all__ = [
    "LABEL_ORDER",
    "STAGE_ORDER",
    "Comparison",
    "Execution",
    "Mismatch",
    "Tolerances",
    "compare",
    "equal",
    "judge_scenario",
    "missing_candidate",
    "structure",
    "to_json",
    "verdict",
]

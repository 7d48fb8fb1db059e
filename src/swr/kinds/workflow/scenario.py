"""Seeded, typed scenario sampling and the canonical JSON that keys every cache."""

from __future__ import annotations

import math
import random
from typing import Any

from swr.core.hashing import derive_seed
from swr.kinds.workflow.spec import InputSpec, WorkflowSpec

Scenario = dict[str, Any]
SIG_DIGITS = 6


def _number(rng: random.Random, lo: float, hi: float, log: bool) -> float:
    x = math.exp(rng.uniform(math.log(lo), math.log(hi))) if log else rng.uniform(lo, hi)
    x = float(f"{x:.{SIG_DIGITS}g}")  # readable scenarios; clamp what rounding pushed out
    return min(max(x, lo), hi)


def _scalar(rng: random.Random, kind: str, inp: InputSpec) -> Any:
    if kind == "number":
        return _number(rng, float(inp.min), float(inp.max), inp.log)  # type: ignore[arg-type]
    if kind == "integer":
        return rng.randint(math.ceil(inp.min), math.floor(inp.max))  # type: ignore[arg-type]
    if kind == "boolean":
        return rng.random() < 0.5
    return rng.choice(list(inp.choices or ()))  # categorical and path


def sample_value(rng: random.Random, inp: InputSpec) -> Any:
    if inp.type == "array":
        lo, hi = inp.length  # type: ignore[misc]
        n = rng.randint(lo, hi)
        return [_scalar(rng, inp.items, inp) for _ in range(n)]  # type: ignore[arg-type]
    return _scalar(rng, inp.type, inp)


def sample_scenario(spec: WorkflowSpec, seed: int, variant: int, draw: int) -> Scenario:
    """Draw `draw` of variant `variant`: a pure function of (seed, workflow name, variant, draw)."""
    rng = random.Random(derive_seed("scenario", seed, spec.name, variant, draw))
    return {name: sample_value(rng, spec.inputs[name]) for name in sorted(spec.inputs)}


def input_distance(spec: WorkflowSpec, a: Scenario, b: Scenario) -> float:
    """Normalised distance between scenarios, for the nearest-neighbour replay control."""
    total = 0.0
    for name, inp in spec.inputs.items():
        x, y = a.get(name), b.get(name)
        if inp.type in ("number", "integer") and isinstance(x, (int, float)) and isinstance(y, (int, float)):
            lo, hi = float(inp.min), float(inp.max)  # type: ignore[arg-type]
            if inp.log and x > 0 and y > 0:
                x, y, lo, hi = math.log(x), math.log(y), math.log(lo), math.log(hi)
            span = hi - lo
            total += ((x - y) / span) ** 2 if span > 0 else 0.0
        elif inp.type == "array" and isinstance(x, list) and isinstance(y, list):
            total += _array_distance(inp, x, y)
        else:
            total += 0.0 if x == y else 1.0
    return math.sqrt(total)


def _array_distance(inp: InputSpec, x: list[Any], y: list[Any]) -> float:
    if len(x) != len(y):
        return 1.0
    if not x:
        return 0.0
    if inp.items in ("number", "integer"):
        span = float(inp.max) - float(inp.min) or 1.0  # type: ignore[arg-type]
        return sum(((float(p) - float(q)) / span) ** 2 for p, q in zip(x, y)) / len(x)
    distance: float = sum(p != q for p, q in zip(x, y)) / len(x)
    return distance

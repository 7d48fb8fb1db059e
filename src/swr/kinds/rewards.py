"""Small helpers every kind's Harbor reward rule uses (TaskKind.harbor_reward): shares rounded alike."""

from __future__ import annotations


def share(hits: int, n: int) -> float:
    """hits/n to 6 places (0 for no cases): the same rounding for every kind's components."""
    return round(hits / n, 6) if n else 0.0


def score(k_of_n: str) -> float:
    """A "k/N" score as a share."""
    k, n = (int(x) for x in k_of_n.split("/"))
    return share(k, n)

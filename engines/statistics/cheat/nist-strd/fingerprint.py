"""A dataset's fingerprint: its values sorted and standardised (minus the mean, over the standard
deviation), rounded to 4 decimals: the same after a scale, a shift or a permutation."""
import hashlib
import math


def fingerprint(values):
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / max(n - 1, 1)) or 1.0
    z = sorted(round((v - m) / sd, 4) + 0.0 for v in values)
    return hashlib.sha256(repr((n, z)).encode()).hexdigest()[:24], sd

"""Probe: what the itertools recipes compute on fixed inputs, as one JSON object (recorded from the original
natively; a rebuilt module must print the same)."""
import json

import more_itertools as mi

out = {
    "take": mi.take(4, range(10)),
    "tail": list(mi.tail(3, "ABCDEFG")),
    "nth": mi.nth(range(10), 7),
    "all_equal": [mi.all_equal("aaaa"), mi.all_equal("aaab")],
    "quantify": mi.quantify([1, 0, 3, 0, 5]),
    "grouper": [list(g) for g in mi.grouper("ABCDEFG", 3, fillvalue="x")],
    "roundrobin": list(mi.roundrobin("ABC", "D", "EF")),
    "partition": [list(p) for p in mi.partition(lambda x: x % 3, range(10))],
    "powerset": [list(s) for s in mi.powerset([1, 2, 3])],
    "unique_everseen": list(mi.unique_everseen("AAAABBBCCDAABBB")),
    "unique_justseen": list(mi.unique_justseen("AAAABBBCCDAABBB")),
    "first_true": mi.first_true([0, None, 7, 9]),
    "nth_combination": list(mi.nth_combination(range(10), 4, 123)),
    "convolve": list(mi.convolve([1, -1, 3, 5], [0.25, 0.5, 0.25])),
    "sliding_window": [list(w) for w in mi.sliding_window(range(6), 4)],
    "subslices": ["".join(s) for s in mi.subslices("abcd")],
    "polynomial_from_roots": mi.polynomial_from_roots([5, -4, 3]),
    "polynomial_eval": mi.polynomial_eval([1, -4, -17, 60], 2.5),
    "polynomial_derivative": mi.polynomial_derivative([1, -4, -17, 60]),
    "iter_index": list(mi.iter_index("AABCADEAF", "A")),
    "sieve": list(mi.sieve(60)),
    "transpose": [list(r) for r in mi.transpose([(1, 2, 3), (11, 22, 33)])],
    "matmul": [list(r) for r in mi.matmul([(7, 5), (3, 5)], [[2, 5], [7, 9]])],
    "factor": list(mi.factor(360)) + list(mi.factor(1000003 * 999983)),
    "sum_of_squares": mi.sum_of_squares([10, 20, 30]),
    "totient": [mi.totient(n) for n in (1, 9, 12, 97, 360)],
    "dotproduct": mi.dotproduct([10, 10], [20, 20]),
    "flatten": list(mi.flatten([[0, 1], [2, 3]])),
    "ncycles": list(mi.ncycles("ab", 3)),
    "before_and_after": [list(p) for p in mi.before_and_after(str.isupper, "ABCdEfGhI")],
    "batched": [list(b) for b in mi.batched("ABCDEFG", 3)],
}
print(json.dumps(out, sort_keys=True))

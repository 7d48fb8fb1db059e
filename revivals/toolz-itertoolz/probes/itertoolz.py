"""Probe: what the iterator functions compute on fixed inputs, as one JSON object (recorded from the original
natively; a rebuilt module must print the same)."""
import json

import toolz as tz

out = {
    "groupby": sorted(tz.groupby(len, ["a", "bb", "cc", "ddd", "e"]).items()),
    "countby": sorted(tz.countby(len, ["a", "bb", "c", "ddd"]).items()),
    "frequencies": sorted(tz.frequencies("abracadabra").items()),
    "reduceby": sorted(tz.reduceby(lambda x: x % 3, lambda a, b: a + b, range(10), 0).items()),
    "partition": list(tz.partition(2, [1, 2, 3, 4, 5], pad=None)),
    "partition_all": list(tz.partition_all(2, range(5))),
    "partitionby": list(tz.partitionby(lambda x: x > 2, [1, 2, 3, 4, 1])),
    "sliding_window": list(tz.sliding_window(3, range(6))),
    "interleave": list(tz.interleave([[1, 2], [3, 4, 5], [6]])),
    "interpose": list(tz.interpose(0, [1, 2, 3])),
    "unique": list(tz.unique([1, 2, 1, 3, 2])),
    "accumulate": list(tz.accumulate(lambda a, b: a * b, [1, 2, 3, 4, 5])),
    "topk": list(tz.topk(3, [5, 1, 9, 3, 7])),
    "merge_sorted": list(tz.merge_sorted([1, 4, 7], [2, 5, 8], [3, 6])),
    "concat": list(tz.concat([[1], [2, 3], []])),
    "mapcat": list(tz.mapcat(lambda s: [s, s * 2], [1, 2])),
    "pluck": list(tz.pluck(1, [(1, 2), (3, 4)])),
    "join": sorted(tz.join(lambda x: x[0], [(1, "a"), (2, "b")], lambda y: y[0], [(1, "x"), (1, "y"), (3, "z")])),
    "diff": list(tz.diff([1, 2, 3], [1, 2, 4], [1, 5, 3])),
    "get": [tz.get([0, 2], "abc"), tz.get(5, [1], default=-1)],
    "nth_last_second": [tz.nth(3, "abcde"), tz.last("abc"), tz.second("abc"), tz.first("xyz")],
    "take_nth": list(tz.take_nth(2, range(7))),
    "tail_drop": [list(tz.tail(2, range(5))), list(tz.drop(2, range(5))), list(tz.take(2, range(5)))],
    "isdistinct": [tz.isdistinct([1, 2]), tz.isdistinct([1, 1]), tz.isiterable(3), tz.isiterable("a")],
    "count": tz.count(iter(range(5))),
    "iterate": list(tz.take(5, tz.iterate(lambda x: 2 * x, 1))),
    "cons": list(tz.cons(0, [1, 2])),
    "random_sample": list(tz.random_sample(0.5, range(20), random_state=42)),
    "peekn": [list(tz.peekn(2, iter(range(4)))[0]), list(tz.peekn(2, iter(range(4)))[1])],
}
print(json.dumps(out, sort_keys=True))

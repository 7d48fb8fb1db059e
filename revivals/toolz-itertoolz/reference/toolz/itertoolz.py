"""An honest rebuild of toolz.itertoolz, written from the package's README, its other modules and the public
names the rest of toolz imports, without the original's text: swr calibrates its copied_original threshold on
it (private/build.json) and the build checks that it passes the verifier with no finding."""
import collections
import heapq
import itertools
import operator
from functools import partial
from random import Random

from toolz.utils import no_default

__all__ = ('remove', 'accumulate', 'groupby', 'merge_sorted', 'interleave', 'unique', 'isiterable',
           'isdistinct', 'take', 'drop', 'take_nth', 'first', 'second', 'nth', 'last', 'get', 'concat',
           'concatv', 'mapcat', 'cons', 'interpose', 'frequencies', 'reduceby', 'iterate', 'sliding_window',
           'partition', 'partition_all', 'count', 'pluck', 'join', 'tail', 'diff', 'topk', 'peek', 'peekn',
           'random_sample')

no_pad = '__no__pad__'


def _missing(value):
    """Defaults compare by value: a pickled copy of the sentinel string is still "no default"."""
    return value == no_default


def remove(predicate, seq):
    """The items of seq for which predicate is false, lazily."""
    return itertools.filterfalse(predicate, seq)


def accumulate(binop, seq, initial=no_default):
    """Running reductions of seq with binop, starting from initial when one is given."""
    items = iter(seq)
    if _missing(initial):
        try:
            total = next(items)
        except StopIteration:
            return
    else:
        total = initial
    yield total
    for item in items:
        total = binop(total, item)
        yield total


def getter(index):
    """A function picking index (or a tuple of several indices) out of its argument."""
    if isinstance(index, list):
        if len(index) == 1:
            only = index[0]
            return lambda x: (x[only],)
        if not index:
            return lambda x: ()
        return operator.itemgetter(*index)
    return operator.itemgetter(index)


def _as_key(key):
    return key if callable(key) else getter(key)


def groupby(key, seq):
    """{key(item): [items with that key, in order]}; a non-callable key is an index or list of indices."""
    key = _as_key(key)
    groups = {}
    for item in seq:
        groups.setdefault(key(item), []).append(item)
    return groups


def merge_sorted(*seqs, **kwargs):
    """One sorted stream out of several sorted ones (stable: earlier sequences win ties)."""
    key = kwargs.get('key')
    if not seqs:
        return iter(())
    if len(seqs) == 1:
        return iter(seqs[0])
    if key is None:
        return heapq.merge(*seqs)
    return heapq.merge(*seqs, key=key)


def interleave(seqs):
    """The first item of each sequence, then the second of each, and so on, skipping exhausted ones."""
    live = [iter(s) for s in seqs]
    while live:
        still = []
        for it in live:
            for value in itertools.islice(it, 1):
                yield value
                still.append(it)
        live = still


def unique(seq, key=None):
    """Items of seq whose key was not seen before, in order."""
    seen = set()
    for item in seq:
        tag = item if key is None else key(item)
        if tag not in seen:
            seen.add(tag)
            yield item


def isiterable(x):
    """Whether iter(x) works."""
    try:
        iter(x)
    except TypeError:
        return False
    return True


def isdistinct(seq):
    """Whether no item of seq repeats."""
    if isinstance(seq, (list, tuple, str, range)) or hasattr(seq, '__len__'):
        return len(seq) == len(set(seq))
    seen = set()
    for item in seq:
        if item in seen:
            return False
        seen.add(item)
    return True


def take(n, seq):
    return itertools.islice(seq, n)


def tail(n, seq):
    """The last n items of seq."""
    try:
        return seq[-n:]
    except (TypeError, KeyError):
        return tuple(collections.deque(seq, maxlen=n))


def drop(n, seq):
    return itertools.islice(seq, n, None)


def take_nth(n, seq):
    return itertools.islice(seq, 0, None, n)


def first(seq):
    return next(iter(seq))


def second(seq):
    return nth(1, seq)


def nth(n, seq):
    """Item n of seq (negative n counts from the end of a sequence)."""
    if isinstance(seq, (list, tuple, str, range)) or hasattr(seq, '__getitem__') and not isinstance(seq, dict):
        try:
            return seq[n]
        except TypeError:
            pass
    if n < 0:
        raise ValueError('a negative index needs a sequence, not an iterator')
    return next(itertools.islice(seq, n, None))


def last(seq):
    return tail(1, seq)[0]


rest = partial(drop, 1)


def _lookup(seq, ind, default):
    if _missing(default):
        return seq[ind]
    try:
        return seq[ind]
    except (KeyError, IndexError):
        return default


def get(ind, seq, default=no_default):
    """seq[ind], or a tuple of seq[i] for each i of a list ind; default where an index is missing."""
    if isinstance(ind, list):
        return tuple(_lookup(seq, i, default) for i in ind)
    try:
        return seq[ind]
    except (KeyError, IndexError, TypeError):
        if _missing(default):
            raise
        return default


def concat(seqs):
    return itertools.chain.from_iterable(seqs)


def concatv(*seqs):
    return concat(seqs)


def mapcat(func, seqs):
    return concat(map(func, seqs))


def cons(el, seq):
    return itertools.chain((el,), seq)


def interpose(el, seq):
    """el between every two items of seq."""
    items = iter(seq)
    for value in itertools.islice(items, 1):
        yield value
    for value in items:
        yield el
        yield value


def frequencies(seq):
    return dict(collections.Counter(seq))


def reduceby(key, binop, seq, init=no_default):
    """{key(item): reduction of the items with that key}; init is a start value or a factory of one."""
    key = _as_key(key)
    out = {}
    for item in seq:
        k = key(item)
        if k in out:
            out[k] = binop(out[k], item)
        elif _missing(init):
            out[k] = item
        else:
            out[k] = binop(init() if callable(init) else init, item)
    return out


def iterate(func, x):
    """x, func(x), func(func(x)), ... forever."""
    while True:
        yield x
        x = func(x)


def sliding_window(n, seq):
    """Every run of n consecutive items, as tuples."""
    window = collections.deque(maxlen=n)
    for item in seq:
        window.append(item)
        if len(window) == n:
            yield tuple(window)


def partition(n, seq, pad=no_pad):
    """seq in tuples of n; a short last tuple is dropped, or filled with pad when one is given."""
    chunks = partition_all(n, seq)
    for chunk in chunks:
        if len(chunk) == n:
            yield chunk
        elif pad != no_pad:
            yield chunk + (pad,) * (n - len(chunk))


def partition_all(n, seq):
    """seq in tuples of n, the last one possibly shorter."""
    items = iter(seq)
    while True:
        chunk = tuple(itertools.islice(items, n))
        if not chunk:
            return
        yield chunk


def count(seq):
    """How many items seq has (consuming an iterator)."""
    if hasattr(seq, '__len__'):
        return len(seq)
    return sum(1 for _ in seq)


def pluck(ind, seqs, default=no_default):
    """get(ind, s, default) for each s of seqs, lazily."""
    return (get(ind, s, default) for s in seqs)


def join(leftkey, leftseq, rightkey, rightseq, left_default=no_default, right_default=no_default):
    """Pairs (left, right) whose keys agree; a default on a side makes it an outer join on the other."""
    leftkey, rightkey = _as_key(leftkey), _as_key(rightkey)
    index = groupby(leftkey, leftseq)
    matched = set()
    for right in rightseq:
        k = rightkey(right)
        if k in index:
            matched.add(k)
            for left in index[k]:
                yield left, right
        elif not _missing(left_default):
            yield left_default, right
    if not _missing(right_default):
        for k, lefts in index.items():
            if k not in matched:
                for left in lefts:
                    yield left, right_default


def diff(*seqs, **kwargs):
    """Tuples of the items at each position where the sequences differ."""
    if len(seqs) == 1:
        seqs = tuple(seqs[0])
    if len(seqs) < 2:
        raise TypeError('diff needs at least two sequences')
    default = kwargs.get('default', no_default)
    key = kwargs.get('key')
    rows = zip(*seqs) if _missing(default) else itertools.zip_longest(*seqs, fillvalue=default)
    for row in rows:
        values = row if key is None else tuple(map(key, row))
        if any(v != values[0] for v in values[1:]):
            yield row


def topk(k, seq, key=None):
    """The k largest items, largest first (ties keep their order)."""
    if key is not None and not callable(key):
        key = getter(key)
    return tuple(heapq.nlargest(k, seq, key=key))


def peek(seq):
    """(first item, an iterator over all of seq)."""
    items = iter(seq)
    head = next(items)
    return head, itertools.chain((head,), items)


def peekn(n, seq):
    """(the first n items, an iterator over all of seq)."""
    items = iter(seq)
    head = tuple(itertools.islice(items, n))
    return head, itertools.chain(head, items)


def random_sample(prob, seq, random_state=None):
    """Each item of seq kept with probability prob; random_state seeds the draws (or is a Random)."""
    if not hasattr(random_state, 'random'):
        random_state = Random(random_state)
    return (item for item in seq if random_state.random() < prob)

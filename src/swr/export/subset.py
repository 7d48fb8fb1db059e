"""`swr subset`: a held-out evaluation subset of a release, stratified like the SWR paper's SWR100 (every
domain in proportion, families taken in turn), and the task-id files that `swr run -i @FILE` and
`swr export sft --exclude` read."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

from swr.core.errors import SwrError
from swr.core.release_dir import list_tasks
from swr.kinds import sibling_group
from swr.kinds.taskfile import read_task_file


def read_ids(path: Path, field: str) -> list[str]:
    """Task ids, one a line (blank lines and `#` comments skipped), in order, without repeats."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise SwrError(
            f"cannot read the task-id file: {getattr(e, 'strerror', None) or e}", file=path, field=field
        ) from None
    ids = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return list(dict.fromkeys(i for i in ids if i))


def expand_at(values: list[str] | tuple[str, ...], field: str) -> list[str]:
    """Command-line ids or globs, each `@FILE` replaced by the ids that file lists."""
    out: list[str] = []
    for v in values:
        out += read_ids(Path(v[1:]), field) if v.startswith("@") else [v]
    return out


def allocate(sizes: dict[str, int], total: int, rng: random.Random) -> dict[str, int]:
    """Largest-remainder shares of `total` in proportion to `sizes` (ties broken in a seeded order)."""
    whole = sum(sizes.values())
    exact = {k: total * n / whole for k, n in sizes.items()}
    share = {k: int(x) for k, x in exact.items()}
    order = sorted(sizes)
    rng.shuffle(order)
    order.sort(key=lambda k: -(exact[k] - share[k]))  # stable: the shuffle breaks ties
    for k in order[: total - sum(share.values())]:
        share[k] += 1
    return share


def round_robin(groups: dict[str, list[str]], n: int, rng: random.Random) -> list[str]:
    """n items taken one from each group in turn (groups and the items within each in seeded orders)."""
    shuffled = {}
    for name in sorted(groups):
        shuffled[name] = sorted(groups[name])
        rng.shuffle(shuffled[name])
    return round_robin_ordered(shuffled, n, rng)


def subset(release: Path, size: int, seed: int = 0) -> list[str]:
    """`size` task ids of the release: per domain, a largest-remainder share; within a domain, families in
    turn, and within a family one variant of each workflow before a second of any (all seeded)."""
    tree: dict[str, dict[str, dict[str, list[str]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for root in list_tasks(release):
        meta = read_task_file(root)
        tree[meta.domain][meta.family][sibling_group(root)].append(meta.id)
    total = sum(len(ids) for fams in tree.values() for groups in fams.values() for ids in groups.values())
    if not 1 <= size <= total:
        raise SwrError(f"the release has {total} tasks: a subset of 1 to {total}, not {size}", field="--size")
    rng = random.Random(f"swr-subset:{seed}")
    counts = {d: sum(len(ids) for g in fams.values() for ids in g.values()) for d, fams in tree.items()}
    chosen: list[str] = []
    for domain, quota in sorted(allocate(counts, size, rng).items()):
        per_family = {
            fam: round_robin(groups, sum(map(len, groups.values())), rng) for fam, groups in tree[domain].items()
        }
        chosen += round_robin_ordered(per_family, quota, rng)
    return sorted(chosen)


def round_robin_ordered(queues: dict[str, list[str]], n: int, rng: random.Random) -> list[str]:
    """n items taken one from each queue in turn, keeping each queue's own order (queues in a seeded order)."""
    order = [list(queues[k]) for k in sorted(queues)]
    rng.shuffle(order)
    out: list[str] = []
    while len(out) < n and any(order):
        for q in order:
            if q and len(out) < n:
                out.append(q.pop(0))
    return out

"""What an exported Harbor task's tests/test.sh runs: swr's judge on the hidden cases with the `none` backend
(the verifier's fresh container is the boundary; each candidate execution runs as an unprivileged user who
cannot read the root-only task), then reward.json with named components (docs/harbor.md).
`python -m swr.export.harbor_judge TASK SOLUTION LOGS`; exit 0 whatever the verdict, 2 on a broken task."""

from __future__ import annotations

import json
import os
import pwd
import sys
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from swr.core.layout import HARBOR_REWARD, HARBOR_VERDICT
from swr.kinds.verdict import Verdict
from swr.sandbox.base import Handle, Job
from swr.sandbox.local import LocalSandbox


class Reward(BaseModel):
    """reward.json: Harbor reads every key as a metric; `reward` is swr's pass (1) or fail (0)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    execution: float = Field(ge=0, le=1)  # share of hidden cases the candidate ran to completion on
    schema_: float = Field(ge=0, le=1, alias="schema")  # ... and whose output had the reference's shape
    semantic: float = Field(ge=0, le=1)  # share of hidden cases graded correct (r_hid, or the k/N score)
    anti_shortcut: float = Field(ge=0, le=1)  # 1 unless an anti-shortcut or anti-cheat check fired
    reward: float = Field(ge=0, le=1)

    def dumps(self) -> str:
        return json.dumps(self.model_dump(by_alias=True), indent=2, sort_keys=True) + "\n"


def reward_of(v: Verdict) -> Reward:
    """The components of one verdict, as its kind computes them (the mapping docs/harbor.md tabulates)."""
    from swr.core.errors import SwrError
    from swr.kinds import registry

    kind = registry.get(v.kind)
    if kind is None:
        raise SwrError(f"a verdict of unknown kind {v.kind!r}", field="kind")
    return Reward(**kind.harbor_reward(v))


class JudgeSandbox:
    """The task's own programs (an engine's verifier: a work dir inside the task) run as root on swr's Python;
    every other job runs the candidate's code: as `run_as`, with `path` (the task's Python first)."""

    name = "none"

    def __init__(self, task_dir: Path, run_as: tuple[int, int] | None, path: str | None):
        self.task_dir = task_dir.resolve()
        self.own, self.candidate = LocalSandbox(), LocalSandbox(run_as=run_as, path=path)

    def spawn(self, job: Job) -> Handle:
        own = Path(job.workdir.src).resolve().is_relative_to(self.task_dir)
        return (self.own if own else self.candidate).spawn(job)


def candidate_user(spec: str) -> tuple[int, int]:
    """SWR_HARBOR_USER: a user name, "uid" or "uid:gid" → (uid, gid)."""
    from swr.core.errors import SwrError

    try:
        if spec.replace(":", "").isdigit():
            uid, _, gid = spec.partition(":")
            return int(uid), int(gid or uid)
        pw = pwd.getpwnam(spec)
        return pw.pw_uid, pw.pw_gid
    except (KeyError, ValueError):
        raise SwrError(f"no such user {spec!r}", field="SWR_HARBOR_USER") from None


def _seal(task_dir: Path) -> None:
    """As root, the task's directories become root's alone (test.sh seals all of /tests first)."""
    if os.geteuid() == 0:
        for d in (task_dir, *(p for p in task_dir.rglob("*") if p.is_dir() and not p.is_symlink())):
            os.chmod(d, 0o700)


def judge(task_dir: Path, solution: Path, logs: Path) -> Reward:
    """Grade solution on the task's hidden cases; write the verdict and the reward into logs."""
    from swr import kinds
    from swr.kinds.verdict import dump_verdict

    task = kinds.load(task_dir)
    _seal(task_dir)
    user = os.environ.get("SWR_HARBOR_USER")
    sandbox = JudgeSandbox(
        task_dir, candidate_user(user) if user else None, os.environ.get("SWR_HARBOR_TASK_PATH") or None
    )
    verdict = task.grade(solution, sandbox, split="all", jobs=1)
    (logs / HARBOR_VERDICT).write_text(dump_verdict(verdict, indent=2) + "\n")
    reward = reward_of(verdict)
    (logs / HARBOR_REWARD).write_text(reward.dumps())
    return reward


def main(argv: list[str]) -> int:
    from swr.core.errors import SwrError

    if len(argv) != 3:
        print("usage: python -m swr.export.harbor_judge TASK SOLUTION LOGS", file=sys.stderr)
        return 2
    try:
        reward = judge(*(Path(a) for a in argv))
    except SwrError as e:
        print(f"swr: {e}", file=sys.stderr)
        return 2
    print(reward.dumps(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

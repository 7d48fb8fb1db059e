"""The results store: SQLite in WAL mode; jobs, and each job's runs keyed by a content hash of what they are."""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.layout import results_db

# Each job owns its records: a run's key (a content hash of what it is) is unique within its job only, so a
# second job with the same settings plans the same keys and still keeps records of its own.
RUNS = """
CREATE TABLE IF NOT EXISTS {name} (
  key TEXT NOT NULL, job TEXT NOT NULL REFERENCES jobs(name), task TEXT NOT NULL, task_hash TEXT NOT NULL,
  family TEXT, domain TEXT, agent TEXT NOT NULL, model TEXT, attempt INTEGER NOT NULL,
  status TEXT NOT NULL,              -- done | infra_failure
  passed INTEGER, label TEXT, labels TEXT, verdict TEXT, turns INTEGER, input_tokens INTEGER,
  output_tokens INTEGER, cost REAL, wall_s REAL, cheats TEXT, error TEXT, tries INTEGER NOT NULL DEFAULT 1,
  finished REAL NOT NULL, public_hash TEXT, PRIMARY KEY (job, key));
"""
REGRADES = """
CREATE TABLE IF NOT EXISTS {name} (    -- a recorded run re-scored by a later release's verifiers
  key TEXT NOT NULL, release TEXT NOT NULL, job TEXT NOT NULL, release_path TEXT NOT NULL,
  status TEXT NOT NULL,              -- regraded | needs_rerun | missing_task
  passed INTEGER, label TEXT, labels TEXT, verdict TEXT, reason TEXT, public_hash TEXT, finished REAL NOT NULL,
  PRIMARY KEY (job, key, release), FOREIGN KEY (job, key) REFERENCES runs(job, key));
"""
SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
  name TEXT PRIMARY KEY, config TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
""" + RUNS.format(name="runs") + "CREATE INDEX IF NOT EXISTS runs_job ON runs(job);\n" \
    + REGRADES.format(name="regrades")
MIGRATIONS = (("runs", "public_hash", "TEXT"),)  # columns added since the first schema: (table, column, type)


@dataclass
class RunRecord:
    key: str
    job: str
    task: str
    task_hash: str
    agent: str
    model: str | None
    attempt: int
    status: str
    family: str = ""
    domain: str = ""
    passed: bool | None = None
    label: str | None = None
    labels: list[str] = field(default_factory=list)
    verdict: dict[str, Any] | None = None
    turns: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    wall_s: float = 0.0
    cheats: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    tries: int = 1
    public_hash: str | None = None  # swr.harness.fingerprint.public_hash of the task the run used (None: not recorded)


@dataclass
class RegradeRecord:
    """A run's final solution re-scored with a later release's verifiers; the run's own record is kept."""

    key: str
    release: str  # the fixed release's content hash
    job: str
    release_path: str
    status: str  # regraded | needs_rerun | missing_task
    passed: bool | None = None
    label: str | None = None
    labels: list[str] = field(default_factory=list)
    verdict: dict[str, Any] | None = None
    reason: str = ""
    public_hash: str | None = None  # the fixed release's task's


class Store:
    """One database per jobs directory; safe to share between threads of one process."""

    def __init__(self, root: Path, create: bool = True):
        """`create` False: a reader (results, report, export, regrade), for which a missing store is a
        one-line error and nothing is made on disk (not the jobs directory, not an empty database)."""
        db = results_db(root)
        if not create and not db.is_file():
            raise SwrError("no results store here (no job has run with this --jobs-dir)", file=db)
        if create:
            if root.exists() and not root.is_dir():
                raise SwrError("is a file, not a directory for the results store", file=root, field="--jobs-dir")
            private(root, own=root.is_dir() and db.exists())
        self.path = db
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Add the columns a database made by an older swr lacks (another process may race us to it), then
        key its runs and regrades by job as well."""
        for table, column, kind in MIGRATIONS:
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                try:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                except sqlite3.OperationalError as e:
                    if "duplicate column" not in str(e):
                        raise
        if not _keyed_by_job(self.db):
            self._rekey()

    def _rekey(self) -> None:
        """An older store keyed runs by their key alone (a second job with the same settings took the first
        one's records over): rebuild both tables keyed by (job, key), keeping every row, in one transaction."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                if not _keyed_by_job(self.db):  # another process may have done it meanwhile
                    for table, ddl, cols in (("runs", RUNS, COLUMNS), ("regrades", REGRADES, REGRADE_COLUMNS)):
                        self.db.execute(ddl.format(name=f"{table}_rekeyed"))
                        self.db.execute(f"INSERT INTO {table}_rekeyed ({cols}) SELECT {cols} FROM {table}")
                        self.db.execute(f"DROP TABLE {table}")
                        self.db.execute(f"ALTER TABLE {table}_rekeyed RENAME TO {table}")
                    self.db.execute("CREATE INDEX IF NOT EXISTS runs_job ON runs(job)")
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def put_job(self, name: str, config: dict[str, Any]) -> None:
        now = time.time()
        with self.lock:
            self.db.execute("INSERT INTO jobs VALUES (?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET config=excluded.config,"
                            " updated=excluded.updated", (name, json.dumps(config, sort_keys=True), now, now))

    def job(self, name: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT config FROM jobs WHERE name = ?", (name,)).fetchone()
        return json.loads(row[0]) if row else None

    def finished(self, job: str) -> dict[str, RunRecord]:
        """Runs that need no rerun: done (pass or model failure). Infrastructure failures run again."""
        return {r.key: r for r in self.runs(job) if r.status == "done"}

    def put_run(self, r: RunRecord) -> None:
        """Insert or replace one run atomically; a retried infrastructure failure keeps its try count."""
        row = (r.key, r.job, r.task, r.task_hash, r.family, r.domain, r.agent, r.model, r.attempt, r.status,
               None if r.passed is None else int(r.passed), r.label, json.dumps(r.labels),
               json.dumps(r.verdict, allow_nan=False) if r.verdict is not None else None, r.turns, r.input_tokens,
               r.output_tokens, r.cost, r.wall_s, json.dumps(r.cheats), r.error, r.tries, time.time(), r.public_hash)
        with self.lock:
            self.db.execute(f"INSERT OR REPLACE INTO runs ({COLUMNS}) VALUES ({', '.join('?' * len(row))})", row)

    def runs(self, job: str) -> list[RunRecord]:
        cur = self.db.execute(f"SELECT {COLUMNS} FROM runs WHERE job = ? ORDER BY task, agent, attempt", (job,))
        return [_record(row) for row in cur.fetchall()]

    def put_regrade(self, g: RegradeRecord) -> None:
        """Insert or replace the regrade of one run against one release (the run's row is untouched)."""
        row = (g.key, g.release, g.job, g.release_path, g.status, None if g.passed is None else int(g.passed),
               g.label, json.dumps(g.labels), json.dumps(g.verdict, allow_nan=False) if g.verdict is not None else None,
               g.reason, g.public_hash, time.time())
        with self.lock:
            self.db.execute(f"INSERT OR REPLACE INTO regrades ({REGRADE_COLUMNS}) VALUES ({', '.join('?' * len(row))})",
                            row)

    def regrades(self, job: str, release: str | None = None) -> list[RegradeRecord]:
        """A job's regrades (against one release's content hash, or all), in run order."""
        cur = self.db.execute(f"SELECT {REGRADE_COLUMNS} FROM regrades WHERE job = ? AND (? IS NULL OR release = ?)"
                              " ORDER BY key, release", (job, release, release))
        return [RegradeRecord(k, rel, j, path, st, None if p is None else bool(p), lab, json.loads(labs or "[]"),
                              json.loads(v) if v else None, reason or "", ph)
                for k, rel, j, path, st, p, lab, labs, v, reason, ph, _ in cur.fetchall()]

    def close(self) -> None:
        self.db.close()


COLUMNS = ("key, job, task, task_hash, family, domain, agent, model, attempt, status, passed, label, labels, "
           "verdict, turns, input_tokens, output_tokens, cost, wall_s, cheats, error, tries, finished, public_hash")
REGRADE_COLUMNS = ("key, release, job, release_path, status, passed, label, labels, verdict, reason, public_hash, "
                   "finished")


def _keyed_by_job(db: sqlite3.Connection) -> bool:
    """Whether the runs table's primary key holds the job (the schema since each job owns its records)."""
    return any(row[1] == "job" and row[5] for row in db.execute("PRAGMA table_info(runs)"))


def private(d: Path, own: bool = True) -> None:
    """A directory of records only its owner may enter (it keeps what agents made). One that existed
    before is made private only if swr owns it (`own`), never a user's /tmp or home."""
    if not d.is_dir():
        d.mkdir(mode=0o700, parents=True)
        own = True
    if own:
        os.chmod(d, 0o700)


def _record(row: tuple[Any, ...]) -> RunRecord:
    (key, job, task, task_hash, family, domain, agent, model, attempt, status, passed, label, labels, verdict,
     turns, tin, tout, cost, wall, cheats, error, tries, _, public_hash) = row
    return RunRecord(key, job, task, task_hash, agent, model, attempt, status, family or "", domain or "",
                     None if passed is None else bool(passed), label, json.loads(labels or "[]"),
                     json.loads(verdict) if verdict else None, turns or 0, tin or 0, tout or 0, cost or 0.0,
                     wall or 0.0, json.loads(cheats or "[]"), error, tries, public_hash)

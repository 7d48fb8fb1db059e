"""The results store: SQLite in WAL mode; jobs, and each job's runs keyed by a content hash of what they are."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import MISSING, Field, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from swr.core.errors import SwrError
from swr.core.layout import results_db
from swr.kinds.verdict import Verdict, dump_verdict, parse_verdict

if TYPE_CHECKING:
    from collections.abc import Callable

# Each job owns its records: a run's key (a content hash of what it is) is unique within its job only, so a
# second job with the same settings plans the same keys and still keeps records of its own. A table's columns
# are its record's fields, in order, each with its SQL type and how it is stored (`column`): CREATE TABLE,
# INSERT, SELECT and reading a row back all come from that one declaration.
_CODEC = "codec"


def column(sql: str, codec: str = "plain", **kw: Any) -> Any:
    """A record field that is a column: its SQL declaration and how its value is stored (plain; bool as an
    integer; json text; a verdict as dump_verdict's text). A NULL reads back as the field's default."""
    return field(metadata={"sql": sql, _CODEC: codec}, **kw)


@dataclass(kw_only=True)
class RunRecord:
    key: str = column("TEXT NOT NULL")
    job: str = column("TEXT NOT NULL REFERENCES jobs(name)")
    task: str = column("TEXT NOT NULL")
    task_hash: str = column("TEXT NOT NULL")
    family: str = column("TEXT", default="")
    domain: str = column("TEXT", default="")
    agent: str = column("TEXT NOT NULL")
    model: str | None = column("TEXT")
    attempt: int = column("INTEGER NOT NULL")
    status: str = column("TEXT NOT NULL")  # done | infra_failure
    passed: bool | None = column("INTEGER", "bool", default=None)
    label: str | None = column("TEXT", default=None)
    labels: list[str] = column("TEXT", "json", default_factory=list)
    verdict: Verdict | None = column("TEXT", "verdict", default=None)
    turns: int = column("INTEGER", default=0)
    input_tokens: int = column("INTEGER", default=0)
    output_tokens: int = column("INTEGER", default=0)
    cost: float = column("REAL", default=0.0)
    wall_s: float = column("REAL", default=0.0)
    cheats: list[dict[str, Any]] = column("TEXT", "json", default_factory=list)
    error: str | None = column("TEXT", default=None)
    tries: int = column("INTEGER NOT NULL DEFAULT 1", default=1)
    finished: float | None = column("REAL NOT NULL", "now", default=None)  # when the store recorded it
    # swr.harness.fingerprint.public_hash of the task the run used (None: not recorded)
    public_hash: str | None = column("TEXT", default=None)


@dataclass(kw_only=True)
class RegradeRecord:
    """A run's final solution re-scored with a later release's verifiers; the run's own record is kept."""

    key: str = column("TEXT NOT NULL")
    release: str = column("TEXT NOT NULL")  # the fixed release's content hash
    job: str = column("TEXT NOT NULL")
    release_path: str = column("TEXT NOT NULL")
    status: str = column("TEXT NOT NULL")  # regraded | needs_rerun | missing_task
    passed: bool | None = column("INTEGER", "bool", default=None)
    label: str | None = column("TEXT", default=None)
    labels: list[str] = column("TEXT", "json", default_factory=list)
    verdict: Verdict | None = column("TEXT", "verdict", default=None)
    reason: str = column("TEXT", default="")
    public_hash: str | None = column("TEXT", default=None)  # the fixed release's task's
    finished: float | None = column("REAL NOT NULL", "now", default=None)


@dataclass(frozen=True)
class Table:
    """A table of records: its record type and the constraints beyond its columns."""

    record: type[Any]
    constraints: str

    def ddl(self, name: str) -> str:
        cols = ",\n  ".join(f"{f.name} {f.metadata['sql']}" for f in fields(self.record))
        return f"CREATE TABLE IF NOT EXISTS {name} (\n  {cols},\n  {self.constraints});\n"

    @property
    def columns(self) -> str:
        return ", ".join(f.name for f in fields(self.record))

    def row(self, r: Any) -> tuple[Any, ...]:
        return tuple(_encode(f, getattr(r, f.name)) for f in fields(self.record))

    def record_of(self, row: tuple[Any, ...]) -> Any:
        return self.record(**{f.name: _decode(f, v) for f, v in zip(fields(self.record), row)})


RUNS = Table(RunRecord, "PRIMARY KEY (job, key)")
REGRADES = Table(RegradeRecord, "PRIMARY KEY (job, key, release), FOREIGN KEY (job, key) REFERENCES runs(job, key)")
SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS jobs (
  name TEXT PRIMARY KEY, config TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
"""
    + RUNS.ddl("runs")
    + "CREATE INDEX IF NOT EXISTS runs_job ON runs(job);\n"
    + REGRADES.ddl("regrades")
)
MIGRATIONS = (("runs", RUNS, "public_hash"),)  # columns added since the first schema: (table, its records, column)


def _encode(f: Field[Any], value: Any) -> Any:
    codec = f.metadata[_CODEC]
    if codec == "now":
        return time.time()
    if value is None or codec == "plain":
        return value
    if codec == "bool":
        return int(value)
    if codec == "verdict":
        return dump_verdict(value)
    return json.dumps(value)


def _decode(f: Field[Any], value: Any) -> Any:
    if value is None:
        return (
            f.default_factory() if f.default_factory is not MISSING else (None if f.default is MISSING else f.default)
        )
    codec = f.metadata[_CODEC]
    if codec == "bool":
        return bool(value)
    if codec == "json":
        return json.loads(value) if value else cast("Callable[[], Any]", f.default_factory)()  # json columns have one
    if codec == "verdict":
        return parse_verdict(json.loads(value)) if value else None
    return value


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
        for table, records, column in MIGRATIONS:
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                kind = next(f.metadata["sql"] for f in fields(records.record) if f.name == column)
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
                    for table, records in (("runs", RUNS), ("regrades", REGRADES)):
                        cols = records.columns
                        self.db.execute(records.ddl(f"{table}_rekeyed"))
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
            self.db.execute(
                "INSERT INTO jobs VALUES (?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET config=excluded.config,"
                " updated=excluded.updated",
                (name, json.dumps(config, sort_keys=True), now, now),
            )

    def job(self, name: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT config FROM jobs WHERE name = ?", (name,)).fetchone()
        return json.loads(row[0]) if row else None

    def finished(self, job: str) -> dict[str, RunRecord]:
        """Runs that need no rerun: done (pass or model failure). Infrastructure failures run again."""
        return {r.key: r for r in self.runs(job) if r.status == "done"}

    def put_run(self, r: RunRecord) -> None:
        """Insert or replace one run atomically; a retried infrastructure failure keeps its try count."""
        row = RUNS.row(r)
        with self.lock:
            self.db.execute(f"INSERT OR REPLACE INTO runs ({RUNS.columns}) VALUES ({', '.join('?' * len(row))})", row)

    def runs(self, job: str) -> list[RunRecord]:
        cur = self.db.execute(f"SELECT {RUNS.columns} FROM runs WHERE job = ? ORDER BY task, agent, attempt", (job,))
        return [RUNS.record_of(row) for row in cur.fetchall()]

    def put_regrade(self, g: RegradeRecord) -> None:
        """Insert or replace the regrade of one run against one release (the run's row is untouched)."""
        row = REGRADES.row(g)
        with self.lock:
            self.db.execute(
                f"INSERT OR REPLACE INTO regrades ({REGRADES.columns}) VALUES ({', '.join('?' * len(row))})", row
            )

    def regrades(self, job: str, release: str | None = None) -> list[RegradeRecord]:
        """A job's regrades (against one release's content hash, or all), in run order."""
        cur = self.db.execute(
            f"SELECT {REGRADES.columns} FROM regrades WHERE job = ? AND (? IS NULL OR release = ?)"
            " ORDER BY key, release",
            (job, release, release),
        )
        return [REGRADES.record_of(row) for row in cur.fetchall()]

    def close(self) -> None:
        self.db.close()


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

"""Where every file lives: source folders, releases, tasks, workspaces, jobs and runs. The one module that
knows the on-disk layout; every other module asks it for a path instead of joining names itself."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Source folders: catalog/<domain>/<family>/<workflow>/ and engines/<engine>/.
WORKFLOW_TOML = "workflow.toml"
ENGINE_TOML = "engine.toml"
SPEC_MD = "spec.md"  # an engine's specification, the only description its agent gets
VERIFIER = "verifier"  # an engine's hidden verifier: everything it runs or reads
VERIFY = "verify.py"  # in VERIFIER: one case's output in, one record per check out
EXPECT = "expect.py"  # in VERIFIER, optional: a case's expected values from the real reference tool
GENERATE = "generate.py"  # in VERIFIER, optional: hidden cases from a seed
REFERENCE = "reference"  # an engine's passing solution (a workflow's reference is the workflow itself)
CHEATS = "cheat"
MUTANTS = "mutants"  # an engine's rule mutants: mutants/<rule>.patch, a unified diff of reference/
ENGINE_PUBLIC, ENGINE_HIDDEN, SELFTESTS = "cases/public", "cases/hidden", "selftests"  # case files, by role
DEFECTS_TOML = "defects.toml"  # a catalog's or engines/' register of known verifier defects
DEMO_TOML = "demo.toml"  # a catalog's default demo slice: the workflows `swr demo` builds without --full
# revivals/<name>/ (docs/revival.md): the spec, a local project, probe scripts, a dependency-rot/build port.
REVIVAL_TOML = "revival.toml"
REVIVAL_PROJECT = "project"
PROBES = "probes"
PORT_PATCH = "reference/port.patch"

# A release, its tasks, and a task's public and private halves.
RELEASE_JSON = "release.json"
TASKS = "tasks"
TASK_TOML = "task.toml"
INSTRUCTION = "instruction.md"
PUBLIC, PRIVATE = "public", "private"
CANDIDATE_RUN = "run"  # a candidate is a directory with this executable in it


@dataclass(frozen=True)
class TaskPaths:
    """A task directory: task.toml and instruction.md, public/ (what agents see), private/ (what they never do)."""

    root: Path

    @property
    def toml(self) -> Path:
        return self.root / TASK_TOML

    @property
    def instruction(self) -> Path:
        return self.root / INSTRUCTION

    @property
    def public(self) -> Path:
        return self.root / PUBLIC

    @property
    def private(self) -> Path:
        return self.root / PRIVATE

    @property
    def schema(self) -> Path:
        return self.public / "schema.json"

    @property
    def files(self) -> Path:
        """Input files that travel with a workflow task (scenarios name them by relative path)."""
        return self.public / "files"

    @property
    def public_examples(self) -> Path:
        return self.public / "examples"

    @property
    def hidden_examples(self) -> Path:
        return self.private / "hidden"

    @property
    def reference(self) -> Path:
        return self.private / REFERENCE

    @property
    def gates(self) -> Path:
        return self.private / "gates.json"

    @property
    def coverage(self) -> Path:
        """What a workflow's reference executed of its package (swr.kinds.workflow.coverage)."""
        return self.private / "coverage.json"

    # An engine task's own files (engine.toml, spec.md, verifier/, reference/ sit under private/ as in the source).
    @property
    def spec_md(self) -> Path:
        return self.public / SPEC_MD

    @property
    def verifier(self) -> Path:
        return self.private / VERIFIER

    @property
    def build_record(self) -> Path:
        return self.private / "build.json"

    # A revival task's own files (docs/revival.md): the broken project public, the rest private.
    @property
    def project(self) -> Path:
        return self.public / REVIVAL_PROJECT

    @property
    def revival_toml(self) -> Path:
        return self.private / REVIVAL_TOML

    @property
    def probes(self) -> Path:
        return self.private / PROBES

    @property
    def original_tests(self) -> Path:
        """The project's original test files (hidden and public), laid over a candidate at grading."""
        return self.private / "tests"

    @property
    def recorded(self) -> Path:
        """Reference outputs recorded natively: the tests that passed and each probe's JSON."""
        return self.private / "recorded.json"

    @property
    def test_hashes(self) -> Path:
        return self.private / "hashes.json"


def private_markers() -> tuple[str, ...]:
    """Relative paths whose mention in an agent's commands means it looked for the task's private half."""
    at = TaskPaths(Path("."))
    return tuple(p.as_posix() for p in (at.hidden_examples, at.reference)) + (at.gates.name,)


EXAMPLE_FILES = ("scenario.json", "output.json")  # a workflow example's own files; its artifacts sit beside them


def example_files(split_dir: Path, index: int | str) -> tuple[Path, Path, Path]:
    """(directory, scenario.json, output.json) of one workflow example."""
    d = split_dir / str(index)
    return d, d / EXAMPLE_FILES[0], d / EXAMPLE_FILES[1]


def engine_example_files(split_dir: Path, case_id: str) -> tuple[Path, Path, Path]:
    """(directory, input.json, expected.json) of one public engine example."""
    d = split_dir / case_id
    return d, d / "input.json", d / "expected.json"


@dataclass(frozen=True)
class ReleasePaths:
    """A release: release.json (its summary and content hash) and tasks/<id>/; audits write under audit/."""

    root: Path

    @property
    def summary(self) -> Path:
        return self.root / RELEASE_JSON

    @property
    def tasks(self) -> Path:
        return self.root / TASKS

    def task(self, task_id: str) -> TaskPaths:
        return TaskPaths(self.tasks / task_id)

    @property
    def defects(self) -> Path:
        return self.root / "defects.json"

    @property
    def audit(self) -> Path:
        return self.root / "audit"

    def audit_result(self, name: str) -> Path:
        """An audit's saved `--json` result (sensitivity, replay, mutation, …), which `swr report` shows."""
        return self.audit / f"{name}.json"

    @property
    def freeze(self) -> Path:
        """The post-freeze audit's record: the frozen generator's hash and the pilot and held-out sets."""
        return self.audit / "freeze.json"


# An agent's workspace (what a run starts from; the candidate is its solution/).
SOLUTION = "solution"
FEEDBACK = "feedback"
AGENT_LOGS = "agent"


@dataclass(frozen=True)
class WorkspacePaths:
    root: Path

    @property
    def instruction(self) -> Path:
        return self.root / INSTRUCTION

    @property
    def toml(self) -> Path:
        return self.root / TASK_TOML

    @property
    def public(self) -> Path:
        return self.root / PUBLIC

    @property
    def feedback(self) -> Path:
        return self.root / FEEDBACK

    @property
    def solution(self) -> Path:
        return self.root / SOLUTION

    @property
    def logs(self) -> Path:
        """A command agent's own logs: next to the workspace (not in its diff), mounted into its sandbox."""
        return self.root.parent / AGENT_LOGS


PROTECTED = (INSTRUCTION, TASK_TOML, FEEDBACK, PUBLIC)  # workspace entries an agent must not change

# Jobs: <jobs_dir>/swr.db holds every record; <jobs_dir>/<job>/runs/<key>/ what each run left.
DB_FILE = "swr.db"
TRAJECTORY = "trajectory.json"  # a run's ATIF trajectory; also what a command agent may write into its logs


@dataclass(frozen=True)
class RunPaths:
    """One run's directory: the live (capped) area the agent writes during the run, then what is kept."""

    root: Path

    @property
    def live(self) -> Path:
        return self.root / "live"

    @property
    def workspace(self) -> Path:
        return self.live / "workspace"

    @property
    def live_logs(self) -> Path:
        return WorkspacePaths(self.workspace).logs

    @property
    def logs(self) -> Path:
        """The agent's logs as kept after the run."""
        return self.root / AGENT_LOGS

    @property
    def solution(self) -> Path:
        """The final solution, exported out of the workspace when the run ends."""
        return self.root / SOLUTION

    @property
    def trajectory(self) -> Path:
        return self.root / TRAJECTORY

    @property
    def diff(self) -> Path:
        return self.root / "diff.patch"


def results_db(jobs_dir: Path) -> Path:
    """The results store every job of a jobs directory shares."""
    return jobs_dir / DB_FILE


@dataclass(frozen=True)
class JobPaths:
    jobs_dir: Path
    name: str

    @property
    def db(self) -> Path:
        return results_db(self.jobs_dir)

    @property
    def root(self) -> Path:
        return self.jobs_dir / self.name

    def run(self, key: str) -> RunPaths:
        return RunPaths(self.root / "runs" / key)


REPORT_RUNS = "runs"  # `swr report`: index.html, and a page per run under runs/


@dataclass(frozen=True)
class ReportPaths:
    """A static HTML report: index.html and one page per run (named by a hash of its job and key)."""

    root: Path

    @property
    def index(self) -> Path:
        return self.root / "index.html"

    @property
    def runs(self) -> Path:
        return self.root / REPORT_RUNS

    def run_page(self, page: str) -> Path:
        return self.runs / f"{page}.html"

    @staticmethod
    def run_href(page: str) -> str:
        """The link from index.html to a run page (and the run page's own name)."""
        return f"{REPORT_RUNS}/{page}.html"


# `swr export harbor`: one Harbor task directory per task (docs/harbor.md). The container paths a Harbor
# trial uses; tests/test.sh and solution/solve.sh read them from SWR_HARBOR_* variables with these defaults.
HARBOR_WORKDIR = "/app"
HARBOR_SOLUTION = f"{HARBOR_WORKDIR}/{SOLUTION}"
HARBOR_TESTS = "/tests"
HARBOR_VERIFIER_LOGS = "/logs/verifier"
HARBOR_REWARD = "reward.json"
HARBOR_VERDICT = "verdict.json"  # swr's own verdict, next to the reward in the verifier logs


@dataclass(frozen=True)
class HarborTaskPaths:
    """An exported Harbor task: instruction.md, task.toml, environment/ (public), tests/ and solution/ (hidden)."""

    root: Path

    @property
    def instruction(self) -> Path:
        return self.root / INSTRUCTION

    @property
    def toml(self) -> Path:
        return self.root / TASK_TOML

    @property
    def environment(self) -> Path:
        return self.root / "environment"

    @property
    def dockerfile(self) -> Path:
        return self.environment / "Dockerfile"

    @property
    def requirements(self) -> Path:
        """The pinned pip requirements the image installs (the task's own and the judge's runtime)."""
        return self.environment / "requirements.txt"

    @property
    def swr_requirements(self) -> Path:
        """The pinned pip requirements of swr's own venv in the image (the judge's and ./feedback's runtime)."""
        return self.environment / "swr-requirements.txt"

    @property
    def workspace(self) -> Path:
        """What the agent's working directory starts with (copied to HARBOR_WORKDIR)."""
        return self.environment / "workspace"

    @property
    def tests(self) -> Path:
        return self.root / "tests"

    @property
    def test_sh(self) -> Path:
        return self.tests / "test.sh"

    @property
    def task_copy(self) -> Path:
        """The whole swr task (public and private halves) the judge grades against."""
        return self.tests / "task"

    @property
    def solution(self) -> Path:
        return self.root / SOLUTION

    @property
    def solve_sh(self) -> Path:
        return self.solution / "solve.sh"

    @property
    def oracle(self) -> Path:
        return self.solution / "oracle"

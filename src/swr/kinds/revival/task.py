"""A revival task in a release: what its directory holds, what an agent's workspace starts with, and how the
task is loaded for grading. Public: the instruction and the broken project. Private: the spec, the original
tests, the probes, the recorded reference outputs, the reference (module or port) and the public tests'
hashes (docs/revival.md)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from swr.core.cachedir import default_cache_dir
from swr.core.errors import SwrError
from swr.core.jsonfile import dump_json
from swr.core.layout import PORT_PATCH, PROBES, TaskPaths
from swr.core.trees import KEEP_ALL, copy_tree
from swr.kinds.base import BaseTask
from swr.kinds.protocol import AgentBrief, Composition, HarborParts, Split
from swr.kinds.revival import copied, device, envs, originals
from swr.kinds.revival.build_file import read_build_file
from swr.kinds.revival.grading import Verifier, device_skipped, grade_revival, no_public_tests
from swr.kinds.revival.source import apply_patch
from swr.kinds.revival.spec import POST_CUTOFF, Env, RevivalSpec, Verify, load_revival
from swr.kinds.revival.taskfile import RevivalFeedback, RevivalTaskFile
from swr.kinds.revival.verdict import RevivalVerdict
from swr.kinds.taskfile import Anticheat, Environment, dump_task_file
from swr.sandbox import Mount
from swr.sandbox.bwrap import TOP_LEVEL

BUILD_APT = ("gcc", "libc6-dev")  # a `build` task compiles its extension (Harbor's slim image has no compiler)
HARBOR_MEMORY_MB = 4096  # a revival states no per-case memory: Harbor's minimum
MODULE_REF = "module"  # under private/reference/: the deleted files at their project paths
REBUILD_REF = "rebuild"  # under private/reference/: an honest rebuild of them (the revival folder's reference/)
GOALS = {
    "deleted-module": "A core part of this project was deleted: {what}. Rebuild it so that the project works as "
    "it did — its other code, README and documentation say what it must provide.",
    "dependency-rot": "This project no longer runs: the libraries it depends on have moved on. Port it to the "
    "target environment below so that it computes what it computed before.",
    "build": "This project no longer builds with the current toolchain. Make it build and run in the target "
    "environment below: the verifier builds it from source with {build} "
    "in the project (compiled files in `solution/`, extension modules, objects and static libraries, are "
    "deleted first).",
}


@dataclass
class RevivalTask(BaseTask):
    """A revival task as graders and agents see it (a public-only copy has no private/)."""

    id: str
    root: Path
    meta: RevivalTaskFile

    @property
    def paths(self) -> TaskPaths:
        return TaskPaths(self.root)

    @property
    def spec(self) -> RevivalSpec:
        return load_revival(self.paths.private, check_files=False)

    @property
    def project(self) -> Path:
        """The broken project the workspace starts from."""
        return self.paths.project

    @property
    def reference_dir(self) -> Path:
        return self.paths.reference

    @property
    def forbidden_packages(self) -> tuple[str, ...]:
        """task.toml's list and, with the private part at hand, the spec's: an obfuscated task's task.toml
        names none (the names would say which project it is), so the agent's sandbox hides them from here."""
        private = self.spec.anticheat.forbidden_packages if self.paths.revival_toml.is_file() else ()
        return tuple(dict.fromkeys([*self.meta.anticheat.forbidden_packages, *private]))

    @property
    def environment(self) -> dict[str, Any]:
        """Graded on the host's system, in the target venv (mounted read-only)."""
        return {}

    def grade(
        self, candidate: Path, sandbox: Any, *, split: Split = "all", jobs: int = 2, reference: bool = False
    ) -> RevivalVerdict:
        """The verdict (swr.kinds.revival.grading). ./feedback of a task with no public test runs nothing and says
        so (label no_public_tests, pass null), in a workspace copy and a full task alike. `reference`: the
        candidate is the task's reference as swr wrote it (never an agent's), so not a copied_original."""

        if split == "public" and not self.meta.feedback.public:
            return no_public_tests(self.id, candidate, self.target().pins())
        if self.paths.revival_toml.is_file() and (why := device.missing(self.spec)):
            return device_skipped(self.id, why)  # before the target venv is made: nothing here can run it
        return grade_revival(self.verifier(split), self.id, candidate, sandbox, split, reference)

    def verifier(self, split: str = "all") -> Verifier:
        """The private parts grading reads; the target venv is made if this machine lacks it. A workspace
        copy (no private/) has only what ./feedback needs: the public tests, from task.toml."""
        if split == "public" and not self.paths.revival_toml.is_file():
            return self.feedback_verifier()
        spec = self.spec
        venv = envs.ensure(spec.target)
        original = self.reference_dir / MODULE_REF
        built = read_build_file(self.paths.build_record)
        calibrated = built.similarity.threshold if built and built.similarity else None
        return Verifier(
            spec,
            self.paths.original_tests,
            self.paths.probes,
            venv,
            _json(self.paths.recorded),
            _json(self.paths.test_hashes),
            forbidden=self.forbidden_packages,
            copies=self.copies(venv),
            original=original if spec.kind == "deleted-module" and original.is_dir() else None,
            start=self.project,
            copy_threshold=float(calibrated) if isinstance(calibrated, (int, float)) else copied.DEFAULT_THRESHOLD,
        )

    def copies(self, venv: envs.Venv) -> tuple[Path, ...]:
        """Copies of the original deleted module readable in a sandbox that mounts `venv` (vendored, zipped,
        other interpreters', renamed: found by the original's lines, private/original-lines.json): what grading
        and the agent's sandbox cover. None without the private part (a workspace copy knows no original)."""
        lines = originals.read_signature(self.paths.private)
        found = _copies(sandbox_roots(venv), lines) if lines else ()
        given = self.spec.anticheat.forbidden_paths if self.paths.revival_toml.is_file() else ()
        return found + tuple(Path(p) for p in given)  # `forbidden_paths`: the native side's built library

    def target(self) -> Env:
        """The target environment as task.toml records it (the same venv key as the spec's)."""
        t = self.meta.target
        return Env(python=t.python or "", pip=t.pip, apt=t.apt, build=self.meta.feedback.build)

    def agent_sandbox(self) -> tuple[tuple[Mount, ...], dict[str, str]]:
        """The target venv and its interpreter, read-only at their host paths, and where swr finds them:
        what ./feedback needs inside an agent's sandbox."""
        return envs.ensure(self.target()).mounts(), envs.locator()

    def agent_copies(self) -> tuple[Path, ...]:
        """What the agent's sandbox covers beyond the forbidden packages: the original's copies (see copies)."""
        return self.copies(envs.ensure(self.target())) if self.paths.private.is_dir() else ()

    # The rest of the KindTask protocol (swr.kinds.protocol): what every command asks of a task.

    def write_oracle(self, dest: Path) -> None:
        """The broken project with the reference applied (see write_oracle)."""
        write_oracle(self, dest)

    def nop_candidate(self, empty: Path) -> Path:
        """The broken project, untouched: what solution/ starts as."""
        return self.project

    def agent_brief(self) -> AgentBrief:
        """Repair the project in place; what ./feedback can say depends on its public tests."""
        return revival_brief(self)

    def case_counts(self) -> tuple[int, int]:
        """(public tests, hidden test files); 0 hidden in a public-only copy, which has no spec."""
        hidden = len(self.spec.verify.hidden) if self.paths.revival_toml.is_file() else 0
        return len(self.meta.feedback.public), hidden

    def build_gates(self) -> dict[str, Any]:
        """None: a revival's build record holds its checks (private/build.json), not release gates."""
        return {}

    def scanned_forbidden(self) -> tuple[str, ...]:
        """None: the project imports its own package by name; its published copy is kept out of the
        environments instead."""
        return ()

    def cohort(self, by: str, cutoff: dt.date | None) -> str:
        """Plain or obfuscated; released before or on/after the cutoff (its upstream release date); for the
        contamination table, original, obfuscated, or post-cutoff (its project created on or after POST_CUTOFF:
        the paper's third control, a project no model trained before it can have read)."""
        if by == "obfuscated":
            return "obfuscated" if self.meta.obfuscated else "plain"
        if by == "contamination":
            if self.meta.obfuscated:
                return "obfuscated"
            created = self.meta.created
            return "post-cutoff" if created is not None and created >= POST_CUTOFF else "original"
        if cutoff is None:
            raise SwrError("a release-date cohort needs a cutoff date", field="--cutoff")
        return f"released < {cutoff}" if self.meta.released < cutoff else f"released >= {cutoff}"

    def contamination(self) -> dict[str, Any] | None:
        """An obfuscated variant's similarity to its original as its build recorded it (build.json's
        identifiability: the variant's module against the plain original, normalised line ratio and coverage,
        plain and with canonical identifiers); None for any other task or one built before it was recorded."""
        built = read_build_file(self.paths.build_record) if self.meta.obfuscated else None
        if built is None or built.identifiability is None:
            return None
        sim = built.identifiability.similarity_to_original
        return {
            "original": built.obfuscated_from,
            "ratio": sim.ratio,
            "ratio_canonical": sim.ratio_canonical,
            "coverage": sim.coverage,
            "coverage_canonical": sim.coverage_canonical,
        }

    def sibling_group(self) -> str:
        """Its id; an obfuscated twin's is its original's, so a held-out split keeps the pair together."""
        source = self.meta.source
        if self.meta.obfuscated and (built := read_build_file(self.paths.build_record)):
            source = built.obfuscated_from or source
        return f"{self.meta.kind}:{source}"

    def start_workspace(self, public: Path, solution: Path) -> None:
        """The broken project as solution/ (the workspace's one root commit holds it); no public/."""
        copy_tree(self.project, solution, ignore=KEEP_ALL, symlinks=True)

    def attained(self, oracle: Any) -> dict[str, Any]:
        """Its probes' tolerances are attained when the oracle passes them."""
        return {"score": oracle.score, "thresholds": [], "thresholds_met": True}

    def composition(self) -> Composition:
        """No declared parameters and no output document: a revival is graded by its project's tests."""
        return Composition((), None)

    def copy_checked(self) -> bool:
        """A deleted module's rebuild is measured against the original (copied_original)."""
        return self.meta.revival == "deleted-module"

    def harbor_parts(self) -> HarborParts:
        """The target Python; a C compiler for a `build` task; exact judge pins without the original; the
        project as solution/; the suite as one case, plus its build and three test runs."""
        fb = self.meta.feedback
        return HarborParts(
            python=self.meta.target.python,
            apt=tuple(
                sorted(
                    {
                        *self.meta.environment.apt,
                        *(a.partition("=")[0] for a in self.meta.target.apt),
                        *(BUILD_APT if self.meta.revival == "build" else ()),
                    }
                )
            ),
            agent_pip=self.meta.environment.pip,
            agent_libs=(),
            judge_extras=(),
            judge_exact=True,
            project=self.project,
            memory_mb=HARBOR_MEMORY_MB,
            case_s=fb.timeout_s,
            hidden_cases=1,
            verify_extra_s=3 * fb.timeout_s,
            summary=self.meta.summary,
        )

    def feedback_verifier(self) -> Verifier:
        """What ./feedback runs in an agent's workspace, from task.toml alone: the public tests, no recorded
        outcome (every public test that runs must pass). The build holds the reference to it too."""
        fb = self.meta.feedback
        if not fb.public:
            raise SwrError("no public tests for ./feedback (field `feedback.public`)", file=self.paths.toml)
        files = tuple(dict.fromkeys(p.split("::")[0] for p in fb.public))
        spec = RevivalSpec(
            name=self.id,
            kind=self.meta.revival,
            domain=self.meta.domain,
            summary=self.meta.summary,
            source="local",
            released=self.meta.released,
            native=self.target(),
            target=self.target(),
            verify=Verify(
                hidden=files,
                public=fb.public,
                pythonpath=fb.pythonpath,
                classpath=fb.classpath or (),
                timeout_s=fb.timeout_s,
            ),
            directory=self.root,
        )
        return Verifier(spec, self.paths.original_tests, self.paths.probes, envs.ensure(spec.target))


@lru_cache(maxsize=16)
def _copies(roots: tuple[Path, ...], lines: tuple[str, ...]) -> tuple[Path, ...]:
    """Once per process (like hide.py's covers); across processes, the scan's result is kept in swr's cache."""
    return originals.copies(roots, lines, default_cache_dir() / "originals")


def sandbox_roots(venv: envs.Venv) -> tuple[Path, ...]:
    """Every host directory a revival sandbox (the agent's, grading's) mounts but its workspace: the system's
    /usr and top-level directories, swr's Python roots (./feedback) and the target venv with its interpreter."""
    from swr.sandbox.base import python_roots

    tops = [Path("/") / n for n in TOP_LEVEL if (Path("/") / n).is_dir() and not (Path("/") / n).is_symlink()]
    return tuple(dict.fromkeys([Path("/usr"), *tops, *python_roots(), venv.root, venv.prefix]))


def _json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.is_file() else {}


def public_meta(spec: RevivalSpec, obfuscated: bool = False) -> RevivalTaskFile:
    """task.toml. An obfuscated task's lists no forbidden package: they are the original's names, kept in
    private/revival.toml (RevivalTask.forbidden_packages reads them there)."""
    forbidden = () if obfuscated else spec.anticheat.forbidden_packages
    return RevivalTaskFile(
        kind="revival",
        id=spec.name,
        revival=spec.kind,
        family=spec.family,
        domain=spec.domain,
        summary=spec.summary,
        released=spec.released,
        created=spec.created,
        obfuscated=obfuscated,
        target=Environment(python=spec.target.python, pip=spec.target.pip, apt=spec.target.apt),
        anticheat=Anticheat(forbidden_packages=forbidden),
        feedback=RevivalFeedback(
            public=spec.verify.public,
            pythonpath=spec.verify.pythonpath,
            timeout_s=spec.verify.timeout_s,
            build=spec.target.build,
            classpath=spec.verify.classpath or None,
        ),
    )


def _steps(spec: RevivalSpec) -> str:
    return ", then ".join(f"`{step}`" for step in spec.target.build) or "its own setup"


def instruction(spec: RevivalSpec, what: str, python: str, obfuscated: bool = False) -> str:
    pins = "\n".join(f"- `{p}`" for p in spec.target.pip) or "- (nothing beyond the standard library)"
    public = ", ".join(f"`{p}`" for p in spec.verify.public)
    feedback = (
        f"Some tests were removed from this workspace; `./feedback` runs the public ones ({public}) in that "
        f"environment. Do not edit the project's test files: they are hashed."
        if public
        else "Every test file was removed from this workspace, so `./feedback` has no test to run: check your "
        "work in that environment yourself."
    )
    forbidden = (
        "published releases of this project, under any name"
        if obfuscated
        else ", ".join(spec.anticheat.forbidden_packages) or "none"
    )
    return (
        f"# {spec.name}: {spec.summary}\n\n{GOALS[spec.kind].format(what=what, build=_steps(spec))}\n\n"
        f"The project is in `solution/` (a git repository's only commit holds this starting state). It must "
        f"work there, unchanged in layout, with Python {python} and exactly these packages (a read-only "
        f"environment: you cannot add to it, and declaring an older version of any of them is a violation):\n\n"
        f"{pins}\n\n"
        f"A hidden verifier runs the project's own tests and probe scripts whose outputs are compared with "
        f"those of the original project. {feedback} "
        f"Forbidden (absent from the environment; do not vendor them): {forbidden}.\n"
    )


def write_revival_task(
    spec: RevivalSpec,
    root: Path,
    broken: Path,
    tests: Path,
    reference: dict[str, Path],
    recorded: dict[str, Any],
    hashes: dict[str, str],
    what: str,
    python: str,
    obfuscated: bool = False,
    original: list[bytes] | None = None,
) -> None:
    """One revival task directory from its parts (`reference`: {project path: file} of a deleted module). A
    deleted-module task keeps the signature of its original (`original`: the original module's files, by
    default the reference's; an obfuscated variant's reference is renamed, so it passes its plain task's):
    grading and the agent's sandbox cover whatever holds it."""
    at = TaskPaths(root)
    root.mkdir(parents=True)
    at.toml.write_text(dump_task_file(public_meta(spec, obfuscated)))
    at.instruction.write_text(instruction(spec, what, python, obfuscated))
    copy_tree(broken, at.project, ignore=KEEP_ALL, symlinks=True)
    at.private.mkdir()
    shutil.copyfile(spec.directory / "revival.toml", at.revival_toml)
    if spec.verify.probes:
        copy_tree(spec.directory / PROBES, at.probes)
    copy_tree(tests, at.original_tests, ignore=KEEP_ALL)
    at.reference.mkdir()
    for rel, src in reference.items():
        dst = at.reference / MODULE_REF / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    if spec.kind != "deleted-module":
        shutil.copyfile(spec.directory / PORT_PATCH, at.private / PORT_PATCH)
    elif (rebuild := spec.directory / "reference").is_dir() and any(rebuild.rglob("*.py")):
        copy_tree(rebuild, at.reference / REBUILD_REF)
    at.recorded.write_text(dump_json(recorded))
    at.test_hashes.write_text(dump_json(hashes))
    if spec.kind == "deleted-module":
        originals.write_signature(
            at.private, original if original is not None else [src.read_bytes() for src in reference.values()]
        )


def load_revival_task(root: Path, meta: RevivalTaskFile) -> RevivalTask:
    return RevivalTask(meta.id, root, meta)


def original_sources(task: RevivalTask) -> list[bytes]:
    """The original deleted module's files of a plain task (its reference); for an obfuscated variant made from it."""
    ref = task.reference_dir / MODULE_REF
    return [f.read_bytes() for f in sorted(ref.rglob("*")) if f.is_file()] if ref.is_dir() else []


def revival_brief(task: RevivalTask) -> AgentBrief:
    """A revival repairs a project in place: no solution/run, no JSON scenario; what ./feedback can say depends
    on whether the task has public tests."""
    python = f"Python {task.meta.target.python}" if task.meta.target.python else "the target Python"
    fb = (
        "run the project's public tests on solution/ in the target environment"
        if task.meta.feedback.public
        else "this task has no public tests: it says so and runs nothing, so check your work yourself"
    )
    return AgentBrief(
        goal=f"Read instruction.md there. solution/ holds a Python project (a git repository) that no longer\n"
        f"works as it did. Repair it in place, keeping its layout, so that it works with {python} and\n"
        f"exactly the packages instruction.md lists (a read-only environment: you cannot add to it or pin\n"
        f"anything back). There is no solution/run to write and no JSON scenario: a hidden verifier runs the\n"
        f"project's own tests (those removed from this workspace too) and probe scripts whose outputs must\n"
        f"match the original project's.",
        feedback=fb,
        finish="solution/ is graded by the project's hidden tests and probes in the target environment",
        protected="instruction.md, task.toml, feedback or the project's test files",
        nudge="Use the tools: repair the project in solution/, check it with feedback, then call finish.",
    )


def write_oracle(task: RevivalTask, dest: Path) -> None:
    """The broken project with the reference applied: the deleted module's honest rebuild where the task has
    one (it passes as any agent's candidate, Harbor's oracle too), else the module restored; or the port
    patched in."""
    copy_tree(task.project, dest, ignore=KEEP_ALL, symlinks=True)
    ref = task.reference_dir
    if (ref / REBUILD_REF).is_dir():
        copy_tree(ref / REBUILD_REF, dest, ignore=KEEP_ALL, merge=True)
    elif (ref / MODULE_REF).is_dir():
        copy_tree(ref / MODULE_REF, dest, ignore=KEEP_ALL, merge=True)
    patch = task.paths.private / PORT_PATCH
    if patch.is_file():
        apply_patch(dest, patch)

"""The Java `build` revival task (revivals/commons-math-jdk17): Apache Commons Math 2.2 (2011), a numerical library
built for Java 5 by Ant. Debian bookworm's JDK 17 refuses its build (`Source option 5 is no longer supported`); the
port raises the build's source/target level. Native is Debian's own built jar of the same upstream version (there
is no JDK 5-8 here; revival.toml says so), with the original sources' JUnit tests passing against it.

The default suite checks the folder and the revival runner's JUnit items (one tiny class compiled here, a second or
two). The `full` tests build only this task into a one-task release with `swr build` and hold the gates: the
original passes natively, the workspace fails to build on JDK 17, the reference port passes, a port that keeps a
broken class fails its JUnit test and the probe; and `swr run` oracle passes and nop fails on both backends."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, build_revival_alone
from conftest import grade_revival as _grade
from conftest import revival_oracle as _oracle

from swr import kinds
from swr.core.errors import SwrError
from swr.core.layout import PORT_PATCH
from swr.harness.run import JobConfig, run_job
from swr.kinds.revival.runner import MARK
from swr.kinds.revival.spec import load_revival
from swr.kinds.revival.task import RevivalTask
from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, run
from swr.sandbox.base import hand_over

REVIVAL = ROOT / "revivals" / "commons-math-jdk17"
TASK = "commons-math-jdk17"
RUNNER = ROOT / "src" / "swr" / "kinds" / "revival" / "runner.py"
JUNIT = "/usr/share/java/junit4.jar"
GAMMA = "src/main/java/org/apache/commons/math/special/Gamma.java"
N_HIDDEN = 8
DEBIAN_JAR = "/usr/share/java/commons-math-2.2.jar"  # the native side's library: covered in the target's sandboxes


def test_the_spec_declares_an_ant_build_from_java_5_to_jdk_17() -> None:
    """The folder says what the task is: Debian's JDK 17 on both sides, natively Debian's jar of the same upstream
    version (pinned), in the target the project's own Ant build; hidden JUnit classes on a classpath; a port that
    changes only the build file."""
    spec = load_revival(REVIVAL)
    assert spec.name == TASK and spec.kind == "build" and spec.debian == ("commons-math", "2.2-8")
    assert "openjdk-17-jdk-headless" in spec.native.apt and "openjdk-17-jdk-headless" in spec.target.apt
    assert "libcommons-math-java=2.2-8*" in spec.native.apt and "ant" in spec.target.apt
    assert not any("commons-math" in a for a in spec.target.apt)
    assert "commons-math-2.2.jar" in spec.native.build[0] and "ant -noinput compile" in spec.target.build[0]
    assert len(spec.verify.hidden) == N_HIDDEN and all(h.endswith("Test.java") for h in spec.verify.hidden)
    assert spec.verify.classpath[:2] == ("target/classes", "target/test-classes") and JUNIT in spec.verify.classpath
    assert spec.verify.probes == ("probes/numerics.py",)
    assert spec.anticheat.forbidden_paths == (DEBIAN_JAR,)
    patch = (REVIVAL / PORT_PATCH).read_text()
    assert [ln for ln in patch.splitlines() if ln.startswith("diff --git ")] == ["diff --git a/build.xml b/build.xml"]
    assert '+  <property name="compile.source"          value="1.8"/>' in patch


@pytest.mark.parametrize("bad", ['"usr/share/java/x.jar"', '"/usr/share/../../etc/x.jar"'])
def test_a_forbidden_path_must_be_absolute_one_line(tmp_path: Path, bad: str) -> None:
    """`anticheat.forbidden_paths` names host files: a relative or `..` path is refused in one line naming the file."""
    folder = tmp_path / TASK
    shutil.copytree(REVIVAL, folder)
    text = (folder / "revival.toml").read_text()
    (folder / "revival.toml").write_text(text.replace(f'"{DEBIAN_JAR}"', bad, 1))
    with pytest.raises(SwrError) as e:
        load_revival(folder)
    assert str(folder / "revival.toml") in str(e.value) and "forbidden_paths" in str(e.value)
    assert "\n" not in str(e.value)


def _junit_class(d: Path, name: str, body: str) -> Path:
    src = d / "src" / "t" / f"{name}.java"
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_text(f"package t;\npublic class {name} {{\n  @org.junit.Test public void check() {{ {body} }}\n}}\n")
    return src


def test_the_runner_runs_hidden_junit_classes_as_tests(tmp_path: Path) -> None:
    """A hidden `*.java` file is one test: its class (package from the source) run by JUnitCore on the task's
    classpath, passed when JUnit says OK and failed with JUnit's account otherwise -- the outcomes the native
    recording and grading compare, as they compare pytest's."""
    proj = tmp_path / "project"
    ok = _junit_class(proj, "GoodTest", "org.junit.Assert.assertEquals(4, 2 + 2);")
    bad = _junit_class(proj, "BadTest", 'org.junit.Assert.assertEquals("wanted", 3, 2 + 2);')
    (proj / "classes").mkdir()
    subprocess.run(["javac", "-d", str(proj / "classes"), "-cp", JUNIT, str(ok), str(bad)], check=True)
    (tmp_path / "p.ini").write_text("[pytest]\n")
    tests = ["src/t/GoodTest.java", "src/t/BadTest.java"]
    req = {"mode": "tests", "project": "project", "pythonpath": [], "ini": "p.ini", "nonce": "n0", "tests": tests}
    req["classpath"] = ["classes", JUNIT, "/usr/share/java/hamcrest-core.jar"]
    res = subprocess.run(
        [sys.executable, "-I", str(RUNNER)], input=json.dumps(req).encode(), cwd=tmp_path, capture_output=True
    )
    text = res.stdout.decode()
    assert MARK + "n0" in text, text[-2000:] + res.stderr.decode()[-2000:]
    outcomes = json.loads(text.rpartition(MARK + "n0")[2])["outcomes"]
    assert outcomes == {"src/t/GoodTest.java::t.GoodTest": "passed", "src/t/BadTest.java::t.BadTest": "failed"}
    assert "wanted expected:<3> but was:<4>" in text


def test_a_jvm_starts_and_compiles_in_the_sandbox(backend: Sandbox, tmp_path: Path) -> None:
    """Debian's JDK reads its configuration through links into /etc/java-17-openjdk (java.security, jvm.cfg): the
    sandbox's /etc view carries it, or no JVM starts there (`Error loading java.security file`), on either backend."""
    work = tmp_path / "w"
    work.mkdir()
    (work / "Hello.java").write_text(
        'public class Hello { public static void main(String[] a) { System.out.println("hi " + a.length); } }\n'
    )
    hand_over(work)
    res = run(
        backend,
        Job(
            ["/bin/sh", "-c", "javac -d . Hello.java && java -cp . Hello x y"],
            Mount(work, WORKDIR, "rw"),
            Limits(time_s=120),
        ),
        b"",
    )
    assert res.ok and res.stdout.decode().strip() == "hi 2", res.stderr.decode()[-1500:]


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This task alone built into a release with `swr build`, as the README gives the command."""
    return build_revival_alone(TASK, tmp_path_factory)


@pytest.fixture(scope="module")
def task(release: Path) -> RevivalTask:
    t = kinds.load(release / "tasks" / TASK)
    assert isinstance(t, RevivalTask)
    return t


@pytest.mark.full
def test_the_original_passes_natively_on_debians_jar(task: RevivalTask) -> None:
    """Recorded from Debian's built commons-math 2.2 jar: the eight hidden JUnit classes and the public one pass,
    and the probe's numbers come from the library (a root of cos x = x, the normal quantile at 0.975)."""
    record = json.loads(task.paths.build_record.read_text())
    recorded = json.loads(task.paths.recorded.read_text())
    assert record["native_tests"] == len(recorded["tests"]) == N_HIDDEN + 1
    assert all(t.endswith("Test") and ".java::org.apache.commons.math." in t for t in recorded["tests"])
    probe = recorded["probes"]["probes/numerics.py"]
    assert abs(probe["brent"][0] - 0.7390851332151607) < 1e-12
    assert abs(probe["normal"][1] - (1.5 + 2.0 * 1.959963984540054)) < 1e-6
    assert record["nop"]["pass"] is False and "build_failure" in record["nop"]["labels"]
    assert record["reference"] == {"pass": True, "score": f"{N_HIDDEN + 2}/{N_HIDDEN + 2}", "labels": []}


@pytest.mark.full
def test_the_workspace_fails_to_build_on_jdk_17(task: RevivalTask) -> None:
    """The untouched sources ask javac for Java 5, which JDK 17 no longer compiles: the build step fails."""
    project = task.project
    assert 'name="compile.source"          value="1.5"' in (project / "build.xml").read_text()
    assert not (project / task.spec.verify.hidden[0]).exists()
    v = _grade(task, project)
    assert not v.passed and v.labels[0] == "build_failure", v.labels
    assert "Source option 5 is no longer supported" in v.detail, v.detail[-800:]


@pytest.mark.full
def test_the_reference_port_builds_and_passes(task: RevivalTask, tmp_path: Path) -> None:
    v = _grade(task, _oracle(task, tmp_path / "good"))
    assert v.passed and v.labels == [], (v.labels, v.detail[-500:])
    assert {r.check for r in v.records} == {"test", "probe"}


@pytest.mark.full
def test_a_port_that_breaks_a_class_fails_its_junit_test_and_the_probe(task: RevivalTask, tmp_path: Path) -> None:
    """A port that builds but changes the numerics (logGamma off by a little) fails the hidden GammaTest in its JVM
    and the probe's recorded numbers: the JUnit outcomes are read, not assumed."""
    half = _oracle(task, tmp_path / "half")
    src = (half / GAMMA).read_text()
    body = "return ret;\n    }\n\n    /**\n     * Returns the regularized gamma function P(a, x)."
    assert src.count(body) == 1
    (half / GAMMA).write_text(src.replace(body, body.replace("return ret;", "return ret * (1 + 1e-9);"), 1))
    v = _grade(task, half)
    assert not v.passed and "build_failure" not in v.labels, v.labels
    failed = [r.case for r in v.records if not r.passed]
    assert any("GammaTest" in c for c in failed) and "probes/numerics.py" in failed, failed


@pytest.mark.full
def test_a_build_that_unpacks_debians_jar_instead_of_compiling_fails(task: RevivalTask, tmp_path: Path) -> None:
    """The host has Debian's built jar (the native side runs on it). A candidate whose Ant `compile` unpacks that
    jar into target/classes instead of compiling would pass every test and probe: it is covered (links resolved)
    in the target's sandbox, so the unpacking finds no archive and the build fails."""
    cheat = _oracle(task, tmp_path / "cheat")
    xml = (cheat / "build.xml").read_text()
    start = xml.index('    <javac  srcdir="${source.home}"')
    end = xml.index("</javac>", start) + len("</javac>")
    (cheat / "build.xml").write_text(
        f'{xml[:start]}<unjar src="{DEBIAN_JAR}" dest="${{build.home}}/classes"/>{xml[end:]}'
    )
    v = _grade(task, cheat)
    assert not v.passed and v.labels[0] == "build_failure", (v.labels, v.detail[-800:])
    assert "RandomAccessFile" in v.detail and "`rm -rf target && ant -noinput compile` failed" in v.detail, v.detail


@pytest.mark.full
@pytest.mark.parametrize("sandbox", ["bwrap", "podman"])
def test_swr_run_oracle_passes_and_nop_fails(release: Path, tmp_path: Path, sandbox: str) -> None:
    oracle = run_job(JobConfig(release=release, agent="oracle", jobs_dir=tmp_path / "jobs", sandbox=sandbox))
    assert len(oracle) == 1 and oracle[0].passed, [(r.label, r.error) for r in oracle]
    nop = run_job(JobConfig(release=release, agent="nop", jobs_dir=tmp_path / "jobs", sandbox=sandbox))
    assert len(nop) == 1 and not nop[0].passed and nop[0].verdict.label == "build_failure"

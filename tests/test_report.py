"""`swr report`: real jobs of the scripted model agent on a small release (two models, a pass and a failure),
the report written by the CLI, then opened in headless Chromium: what a reader sees in the rendered DOM, the
plots as drawn SVG, links that resolve, run pages whose agent output stays inert text, and a screenshot."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lxml.etree
import lxml.html
import pytest
from conftest import swr
from PIL import Image
from test_agents import RIGHT, WRONG, Scripted

from swr.audit.mutation import mutation_audit
from swr.audit.replay import replay_audit
from swr.audit.sensitivity import sensitivity_audit
from swr.core.layout import ReleasePaths, ReportPaths
from swr.harness.run import JobConfig, run_job
from swr.report import build_report
from swr.report.data import page_name
from swr.report.plots import grouped_bars

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Agent output that would run if a page put it in as markup: each sets the title the test reads back.
SCRIPT = "<script>document.title='PWNED-SCRIPT'</script>"
IMG = "<img src=x onerror=\"document.title='PWNED-IMG'\">"
HOSTILE = f"{SCRIPT}{IMG}"


def passing_script() -> list[Any]:
    """A run that passes, echoes hostile markup (trajectory) and leaves it in a file (diff)."""
    return [
        [("bash", {"command": f"echo \"{SCRIPT}\"; echo '{IMG}'"})],
        [("write_file", {"path": "solution/notes.html", "content": HOSTILE + "\n"})],
        [("write_file", {"path": "solution/run", "content": RIGHT})],
        [("finish", {})],
    ]


FAILING = [[("write_file", {"path": "solution/run", "content": WRONG})], [("finish", {})]]


def _job(
    release: Path,
    jobs_dir: Path,
    name: str,
    model: str,
    tasks: tuple[str, ...],
    replies: list[Any],
    status: str = "done",
) -> None:
    srv = Scripted(replies)
    try:
        cfg = JobConfig(
            release=release,
            agent="openai",
            model=model,
            include=tasks,
            job=name,
            jobs_dir=jobs_dir,
            concurrency=1,
            agent_options={"base_url": srv.url, "max_retries": 0},
            retries=0,
        )
        for rec in run_job(cfg):
            assert rec.status == status, rec.error
    finally:
        srv.close()


@pytest.fixture(scope="module")
def jobs(linear_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """model-a passes both tasks (alpha); model-b fails v1 (beta1) and passes v2 (beta2): pooled as one model;
    model-c's endpoint answers 500 (gamma, on v1): an infrastructure failure.
    The release copy carries real replay, sensitivity and mutation audit results."""
    base = tmp_path_factory.mktemp("report")
    release = base / "release"
    shutil.copytree(linear_release, release, symlinks=True)
    at = ReleasePaths(release)
    at.audit.mkdir()
    at.audit_result("replay").write_text(json.dumps(replay_audit(release)))
    at.audit_result("sensitivity").write_text(json.dumps(sensitivity_audit(release, reexecute=False)))
    at.audit_result("mutation").write_text(json.dumps(mutation_audit(release, per_class=1, reexecute=False)))
    jobs_dir = base / "jobs"
    _job(release, jobs_dir, "alpha", "model-a", ("good-linear-v1", "good-linear-v2"), passing_script() * 2)
    _job(release, jobs_dir, "beta1", "model-b", ("good-linear-v1",), FAILING)
    _job(release, jobs_dir, "beta2", "model-b", ("good-linear-v2",), passing_script())
    _job(release, jobs_dir, "gamma", "model-c", ("good-linear-v1",), [500], status="infra_failure")
    yield release, jobs_dir


def chromium(*args: str, cwd: Path) -> str:
    """Headless Chromium (as root it needs --no-sandbox) with its own profile; its stdout."""
    assert CHROMIUM, "chromium is missing: apt-get install chromium (`make sysdeps` installs it)"
    with tempfile.TemporaryDirectory(prefix="swr-chromium-") as profile:
        cmd = [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            *args,
        ]
        res = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=180)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def dom(page: Path) -> lxml.html.HtmlElement:
    """The page's DOM after Chromium loaded it and ran whatever would run."""
    return lxml.html.fromstring(chromium("--dump-dom", page.as_uri(), cwd=page.parent))


def cells(doc: lxml.html.HtmlElement, table: str) -> list[list[str]]:
    return [
        [" ".join(td.text_content().split()) for td in tr.xpath("./td")]
        for tr in doc.xpath(f"//table[@id='{table}']/tbody/tr")
    ]


def marks(doc: lxml.html.HtmlElement, plot: str) -> int:
    """Data marks drawn in one plot's <svg>."""
    svgs = doc.xpath(f"//figure[@id='plot-{plot}']/*[local-name()='svg']")
    assert len(svgs) == 1, f"plot {plot} has no inline svg"
    return len(svgs[0].xpath(f".//*[starts-with(@id, 'mark-{plot}-')]"))


@pytest.fixture(scope="module")
def report(jobs: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    _, jobs_dir = jobs
    out = tmp_path_factory.mktemp("html") / "report"
    res = swr("report", "alpha", "beta1", "beta2", "gamma", "--jobs-dir", str(jobs_dir), "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "report written" in res.stdout and "openai/model-a" in res.stdout
    return out


def test_index_shows_rates_matrix_plots_and_audits(report: Path) -> None:
    doc = dom(ReportPaths(report).index)
    assert doc.findtext(".//title") == "swr report: alpha, beta1, beta2, gamma"
    models = {row[0]: row for row in cells(doc, "model-table")}
    assert set(models) == {"openai/model-a", "openai/model-b", "openai/model-c"}
    a, b, c = models["openai/model-a"], models["openai/model-b"], models["openai/model-c"]
    # jobs, runs, valid runs, infrastructure failures, passes, first-attempt pass rate
    assert a[1:7] == ["alpha", "2", "2", "0", "2", "100.0%"]
    assert b[1:7] == ["beta1, beta2", "2", "2", "0", "1", "50.0%"]
    assert c[1:7] == ["gamma", "1", "0", "1", "0", "0.0%"]
    matrix = {row[0]: row[3:] for row in cells(doc, "matrix-table")}
    assert matrix == {
        "good-linear-v1": ["pass", "numeric_mismatch", "infra_failure", "1"],
        "good-linear-v2": ["pass", "pass", "not_planned", "2"],
    }
    cls = [row.xpath("./td/@class") for row in doc.xpath("//table[@id='matrix-table']/tbody/tr")]
    assert cls == [["pass", "fail", "fail", "n"], ["pass", "pass", "none", "n"]], cls
    assert cells(doc, "spread-table") == [["tasks", "0", "1", "1", "0"]]  # passed by 0, 1, 2, 3 models
    assert "(these do not discriminate): none." in doc.xpath("string(//table[@id='spread-table']/caption)")
    assert ["openai/model-b", "numeric_mismatch", "1"] in cells(doc, "label-table")
    # one mark per datum: 3 models x 2 rates; 1 domain x 3 models; 2 labels x 3 models; 4 finished runs x 2
    assert (marks(doc, "models"), marks(doc, "domain"), marks(doc, "labels"), marks(doc, "length")) == (6, 3, 6, 8)
    assert marks(doc, "tasks-domain") == 1
    assert doc.xpath("//div[@id='audit-replay']//table/tbody/tr") and doc.xpath(
        "//div[@id='audit-sensitivity']//table/tbody/tr[td='good-linear-v1']"
    )
    mutants = cells(doc, "audit-mutation-table")
    assert len(mutants) > 5 and all(row[1] in ("yes", "no") for row in mutants), mutants
    assert "0 false accepts" in doc.xpath("string(//div[@id='audit-mutation'])")


def test_every_link_opens_a_page_and_each_run_has_one(report: Path, jobs: tuple[Path, Path]) -> None:
    doc = lxml.html.fromstring(ReportPaths(report).index.read_text())
    hrefs = set(doc.xpath("//a/@href"))
    assert len(hrefs) == 5 and all((report / h).is_file() for h in hrefs), hrefs
    matrix_links = doc.xpath("//table[@id='matrix-table']//a/@href")
    assert len(matrix_links) == 5 and set(matrix_links) <= hrefs


def run_page(report: Path, jobs_dir: Path, job: str, task: str) -> Path:
    from swr.harness.store import Store

    store = Store(jobs_dir)
    try:
        key = next(r.key for r in store.runs(job) if r.task == task)
    finally:
        store.close()
    return ReportPaths(report).run_page(page_name(job, key))


def test_run_page_shows_trajectory_diff_and_verdict_as_inert_text(report: Path, jobs: tuple[Path, Path]) -> None:
    """The agent's echo (trajectory) and its notes.html (diff) hold a <script> and an <img onerror>: the page
    shows them as text, Chromium runs neither (the title stays), and the DOM holds no such element."""
    page = run_page(report, jobs[1], "alpha", "good-linear-v1")
    doc = dom(page)
    assert doc.findtext(".//title") == "swr run: good-linear-v1 #1 (openai/model-a)"
    assert not doc.xpath("//script") and not doc.xpath("//img"), "agent markup became elements"
    steps = doc.xpath("//div[starts-with(@id, 'step-')]")
    assert [s.get("class") for s in steps[:3]] == ["step system", "step user", "step agent"]
    trajectory = " ".join(s.text_content() for s in steps)
    assert SCRIPT in trajectory and "write_file" in trajectory and "exit code: 0" in trajectory
    diff = doc.xpath("//div[@id='diff-lines']")[0]
    assert f"+{HOSTILE}" in [s.text_content() for s in diff.xpath("./span[@class='add']")]
    assert "b/solution/run" in diff.text_content()
    verdict = {tr.findtext("th"): tr.findtext("td") for tr in doc.xpath("//table[@id='verdict-table']//tr")}
    assert verdict["pass"] == "True" and verdict["label"] == "pass"
    failed = dom(run_page(report, jobs[1], "beta1", "good-linear-v1"))
    assert "numeric_mismatch" in failed.xpath("string(//table[@id='verdict-table'])")
    infra = dom(run_page(report, jobs[1], "gamma", "good-linear-v1"))
    assert "500" in infra.xpath("string(//table[@id='run-summary'])")
    assert infra.xpath("string(//h2[@id='verdict']/following-sibling::p[1])").startswith("no verdict")


def test_the_check_sees_markup_that_runs(tmp_path: Path) -> None:
    """The control: the same payload put in as markup does change the title, so the checks above can fail."""
    page = tmp_path / "unescaped.html"
    page.write_text(f"<!DOCTYPE html><html><head><title>t</title></head><body>{SCRIPT}</body></html>")
    assert dom(page).findtext(".//title") == "PWNED-SCRIPT"


def test_screenshot_of_the_report_is_a_rendered_page(report: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    chromium(f"--screenshot={shot}", "--window-size=1280,2000", ReportPaths(report).index.as_uri(), cwd=tmp_path)
    if os.environ.get("SWR_REPORT_SCREENSHOT_DIR"):
        keep = Path(os.environ["SWR_REPORT_SCREENSHOT_DIR"])
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, keep / shot.name)
    assert shot.stat().st_size > 20_000
    with Image.open(shot) as img:
        assert img.size == (1280, 2000)
        colours = img.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200, "a blank or near-blank page"
    white = max(colours)[0] / (1280 * 2000)
    assert white < 0.97, f"{white:.1%} of the page is one colour"


def test_same_inputs_give_a_byte_identical_report(report: Path, jobs: tuple[Path, Path], tmp_path: Path) -> None:
    """The CLI's report (another process, another hash seed) and the library's, file for file."""
    again = tmp_path / "again"
    build_report(["gamma", "alpha", "beta2", "beta1"], again, jobs[1])
    files = sorted(p.relative_to(report) for p in report.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file()) and len(files) == 7
    assert Path(".swr-report") in files  # the marker that lets a later report replace this one
    assert all((report / f).read_bytes() == (again / f).read_bytes() for f in files)


def test_a_release_alone_shows_its_tasks_and_audits(jobs: tuple[Path, Path], tmp_path: Path) -> None:
    release = tmp_path / "release"
    shutil.copytree(jobs[0], release, symlinks=True)
    ReleasePaths(release).audit_result("mutation").unlink()
    res = swr("report", str(release), "--out", str(tmp_path / "r"), "--jobs-dir", str(tmp_path / "nojobs"))
    assert res.returncode == 0, res.stderr
    doc = dom(ReportPaths(tmp_path / "r").index)
    assert cells(doc, "family-table") == [["data-document", "fixtures", "2"]]
    assert marks(doc, "tasks-domain") == 1 and marks(doc, "tasks-family") == 1
    assert not doc.xpath("//table[@id='model-table']") and not doc.xpath("//table[@id='run-table']")
    assert doc.xpath("//div[@id='audit-replay']") and doc.xpath("//div[@id='audit-sensitivity']")
    assert doc.xpath("string(//p[@id='audit-mutation'])").startswith("not run")
    assert not (tmp_path / "nojobs").exists(), "a release-only report creates no results store"


def test_bad_input_is_one_line_and_exit_2(jobs: tuple[Path, Path], tmp_path: Path) -> None:
    release, jobs_dir = jobs

    def fails(*args: str) -> str:
        res = swr("report", *args)
        assert res.returncode == 2 and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, res.stderr
        return res.stderr

    assert "'nosuchjob'" in fails("nosuchjob", "--jobs-dir", str(jobs_dir), "--out", str(tmp_path / "a"))
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "thesis.tex").write_text("mine")
    assert "not a swr report" in fails("alpha", "--jobs-dir", str(jobs_dir), "--out", str(busy))
    assert (busy / "thesis.tex").read_text() == "mine"
    site = tmp_path / "site"  # a user's web site: an index.html of its own and a runs/ folder
    (site / "runs").mkdir(parents=True)
    (site / "index.html").write_text("<h1>my lab</h1>")
    (site / "runs" / "2024.html").write_text("results")
    assert "use --force" in fails("alpha", "--jobs-dir", str(jobs_dir), "--out", str(site))
    assert (site / "runs" / "2024.html").read_text() == "results"
    assert "is a file" in fails("alpha", "--jobs-dir", str(jobs_dir), "--out", str(busy / "thesis.tex"))
    assert (busy / "thesis.tex").read_text() == "mine"
    res = swr("report", "alpha", "--jobs-dir", str(jobs_dir), "--out", ".", "--force", cwd=busy)
    assert res.returncode == 2 and "current or home" in res.stderr and (busy / "thesis.tex").read_text() == "mine"
    broken = tmp_path / "broken"
    shutil.copytree(release, broken, symlinks=True)
    doc = json.loads(ReleasePaths(broken).audit_result("replay").read_text())
    del doc["controls"]
    ReleasePaths(broken).audit_result("replay").write_text(json.dumps(doc))
    err = fails(str(broken), "--out", str(tmp_path / "b"))
    assert "replay.json" in err and "controls" in err


def test_plot_labels_are_escaped_svg_text() -> None:
    svg = grouped_bars("t", "title", ["a</text><script>x</script>", "b"], {"m": [0.5, 1.0]}, "rate", 1.0)
    tree = lxml.etree.fromstring(svg.encode())
    texts = [t.xpath("string()") for t in tree.iter("{http://www.w3.org/2000/svg}text")]
    assert "a</text><script>x</script>" in texts and not list(tree.iter("{http://www.w3.org/2000/svg}script"))

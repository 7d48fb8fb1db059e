"""`swr audit bundles` and `swr audit agreement`: blinded human-audit bundles that reveal no label, and the
agreement, kappa, label validity and verifier FA/FR computed from hand-written label sheets."""

from __future__ import annotations

import csv
import html
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, swr

from swr.assemble import BuildOptions, build
from swr.audit.agreement import cohen_kappa
from swr.audit.bundles import HOW_TO_LABEL, write_bundles
from swr.audit.mutation import DESIGNED_VALID, task_mutants, wilson
from swr.core.release_dir import list_tasks
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.task import load_workflow_task

SEED = "7"
VERDICT_WORDS = (
    "valid",
    "invalid",
    "pass",
    "fail",
    "accept",
    "reject",
    "mutant",
    "mutation",
    "designed",
    "verdict",
    "verifier",
    "correct",
    "wrong",
    "expected",
    "perturb",
    "tolerance",
)
DATA_BLOCK = re.compile(r'<pre class="data">.*?</pre>', re.DOTALL)


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two variants of a structured workflow and of a mesh + table workflow, and one engine task."""
    base = tmp_path_factory.mktemp("bundles")
    results = build(
        [FIXTURES / "good-linear", FIXTURES / "good-artifacts", ROOT / "engines" / "statistics"],
        base / "release",
        BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=ExecutionCache(base / "cache")),
    )
    assert not [r.failure for r in results if r.failure]
    return base / "release"


@pytest.fixture(scope="module")
def audit(release: Path) -> tuple[Path, dict[str, Any]]:
    """The bundles as a user writes them, and the key beside them."""
    out = release.parent / "bundles"
    res = swr("audit", "bundles", str(release), "--out", str(out), "--seed", SEED, "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    summary = json.loads(res.stdout)
    key = Path(summary["key"])
    assert key == out.with_name("bundles.key.json") and key.is_file()
    return out, json.loads(key.read_text())


def bundle_files(out: Path) -> list[Path]:
    return sorted(p for p in out.rglob("*") if p.is_file())


# ------------------------------------------------------------------ the bundles


def test_every_page_shows_instruction_scenario_reference_and_both_cases(release: Path, audit: tuple) -> None:
    out, key = audit
    assert {b["task"] for b in key["bundles"]} == {
        "good-linear-v1",
        "good-linear-v2",
        "box-artifacts-v1",
        "box-artifacts-v2",
    }
    assert [n["task"] for n in key["not_applicable"]] == ["statistics"]  # an engine task: no output to mutate
    assert {b["stratum"] for b in key["bundles"]} == {"structured", "geometry"}
    for b in key["bundles"]:
        task = load_workflow_task(release / "tasks" / b["task"])
        page = (out / b["bundle_id"] / "index.html").read_text()
        assert html.escape((task.root / "instruction.md").read_text()) in page
        h = task.hidden[b["hidden_index"]]
        assert html.escape(json.dumps(h.scenario, indent=2, sort_keys=True)) in page
        assert html.escape(json.dumps(h.output, indent=2, sort_keys=True)) in page
        for case in ("A", "B"):
            assert html.escape((out / b["bundle_id"] / case / "stdout.txt").read_text()) in page
        for href in re.findall(r'(?:href|src)="([^"]+)"', page):  # every link leads to a file in the bundle
            assert (out / b["bundle_id"] / href).resolve().is_file(), href
        if b["stratum"] == "geometry":
            assert re.search(r'href="A/[^"]+\.(stl|ply|obj|off)"', page) and 'href="reference/box.stl"' in page
        # one expected-valid and one expected-invalid case; the verifier decides both as designed here
        assert sorted(c["designed_valid"] for c in b["cases"].values()) == [False, True]
        assert all(c["verifier_accepts"] == c["designed_valid"] for c in b["cases"].values()), b
    with (out / "labels.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["bundle_id"], r["case"]) for r in rows] == [(b["bundle_id"], c) for b in key["bundles"] for c in "AB"]
    assert list(rows[0]) == ["bundle_id", "case", "label", "note"]


def class_names(release: Path) -> set[str]:
    """Every mutation class the generator produces on this release, and every class the audit knows by name."""
    names = set(DESIGNED_VALID) | {"reference_output"}
    for root in list_tasks(release):
        if root.name == "statistics":
            continue
        with tempfile.TemporaryDirectory() as scratch:
            names |= {m.klass for _, m in task_mutants(load_workflow_task(root), 1, Path(scratch))}
    return names


def case_markup(section: str) -> str:
    """A case panel without its data: outputs, file names and the case letter blanked."""
    section = DATA_BLOCK.sub("", section)
    section = re.sub(r'(href|src|alt)="[^"]*"', r'\1=""', section)
    section = re.sub(r">[^<]*</a>", "></a>", section)
    files = r'(<li><a href=""></a>(<br><img src="" alt="">)?</li>)+'  # how many files a case has is its content
    section = re.sub(rf"<h3>Files</h3><ul>{files}</ul>", "", section)
    return re.sub(r"<h2>Case [AB]</h2>", "<h2>Case</h2>", section)


def test_nothing_in_the_bundle_dir_reveals_the_key(release: Path, audit: tuple) -> None:
    out, key = audit
    classes = class_names(release)
    assert {c["class"] for b in key["bundles"] for c in b["cases"].values()} <= classes
    secrets = [*classes, "designed_valid", "verifier_accepts", "stratum", "key.json"]
    for path in bundle_files(out):
        rel = str(path.relative_to(out)).lower()
        assert not [w for w in (*VERDICT_WORDS, *classes) if w.lower() in rel], rel  # file and folder names
        data = path.read_bytes()
        assert not [s for s in secrets if s.encode() in data], path  # any file's contents
    for page in out.rglob("*.html"):
        text = page.read_text()
        assert "<!--" not in text  # no comments
        if page.parent == out:  # the index's one fixed sentence tells annotators the label vocabulary
            assert text.count(html.escape(HOW_TO_LABEL)) == 1
            text = text.replace(html.escape(HOW_TO_LABEL), "")
        # what remains outside the data blocks (instruction, scenario, rules, outputs) is markup: title,
        # headings, ids, classes, attributes, links — none may carry a verdict word
        chrome = DATA_BLOCK.sub("", text).lower()
        assert not [w for w in VERDICT_WORDS if w in chrome], (page, [w for w in VERDICT_WORDS if w in chrome])
    for b in key["bundles"]:  # the two cases' panels are the same markup: no marker, id or class tells them apart
        page = (out / b["bundle_id"] / "index.html").read_text()
        panels = {c: re.search(rf"<section[^>]*><h2>Case {c}</h2>.*?</section>", page, re.DOTALL) for c in "AB"}
        assert all(panels.values()), page
        assert len({case_markup(m.group(0)) for m in panels.values() if m}) == 1, b["bundle_id"]
    rows = list(csv.DictReader((out / "labels.csv").open(newline="")))
    assert all(r["label"] == "" and r["note"] == "" for r in rows)
    assert not list(out.rglob("*.json"))  # the key is beside the directory, never in it


def test_same_seed_gives_byte_identical_bundles(release: Path, audit: tuple, tmp_path: Path) -> None:
    out, _ = audit
    again = tmp_path / "again"
    write_bundles(release, again, seed=int(SEED))
    first = {str(p.relative_to(out)): p.read_bytes() for p in bundle_files(out)}
    second = {str(p.relative_to(again)): p.read_bytes() for p in bundle_files(again)}
    assert first == second
    other = write_bundles(release, tmp_path / "other", seed=int(SEED) + 1, tasks=2)
    assert other["bundles"] == 2 and len(list((tmp_path / "other").glob("bundle-*"))) == 2


def test_the_key_is_never_written_into_the_bundle_dir(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "b"
    res = swr("audit", "bundles", str(release), "--out", str(out), "--key", str(out / "key.json"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "--key" in res.stderr and "outside" in res.stderr and not out.exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    res = swr("audit", "bundles", str(release), "--out", str(tmp_path / "full"))
    assert res.returncode == 2 and "--out" in res.stderr and len(res.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------ agreement


def write_labels(path: Path, labels: dict[tuple[str, str], str]) -> Path:
    """A label sheet as annotators return it (rows in any order, a note here and there)."""
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["bundle_id", "case", "label", "note"])
        for (b, c), lab in sorted(labels.items(), reverse=True):
            w.writerow([b, c, lab, "looked twice" if lab == "unsure" else ""])
    return path


def designed(key: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {
        (b["bundle_id"], c): "valid" if r["designed_valid"] else "invalid"
        for b in key["bundles"]
        for c, r in b["cases"].items()
    }


def pick(key: dict[str, Any], stratum: str, valid: bool) -> tuple[str, str]:
    return next(
        (b["bundle_id"], c)
        for b in key["bundles"]
        for c, r in sorted(b["cases"].items())
        if b["stratum"] == stratum and r["designed_valid"] == valid
    )


def test_agreement_reproduces_hand_computed_numbers(audit: tuple, tmp_path: Path) -> None:
    out, key = audit
    key_file = out.with_name("bundles.key.json")
    truth = designed(key)
    assert sorted(truth.values()).count("valid") == 4 and len(truth) == 8
    x1, x2 = pick(key, "geometry", True), pick(key, "structured", False)
    x3 = next(
        c
        for c in truth
        if c not in (x2,)
        and truth[c] == "invalid"
        and c[0] != x1[0]
        and any(b["bundle_id"] == c[0] and b["stratum"] == "structured" for b in key["bundles"])
    )
    x4 = pick(key, "structured", True)
    a = write_labels(tmp_path / "a.csv", {**truth, x1: "invalid"})  # A: 3 valid, 5 invalid
    b = write_labels(tmp_path / "b.csv", {**truth, x2: "unsure"})  # B: 4 valid, 3 invalid, 1 unsure
    adj = write_labels(tmp_path / "adj.csv", {**truth, x1: "invalid", x3: "valid", x4: "unsure"})
    res = swr("audit", "agreement", str(a), str(b), "--adjudicated", str(adj), "--key", str(key_file), "--json")
    assert res.returncode == 1, res.stdout + res.stderr  # the verifier errs against the adjudicated labels
    r = json.loads(res.stdout)
    # before adjudication: A and B differ on x1 and x2, 6 of 8 agree; chance agreement (3·4 + 5·3 + 0·1)/8²
    assert r["annotator_agreement"]["k"] == 6 and r["annotator_agreement"]["n"] == 8
    p_o, p_e = 6 / 8, (3 * 4 + 5 * 3 + 0 * 1) / 64
    assert r["cohen_kappa"] == pytest.approx((p_o - p_e) / (1 - p_e)) == pytest.approx(21 / 37)
    # adjudicated: x4 unsure (unresolved); x1 and x3 against their design → label validity 5/7
    assert r["unresolved"] == 1 and (r["label_validity"]["k"], r["label_validity"]["n"]) == (5, 7)
    assert (r["verifier_agreement"]["k"], r["verifier_agreement"]["n"]) == (5, 7)
    # the verifier accepted x1 (now invalid) and rejected x3 (now valid): FA 1 of 4 invalid, FR 1 of 3 valid
    assert (r["false_accepts"], r["false_accept_rate"]["n"]) == (1, 4)
    assert (r["false_rejects"], r["false_reject_rate"]["n"]) == (1, 3)
    assert r["false_accept_rate"]["wilson95"] == pytest.approx(list(wilson(1, 4)))
    strata = {s["stratum"]: (s["cases"], s["k"]) for s in r["strata"]}
    assert strata == {
        "structured valid": (2, 1),
        "structured invalid": (1, 0),
        "geometry valid": (1, 0),
        "geometry invalid": (3, 1),
    }
    for s in r["strata"]:
        assert s["wilson95"] == pytest.approx(list(wilson(s["k"], s["cases"])))
    # without an adjudicated sheet the annotators' agreed labels decide; the two disagreements stay unresolved
    res = swr("audit", "agreement", str(a), str(b), "--key", str(key_file), "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    r = json.loads(res.stdout)
    assert r["unresolved"] == 2 and r["label_validity"]["k"] == r["label_validity"]["n"] == 6
    assert r["false_accepts"] == r["false_rejects"] == 0
    table = swr("audit", "agreement", str(a), str(b), "--key", str(key_file))
    assert table.returncode == 0 and "kappa 0.568" in table.stdout


def test_cohen_kappa_by_hand() -> None:
    # 10 items: both say yes on 4, both no on 3, A yes/B no on 2, A no/B yes on 1 → p_o 0.7, p_e 0.3·... by hand
    a = ["y"] * 4 + ["n"] * 3 + ["y"] * 2 + ["n"]
    b = ["y"] * 4 + ["n"] * 3 + ["n"] * 2 + ["y"]
    p_o, p_e = 0.7, (6 * 5 + 4 * 5) / 100
    assert cohen_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e)) == pytest.approx(0.4)
    assert cohen_kappa(["y", "y"], ["y", "y"]) is None  # one category: chance agreement is already 1
    assert cohen_kappa(a, a) == 1.0


@pytest.mark.parametrize(
    "breakage, where",
    [
        (lambda rows: rows[2].__setitem__(2, "maybe"), "row 3: label"),
        (lambda rows: [r.pop(2) for r in rows], "label"),
        (lambda rows: rows[4].__setitem__(0, "bundle-999"), "row 5: bundle_id"),
        (lambda rows: rows.append(list(rows[2])), f"row {9 + 1}: case"),
        (lambda rows: rows.pop(), "bundle_id"),
        (lambda rows: rows[3].__setitem__(2, ""), "row 4: label"),
    ],
)
def test_a_malformed_label_sheet_exits_2_naming_file_and_row(
    audit: tuple, tmp_path: Path, breakage: Any, where: str
) -> None:
    out, key = audit
    rows = [["bundle_id", "case", "label", "note"]] + [[b, c, lab, ""] for (b, c), lab in sorted(designed(key).items())]
    breakage(rows)
    bad = tmp_path / "bad.csv"
    with bad.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    good = write_labels(tmp_path / "good.csv", designed(key))
    res = swr("audit", "agreement", str(good), str(bad), "--key", str(out.with_name("bundles.key.json")))
    assert res.returncode == 2, res.stdout + res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and f"`{where}`" in lines[0], lines
    assert "Traceback" not in res.stderr

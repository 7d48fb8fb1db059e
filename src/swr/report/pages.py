"""The pages: jinja2 templates (autoescape always on: run content is agent output) filled from ReportData,
with the plots inlined as SVG."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from swr.core.layout import ReportPaths

from . import plots
from .audits import audit_table
from .composition import page_tables
from .data import AUDITS, ReportData, Run, task_counts
from .runview import diff_lines, trajectory_view, verdict_view


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("swr.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["pct"] = lambda x: "-" if x is None else f"{100 * x:.1f}%"
    env.filters["num"] = lambda x: "-" if x is None else (f"{x:g}" if isinstance(x, (int, float)) else str(x))
    env.filters["money"] = lambda x: f"${x:.4f}"
    return env


def _plot(svg: str) -> Markup:
    """matplotlib's own SVG (it escapes the labels it draws), trusted as markup."""
    return Markup(svg)  # noqa: S704 - generated here from escaped text, never from agent output verbatim


def model_plots(data: ReportData) -> dict[str, Markup]:
    """Pass rates by model, domain and family; the failure taxonomy; turns and tokens of passes and failures."""
    cmp, by_model = data.compare or {}, data.by_model
    out: dict[str, Markup] = {}
    models = [m["model"] for m in cmp.get("models", [])]
    k = cmp.get("k", 1)
    out["models"] = _plot(
        plots.grouped_bars(
            "models",
            "pass rate by model",
            models,
            {
                "first attempt": [m["first_attempt_pass_rate"] for m in cmp["models"]],
                f"pass@{k}": [m["pass_at_k"] for m in cmp["models"]],
            },
            "share of tasks",
            rate=True,
        )
    )
    for by, key in (("domain", "by_domain"), ("family", "by_family")):
        cats = sorted({c for s in by_model.values() for c in s[key]})
        series = {label: [s[key].get(c, {}).get("pass_at_1", 0.0) for c in cats] for label, s in by_model.items()}
        out[by] = _plot(plots.grouped_bars(by, f"pass@1 by {by}", cats, series, "pass@1", rate=True))
    labels = sorted({lab for s in by_model.values() for lab in s["labels"] if lab != "pass"})
    if labels:
        series = {label: [s["labels"].get(lab, 0) for lab in labels] for label, s in by_model.items()}
        top = max((v for vs in series.values() for v in vs), default=1)
        out["labels"] = _plot(
            plots.grouped_bars("labels", "failure taxonomy (runs per label)", labels, series, "runs", float(top))
        )
    done = [r.record for r in data.runs if r.record.status == "done"]
    panels = {
        name: ([f(r) for r in done if r.passed], [f(r) for r in done if not r.passed])
        for name, f in (("turns", lambda r: r.turns), ("tokens (in + out)", lambda r: r.input_tokens + r.output_tokens))
    }
    out["length"] = _plot(plots.passes_against_failures("length", panels))
    return out


def release_plots(data: ReportData) -> dict[str, Markup]:
    out = {}
    for by in ("domain", "family"):
        counts = task_counts(data.tasks, by)
        if counts:
            out[f"tasks_{by}"] = _plot(
                plots.grouped_bars(
                    f"tasks-{by}",
                    f"tasks by {by}",
                    list(counts),
                    {"tasks": list(counts.values())},
                    "tasks",
                    float(max(counts.values())),
                )
            )
    return out


def index_context(data: ReportData) -> dict[str, Any]:
    hrefs = {(r.record.job, r.record.key): ReportPaths.run_href(r.page) for r in data.runs}
    release = data.release
    return {
        "data": data,
        "cmp": data.compare,
        "by_model": data.by_model,
        "hrefs": hrefs,
        "plots": {**(model_plots(data) if data.compare else {}), **(release_plots(data) if data.tasks else {})},
        "audits": {name: audit_table(release, name, data.audits.get(name)) for name in AUDITS} if release else {},
        "kinds": dict(sorted(Counter(t["kind"] for t in data.tasks).items())),
        "families": sorted({(t["domain"], t["family"]) for t in data.tasks}),
        "family_counts": Counter((t["domain"], t["family"]) for t in data.tasks),
        "composition": page_tables(data.composition) if data.composition else [],
    }


def run_context(run: Run, index_href: str) -> dict[str, Any]:
    return {
        "run": run,
        "r": run.record,
        "index": index_href,
        "trajectory": trajectory_view(run.paths.trajectory),
        "diff": diff_lines(run.paths.diff),
        "verdict": verdict_view(run.record),
    }


def write_pages(data: ReportData, report: ReportPaths) -> list[str]:
    """Write index.html and every run page; the written paths relative to the report, in order."""
    env = environment()
    report.runs.mkdir(parents=True, exist_ok=True)
    report.index.write_text(env.get_template("index.html.j2").render(index_context(data)))
    written = [report.index.name]
    page = env.get_template("run.html.j2")
    for run in data.runs:
        target = report.run_page(run.page)
        back = os.path.relpath(report.index, target.parent)
        target.write_text(page.render(run_context(run, back)))
        written.append(ReportPaths.run_href(run.page))
    return written

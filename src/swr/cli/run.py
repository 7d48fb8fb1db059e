"""`swr run` and `swr results`: agents on a release's tasks, recorded in a resumable store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import typer

from swr.cli.common import JSON, SANDBOX, app, err, handled, out

if TYPE_CHECKING:
    from swr.sandbox.podman import PodmanSandbox

JOBS_DIR = typer.Option(Path("jobs"), "--jobs-dir", help="Where the store and run records live.")


@app.command("run")
@handled
def run(
    release: Path,
    agent: str = typer.Option(..., "-a", "--agent", help="nop, oracle, openai, or a command-agent preset."),
    model: str = typer.Option(None, "-m", "--model"),
    attempts: int = typer.Option(1, "-k", "--n-attempts", min=1),
    concurrent: int = typer.Option(2, "-n", "--n-concurrent", min=1),
    include: list[str] = typer.Option([], "-i", "--include", help="Task-id glob or @FILE of ids (repeatable)."),
    exclude: list[str] = typer.Option([], "-x", "--exclude", help="Task-id glob or @FILE to skip (repeatable)."),
    job: str = typer.Option(None, "--job", help="Job name (default: from agent, model and settings)."),
    jobs_dir: Path = JOBS_DIR,
    max_turns: int = typer.Option(50, "--max-turns", min=1),
    time_limit: float = typer.Option(1800.0, "--time-limit", help="Seconds of wall time per run."),
    token_limit: int = typer.Option(None, "--token-limit", help="Input + output tokens per run."),
    max_output_tokens: int = typer.Option(4096, "--max-output-tokens", help="Cap on each model call's output."),
    base_url: str = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint (openai agent)."),
    agent_kwargs: list[str] = typer.Option(
        [],
        "--ak",
        "--agent-kwarg",
        help="KEY=VALUE agent option (repeatable), e.g. price_in=3 price_out=15 (USD per 1M tokens).",
    ),
    executor: str = typer.Option("local", "--executor", help="local or dask."),
    scheduler: str = typer.Option(None, "--scheduler", help="Dask scheduler address (default: a LocalCluster)."),
    retries: int = typer.Option(1, "--retries", min=0, help="Extra tries for an infrastructure failure."),
    cheat_policy: str = typer.Option(
        "fail", "--cheat-policy", help="fail: an anti-cheat finding fails the run; record: only recorded."
    ),
    sandbox: str = SANDBOX,
    image: str = typer.Option(
        "auto",
        "--image",
        help="podman/docker: auto (the task's image, else one "
        "built from its [requires]), host (the host's /usr), or an image name.",
    ),
    as_json: bool = JSON,
) -> None:
    """Run an agent on every task (k attempts each); the same command again resumes the job."""
    from swr.export.subset import expand_at
    from swr.harness.agents import Budget
    from swr.harness.results import job_results
    from swr.harness.run import JobConfig, run_job

    options = _kwargs(agent_kwargs) | ({"base_url": base_url} if base_url else {})
    cfg = JobConfig(
        release=release,
        agent=agent,
        model=model,
        attempts=attempts,
        include=tuple(expand_at(include, "--include")),
        exclude=tuple(expand_at(exclude, "--exclude")),
        budget=Budget(max_turns, time_limit, token_limit, max_output_tokens),
        job=job,
        jobs_dir=jobs_dir,
        concurrency=concurrent,
        executor=executor,
        scheduler=scheduler,
        sandbox=sandbox,
        image=image,
        retries=retries,
        cheat_policy=cheat_policy,
        agent_options=options,
    )

    def show(r) -> None:  # noqa: ANN001
        mark = "pass" if r.passed else (r.label or r.status)
        err.print(f"{r.task} #{r.attempt}: {mark}", markup=False, highlight=False)

    run_job(cfg, show)
    res = job_results(jobs_dir, cfg.name)
    if as_json:
        print(json.dumps(res, indent=2))
    else:
        out.print(
            f"job {cfg.name}: {res['passed']}/{res['runs']} runs passed, pass@1 {res['pass_at_1']:.3f}, "
            f"{res['infra_failures']} infrastructure failures"
            + (f", {res['skipped']} skipped (this machine cannot run them)" if res.get("skipped") else ""),
            markup=False,
            highlight=False,
        )


def _kwargs(pairs: list[str]) -> dict[str, Any]:
    """`--ak KEY=VALUE`: the value as JSON when it parses (numbers, booleans), else the string."""
    from swr.core.errors import SwrError

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SwrError(f"expected KEY=VALUE, got {pair!r}", field="--ak")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


@app.command("results")
@handled
def results(
    jobs: list[str] = typer.Argument(..., metavar="JOB", help="One job, or several to compare models."),
    jobs_dir: Path = JOBS_DIR,
    k: int = typer.Option(None, "-k"),
    as_json: bool = JSON,
    cohort: list[str] = typer.Option(
        [],
        "--cohort",
        help="Split pass rates by cohort: obfuscated (plain vs obfuscated revival tasks), released (needs --cutoff) "
        "or contamination (original vs obfuscated vs post-cutoff, with each obfuscated pair's line similarity).",
    ),
    cutoff: str = typer.Option(
        None,
        "--cutoff",
        help="YYYY-MM-DD: revival tasks released before it vs on or after it (implies --cohort released).",
    ),
) -> None:
    """One job: pass@1, pass@k, per-domain and per-family rates and the failure taxonomy. Several jobs (or
    models): the model x task matrix and per-model accounting (docs/results.md)."""
    from swr.cli.tables import compare_tables, results_tables
    from swr.core.errors import SwrError
    from swr.harness.matrix import compare_jobs, models_in
    from swr.harness.results import job_results, parse_cutoff

    day = parse_cutoff(cutoff)
    if len(set(jobs)) > 1 or models_in(jobs_dir, jobs) > 1:
        if cohort or day:
            raise SwrError("cohorts split one job's pass rates; give a single job", field="--cohort")
        res = compare_jobs(jobs_dir, jobs, k)
        tables = compare_tables(res)
    else:
        res = job_results(jobs_dir, jobs[0], k, tuple(dict.fromkeys([*cohort, *(["released"] if day else [])])), day)
        tables = results_tables(res)
    if as_json:
        print(json.dumps(res, indent=2))
        return
    for table in tables:
        out.print(table)


image_app = typer.Typer(help="Container images for podman/docker runs (`swr run -e podman`).", no_args_is_help=True)
app.add_typer(image_app, name="image")
BACKEND = typer.Option("podman", "-e", "--sandbox", help="podman or docker.")


def _images(backend: str):  # noqa: ANN202
    from swr.core.errors import SwrError
    from swr.sandbox import get_sandbox

    if backend not in ("podman", "docker"):
        raise SwrError(f"images need podman or docker, not {backend!r}", field="--sandbox")
    return cast("PodmanSandbox", get_sandbox(backend)).images  # podman or docker: a PodmanSandbox


@image_app.command("base")
@handled
def image_base(backend: str = BACKEND) -> None:
    """Bootstrap the local base image from Debian's package mirror (for machines with no registry)."""
    print(_images(backend).bootstrap_base())


@image_app.command("build")
@handled
def image_build(
    release: Path, include: list[str] = typer.Option([], "-i", "--include"), backend: str = BACKEND
) -> None:
    """Build the image of every task, one per distinct environment; print each task's image (`host`: a task
    that records no environment, such as an engine or revival task, runs on the host's system)."""
    import fnmatch

    from swr import kinds
    from swr.core.release_dir import list_tasks

    images = _images(backend)
    for root in list_tasks(release):
        if include and not any(fnmatch.fnmatch(root.name, g) for g in include):
            continue
        env = kinds.load(root).environment
        print(f"{root.name}\t{images.for_task(env) if env else 'host'}", flush=True)

"""Static SVG plots (matplotlib's SVG backend, no pyplot state): inlined into the pages, so nothing is fetched
at view time. Each data mark carries an id `mark-<plot>-<i>` that tests and readers' tools can find; a fixed
hash salt and no date make the same data give the same bytes."""

from __future__ import annotations

import io
import random
import re
import statistics
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter, ScalarFormatter

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")
PASS, FAIL = "#55a868", "#c44e52"
RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",
    "text.parse_math": False,
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
_PROLOGUE = re.compile(r"\A.*?(?=<svg)", re.S)
_SERIAL_ID = re.compile(r'id="([a-z0-9.]+_\d+)"')  # figure_1, patch_3...: the same in every plot of a page


def _svg(fig: Figure, name: str) -> str:
    """The figure as an <svg> element (no XML prologue), deterministic for its name and data."""
    buf = io.StringIO()
    with rc_context({**RC, "svg.hashsalt": f"swr-report-{name}"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    return _SERIAL_ID.sub(rf'id="{name}-\1"', _PROLOGUE.sub("", buf.getvalue(), count=1))


def _figure(width: float, height: float) -> Figure:
    with rc_context(RC):
        return Figure(figsize=(width, height), dpi=72)


def grouped_bars(
    name: str,
    title: str,
    categories: Sequence[str],
    series: Mapping[str, Sequence[float]],
    xlabel: str,
    xmax: float | None = None,
    rate: bool = False,
) -> str:
    """Horizontal bars: one group per category, one bar per series (a model); values as text at the bar end
    (`rate`: shares, shown as percentages on a 0–100% axis; else counts, on an integer axis)."""
    n, m = len(categories), max(len(series), 1)
    with rc_context(RC):
        fig = _figure(6.5, 0.6 + 0.28 * max(n * m, 2) + 0.15 * n)
        ax = fig.add_subplot()
        height = 0.8 / m
        mark = 0
        for j, (label, values) in enumerate(series.items()):
            ys = [i + (j - (m - 1) / 2) * height for i in range(n)]
            bars = ax.barh(ys, values, height=height * 0.92, color=PALETTE[j % len(PALETTE)], label=label)
            for bar, v in zip(bars, values):
                bar.set_gid(f"mark-{name}-{mark}")
                mark += 1
                text = f" {100 * v:.0f}%" if rate else f" {v:g}"
                ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, text, va="center", fontsize=8)
        ax.set_yticks(range(n), list(categories))
        ax.invert_yaxis()
        ax.set_xlabel(xlabel)
        ax.set_title(title, loc="left")
        ax.set_xlim(0, (1.0 if rate else max(xmax or 1.0, 1.0)) * 1.12)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0) if rate else ScalarFormatter())
        if not rate:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if len(series) > 1:
            ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
        return _svg(fig, name)


def _jitter(n: int, seed: str) -> list[float]:
    """Fixed horizontal offsets so that equal values stay visible as separate points."""
    rng = random.Random(seed)
    return [rng.uniform(-0.18, 0.18) for _ in range(n)]


def passes_against_failures(name: str, panels: Mapping[str, tuple[Sequence[float], Sequence[float]]]) -> str:
    """One panel per measure (turns, tokens): every finished run as a point, passes beside failures, with
    the median as a bar across each group."""
    with rc_context(RC):
        fig = _figure(3.2 * max(len(panels), 1), 3.0)
        axes = fig.subplots(1, max(len(panels), 1), squeeze=False)[0]
        mark = 0
        for ax, (measure, (passed, failed)) in zip(axes, panels.items()):
            for x, (values, colour) in enumerate(((passed, PASS), (failed, FAIL))):
                for dx, v in zip(_jitter(len(values), f"{measure}{x}"), values):
                    ax.scatter([x + dx], [v], s=18, color=colour, alpha=0.8, gid=f"mark-{name}-{mark}")
                    mark += 1
                if values:
                    ax.hlines(statistics.median(values), x - 0.3, x + 0.3, color="#222222", linewidth=1.5)
            ax.set_xticks([0, 1], [f"passed ({len(passed)})", f"failed ({len(failed)})"])
            ax.set_xlim(-0.6, 1.6)
            ax.set_ylim(bottom=0)
            ax.set_title(measure, loc="left")
        return _svg(fig, name)

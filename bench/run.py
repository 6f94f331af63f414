"""`make bench`: every comparison measured side by side in one run; `make bench-quick`: the rows a
change usually touches, in under two minutes.

Runs the adapter benchmarks (AG2, ag2 1.x, agno), the server benchmarks (bench_server, with the
recall floor of the same run), search quality, fairness, start-up and the storage engines, prints
one markdown report with each section's wall time, and writes it with a PNG chart of server
latency against memories to bench/out/, and as the documentation's figures page (docs/figures.md).

    python bench/run.py [SIZE ...]     # the whole bench (default sizes 1,000 10,000 100,000)
    python bench/run.py --quick [SIZE ...]  # hooks, server at 1,000 (or SIZE) with its floor; bench/out/quick.md

The synthetic corpus is embedded once and its vectors cached in bench/out/corpus/ (keyed by the
texts, the model and its graph), so only the first run on a machine pays for embedding it.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_ag2  # noqa: E402
import bench_ag2_v1  # noqa: E402
import bench_agno  # noqa: E402
import bench_build  # noqa: E402
import bench_engines  # noqa: E402
import bench_fairness  # noqa: E402
import bench_server  # noqa: E402
import bench_startup  # noqa: E402
import loop_pauses  # noqa: E402

OUT = HERE / "out"
# The documentation's one page of figures that change with every run (docs/figures.md).
FIGURES_PAGE = HERE.parent / "docs" / "figures.md"
FIGURES_INTRO = """# Figures

<!-- figures:generated (bench/run.py writes this page: `make bench`; edit bench/, not this page) -->

Every figure here changes with each run of `make bench` (and with what else the machine is doing);
the other pages link here instead of repeating them. Compare rows measured in one run: each
section says how long it took and the machine's load average when it ended.
"""
# What `make bench-quick` leaves out, printed with its report.
QUICK_LEAVES_OUT = (
    "left out by --quick: the server at 10,000 and 100,000 memories (and their floor ratio), "
    "building while recalling, agno db, search quality (make eval), fairness, start-up and the "
    "storage engines; `make bench` runs them all"
)

# Text under each heading of the figures page: how the rows were measured.
NOTES = {
    "AG2 capability": (
        "What the capability adds to a real two-agent chat with a scripted model, against the local "
        "server: each row is the median of the runs' medians, with the lowest and highest run median."
    ),
    "Local server: search speed": (
        "One user with N memories (a tenth of them kept turns, type `conversation`, with the fact "
        "distilled from each), HTTP over loopback, default search, prompt encoding included; "
        "`add_turn_per_s` writes to that same user, at that size. Seeded in bulk through the storage "
        "with cached vectors (`embed_s` is loading or computing them). Each figure is the median of "
        "`BENCH_RUNS` runs (default 3) with the runs' min-max. The floor table measures, in the same "
        "run, what a recall cannot avoid: encoding the same prompts in-process and an empty "
        "authenticated round trip to the same server."
    ),
    "Engines and processes": (
        "Recall p50/p95 over loopback HTTP for one user holding N memories (the server bench's corpus "
        "and cached vectors, seeded through the storage), and sequential add_turn/s; then requests "
        "per second from 8 concurrent clients against `serve --workers N` on one throwaway "
        "PostgreSQL (fsync off)."
    ),
    "Start-up": (bench_startup.__doc__ or "").split("\n\n")[1] if bench_startup.__doc__ else "",
}


def chart(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r["size"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    for key, label, style in [
        ("recall_p50_ms", "recall p50", "o-"),
        ("recall_p95_ms", "recall p95", "o--"),
        ("query_p50_ms", "query p50", "s-"),
        ("query_p95_ms", "query p95", "s--"),
    ]:
        # A figure may read "median (min-max)": the chart plots the median.
        ax.plot(sizes, [float(str(r[key]).split()[0]) for r in rows], style, label=label)
    ax.set_xscale("log")
    ax.set_xlabel("memories for one user")
    ax.set_ylabel("latency over loopback HTTP (ms)")
    ax.set_title("memorysync-server: recall / query latency vs memories")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def search_quality() -> str:
    # The eval runner lives at the repository root (eval/), next to bench/.
    sys.path.insert(0, str(HERE.parent))
    from eval.run import quality_table

    return quality_table()


class Report:
    """Sections run one after the other; each is printed as it ends, with its wall time."""

    def __init__(self) -> None:
        self.sections: list[tuple[str, str]] = []
        self.times: list[tuple[str, float]] = []

    def section(self, title: str, run: Callable[[], str]) -> None:
        print(f"\n## {title}\n", flush=True)
        started = time.perf_counter()
        body = run()
        elapsed = time.perf_counter() - started
        self.times.append((title, elapsed))
        footer = f"_Section took {elapsed:.0f} s; load average {bench_startup.load_average()}._"
        print(f"{body}\n\n{footer}", flush=True)
        note = NOTES.get(title, "")
        self.sections.append((title, "\n\n".join(part for part in (note, body, footer) if part)))

    def timings(self) -> str:
        lines = ["| section | wall time s |", "|---|---|"]
        lines += [f"| {title} | {seconds:.0f} |" for title, seconds in self.times]
        lines.append(f"| **total** | {sum(s for _, s in self.times):.0f} |")
        return "\n".join(lines)

    def markdown(self, header: str) -> str:
        parts = [header]
        parts += [f"## {title}\n\n{text}" for title, text in self.sections]
        parts.append(f"## Bench wall time\n\n{self.timings()}")
        return "\n\n".join(parts) + "\n"


def _server(report: Report, sizes: tuple[int, ...], runs: int | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []

    def run() -> str:
        rows.extend(bench_server.measure(sizes, runs=runs))
        return f"{bench_server.markdown(rows)}\n\n{bench_server.floor_markdown(rows)}"

    report.section("Local server: search speed", run)
    return rows


def main() -> int:
    logging.getLogger("autogen").setLevel(logging.WARNING)  # its INFO lines would split the tables
    args = sys.argv[1:]
    quick = "--quick" in args
    sizes = tuple(int(a) for a in args if a != "--quick") or ((1_000,) if quick else (1_000, 10_000, 100_000))
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    # Quick: two runs, so each row still shows a spread (an AG2 run takes ~25 s on 2 busy cores).
    runs = int(os.environ.get("BENCH_RUNS", "2" if quick else "5"))
    header = (
        f"Measured {stamp} on {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}; client and server on the same machine over loopback; "
        f"load average at the start {bench_startup.load_average()}. "
        f"AG2 rows: median of {runs} runs, with the spread of the run medians (BENCH_RUNS=N to change)."
    )
    print(header, flush=True)
    report = Report()
    report.section("AG2 capability", lambda: bench_ag2.to_markdown(bench_ag2.measure(runs)))
    report.section("ag2 1.x middleware", lambda: bench_ag2_v1.to_markdown(bench_ag2_v1.measure()))
    if quick:
        _server(report, sizes, runs)
        print(f"\n## Bench wall time\n\n{report.timings()}\n\n({QUICK_LEAVES_OUT})")
        OUT.mkdir(exist_ok=True)
        (OUT / "quick.md").write_text(report.markdown(header) + f"\n{QUICK_LEAVES_OUT}\n")
        print(f"\nwrote {OUT / 'quick.md'}")
        return 0
    report.section(
        "Building memories while another agent recalls",
        lambda: bench_build.to_markdown(bench_build.measure()),
    )
    report.section(
        "agno db",
        lambda: (
            bench_agno.to_markdown(bench_agno.measure())
            + "\n\n"
            + bench_agno.agno_test_markdown(
                bench_agno.agno_test_shape(), bench_agno.agno_test_shape(where="own process")
            )
        ),
    )
    report.section(
        "Event-loop pauses under AsyncMemorySyncDb, per part",
        lambda: loop_pauses.to_markdown(loop_pauses.measure()),
    )
    server_rows = _server(report, sizes)
    report.section("Search quality (make eval)", search_quality)
    report.section("Fairness between tenants", lambda: bench_fairness.markdown(bench_fairness.measure()))
    report.section("Start-up", lambda: bench_startup.markdown(bench_startup.measure()))
    engine_sizes = tuple(s for s in sizes if s >= 10_000)
    report.section(
        "Engines and processes", lambda: bench_engines.markdown(*bench_engines.measure(engine_sizes))
    )
    print(f"\n## Bench wall time\n\n{report.timings()}", flush=True)
    OUT.mkdir(exist_ok=True)
    png = OUT / "latency_vs_memories.png"
    chart(server_rows, png)
    text = report.markdown(header)
    (OUT / "results.md").write_text(text)
    FIGURES_PAGE.write_text(FIGURES_INTRO + "\n" + text)
    print(f"\nwrote {OUT / 'results.md'}, {FIGURES_PAGE} and {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

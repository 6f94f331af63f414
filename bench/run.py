"""`make bench`: every comparison measured side by side in one run.

Runs the AG2 adapter benchmarks (bench_ag2) and the server benchmarks (bench_server, start-up
included), prints one markdown report, and writes it with a PNG chart of server latency against
memories to bench/out/, and as the documentation's figures page (docs/figures.md).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import platform
import sys
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

OUT = HERE / "out"
# The documentation's one page of figures that change with every run (docs/figures.md).
FIGURES_PAGE = HERE.parent / "docs" / "figures.md"
FIGURES_INTRO = """# Figures

<!-- figures:generated (bench/run.py writes this page: `make bench`; edit bench/, not this page) -->

Every figure here changes with each run of `make bench` (and with what else the machine is doing);
the other pages link here instead of repeating them. Compare rows measured in one run.
"""


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


def main() -> int:
    logging.getLogger("autogen").setLevel(logging.WARNING)  # its INFO lines would split the tables
    sizes = tuple(int(a) for a in sys.argv[1:]) or (1_000, 10_000, 100_000)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    header = (
        f"Measured {stamp} on {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}; client and server on the same machine over loopback. "
        f"AG2 rows: median of {runs} runs, with the spread of the run medians (BENCH_RUNS=N to change)."
    )
    print(header, flush=True)
    print("\n## AG2 capability (ag2_memorysync)\n", flush=True)
    ag2_table = bench_ag2.to_markdown(bench_ag2.measure(runs))
    print(ag2_table, flush=True)
    print("\n## ag2 1.x middleware (ag2_memorysync.MemorySyncMiddleware)\n", flush=True)
    ag2_v1_table = bench_ag2_v1.to_markdown(bench_ag2_v1.measure())
    print(ag2_v1_table, flush=True)
    print("\n## Building memories while another agent recalls (ag2_memorysync)\n", flush=True)
    build_table = bench_build.to_markdown(bench_build.measure())
    print(build_table, flush=True)
    print("\n## agno db (agno_memorysync)\n", flush=True)
    agno_table = bench_agno.to_markdown(bench_agno.measure())
    print(agno_table, flush=True)
    print("\n## Local server (memorysync_server)\n", flush=True)
    server_rows = bench_server.measure(sizes)
    server_table = bench_server.markdown(server_rows)
    print(server_table)
    print("\n## Search quality (make eval)\n", flush=True)
    quality = search_quality()
    print(quality, flush=True)
    print("\n## Fairness between tenants\n", flush=True)
    fairness_table = bench_fairness.markdown(bench_fairness.measure())
    print(fairness_table, flush=True)
    print(f"\n## Start-up (load average {bench_startup.load_average()})\n", flush=True)
    startup_table = bench_startup.markdown(bench_startup.measure())
    print(startup_table, flush=True)
    print("\n## Storage engines (SQLite, PostgreSQL)\n", flush=True)
    engines_table = bench_engines.markdown(*bench_engines.measure(tuple(s for s in sizes if s >= 10_000)))
    print(engines_table, flush=True)
    OUT.mkdir(exist_ok=True)
    png = OUT / "latency_vs_memories.png"
    chart(server_rows, png)
    report = f"{header}\n\n## AG2 capability\n\n{ag2_table}\n\n## ag2 1.x middleware\n\n{ag2_v1_table}\n\n## Building memories while another agent recalls\n\n{build_table}\n\n## agno db\n\n{agno_table}\n\n## Local server\n\n{server_table}\n"
    report += f"\n## Search quality (make eval)\n\n{quality}\n"
    report += f"\n## Fairness between tenants\n\n{fairness_table}\n\n## Storage engines\n\n{engines_table}\n"
    report += f"\n## Start-up\n\n{bench_startup.__doc__.split(chr(10) + chr(10))[1]}\n\n{startup_table}\n"
    (OUT / "results.md").write_text(report)
    FIGURES_PAGE.write_text(FIGURES_INTRO + "\n" + report)
    print(f"\nwrote {OUT / 'results.md'}, {FIGURES_PAGE} and {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

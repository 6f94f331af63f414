"""Run the adapter and contract suites against framework versions x Python versions.

Each cell gets its own virtualenv under ``.matrix/`` (pip's cache is shared, so a rebuild is
mostly copying wheels). A cell installs the framework first, the way a user already has it, then
the kit the way the README tells that user to, and checks the framework was not replaced before
it runs the suites. ``make matrix`` runs the full grid and writes the support table into
docs/versions.md between the markers; ``make matrix-ci`` runs the reduced grid and writes nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pip vendors the same parser
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
WORK = Path(os.environ.get("MATRIX_DIR", ROOT / ".matrix"))  # venvs, logs, results.json
BEGIN = "<!-- matrix:begin (written by make matrix; edit tools/matrix.py, not this table) -->"
END = "<!-- matrix:end -->"

# The dev extra minus what only lint, codegen, fuzzing and charts need: the suites run here
# import none of these, and leaving them out halves the install.
NOT_FOR_SUITES = {"schemathesis", "openapi-python-client", "ruff", "matplotlib"}

CONTRACT = "tests/contract"


@dataclasses.dataclass(frozen=True)
class Framework:
    """One framework release as a user has it: ``dist==version``, then the kit on top."""

    dist: str
    version: str
    suite: str
    kit: str  # what the user installs next to it, per the README
    max_python: tuple[int, int] | None = None  # the release's own Requires-Python upper bound
    absent: tuple[str, ...] = ()  # distributions the kit must not have pulled in

    @property
    def label(self) -> str:
        return f"{self.dist} {self.version}"

    @property
    def slug(self) -> str:
        return f"{self.dist}-{self.version}"


AG2 = "tests/ag2"
AGNO = "tests/agno"

FRAMEWORKS = [
    # autogen 0.3.2 is the oldest AG2-classic release the suites pass on; it declares Python < 3.13,
    # and 0.4 is the oldest that installs on 3.13.
    Framework("autogen", "0.3.2", AG2, ".[ag2,server]", max_python=(3, 12)),
    Framework("autogen", "0.4", AG2, ".[ag2,server]"),
    # 0.5 to 0.14.0 are metadata-only aliases of pyautogen / ag2 of the same version.
    Framework("autogen", "0.9.10", AG2, ".[ag2,server]"),
    Framework("autogen", "0.14.1", AG2, ".[ag2,server]"),
    # The `ag2` distribution ships the same `autogen` package; its users install the kit without
    # the ag2 extra, which would add the `autogen` distribution over theirs.
    Framework("ag2", "0.14.0", AG2, ".[server]", absent=("autogen",)),
    Framework("agno", "3.0.0", AGNO, ".[agno,server]"),
    Framework("agno", "3.1.10", AGNO, ".[agno,server]"),
]
PYTHONS = ["3.10", "3.11", "3.13"]  # the ends, and the default interpreter in between

# CI: the oldest and newest supported release of each framework, each at one end of the Python range.
CI_CELLS = [
    ("autogen 0.3.2", "3.10"),
    ("autogen 0.14.1", "3.13"),
    ("agno 3.0.0", "3.10"),
    ("agno 3.1.10", "3.13"),
]


@dataclasses.dataclass
class Result:
    framework: str
    python: str
    status: str  # passed | failed | n/a
    passed: int = 0
    total: int = 0
    seconds: float = 0.0
    detail: str = ""


def find_python(version: str) -> str:
    """``MATRIX_PYTHON_3_10=/path`` wins, then ``python3.10`` on PATH, then pyenv's install."""
    override = os.environ.get(f"MATRIX_PYTHON_{version.replace('.', '_')}")
    if override:
        return override
    for candidate in sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python")))[::-1]:
        return candidate
    found = shutil.which(f"python{version}")
    if found:
        return found
    raise SystemExit(
        f"matrix: no Python {version} found. Install it, or point MATRIX_PYTHON_{version.replace('.', '_')} "
        f"at an interpreter, or leave it out with --python."
    )


def suite_requirements() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        dev = tomllib.load(fh)["project"]["optional-dependencies"]["dev"]
    name = re.compile(r"^\s*([A-Za-z0-9_.\-]+)")
    return [req for req in dev if name.match(req).group(1).lower() not in NOT_FOR_SUITES]


def run(cmd: list[str], log: Path, *, env: dict[str, str] | None = None) -> int:
    with log.open("a") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        return subprocess.call(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)


def installed_version(python: Path, dist: str) -> str | None:
    probe = (
        "import importlib.metadata as m, sys\n"
        "try: print(m.version(sys.argv[1]))\n"
        "except m.PackageNotFoundError: print('')\n"
    )
    out = subprocess.run([str(python), "-c", probe, dist], capture_output=True, text=True, check=True)
    return out.stdout.strip() or None


def build(fw: Framework, py: str, venv: Path, log: Path) -> str | None:
    """Create (or reuse) the cell's virtualenv; returns why it is unusable, or None."""
    reqs = suite_requirements()
    stamp_text = json.dumps([py, dataclasses.asdict(fw), reqs, (ROOT / "pyproject.toml").read_text()])
    stamp = venv / ".matrix-stamp"
    digest = hashlib.sha256(stamp_text.encode()).hexdigest()
    python = venv / "bin" / "python"
    if stamp.exists() and stamp.read_text() == digest and python.exists():
        return None
    shutil.rmtree(venv, ignore_errors=True)
    if run([find_python(py), "-m", "venv", str(venv)], log):
        return "could not create the virtualenv"
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # The user's framework first, exactly as they pinned it ...
    if run([*pip, f"{fw.dist}=={fw.version}", *reqs], log):
        return f"pip could not install {fw.dist}=={fw.version}"
    # ... then the kit the README way; pip must keep their release.
    if run([*pip, "-e", fw.kit], log):
        return f"pip could not install {fw.kit} next to {fw.label}"
    now = installed_version(python, fw.dist)
    if now != fw.version:
        return f"installing {fw.kit} replaced {fw.label} with {now}"
    for dist in fw.absent:
        if installed_version(python, dist):
            return f"installing {fw.kit} pulled in the {dist} distribution next to {fw.label}"
    stamp.write_text(digest)
    return None


def junit_counts(path: Path) -> tuple[int, int]:
    """(passed, collected) from pytest's junit xml; skips count as neither."""
    suite = ET.parse(path).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    tests, skipped = int(suite.get("tests", 0)), int(suite.get("skipped", 0))
    bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
    return tests - skipped - bad, tests - skipped


def run_cell(fw: Framework, py: str) -> Result:
    if fw.max_python and tuple(int(p) for p in py.split(".")) > fw.max_python:
        major, minor = fw.max_python
        return Result(fw.label, py, "n/a", detail=f"{fw.label} requires Python <= {major}.{minor}")
    started = time.monotonic()
    cell = f"py{py}-{fw.slug}"
    venv = WORK / "venvs" / cell
    log = WORK / "logs" / f"{cell}.log"
    xml = WORK / "logs" / f"{cell}.xml"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    problem = build(fw, py, venv, log)
    if problem:
        return Result(fw.label, py, "failed", seconds=time.monotonic() - started, detail=problem)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("VIRTUAL_ENV", None)
    xml.unlink(missing_ok=True)
    code = run(
        [str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"--junitxml={xml}", fw.suite, CONTRACT],
        log,
        env=env,
    )  # fmt: skip
    seconds = time.monotonic() - started
    if not xml.exists():
        return Result(fw.label, py, "failed", seconds=seconds, detail=f"pytest exited {code}, no report")
    passed, total = junit_counts(xml)
    status = "passed" if code == 0 and passed == total else "failed"
    return Result(fw.label, py, status, passed, total, seconds, "" if status == "passed" else f"see {log}")


def table(results: list[Result], pythons: list[str]) -> str:
    by = {(r.framework, r.python): r for r in results}
    frameworks = list(dict.fromkeys(r.framework for r in results))
    suites = {fw.label: fw.suite for fw in FRAMEWORKS}
    lines = [
        "| framework | suites | " + " | ".join(f"Python {p}" for p in pythons) + " |",
        "|---|---|" + "---|" * len(pythons),
    ]
    for name in frameworks:
        cells = []
        for py in pythons:
            r = by.get((name, py))
            if r is None:
                cells.append("not run")
            elif r.status == "n/a":
                cells.append("n/a")
            elif r.total:
                cells.append(f"{r.status} {r.passed}/{r.total}")
            else:
                cells.append(f"{r.status}: {r.detail}")
        lines.append(f"| {name} | `{suites[name]}` + `{CONTRACT}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes(results: list[Result]) -> list[str]:
    return sorted(
        {f"- {r.framework} on Python {r.python}: n/a, {r.detail}." for r in results if r.status == "n/a"}
    )


def write_readme(results: list[Result], pythons: list[str], minutes: float) -> None:
    readme = ROOT / "docs" / "versions.md"  # the page with the support table
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"matrix: docs/versions.md has no {BEGIN!r} ... {END!r} markers")
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = "\n".join(
        [
            BEGIN,
            f"From one `make matrix` run, {when}, {minutes:.1f} min on this machine. Each cell is its own",
            "virtualenv: the framework release installed first, then the kit as this page says, and the",
            "framework checked unchanged. Counts are tests passed / tests run (skips excluded).",
            "",
            table(results, pythons),
            "",
            *notes(results),
            END,
        ]
    )
    start, end = text.index(BEGIN), text.index(END) + len(END)
    readme.write_text(text[:start] + body + text[end:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ci", action="store_true", help="the reduced grid; never touches docs/versions.md")
    parser.add_argument("--python", action="append", help="only these Python versions (repeatable)")
    parser.add_argument("--framework", action="append", help="only these, e.g. 'agno 3.0.0' (repeatable)")
    parser.add_argument(
        "--no-readme", action="store_true", help="print the table, leave docs/versions.md alone"
    )
    args = parser.parse_args(argv)

    by_label = {fw.label: fw for fw in FRAMEWORKS}
    pythons = args.python or PYTHONS
    if args.ci:
        cells = [(by_label[f], p) for f, p in CI_CELLS]
        pythons = sorted({p for _, p in CI_CELLS}, key=lambda p: tuple(map(int, p.split("."))))
    else:
        chosen = [by_label[f] for f in args.framework] if args.framework else FRAMEWORKS
        cells = [(fw, py) for fw in chosen for py in pythons]

    started = time.monotonic()
    results = []
    for fw, py in cells:
        print(f"matrix: {fw.label} on Python {py} ...", flush=True)
        result = run_cell(fw, py)
        results.append(result)
        count = f" {result.passed}/{result.total}" if result.total else ""
        print(
            f"matrix: {fw.label} on Python {py}: {result.status}{count} ({result.seconds:.0f} s) {result.detail}"
        )
    minutes = (time.monotonic() - started) / 60
    WORK.mkdir(exist_ok=True)
    (WORK / "results.json").write_text(json.dumps([dataclasses.asdict(r) for r in results], indent=2))
    print()
    print(table(results, pythons))
    print(*notes(results), sep="\n")
    print(f"matrix: {len(cells)} cells in {minutes:.1f} min")
    full_grid = not (args.ci or args.python or args.framework)
    if full_grid and not args.no_readme:
        write_readme(results, pythons, minutes)
        print("matrix: docs/versions.md support table updated")
    return 1 if any(r.status == "failed" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())

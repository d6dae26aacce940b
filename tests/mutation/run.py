"""Run every rules-data mutant against the tests that name its rules; report the mutants no test catches.

    python tests/mutation/run.py            # all mutants, two at a time
    python tests/mutation/run.py --list     # the mutants and the test files each would run

A mutant is *caught* when its tests fail (pytest exit code 1). Each mutant runs only the test files that name
one of its rules in a ``# rule:`` comment, with ``-x`` so a caught mutant stops at its first failure. The
browser tests are left out (the same rules are checked below the page). The run first checks that those
files pass unmutated, so a failure is the mutant's doing. Exit code 0: every mutant caught; 1: some survived.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from mutants import Mutant, mutants  # noqa: E402
from plugin import ENVIRONMENT  # noqa: E402

_NAMED = re.compile(r"#\s*rule:([^\n]*)")
_ID = re.compile(r"\b(?:II|AS)-[A-Z]+-\d+\b")


def files_naming_rules() -> dict[str, list[Path]]:
    """Each rule ID, with the (non-browser) test files that name it in a ``# rule:`` comment."""
    named: dict[str, list[Path]] = {}
    for test_file in sorted((ROOT / "tests").rglob("test_*.py")):
        if "browser" in test_file.parts or test_file.name == "test_rule_coverage.py":
            continue
        text = test_file.read_text(encoding="utf-8")
        for rule in sorted({i for comment in _NAMED.findall(text) for i in _ID.findall(comment)}):
            named.setdefault(rule, []).append(test_file)
    return named


def files_for(mutant: Mutant, named: dict[str, list[Path]]) -> list[Path]:
    """The test files that name any rule of ``mutant``."""
    return sorted({path for rule in mutant.rules for path in named.get(rule, [])})


def _pytest(files: list[Path], mutant: Mutant | None) -> int:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    if mutant is not None:
        environment[ENVIRONMENT] = json.dumps(
            {"system": mutant.system, "path": list(mutant.path), "value": mutant.value}
        )
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "plugin", "-p", "no:cacheprovider"]
    command += ["-m", "not browser and not slow", "-o", "addopts=--import-mode=importlib", "--no-header"]
    result = subprocess.run(
        [*command, *map(str, files)], cwd=ROOT, env=environment, capture_output=True, check=False
    )
    return result.returncode


def main(argv: list[str] | None = None) -> int:
    """Run the mutants (or list them) and print one line per mutant; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the mutants and their test files")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--only", default="", help="run only mutants whose key contains this text")
    options = parser.parse_args(argv)
    named = files_naming_rules()
    chosen = [m for m in mutants() if options.only in m.key]
    plans = [(m, files_for(m, named)) for m in chosen]
    if options.list:
        for mutant, files in plans:
            print(mutant.describe(), "|", " ".join(str(f.relative_to(ROOT)) for f in files) or "NO TESTS")
        return 0
    unnamed = [m for m, files in plans if not files]
    every_file = sorted({f for _, files in plans for f in files})
    if _pytest(every_file, None) != 0:
        print("the tests fail without any mutant: fix them first", file=sys.stderr)
        return 2
    survivors = []
    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        codes = pool.map(lambda plan: _pytest(plan[1], plan[0]) if plan[1] else 0, plans)
        for (mutant, files), code in zip(plans, codes, strict=True):
            verdict = "caught" if code == 1 else ("NO TESTS" if not files else f"SURVIVED (exit {code})")
            print(f"{verdict:>10}  {mutant.describe()}  [{', '.join(mutant.rules)}]", flush=True)
            if code != 1:
                survivors.append(mutant)
    caught = len(plans) - len(survivors)
    print(f"{caught} of {len(plans)} mutants caught; {len(unnamed)} name rules no test names")
    return 1 if survivors else 0


if __name__ == "__main__":
    raise SystemExit(main())

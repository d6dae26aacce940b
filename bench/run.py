"""Run every benchmark module and print the figures.

Each ``bench/bench_<part>.py`` defines ``run() -> dict[str, float | int | str]``. This harness discovers
them in name order, runs each once, prints a human line per figure as it goes, then prints ONE line of JSON
last holding every figure of every module merged (later modules cannot silently overwrite a key: a clash
is reported and the key is prefixed with the module's part name).

Usage::

    .venv/bin/python bench/run.py            # every module
    .venv/bin/python bench/run.py dice       # only bench_dice.py (names may be repeated)
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType

Figure = float | int | str

HERE = Path(__file__).resolve().parent


def discover(only: set[str] | None = None) -> list[Path]:
    """The benchmark modules next to this file, sorted by name, optionally filtered by part name."""
    found = sorted(HERE.glob("bench_*.py"))
    if only:
        found = [path for path in found if path.stem.removeprefix("bench_") in only]
    return found


def load(path: Path) -> ModuleType:
    """Import one benchmark module from its path."""
    spec = importlib.util.spec_from_file_location(f"talespin_bench.{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _show(value: Figure) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def main(argv: list[str]) -> int:
    """Run the selected modules; return 1 if any module failed, else 0."""
    merged: dict[str, Figure] = {}
    failed: list[str] = []
    for path in discover(set(argv) or None):
        part = path.stem.removeprefix("bench_")
        started = time.perf_counter()
        try:
            figures = load(path).run()
        except Exception as error:
            print(f"[{part}] FAILED: {type(error).__name__}: {error}", flush=True)
            failed.append(part)
            continue
        elapsed = time.perf_counter() - started
        for key, value in figures.items():
            name = key if key not in merged else f"{part}.{key}"
            if name != key:
                print(f"[{part}] note: {key!r} already reported by another module, kept as {name!r}")
            merged[name] = value
            print(f"[{part}] {name} = {_show(value)}", flush=True)
        print(f"[{part}] done in {elapsed:.1f} s", flush=True)
    if failed:
        merged["failed_modules"] = ",".join(failed)
    print(json.dumps(merged, sort_keys=True))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

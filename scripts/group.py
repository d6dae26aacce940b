"""Print the requirements of a PEP 735 dependency group of pyproject.toml, one per line.

For pips older than 25.1, which lack ``pip install --group``: ``pip install $(python scripts/group.py dev)``.
``{include-group = "…"}`` entries are followed (each group once).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path


def requirements(groups: dict[str, list[object]], name: str, seen: set[str] | None = None) -> list[str]:
    """The requirement strings of group ``name``, included groups expanded in place."""
    seen = set() if seen is None else seen
    if name in seen:
        return []
    seen.add(name)
    if name not in groups:
        raise SystemExit(f"pyproject.toml has no dependency group {name!r} (it has {', '.join(groups)})")
    found: list[str] = []
    for entry in groups[name]:
        if isinstance(entry, str):
            found.append(entry)
        elif isinstance(entry, dict) and "include-group" in entry:
            found.extend(requirements(groups, str(entry["include-group"]), seen))
    return found


def main() -> None:
    """Print the group named on the command line."""
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    groups = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("dependency-groups", {})
    for name in sys.argv[1:] or ["dev"]:
        print("\n".join(requirements(groups, name)))


if __name__ == "__main__":
    main()

"""A pytest plugin that runs the suite against one rules-data mutant (see ``mutants.py``).

Loaded with ``-p plugin`` (``tests/mutation`` on ``PYTHONPATH``) and the mutant in the environment variable
``TALESPIN_RULES_MUTANT`` as JSON ``{"system": …, "path": […], "value": …}``. It changes what the rules
loader reads before any test runs; nothing in the program itself knows about mutants.
"""

from __future__ import annotations

import json
import os
from importlib import import_module

import pytest
from mutants import SYSTEMS, replaced

ENVIRONMENT = "TALESPIN_RULES_MUTANT"


def pytest_configure(config: pytest.Config) -> None:
    """Lay the mutant over the rules file of its game, for every rules load in this run."""
    spec = os.environ.get(ENVIRONMENT)
    if not spec:
        return
    mutant = json.loads(spec)
    package = SYSTEMS[mutant["system"]]
    path = tuple(mutant["path"])

    from talespin.systems import rules_data

    # The game's rules module may already have read and cached its file (a sheet model reads the rules
    # when it is defined), so the cache is replaced too, not only the reader.
    source = import_module(f"{package}.rules")._SOURCE
    source._base = replaced(rules_data.read_rules_file(package), path, mutant["value"])
    source._default = None

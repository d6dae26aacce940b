"""The examples in the dice modules' docstrings are true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import talespin.dice

MODULES = ["talespin.dice"] + [
    f"talespin.dice.{info.name}" for info in pkgutil.iter_modules(talespin.dice.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    """Every ``>>>`` example of the module gives the output its docstring shows."""
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0

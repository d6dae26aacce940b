"""Both systems' odds functions take their arguments one way (the style of their modules' docstrings).

What is rolled comes first (Ascend's ``pool``, Inciting Incident's ``d6`` and ``talent_dice``; an opposed
Test's two sides, each ``(pool, target)``), then what it is rolled against and whatever else the question
cannot do without, positional or by name; every option after them is keyword-only, and so is ``rules=``,
last, defaulting to the shipped rules. The checks read the signatures of every public function of the odds
modules that takes rules, so a new or changed one that drifts from the style fails here.
"""

from __future__ import annotations

import doctest
import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from talespin.systems import ascend, inciting_incident
from talespin.systems.ascend import chances as ascend_chances
from talespin.systems.inciting_incident import chances as ii_chances

POOL_FIRST: dict[str, tuple[str, ...]] = {"ascend": ("pool", "target"), "ii": ("d6", "talent_dice")}
"""The leading parameters of each system's odds functions: what is rolled."""

SIDES = ("attacker", "defender")
"""An opposed Test's leading parameters: two sides, each what :func:`~talespin.systems.ascend.successes`
takes, ``(pool, target)``."""

RULES_HELPERS = {"action_crisis"}
"""Public functions of the odds modules that compute a rule's amount, not odds: no pool to lead with, but
``rules=`` keyword-only like the rest."""

SAMPLES: dict[str, tuple[Any, ...]] = {
    "successes": (3, 4),
    "test_odds": (3, 4),
    "opposed_odds": ((3, 4), (2, 5)),
    "extended_odds": (3, 4, 5),
    "roll_chances": (5, (6, 6), 20),
    "expected_reduction": (5, (6, 6), 12),
    "expected_attack_crisis": (5, (6, 6), 24),
    "talent_choice": (5, (6, 6), 20),
    "total_distribution": (5, (6, 6), 20),
    "action_crisis": (0, 0),
}
"""Arguments for one call of each function, in the style (positional, no options)."""

SYSTEMS: dict[str, tuple[ModuleType, ModuleType, dict[str, Any]]] = {
    "ascend": (ascend_chances, ascend, {"die": {"size": 12}}),
    "ii": (ii_chances, inciting_incident, {"roll": {"d6_size": 8}, "crisis": {"floor": 5}}),
}
"""Each system's odds module, its package, and a variant that moves every one of its odds."""


def _odds_functions(module: ModuleType) -> dict[str, Callable[..., Any]]:
    """The public functions of ``module`` (its ``__all__``) that take ``rules``."""
    found = {}
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isfunction(value) and "rules" in inspect.signature(value).parameters:
            found[name] = value
    return found


ALL = [(system, name) for system, (module, _, _) in SYSTEMS.items() for name in _odds_functions(module)]


def test_the_odds_functions_are_found() -> None:
    """Every function the check should see is seen (the list is not silently empty or short)."""
    assert {name for _, name in ALL} == set(SAMPLES)


@pytest.mark.parametrize(("system", "name"), ALL)
def test_an_odds_function_follows_the_style(system: str, name: str) -> None:
    """Positional parameters without defaults, then keyword-only options with defaults, ``rules=None`` last;
    the leading parameters are what is rolled."""
    module = SYSTEMS[system][0]
    parameters = list(inspect.signature(getattr(module, name)).parameters.values())
    kinds = {p.kind for p in parameters}
    assert kinds <= {inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY}, name
    positional = [p for p in parameters if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    options = [p for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert parameters == positional + options, f"{name}: the options come after what is rolled"
    assert all(p.default is inspect.Parameter.empty for p in positional), f"{name}: an option is positional"
    assert all(p.default is not inspect.Parameter.empty for p in options), f"{name}: a needed keyword"
    assert options and options[-1].name == "rules" and options[-1].default is None, name
    assert options[-1].annotation == "Rules | None", name
    if name not in RULES_HELPERS:
        names = tuple(p.name for p in positional)
        leads = POOL_FIRST[system]
        assert names[: len(leads)] == leads or names[:2] == SIDES, f"{name}{names}: what is rolled first"


@pytest.mark.parametrize(("system", "name"), ALL)
def test_rules_default_to_the_shipped_ones_and_a_variant_counts(system: str, name: str) -> None:
    """Without ``rules=`` the answer is the shipped rules' one; with a variant, the variant's."""
    module, package, variant = SYSTEMS[system]
    function = getattr(module, name)
    args = SAMPLES[name]
    shipped = function(*args)
    assert shipped == function(*args, rules=package.default_rules())
    assert function(*args, rules=package.load_rules(variant)) != shipped


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_the_package_exports_the_same_functions(system: str) -> None:
    """What the system's package re-exports of its odds functions is the odds module's, not a wrapper."""
    module, package, _ = SYSTEMS[system]
    for name, function in _odds_functions(module).items():
        if name in package.__all__:
            assert getattr(package, name) is function


@pytest.mark.parametrize("module", [ascend_chances, ii_chances], ids=lambda m: m.__name__)
def test_the_docstring_examples_hold(module: ModuleType) -> None:
    """The modules' examples, written in the style, give the output they show."""
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failed == 0

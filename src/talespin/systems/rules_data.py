"""Rules data shared by every system: the shipped YAML file and a campaign's variant laid over it.

Each system ships one versioned ``rules.yaml`` and a frozen pydantic model of it. A campaign may override
any key with its ``variant:`` mapping (nested keys too); a key the rules do not have is refused by name, and
a value of the wrong type is refused with its path — so a typo in a variant never silently does nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Any, Generic, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from .errors import MalformedCommand

__all__ = ["RulesSource", "apply_variant", "merge_variant", "read_rules_file"]

RulesT = TypeVar("RulesT", bound=BaseModel)


def read_rules_file(package: str, name: str = "rules.yaml") -> dict[str, Any]:
    """The parsed rules file shipped inside ``package``."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def merge_variant(base: Mapping[str, Any], variant: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``base`` with ``variant`` laid over it key by key; a key ``base`` lacks is refused by name."""
    merged = dict(base)
    for key, value in variant.items():
        path = f"{prefix}{key}"
        if key not in base:
            known = ", ".join(sorted(base))
            raise MalformedCommand(
                f"unknown rules key {path!r} in the variant; expected one of: {known}",
                code="unknown_rules_key",
                path=path,
            )
        if isinstance(base[key], Mapping) and isinstance(value, Mapping):
            merged[key] = merge_variant(base[key], value, f"{path}.")
        else:
            merged[key] = value
    return merged


def apply_variant(model: type[RulesT], base: Mapping[str, Any], variant: object) -> RulesT:
    """The rules ``model`` built from ``base`` with a campaign's ``variant`` overrides, checked."""
    if not isinstance(variant, Mapping):
        raise MalformedCommand(
            "a variant must be a mapping of rules keys", code="bad_variant", path="variant"
        )
    data = merge_variant(base, variant)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        path = ".".join(str(p) for p in first["loc"])
        raise MalformedCommand(
            f"variant key {path!r}: {first['msg']}", code="bad_variant", path=path
        ) from None


class RulesSource(Generic[RulesT]):
    """A system's shipped rules file and its model: the default rules, loaded once, or a variant of them.

    >>> from talespin.systems.ascend.rules import Rules
    >>> source = RulesSource(Rules, "talespin.systems.ascend")
    >>> source.load({"required": {"default": 2}}).required.default
    2
    """

    def __init__(self, model: type[RulesT], package: str) -> None:
        self._model = model
        self._package = package
        self._base: dict[str, Any] | None = None
        self._default: RulesT | None = None

    def base(self) -> dict[str, Any]:
        """The rules file as parsed (read on first use)."""
        if self._base is None:
            self._base = read_rules_file(self._package)
        return self._base

    def default(self) -> RulesT:
        """The rules as shipped."""
        if self._default is None:
            self._default = self._model.model_validate(self.base())
        return self._default

    def load(self, variant: object = None) -> RulesT:
        """The rules with a campaign's ``variant`` overrides applied and checked (none: the default)."""
        if variant is None or (isinstance(variant, Mapping) and not variant):
            return self.default()
        return apply_variant(self._model, self.base(), variant)

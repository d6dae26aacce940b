"""The answer of a scene analysis: Crisis distribution, Trigger odds, Rising Tension and actions.

Floats always; exact fractions beside them when the analysis ran exactly. ``to_json`` follows the project's
contract for probabilities (a float and an ``"n/d"`` string); ``_repr_html_`` is the notebook's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

from .scene_play import Mass
from .scene_spec import Trigger

__all__ = ["SceneAnalysis", "TriggerOdds", "trigger_odds"]


def _exact(p: Fraction | None) -> str | None:
    return None if p is None else f"{p.numerator}/{p.denominator}"


@dataclass(frozen=True)
class TriggerOdds:
    """P(a Trigger fires) and how often: ``firings`` rows ``(count, p, exact, at_least)``.

    A repeating Trigger's last row is "at least that many" (its later values lie past the cap)."""

    trigger: Trigger
    p_fires: float
    p_fires_exact: Fraction | None
    firings: tuple[tuple[int, float, Fraction | None, bool], ...]

    def to_json(self) -> dict[str, Any]:
        """``{"at", "every", "text", "p_fires", "firings": [{"count", "p", "at_least"}]}`` (+ ``_exact``)."""
        body: dict[str, Any] = {
            "at": self.trigger.at,
            "every": self.trigger.every,
            "text": self.trigger.text,
            "p_fires": self.p_fires,
            "firings": [],
        }
        if self.p_fires_exact is not None:
            body["p_fires_exact"] = _exact(self.p_fires_exact)
        for count, p, exact, at_least in self.firings:
            row: dict[str, Any] = {"count": count, "p": p, "at_least": at_least}
            if exact is not None:
                row["p_exact"] = _exact(exact)
            body["firings"].append(row)
        return body


def trigger_odds(trigger: Trigger, crisis: Sequence[Mass], exact: bool) -> TriggerOdds:
    """Read a Trigger's odds off the final Crisis distribution (Crisis only rises in an action scene)."""
    cap = len(crisis) - 1
    most = trigger.firings(cap)
    counts: list[Mass] = [crisis[0] * 0 for _ in range(most + 1)]
    for c, p in enumerate(crisis):
        counts[trigger.firings(c)] += p
    fires = sum(counts[1:], crisis[0] * 0)
    rows = tuple(
        (k, float(p), p if exact else None, trigger.every is not None and k == most)
        for k, p in enumerate(counts)
    )
    return TriggerOdds(trigger, float(fires), fires if exact else None, rows)


@dataclass(frozen=True)
class SceneAnalysis:
    """``crisis[c]`` = P(the scene ends with Crisis c); the last entry is P(at or above the cap)."""

    policy: str
    objective: str
    cap: int
    crisis: tuple[float, ...]
    crisis_exact: tuple[Fraction, ...] | None
    triggers: tuple[TriggerOdds, ...]
    expected_actions: float
    expected_rising_tension: float
    actions_exact: Fraction | None = None
    tension_exact: Fraction | None = None

    @property
    def expected_crisis(self) -> float:
        """E[min(Crisis, cap)]."""
        return sum(c * p for c, p in enumerate(self.crisis))

    def to_json(self) -> dict[str, Any]:
        """Every figure; exact fractions (``…_exact``) beside the floats when the analysis was exact."""
        rows: list[list[Any]] = []
        for c, p in enumerate(self.crisis):
            if p or c == self.cap:
                row: list[Any] = [c, p]
                if self.crisis_exact is not None:
                    row.append(_exact(self.crisis_exact[c]))
                rows.append(row)
        body: dict[str, Any] = {
            "policy": self.policy,
            "objective": self.objective,
            "cap": self.cap,
            "crisis": rows,
            "expected_crisis": self.expected_crisis,
            "p_cap_reached": self.crisis[self.cap],
            "triggers": [t.to_json() for t in self.triggers],
            "expected_rising_tension": self.expected_rising_tension,
            "expected_actions": self.expected_actions,
        }
        if self.crisis_exact is not None:
            mean = sum((c * p for c, p in enumerate(self.crisis_exact)), Fraction(0))
            body["expected_crisis_exact"] = _exact(mean)
            body["p_cap_reached_exact"] = _exact(self.crisis_exact[self.cap])
            body["expected_rising_tension_exact"] = _exact(self.tension_exact)
            body["expected_actions_exact"] = _exact(self.actions_exact)
        return body

    def _repr_html_(self) -> str:
        head = (
            f"<p>policy {escape(self.policy)}: E[Crisis] {self.expected_crisis:.3f} (capped at {self.cap}), "
            f"E[actions] {self.expected_actions:.3f}, "
            f"E[Rising Tension] {self.expected_rising_tension:.3f}</p>"
        )
        rows = "".join(
            f"<tr><td>{t.trigger.at}{f' every {t.trigger.every}' if t.trigger.every else ''}</td>"
            f"<td>{escape(t.trigger.text)}</td><td>{t.p_fires:.4f}</td></tr>"
            for t in self.triggers
        )
        table = f"<table><tr><th>Trigger at</th><th>text</th><th>P(fires)</th></tr>{rows}</table>"
        return head + table

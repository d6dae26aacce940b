"""The exceptions of the rule systems.

Everything a rule system raises on purpose derives from :class:`RulesError`::

    RulesError
    ├── MalformedCommand   the command or sheet is not of the expected shape (unknown key, wrong type)
    └── IllegalCommand     well-formed, but the rules forbid it in this state (names the rule)

Both carry a stable ``code``, the ``rule`` ID when one applies (``"II-COMPLEX-5"``), an optional ``path``
to the offending field, and a message that says what was expected. The CLI maps them to exit code 2 and
the HTTP service to 422, each in one place. A dice error met while deciding a command (bad physical
faces, too many dice) is re-raised as :class:`MalformedCommand` with the dice error's code.
"""

from __future__ import annotations

__all__ = ["IllegalCommand", "MalformedCommand", "RulesError"]


class RulesError(ValueError):
    """Root of every error a rule system raises on purpose."""

    code = "rules_error"

    def __init__(
        self, message: str, *, rule: str | None = None, path: str | None = None, code: str | None = None
    ):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.path = path
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, object]:
        """The contract's error object: ``{"code", "rule", "message"}`` (and ``path`` when known)."""
        body: dict[str, object] = {"code": self.code, "rule": self.rule, "message": self.message}
        if self.path is not None:
            body["path"] = self.path
        return body


class MalformedCommand(RulesError):
    """A command, sheet or script that is not of the expected shape."""

    code = "malformed"


class IllegalCommand(RulesError):
    """A well-formed command the rules forbid in the current state."""

    code = "illegal"

"""The exceptions of the game table.

Everything the table raises on purpose derives from :class:`TableError`; rule problems in a command are the
rule systems' own :class:`~talespin.systems.RulesError` (malformed or illegal), which the table re-uses
for its own commands (``undo``, ``note``) too::

    TableError
    ├── Unauthorized      no token, or a token this campaign does not know        (HTTP 401)
    ├── Forbidden         a known token that may not do this                      (HTTP 403)
    ├── CampaignNotFound  no campaign has this id                                 (HTTP 404)
    └── StaleVersion      the command expected an older version; nothing applied  (HTTP 409)

The HTTP adapter maps each to its status code in one place (:mod:`talespin.web.errors`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["CampaignNotFound", "Forbidden", "StaleVersion", "TableError", "Unauthorized"]


class TableError(Exception):
    """Root of every error the table raises on purpose, with a stable ``code`` and a clear message."""

    code = "table_error"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        """``{"code", "rule", "message", ...}``: the contract's error object (``rule`` may be null)."""
        return {"code": self.code, "rule": None, "message": self.message, **self.extra}


class Unauthorized(TableError):
    """No token was given, or the campaign knows no such token."""

    code = "unauthorized"


class Forbidden(TableError):
    """The token is known but may not do what it asked (a player acting for another's character)."""

    code = "forbidden"


class CampaignNotFound(TableError):
    """No campaign has the id asked for."""

    code = "not_found"


class StaleVersion(TableError):
    """The command expected a version the campaign has moved past; nothing was applied."""

    code = "stale_version"

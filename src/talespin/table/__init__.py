"""The game table: campaigns, commands, per-viewer views, undo, export and fair dice.

Pure of web and database code: it speaks to storage through the port in :mod:`talespin.store.port` and is
served over HTTP by :mod:`talespin.web`.

* :class:`TableService` — create, join, command, read; one in-memory :class:`Ledger` per campaign.
* :mod:`.commands` — what the table handles itself (``undo``, ``note``, seeds) and who may do what.
* :mod:`.views`, :mod:`.export` — what each viewer may see; the record as JSON and Markdown.
* :mod:`.fairness`, :mod:`.verify` — committed seeds, :class:`HmacRng`, re-deriving every roll.
"""

from __future__ import annotations

from .auth import Viewer, hash_token, token_matches
from .errors import CampaignNotFound, Forbidden, StaleVersion, TableError, Unauthorized
from .export import EXPORT_FORMAT, export_json, export_markdown
from .fairness import HmacRng, commitment, draw_seed
from .ledger import TABLE_EVENTS, Ledger
from .service import CreatedCampaign, Joined, TableService
from .verify import Check, Verification, verify_export

__all__ = [
    "EXPORT_FORMAT",
    "TABLE_EVENTS",
    "CampaignNotFound",
    "Check",
    "CreatedCampaign",
    "Forbidden",
    "HmacRng",
    "Joined",
    "Ledger",
    "StaleVersion",
    "TableError",
    "TableService",
    "Unauthorized",
    "Verification",
    "Viewer",
    "commitment",
    "draw_seed",
    "export_json",
    "export_markdown",
    "hash_token",
    "token_matches",
    "verify_export",
]

"""What the data of each of the table's own events holds (:data:`TABLE_EVENT_DATA`), field by field.

Read from the code that records them: the campaign and its players (:mod:`.service`, :mod:`.talk`), the
command entries (:mod:`.commands`), the seed commitments (:mod:`.commands`, :mod:`.blind`) and the
stand-ins players receive for a held blind roll (:mod:`.release`). Where a player's copy differs from the
GM's, the shape holds both: a player's ``BlindRollRevealed`` has no ``entry`` (the GM's numbering), and an
``EntryUndone`` of a blind roll not revealed names no command (``do: null``). Server-only events
(``SeedDrawn``, ``BlindSeedDrawn``) are declared too, though no viewer receives them.
"""

from __future__ import annotations

from typing import Final

from ..systems.event_data import OBJECT, TEXT, WHOLE, Shape, maybe, one_of
from .fairness import SEED_BYTES
from .ledger import BLIND_REVEAL, PHYSICAL_DICE
from .placeholders import BLIND_MADE, BLIND_REVEALED, BLIND_SEED, WITHHELD

__all__ = ["HASH", "SEED", "TABLE_EVENT_DATA"]

HASH: Final = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
"""A SHA-256 in hex: a seed's commitment, an invite token's hash."""
SEED: Final = {"type": "string", "pattern": f"^[0-9a-f]{{{2 * SEED_BYTES}}}$"}
"""A seed, in hex."""
WHO = TEXT
"""Who sent it: ``"gm"`` or the player's id."""

_COMMAND = Shape(
    {"do": TEXT}, about="The command as sent (its shape is the system's or the table's).", open=True
)
_ERROR = Shape(
    {"code": TEXT, "rule": maybe(TEXT), "message": TEXT},
    {"path": TEXT},
    about="Why a command held behind a blind roll came to nothing (the contract's error object).",
)
_BLIND = Shape({"number": WHOLE, "commitment": HASH}, about="A blind roll's number and its seed's SHA-256.")
_PLAYER = Shape({"player_id": TEXT, "name": TEXT})

TABLE_EVENT_DATA: Final[dict[str, Shape]] = {
    "CampaignCreated": Shape({"name": TEXT, "system": TEXT, "variant": OBJECT}),
    "PlayerJoined": _PLAYER,
    "InviteRenewed": Shape({"invite_token_hash": HASH}),
    "CommandIssued": Shape(
        {"command": _COMMAND, "by": WHO, "handled_by": one_of(("table", "system"))},
        {
            "dice": one_of(("server", "physical", "none")),
            "seed_number": maybe(WHOLE),
            "nonce": TEXT,
            "nonce_from": one_of(("client", "server")),
            "blind": _BLIND,
            "void": _ERROR,
        },
        about=(
            "A command entry's first event. A system's command adds its dice: the seed commitment it drew "
            "from (``seed_number``; null when nothing was rolled) and the nonce; a blind roll, ``blind``."
        ),
    ),
    "NoteAdded": Shape({"text": TEXT, "by": WHO}),
    "EntryUndone": Shape(
        {"entry": WHOLE, "undone": WHOLE, "do": maybe(TEXT)},
        about="For a player, ``entry`` and ``undone`` are its own number of the entry undone.",
    ),
    "SeedDrawn": Shape({"number": WHOLE, "seed": SEED}),
    "SeedCommitted": Shape({"number": WHOLE, "commitment": HASH}),
    "SeedRevealed": Shape({"number": WHOLE, "seed": SEED, "commitment": HASH}),
    "SettingChanged": Shape(
        {"by": WHO},
        {"physical_dice": one_of(PHYSICAL_DICE), "blind_reveal": one_of(BLIND_REVEAL)},
        about="One setting changed: who may enter physical dice, or when blind rolls are revealed.",
    ),
    "ChatSaid": Shape(
        {"text": TEXT, "by": WHO, "name": TEXT, "with": maybe(TEXT)},
        about="A word to the table; a whisper names the player it is ``with``.",
    ),
    "PlayerRemoved": _PLAYER,
    "CharacterHanded": Shape(
        {"character": TEXT, "to": maybe(TEXT), "from": maybe(TEXT)},
        about="The player ids it passed between (null: the GM).",
    ),
    BLIND_SEED: Shape({"blind": WHOLE, "seed": SEED}),
    BLIND_MADE: Shape(
        {"blind": WHOLE, "by": WHO, "actor": maybe(TEXT), "commitment": HASH},
        about="What players receive for a blind roll until it is revealed.",
    ),
    WITHHELD: Shape(
        {"by": WHO, "do": maybe(TEXT), "actor": maybe(TEXT)},
        about="What players receive for a later command while a blind roll is held.",
    ),
    BLIND_REVEALED: Shape(
        {"blind": WHOLE, "seed": SEED, "commitment": HASH},
        {"entry": WHOLE},
        about="A blind roll's seed, revealed; ``entry`` (the GM's numbering) only in the GM's record.",
    ),
}
"""The data of every event type of the table's own (the keys are :data:`.ledger.TABLE_EVENTS`)."""

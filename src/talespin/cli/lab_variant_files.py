"""The variant files ``talespin lab compare`` reads: rules overrides, or a campaign's JSON export.

A campaign created with a variant carries it in its export (``talespin-export/1``: ``campaign.variant``), so
the variant a table plays can be compared as it is, under the campaign's name, without copying it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..systems import get_system
from ..table.export import EXPORT_FORMAT
from .ascend_files import read_document
from .output import BadInput

__all__ = ["read_variant"]


def read_variant(path: Path, system: str) -> tuple[str, Any]:
    """``(name, overrides)`` of one file: the file's stem and its data, or the exported campaign's name and
    variant (refused when the campaign plays another system than the one compared)."""
    data = read_document(path).data
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        return path.stem, data
    campaign = data.get("campaign")
    if not isinstance(campaign, Mapping) or not isinstance(campaign.get("system"), str):
        raise BadInput(f"{path.name} is an export without its campaign's system", code="bad_variant")
    played, compared = get_system(campaign["system"]).name, get_system(system).name
    if played != compared:
        raise BadInput(
            f"{path.name} is a campaign of {played}, not of {compared}: use --system {played}",
            code="bad_variant",
        )
    return str(campaign.get("name") or path.stem), campaign.get("variant") or {}

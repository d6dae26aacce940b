"""The rule IDs of ``docs/rules/ascend.md`` as named constants.

Errors name the rule they enforce (``IllegalCommand(..., rule=POOL_2)``); keeping the IDs here means no rule
ID is spelled in the middle of the logic, and a renamed rule is changed in one place.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "EXT_1",
    "HERO_1",
    "HERO_2",
    "HERO_3",
    "ODDS_1",
    "ODDS_2",
    "ODDS_3",
    "OPP_1",
    "POOL_1",
    "POOL_2",
    "POOL_3",
    "POOL_4",
    "TEST_1",
    "TEST_2",
    "TEST_3",
    "TEST_4",
    "TEST_5",
]

HERO_1: Final = "AS-HERO-1"
HERO_2: Final = "AS-HERO-2"
HERO_3: Final = "AS-HERO-3"
TEST_1: Final = "AS-TEST-1"
TEST_2: Final = "AS-TEST-2"
TEST_3: Final = "AS-TEST-3"
TEST_4: Final = "AS-TEST-4"
TEST_5: Final = "AS-TEST-5"
POOL_1: Final = "AS-POOL-1"
POOL_2: Final = "AS-POOL-2"
POOL_3: Final = "AS-POOL-3"
POOL_4: Final = "AS-POOL-4"
EXT_1: Final = "AS-EXT-1"
OPP_1: Final = "AS-OPP-1"
ODDS_1: Final = "AS-ODDS-1"
ODDS_2: Final = "AS-ODDS-2"
ODDS_3: Final = "AS-ODDS-3"

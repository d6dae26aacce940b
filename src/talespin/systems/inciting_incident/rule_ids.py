"""The rule IDs of ``docs/rules/inciting-incident.md`` as named constants.

Errors name the rule they enforce (``IllegalCommand(..., rule=COMPLEX_5)``); keeping the IDs here means no
rule ID is spelled in the middle of the logic, and a renamed rule is changed in one place.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ADV_3",
    "CHAR_1",
    "CHAR_2",
    "CHAR_3",
    "CHAR_5",
    "CHAR_6",
    "CHAR_7",
    "COMPLEX_1",
    "COMPLEX_5",
    "COMPLEX_8",
    "CRISIS_1",
    "CRISIS_2",
    "CRISIS_4",
    "FLOW_1",
    "FLOW_2",
    "FLOW_4",
    "ROLL_1",
    "ROLL_4",
    "ROLL_5",
    "RT_2",
    "RT_3",
    "RT_4",
    "SCENE_1",
    "SCENE_2",
    "SCENE_4",
    "SIMPLE_1",
    "SIMPLE_4",
    "SKILL_1",
    "SKILL_2",
    "SKILL_3",
    "SKILL_4",
    "SKILL_5",
]

CHAR_1: Final = "II-CHAR-1"
CHAR_2: Final = "II-CHAR-2"
CHAR_3: Final = "II-CHAR-3"
CHAR_5: Final = "II-CHAR-5"
CHAR_6: Final = "II-CHAR-6"
CHAR_7: Final = "II-CHAR-7"
ADV_3: Final = "II-ADV-3"
ROLL_1: Final = "II-ROLL-1"
ROLL_4: Final = "II-ROLL-4"
ROLL_5: Final = "II-ROLL-5"
CRISIS_1: Final = "II-CRISIS-1"
CRISIS_2: Final = "II-CRISIS-2"
CRISIS_4: Final = "II-CRISIS-4"
SIMPLE_1: Final = "II-SIMPLE-1"
SIMPLE_4: Final = "II-SIMPLE-4"
COMPLEX_1: Final = "II-COMPLEX-1"
COMPLEX_5: Final = "II-COMPLEX-5"
COMPLEX_8: Final = "II-COMPLEX-8"
SKILL_1: Final = "II-SKILL-1"
SKILL_2: Final = "II-SKILL-2"
SKILL_3: Final = "II-SKILL-3"
SKILL_4: Final = "II-SKILL-4"
SKILL_5: Final = "II-SKILL-5"
SCENE_1: Final = "II-SCENE-1"
SCENE_2: Final = "II-SCENE-2"
SCENE_4: Final = "II-SCENE-4"
RT_2: Final = "II-RT-2"
RT_3: Final = "II-RT-3"
RT_4: Final = "II-RT-4"
FLOW_1: Final = "II-FLOW-1"
FLOW_2: Final = "II-FLOW-2"
FLOW_4: Final = "II-FLOW-4"

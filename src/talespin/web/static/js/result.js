// The result of a roll, shown where its button was: a headline in words (success or failure, the total
// against its target), the dice drawn die by die, and what followed (Obstruction, Crisis, Triggers). It is
// the same sentence the log writes, so the two never disagree.

import { rollDiceEl } from "./dice.js";
import { describe } from "./log.js";
import { fill, h } from "./ui.js";

const ROLLS =
  /^(TalentRolled|AbilityRolled|TestRolled|TestMade|TestResolved|BlindRollMade|OpposedTestDecided|SkillRecreated)$/;
const QUIET = new Set(["CommandIssued", "SeedCommitted", "SeedRevealed", "PreparationUsed"]);

/** An empty result panel: focusable (the page moves focus here after a roll when no Roll button is left). */
export function resultPanel(id = "roll-result") {
  return h("div.roll-result", { id, tabindex: "-1", hidden: true, role: "status", "aria-live": "polite" });
}

/** Fill `panel` from the events one command caused (as this viewer sees them); hides it when none rolled. */
export function showResult(panel, events) {
  const list = Array.isArray(events) ? events : [];
  const rolls = list.filter((e) => ROLLS.test(e.type));
  if (!rolls.length) {
    panel.hidden = true;
    return false;
  }
  const main = rolls[rolls.length - 1];
  const success = main.data?.success;
  panel.className = `roll-result${success === true ? " good" : success === false ? " bad" : ""}`;
  const followed = list.filter(
    (e) => !ROLLS.test(e.type) && !QUIET.has(e.type) && !/Taken$|Faced$/.test(e.type),
  );
  fill(
    panel,
    h(
      "div.headline",
      { id: `${panel.id}-headline` },
      success === true ? "Success. " : success === false ? "Failure. " : "",
      describe(main.type, main.data || {}),
    ),
    rolls.map((e) => rollDiceEl(e.data)),
    followed.length
      ? h(
          "ul.small",
          followed.map((e) => h("li", describe(e.type, e.data || {}))),
        )
      : null,
  );
  panel.hidden = false;
  return true;
}

// The rolls and changes beside the obstacle at hand: recreating a Skill the character lacks (II-SKILL-3, a
// Talent Roll from 5d6 with Disadvantage equal to its cost and Crisis + cost), an Ability Roll the GM calls
// for (instinct in an emergency, e.g. a Trigger's effect), and in a cooperative scene the one change,
// upgrade or learning of each character. Every roll shows its odds (from the odds endpoint) before the click.

import { Legal, offer } from "./legal.js";
import { readData } from "./sheetio.js";
import { changeGate, fill, h, num, pct } from "./ui.js";

const ABILITIES = ["fortitude", "perseverance", "nimbleness"];

/** "advantage 2, crisis 1" or "advantage: 2" → {advantage: 2, crisis: 1}; "" → {}. */
export function parseEffects(text) {
  const out = {};
  for (const part of String(text || "")
    .split(/[,;]/)
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = part.match(/^([a-z_]+)\s*[:=]?\s*(-?\d+)$/i);
    if (!m) throw new Error(`effects are written "advantage 2, crisis 1", not "${part}"`);
    out[m[1].toLowerCase()] = Number(m[2]);
  }
  return out;
}

const oddsLine = (c) =>
  `${pct(c.p_success)} success · +${num(c.expected_crisis)} Crisis · ${c.d6}d6 + ${(c.talent_dice || []).join(" + ")} vs ${c.against}`;

/**
 * mountRolls(ctx, actor, extra): ctx = {table, role, send, say, view}; actor() is the acting character;
 * extra() gives {advantage, disadvantage, faces, blind} from the action panel. Returns {el, refresh()}.
 */
export function mountRolls(ctx, actor, extra) {
  let seq = 0;
  // Recreate a Skill.
  const rsName = h("input", { id: "recreate-name", placeholder: "Barrel Roll", autocomplete: "off" });
  const rsCost = h("input", { id: "recreate-cost", type: "number", min: 0, value: "4" });
  const rsKind = h(
    "select",
    { id: "recreate-kind" },
    h("option", { value: "modifier" }, "modifier"),
    h("option", { value: "advanced" }, "advanced"),
  );
  const rsEffects = h("input", { id: "recreate-effects", placeholder: "advantage 2", autocomplete: "off" });
  const rsTalent = h("select", { id: "recreate-talent", "aria-label": "Talent to roll" });
  const rsOdds = h("p.odds", { id: "recreate-odds", "aria-live": "polite" });
  const rsButton = h("button.small", { type: "button", id: "recreate-roll", onclick: recreate }, "Recreate");
  const recreateBox = h(
    "details.gm-group",
    { id: "recreate" },
    h("summary", "Recreate a Skill (II-SKILL-3)"),
    h(
      "div.stack",
      h(
        "p.small.muted",
        "A Talent Roll from 5d6 with Disadvantage equal to the Skill's cost; Crisis rises by the cost.",
      ),
      h(
        "div.row",
        h("label", "Skill", rsName),
        h("label", "Cost", rsCost),
        h("label", "Kind", rsKind),
        h("label", "Effects", rsEffects),
      ),
      h("div.row", h("label", "Talent", rsTalent), rsButton),
      rsOdds,
    ),
  );
  // An Ability Roll (the GM calls for it).
  const abAbility = h(
    "select",
    { id: "ability-name" },
    ABILITIES.map((a) => h("option", { value: a }, a)),
  );
  const abDice = h("input", { id: "ability-dice", type: "number", min: 1, max: 9, value: "" });
  const abAgainst = h("input", { id: "ability-against", type: "number", min: 1, value: "20" });
  const abOdds = h("p.odds", { id: "ability-odds", "aria-live": "polite" });
  const abButton = h(
    "button.small.gm",
    { type: "button", id: "ability-roll-button", onclick: abilityRoll },
    "Roll",
  );
  const abilityBox = h(
    "details.gm-group",
    { id: "ability-roll", hidden: true },
    h("summary", "Ability Roll (instinct, called by the GM)"),
    h(
      "div.stack",
      h(
        "div.row",
        h("label", "Ability", abAbility),
        h("label", "d6 (blank: the scene's)", abDice),
        h("label", "Against", abAgainst),
        abButton,
      ),
      abOdds,
    ),
  );
  // Learn or change in a cooperative scene.
  const lnWhat = h(
    "select",
    { id: "learn-what" },
    h("option", { value: "ability" }, "Raise or lower an Ability"),
    h("option", { value: "talent" }, "Change, upgrade or add a Talent"),
    h("option", { value: "skill" }, "Learn or change a Skill"),
  );
  const lnAbility = h(
    "select",
    { id: "learn-ability" },
    ABILITIES.map((a) => h("option", { value: a }, a)),
  );
  const lnLevel = h("input", { id: "learn-level", type: "number", min: 0, max: 9, value: "4" });
  const lnTalent = h("select", { id: "learn-talent" });
  const lnTalentText = h("textarea", { id: "learn-talent-sheet", rows: 5 });
  const lnSkillName = h("input", { id: "learn-skill-name", autocomplete: "off" });
  const lnSkillCost = h("input", { id: "learn-skill-cost", type: "number", min: 0, value: "4" });
  const lnSkillKind = h(
    "select",
    { id: "learn-skill-kind" },
    h("option", { value: "modifier" }, "modifier"),
    h("option", { value: "advanced" }, "advanced"),
  );
  const lnSkillEffects = h("input", {
    id: "learn-skill-effects",
    placeholder: "advantage 2",
    autocomplete: "off",
  });
  const abilityRow = h("div.row", h("label", "Ability", lnAbility), h("label", "New level", lnLevel));
  const talentRow = h("label", "The Talent as it will be (JSON or YAML)", lnTalentText);
  const skillRow = h(
    "div.row",
    h("label", "Skill", lnSkillName),
    h("label", "Cost", lnSkillCost),
    h("label", "Kind", lnSkillKind),
    h("label", "Effects", lnSkillEffects),
  );
  const learnButton = h(
    "button.small",
    { type: "button", id: "learn-button", onclick: learn },
    "Make the change",
  );
  const learnUsed = h("span.small.muted", { id: "learn-used" });
  const learnBox = h(
    "section",
    { id: "learn" },
    h("h3", "Change, upgrade or learn (once per cooperative scene)"),
    h(
      "div.stack",
      h("div.row", h("label", "What", lnWhat), h("label", "Talent", lnTalent)),
      abilityRow,
      talentRow,
      skillRow,
      h("div.row", learnButton, learnUsed),
    ),
  );
  const el = h("div.stack", { id: "other-rolls" }, recreateBox, abilityBox, learnBox);

  const sheetOf = (name) => (ctx.view?.characters || []).find((c) => c.name === name)?.sheet || null;

  /** Show the fields of the chosen change; `prefill` puts the sheet's current values in them. */
  function showLearn(prefill = true) {
    // II-SCENE-2: offer only what the rules let a cooperative scene change (never an Ability by default).
    const changeable = new Set(ctx.view?.changeable || ["talent", "skill"]);
    for (const option of lnWhat.options) option.hidden = option.disabled = !changeable.has(option.value);
    if (!changeable.has(lnWhat.value))
      lnWhat.value = [...lnWhat.options].find((o) => !o.disabled)?.value || "";
    const what = lnWhat.value;
    abilityRow.hidden = what !== "ability";
    talentRow.hidden = what !== "talent";
    skillRow.hidden = what !== "skill";
    lnTalent.parentElement.hidden = what === "ability";
    const sheet = sheetOf(actor());
    if (!prefill) return;
    if (what === "ability" && sheet)
      lnLevel.value = String(sheet.abilities?.[lnAbility.value] ?? lnLevel.value);
    if (what === "talent") {
      const t = (sheet?.talents || []).find((x) => x.name === lnTalent.value);
      lnTalentText.value = JSON.stringify(
        t || { name: "", ability: "nimbleness", level: 1, limitations: [], skills: [] },
        null,
        1,
      );
      lnTalentText.setAttribute("aria-description", "Edit the level or the name: a new name adds a Talent");
    }
  }
  for (const x of [lnWhat, lnAbility, lnTalent]) x.addEventListener("change", () => showLearn(true));

  function rolled(command) {
    const { advantage, disadvantage, faces, blind } = extra();
    if (advantage > 0) command.advantage = advantage;
    if (disadvantage > 0) command.disadvantage = disadvantage;
    const f = faces();
    if (f) command.faces = f;
    if (blind) command.visibility = "gm";
    return command;
  }

  function skillOf(name, cost, kind, effectsText) {
    const skill = { name: name.trim(), cost: Number(cost), kind };
    const effects = parseEffects(effectsText);
    if (Object.keys(effects).length) skill.effects = effects;
    return skill;
  }

  async function recreate() {
    let command;
    try {
      command = rolled({
        do: "recreate_skill",
        character: actor(),
        talent: rsTalent.value,
        skill: skillOf(rsName.value, rsCost.value, rsKind.value, rsEffects.value),
      });
    } catch (err) {
      ctx.say(err.message, "error");
      return;
    }
    if (!command.skill.name) {
      ctx.say("Name the Skill to recreate.", "error");
      return;
    }
    await ctx.send(command);
  }

  /** The server's list of what this viewer may send now (see legal.js). */
  const legal = () => ctx.legal || new Legal([]);
  /** The Ability Roll as the server lists it (the dice and the number to beat are the sender's). */
  const abilityCommand = () => ({ do: "ability_roll", character: actor(), ability: abAbility.value });

  /** The Abilities the server's list lets the acting character roll: the box shows only those. */
  function showAbilities() {
    const open = legal().choices({ do: "ability_roll", character: actor() }, "ability");
    abilityBox.hidden = !open.length;
    for (const option of abAbility.options) option.hidden = option.disabled = !open.includes(option.value);
    if (open.length && !open.includes(abAbility.value)) abAbility.value = open[0];
    offer(abButton, legal(), abilityCommand());
  }
  abAbility.addEventListener("change", showAbilities);

  async function abilityRoll() {
    let command;
    try {
      command = rolled({ ...abilityCommand(), against: Number(abAgainst.value) || 20 });
    } catch (err) {
      ctx.say(err.message, "error");
      return;
    }
    if (abDice.value !== "") command.dice = Number(abDice.value);
    await ctx.send(command);
  }

  async function learn() {
    const command = { do: "learn", character: actor() };
    try {
      if (lnWhat.value === "ability")
        Object.assign(command, { ability: lnAbility.value, level: Number(lnLevel.value) });
      else if (lnWhat.value === "talent") command.talent = await readData(lnTalentText.value);
      else {
        command.talent = lnTalent.value;
        command.skill = skillOf(
          lnSkillName.value,
          lnSkillCost.value,
          lnSkillKind.value,
          lnSkillEffects.value,
        );
      }
    } catch (err) {
      ctx.say(err.message, "error");
      return;
    }
    await ctx.send(command);
  }

  // Asked again only when a query, a picked row or the view changes (not on every live event).
  const asked = changeGate();

  async function loadOdds() {
    const character = actor();
    const { advantage, disadvantage } = extra();
    const net = {};
    if (advantage > 0) net.advantage = advantage;
    if (disadvantage > 0) net.disadvantage = disadvantage;
    const recreateQuery = recreateBox.hidden
      ? null
      : { character, situation: "recreate_skill", cost: Math.max(0, Number(rsCost.value) || 0), ...net };
    const abilityQuery = abilityBox.hidden
      ? null
      : { character, situation: "ability_roll", against: Number(abAgainst.value) || 20, ...net };
    if (abilityQuery && abDice.value !== "") abilityQuery.dice = Number(abDice.value);
    if (!asked.fresh([recreateQuery, abilityQuery, rsTalent.value, abAbility.value, ctx.view])) return;
    const mine = ++seq;
    const tasks = [];
    if (recreateQuery) {
      tasks.push(
        ctx.table.odds(recreateQuery).then((odds) => {
          if (mine !== seq) return;
          const row = (odds.choices || []).find((c) => c.talent === rsTalent.value);
          fill(rsOdds, row ? h("strong", `${rsTalent.value}: ${oddsLine(row)}`) : "Pick a Talent to roll.");
        }),
      );
    }
    if (abilityQuery) {
      tasks.push(
        ctx.table.odds(abilityQuery).then((odds) => {
          if (mine !== seq) return;
          const row = (odds.choices || []).find((c) => c.ability === abAbility.value);
          fill(
            abOdds,
            row
              ? h(
                  "strong",
                  `${abAbility.value}: ${pct(row.p_success)} success · ${row.d6}d6 + ${(row.talent_dice || []).join(" + ")} vs ${row.against} · no Crisis`,
                )
              : "",
          );
        }),
      );
    }
    try {
      await Promise.all(tasks);
    } catch (err) {
      if (mine !== seq) return;
      asked.forget();
      fill(rsOdds, `Odds unavailable: ${err.message}`);
      fill(abOdds, `Odds unavailable: ${err.message}`);
    }
  }
  for (const x of [rsCost, rsTalent, abAbility, abDice, abAgainst]) x.addEventListener("change", loadOdds);

  return {
    el,
    /** Show what fits the scene for the acting character, and the odds of its rolls. */
    refresh() {
      const character = actor();
      const sheet = sheetOf(character);
      const scene = ctx.view?.scene;
      const rolling = Boolean(
        sheet && scene && scene.kind !== "cooperative" && (scene.present || [character]).includes(character),
      );
      recreateBox.hidden = !rolling;
      showAbilities();
      learnBox.hidden = !(sheet && scene && scene.kind === "cooperative");
      const talents = (sheet?.talents || []).map((t) => t.name);
      const shown = learnBox.dataset.character;
      for (const sel of [rsTalent, lnTalent]) {
        const was = sel.value;
        fill(
          sel,
          talents.map((n) => h("option", { value: n }, n)),
        );
        if ([...sel.options].some((o) => o.value === was)) sel.value = was;
      }
      // II-SCENE-2: one change per cooperative scene; once made, the page offers no second one.
      const used = (scene?.changed_this_scene || []).includes(character);
      learnButton.disabled = used;
      learnUsed.textContent = used ? `${character} has made this scene's change.` : "";
      if (!learnBox.hidden) showLearn(shown !== character || !lnTalentText.value);
      learnBox.dataset.character = learnBox.hidden ? "" : character;
      if (rolling) loadOdds();
    },
  };
}

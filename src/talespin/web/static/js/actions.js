// The actions an Inciting Incident character may take now, each with its odds and expected Crisis shown
// before anyone clicks (from the odds endpoint), a distribution chart for the chosen roll, and an entry
// field for physical dice.

import { adviceNote, costBadge } from "./advice.js";
import { distributionChart } from "./chart.js";
import { canonical, Legal } from "./legal.js";
import { resultPanel, showResult } from "./result.js";
import { mountRolls } from "./rolls.js";
import { changeGate, fill, h, num, parseFaces, pct } from "./ui.js";

const SITUATION_WORDS = {
  simple_obstacle: "Simple Obstacle",
  regular_action: "Regular Action",
  decisive_action: "Decisive Action",
  regular_attack: "Regular Attack",
  decisive_attack: "Decisive Attack",
  ability_roll: "Ability Roll",
};

/** "Auto: +4 Crisis" or "87% success · +2.4 Crisis expected". */
export function oddsText(choice) {
  const crisis = choice.expected_crisis;
  const crisisText =
    crisis === undefined || crisis === null
      ? ""
      : `+${num(crisis)} Crisis${choice.choice === "auto" ? "" : " expected"}`;
  if (choice.choice === "auto") return crisisText || "no roll";
  const parts = [`${pct(choice.p_success)} success`];
  if (crisisText) parts.push(crisisText);
  if (choice.expected_obstruction_reduction !== undefined)
    parts.push(`−${num(choice.expected_obstruction_reduction)} Obstruction expected`);
  return parts.join(" · ");
}

function diceText(choice) {
  if (choice.choice === "auto") return null;
  const dice = [`${choice.d6 ?? "?"}d6`, ...(choice.talent_dice || [])].join(" + ");
  return `${dice}${choice.against ? ` vs ${choice.against}` : ""}`;
}

/**
 * mountActions(root, ctx): ctx = {table, view, role, actors: [names], send(command), say(msg, kind)}.
 * Returns {refresh(view)}.
 */
export function mountActions(root, ctx) {
  let chosen = null;
  let lastOdds = null;
  let seq = 0;
  // The odds are asked for again only when the query or the view it is asked of changes (not on every event).
  const asked = changeGate();
  const actorSel = h("select", { id: "actor", "aria-label": "Acting character" });
  const adv = h("input", { id: "advantage", type: "number", min: 0, value: "0", inputmode: "numeric" });
  const dis = h("input", { id: "disadvantage", type: "number", min: 0, value: "0", inputmode: "numeric" });
  const faces = h("input", { id: "faces", placeholder: "e.g. 6,2; 3; 4; 5; 1; 8,1", autocomplete: "off" });
  const blind = h("input", { id: "blind", type: "checkbox" });
  const targetSel = h("select", { id: "attack-target" });
  const abilitySel = h(
    "select",
    { id: "attack-ability" },
    ["nimbleness", "fortitude", "perseverance"].map((a) => h("option", { value: a }, a)),
  );
  const attackRow = h(
    "div.row",
    { hidden: true },
    h("label", "Target", targetSel),
    h("label", "Through", abilitySel),
  );
  const list = h("div.actions", { id: "choices", "aria-live": "polite" });
  const chart = h("div", { id: "chart" });
  const heading = h("h2", "Actions");
  const moveNote = h("p.your-move", { id: "your-move", hidden: true });
  const result = resultPanel();
  const controls = h("div.row", h("label", "Character", actorSel));
  const modifiers = h(
    "div.row",
    { id: "modifiers" },
    h("label", "Advantage", adv),
    h("label", "Disadvantage", dis),
  );
  const facesHint = h("p.small.muted", { id: "faces-hint" });
  const physical = h(
    "details",
    h("summary", "Physical dice"),
    facesHint,
    h(
      "label",
      "Faces, one chain per die, separated by “;” — the d6 first, then the Talent's dice; an exploded die continues its chain: “6,2”",
      faces,
    ),
  );
  const blindRow = h(
    "label.check",
    { hidden: ctx.role !== "gm" },
    blind,
    "Blind roll (players see only that a roll happened)",
  );
  const skillsBox = h("div", { id: "skills" });
  const rolls = mountRolls(
    ctx,
    () => actorSel.value,
    () => ({
      advantage: Number(adv.value) || 0,
      disadvantage: Number(dis.value) || 0,
      faces: () => parseFaces(faces.value, true),
      blind: blind.checked,
    }),
  );
  // Phone first: the latest result (hidden until a roll) above the choices and their odds, so it lands in the
  // first screen however long the choices are; the finer controls below.
  fill(
    root,
    heading,
    moveNote,
    controls,
    attackRow,
    result,
    list,
    modifiers,
    skillsBox,
    chart,
    physical,
    blindRow,
    rolls.el,
  );
  let people = [];
  const healTargets = new Map(); // "character/skill" → whom it heals, kept across re-renders
  let pendingFocus = null; // after a roll: the choice whose button should have focus once the choices are redrawn

  actorSel.addEventListener("change", () => {
    showSkills();
    load();
  });
  adv.addEventListener("change", load);
  dis.addEventListener("change", load);
  targetSel.addEventListener("change", load);
  abilitySel.addEventListener("change", load);

  /** The acting character's Skills: [{talent, skill}] from its sheet in the view. */
  function skillsOf(name) {
    const c = (ctx.view?.characters || []).find((x) => x.name === name);
    return (c?.sheet?.talents || []).flatMap((t) =>
      (t.skills || []).map((skill) => ({ talent: t.name, skill })),
    );
  }
  const effectText = (e) =>
    Object.entries(e || {})
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || "narrative";
  /** Modifier Skills ticked for `talent`. */
  const chosenSkills = (talent) =>
    [...skillsBox.querySelectorAll("input:checked")]
      .filter((b) => b.dataset.talent === talent)
      .map((b) => b.value);

  function showSkills() {
    const all = skillsOf(actorSel.value);
    const ticked = new Set(
      [...skillsBox.querySelectorAll("input:checked")].map((b) => `${b.dataset.talent}/${b.value}`),
    );
    if (!all.length) {
      fill(skillsBox);
      return;
    }
    fill(
      skillsBox,
      h(
        "fieldset",
        h("legend", "Skills"),
        h(
          "div.row",
          all
            .filter((x) => x.skill.kind !== "advanced")
            .map(({ talent, skill }) =>
              h(
                "label.check",
                {},
                h("input", {
                  type: "checkbox",
                  value: skill.name,
                  "data-talent": talent,
                  checked: ticked.has(`${talent}/${skill.name}`),
                  onchange: load,
                }),
                `${skill.name} (${talent} · ${effectText(skill.effects)})`,
              ),
            ),
        ),
        h(
          "p.small.muted",
          all.some((x) => x.skill.kind === "advanced")
            ? "Advanced Skills are actions of their own: see “Advanced Actions” below, each with its odds."
            : "",
        ),
      ),
    );
  }

  async function load() {
    rolls.refresh();
    const character = actorSel.value;
    if (!character) {
      asked.forget();
      fill(
        list,
        h(
          "p.muted",
          ctx.role === "gm" ? "Add a character to act." : "Add a character to act: it appears here.",
        ),
      );
      fill(chart);
      return;
    }
    const scene = ctx.view?.scene;
    if (!scene) {
      asked.forget();
      heading.textContent = "Actions";
      fill(list, h("p.muted", { id: "no-actions" }, "No scene in play: nothing to roll for yet."));
      fill(chart);
      settleFocus();
      return;
    }
    const query = { character };
    if (Number(adv.value) > 0) query.advantage = Number(adv.value);
    if (Number(dis.value) > 0) query.disadvantage = Number(dis.value);
    // Ticked modifier Skills: the server counts every effect (Advantage, Crisis, Obstruction…) in the odds.
    const ticked = [...skillsBox.querySelectorAll("input:checked")].map((b) => b.value);
    if (ticked.length) query.skills = [...new Set(ticked)];
    if (!attackRow.hidden && targetSel.value) {
      query.target = targetSel.value;
      query.ability = abilitySel.value;
    }
    if (!asked.fresh([query, ctx.view])) {
      // Nothing the odds depend on changed: the choices on screen stand (and keep their focus).
      pendingFocus = null;
      return;
    }
    const mine = ++seq;
    try {
      const odds = await ctx.table.odds(query);
      if (mine !== seq) return;
      if (/attack/.test(odds.situation || "")) {
        const decisive = await ctx.table.odds({
          ...query,
          target: odds.target,
          ability: odds.ability,
          situation: "decisive_attack",
        });
        if (mine !== seq) return;
        odds.decisive = decisive.choices;
        odds.decisive_against = decisive.against;
        showAttack(odds);
      } else {
        attackRow.hidden = true;
      }
      lastOdds = odds;
      show(odds);
    } catch (err) {
      if (mine !== seq) return;
      asked.forget();
      lastOdds = null;
      fill(
        list,
        h(
          "p.muted",
          { id: "no-actions" },
          err.status === 422 || err.status === 409
            ? `Nothing to roll for now: ${err.message}`
            : `The odds cannot be shown right now: ${err.message}`,
        ),
      );
      fill(chart);
      settleFocus();
    }
  }

  /** II-SKILL-5: each advanced Skill as an Advanced Action with its odds, a Use button only when allowed. */
  function advancedRows(odds) {
    const rows = odds.advanced || [];
    if (!rows.length) return null;
    return h(
      "div.stack",
      { id: "advanced" },
      h("h3", "Advanced Actions"),
      rows.map((r) => {
        // A healing Skill may heal someone else (II-SKILL-2 heal): pick whom.
        const picked = healTargets.get(`${actorSel.value}/${r.skill}`) || actorSel.value;
        const whom = r.effects?.heal
          ? h(
              "select.small.inline",
              {
                "data-heal-target": r.skill,
                "aria-label": `Whom ${r.skill} heals`,
                onchange: (e) => healTargets.set(`${actorSel.value}/${r.skill}`, e.target.value),
              },
              (ctx.view?.characters || []).map((c) =>
                h("option", { value: c.name, selected: c.name === picked }, c.name),
              ),
            )
          : null;
        const text = r.rolled ? oddsText(r) : "no roll in a cooperative scene · uses up this scene's change";
        return h(
          "div.action",
          { "data-do": "use_skill", "data-skill": r.skill, "data-skill-talent": r.talent },
          h(
            "div",
            h("div.title", `${r.label} (${r.talent} · ${effectText(r.effects)})`),
            h("div.odds", h("strong", text), r.rolled ? ` · ${diceText(r)}` : ""),
          ),
          h(
            "div.action-buttons",
            whom,
            legal().allows(skillCommand(r))
              ? h(
                  "button.small",
                  {
                    type: "button",
                    class: "act",
                    "data-skill": r.skill,
                    "data-command": canonical(skillCommand(r)),
                    onclick: () => useSkill(r, whom),
                  },
                  "Use",
                )
              : h("span.small.muted.reason", r.reason || "not open now"),
          ),
        );
      }),
    );
  }

  /** The server's list of what this viewer may send now (see legal.js). */
  const legal = () => ctx.legal || new Legal([]);

  /** The Advanced Skill's command as the server lists it (whom it heals is the sender's to add). */
  const skillCommand = (row) => ({
    do: "use_skill",
    character: actorSel.value,
    talent: row.talent,
    skill: row.skill,
  });

  /** A choice's command as the server lists it: who acts, through which Talent (or Auto), at whom. */
  function choiceCommand(choice, odds) {
    const command = { do: choice.do, character: actorSel.value };
    if (/attack/.test(choice.do)) command.target = odds.target;
    if (choice.choice === "auto") command.choice = "auto";
    else command.talent = choice.talent;
    return command;
  }

  async function useSkill(row, whom) {
    const command = skillCommand(row);
    if (whom && whom.value !== actorSel.value) command.target = whom.value;
    if (row.rolled && !rolledWith(command)) return;
    if (await ctx.send(command)) faces.value = "";
  }

  /** Advantage, Disadvantage, physical dice and blindness of a roll, into `command`; false on bad faces. */
  function rolledWith(command) {
    if (Number(adv.value) > 0) command.advantage = Number(adv.value);
    if (Number(dis.value) > 0) command.disadvantage = Number(dis.value);
    try {
      const f = parseFaces(faces.value, true);
      if (f) command.faces = f;
    } catch (err) {
      ctx.say(`Physical dice: ${err.message}`, "error");
      return false;
    }
    if (blind.checked) command.visibility = "gm";
    return true;
  }

  function show(odds) {
    const situation = odds.situation;
    const cooperative = ctx.view?.scene?.kind === "cooperative";
    heading.textContent =
      situation && !cooperative ? `Actions — ${SITUATION_WORDS[situation] || situation}` : "Actions";
    const choices = odds.choices || [];
    if (cooperative || !choices.length) {
      const why = cooperative
        ? "A cooperative scene: no obstacles, no rolls."
        : "Nothing to roll for right now.";
      fill(list, h("p.muted", { id: "no-actions" }, why), advancedRows(odds));
      fill(chart);
      settleFocus();
      return;
    }
    const decisiveDo = /attack/.test(situation) ? "decisive_attack" : "decisive_action";
    const decisiveAgainst = (c) => c.against ?? odds.decisive_against;
    const all = [
      ...choices.map((c) => ({ ...c, do: situation })),
      ...(odds.decisive || []).map((c) => ({
        ...c,
        do: decisiveDo,
        label: `Decisive: ${c.label || c.talent}${decisiveAgainst(c) ? ` (needs ${decisiveAgainst(c)})` : ""}`,
      })),
    ];
    // II-SIMPLE-4, II-COMPLEX-5, II-FLOW-1: the odds stay on screen, with a button only for a command the
    // server's list holds (whose turn it is, whether the obstacle is open, which Talents may act).
    const offered = all.filter((c) => legal().allows(choiceCommand(c, odds)));
    const blocked = offered.length
      ? null
      : h(
          "p.muted",
          { id: "no-actions" },
          odds.can_act === false && odds.reason
            ? `Nothing to act on now: ${odds.reason}.`
            : `Nothing to act on now for ${actorSel.value}.`,
        );
    const key = (c) => `${c.do}:${c.choice}:${c.talent || ""}`;
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const actor = actorSel.value;
    if (!chosen || !all.some((c) => key(c) === chosen))
      chosen = key(all.find((c) => c.choice !== "auto") || all[0]);
    fill(
      list,
      all.map((c) => {
        const isChosen = key(c) === chosen;
        return h(
          `div.action${isChosen ? ".chosen" : ""}`,
          { "data-do": c.do, "data-choice": c.choice, "data-talent": c.talent || "" },
          h(
            "div",
            h(
              "div.title",
              c.label || (c.choice === "auto" ? "Auto" : `Roll ${c.talent}`),
              c.skills ? h("span.small.muted", ` with ${c.skills.join(", ")}`) : null,
            ),
            h(
              "div.odds",
              h("strong", oddsText(c)),
              diceText(c) ? ` · ${diceText(c)}` : "",
              " ",
              costBadge(c, odds.advice),
            ),
          ),
          h(
            "div.action-buttons",
            c.distribution
              ? h(
                  "button.ghost.small",
                  {
                    type: "button",
                    "aria-pressed": isChosen ? "true" : "false",
                    onclick: () => {
                      chosen = key(c);
                      show(odds);
                    },
                  },
                  "Odds chart",
                )
              : null,
            !offered.includes(c)
              ? null
              : h(
                  "button.small",
                  {
                    type: "button",
                    class: "act",
                    "data-key": key(c),
                    "data-command": canonical(choiceCommand(c, odds)),
                    onclick: () => act(c, odds),
                  },
                  c.choice === "auto"
                    ? "Take it"
                    : `Roll ${c.do.startsWith("decisive") ? "Decisive " : ""}${c.talent || ""}`.trim(),
                  h("span.sr-only", ` for ${actor}${odds.target ? ` at ${odds.target}` : ""}`),
                ),
          ),
        );
      }),
      advancedRows(odds),
    );
    const note = adviceNote(odds);
    if (note) list.prepend(note);
    if (blocked) list.prepend(blocked);
    const wanted = focused || pendingFocus;
    if (wanted) {
      const again =
        list.querySelector(`button.act[data-key="${CSS.escape(wanted)}"]`) ||
        list.querySelector("button.act");
      if (again) again.focus();
      else if (pendingFocus) result.focus();
    }
    pendingFocus = null;
    const pick = all.find((c) => key(c) === chosen);
    facesHint.textContent =
      pick && pick.choice !== "auto"
        ? `${pick.label || pick.talent}: enter ${pick.d6} chain${pick.d6 === 1 ? "" : "s"} of d6, then ${(pick.talent_dice || []).join(", ") || "no Talent dice"} — ${pick.d6 + (pick.talent_dice || []).length} chains in all.`
        : "";
    if (pick && pick.distribution) {
      fill(
        chart,
        h("p.small.muted", `${pick.label || pick.talent}: chance of each total (success shaded)`),
        distributionChart(pick.distribution, {
          threshold: pick.against ?? 20,
          capped: true,
          title: `Distribution of ${pick.label}`,
        }),
      );
    } else {
      fill(chart);
    }
  }

  function showAttack(odds) {
    attackRow.hidden = false;
    const mySide = (people.find((p) => p.name === actorSel.value) || {}).side;
    const others = people.filter((p) => p.side !== mySide).map((p) => p.name);
    const was = odds.target;
    fill(
      targetSel,
      others.map((n) => h("option", { value: n }, n)),
    );
    if (others.includes(was)) targetSel.value = was;
    abilitySel.value = odds.ability || abilitySel.value;
  }

  async function act(choice, odds) {
    const what = choice.do;
    const command = choiceCommand(choice, odds);
    if (/attack/.test(what)) command.ability = odds.ability;
    if (choice.choice !== "auto") {
      const skills = chosenSkills(choice.talent);
      if (skills.length) command.skills = skills;
      if (!rolledWith(command)) return;
    }
    const res = await ctx.send(command);
    if (!res) return;
    faces.value = "";
    showResult(result, res.events);
    pendingFocus = `${what}:${choice.choice}:${choice.talent || ""}`;
    if (!list.querySelector("button.act")) settleFocus();
  }

  /** After a roll with no Roll button left to move to, focus goes to the result (read out, and near the top). */
  function settleFocus() {
    if (!pendingFocus) return;
    pendingFocus = null;
    if (!result.hidden) result.focus();
  }

  return {
    refresh(view, actors) {
      const enemies = (view.scene?.conflict?.enemies || [])
        .filter((e) => !e.out)
        .map((e) => ({ name: e.name, side: "opposition" }));
      // II-FLOW-4: only those still in the fight are targets (a character out of it, or taken out and not
      // healed since, is no target the server would take).
      const conflict = view.scene?.conflict;
      const present = view.scene?.present || null;
      const fighting = (c) =>
        !(conflict?.out || []).includes(c.name) &&
        (c.max_hits === undefined || c.wounds < c.max_hits) &&
        (!present || present.includes(c.name));
      people = [
        ...(view.characters || []).filter(fighting).map((c) => ({ name: c.name, side: "characters" })),
        ...enemies,
      ];
      const current = actorSel.value;
      fill(
        actorSel,
        actors.map((name) => h("option", { value: name }, name)),
      );
      if (actors.includes(current)) actorSel.value = current;
      root.hidden = false;
      // The GM's switch: when only the GM enters physical dice, a player's page offers no faces to type.
      physical.hidden = ctx.role !== "gm" && ctx.physical === "gm";
      if (physical.hidden) faces.value = "";
      showSkills();
      load();
    },
    odds: () => lastOdds,
    /** Say whose move it is (or hide the note): the page's own notice, near the top of the actions. */
    moveNote(text) {
      moveNote.hidden = !text;
      moveNote.textContent = text || "";
    },
  };
}

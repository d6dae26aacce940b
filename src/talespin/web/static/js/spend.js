// Spending Rising Tension in one step (II-RT-3): pick what it buys, fill in that thing, and one
// `spend_tension` command pays for it and brings it in — Disadvantage on a named character's next roll, a
// Trigger, an obstacle, or enemies (joining the conflict under way, or starting one). The price is the
// rules'; the server refuses a purchase the GM cannot afford, and then nothing changes.

import { readData } from "./sheetio.js";
import { fill, h } from "./ui.js";

const int = (el) => Number(el.value);

/** mountSpend(ctx, {triggerRow, readTriggers}): returns {el, refresh(view)}. */
export function mountSpend(ctx, { triggerRow, readTriggers }) {
  const on = h(
    "select",
    { id: "spend-on" },
    h("option", { value: "disadvantage" }, "Disadvantage on a character's next roll"),
    h("option", { value: "trigger" }, "a new Trigger in this scene"),
    h("option", { value: "obstacle" }, "an obstacle"),
    h("option", { value: "enemy" }, "enemies for the conflict"),
  );
  const who = h("select", { id: "spend-character" });
  const count = h("input", { id: "spend-count", type: "number", min: 1, value: "1" });
  const reason = h("input", { id: "spend-why", placeholder: "the storm closes in" });
  const triggerRows = h("div.rows", { id: "spend-trigger" });
  triggerRow(triggerRows);
  const obstacleKind = h(
    "select",
    { id: "spend-obstacle-kind" },
    h("option", { value: "simple" }, "a Simple Obstacle"),
    h("option", { value: "complex" }, "a Complex Obstacle"),
  );
  const obstacleTo = h("select", { id: "spend-obstacle-to" });
  const obstruction = h("input", { id: "spend-obstruction", type: "number", min: 1, value: "30" });
  const attempts = h("input", { id: "spend-attempts", type: "number", min: 1, value: "2" });
  const enemies = h("textarea", {
    id: "spend-enemies",
    placeholder: '[{"name": "Guard", "abilities": {...}, "talents": [...]}]',
  });
  const enemyNote = h("p.small.muted", { id: "spend-enemy-note" });
  const parts = {
    disadvantage: h("div.row", h("label", "Whose next roll", who), h("label", "How many", count)),
    trigger: triggerRows,
    obstacle: h(
      "div.row",
      h("label", "Which", obstacleKind),
      h("label", "For", obstacleTo),
      h("label", "Obstruction", obstruction),
      h("label", "Decisive attempts", attempts),
    ),
    enemy: h("div", h("label", "Enemies (JSON or YAML list of sheets)", enemies), enemyNote),
  };
  const button = h("button.gm", { type: "button", id: "spend-button", onclick: buy }, "Spend");
  const el = h(
    "div.stack",
    h("div.row", h("label", "Buy", on), h("label", "Why", reason)),
    ...Object.values(parts),
    h("div.row", button),
  );
  let view = null;

  function show() {
    for (const [k, part] of Object.entries(parts)) part.hidden = k !== on.value;
    const complex = obstacleKind.value === "complex";
    obstruction.parentElement.hidden = !complex;
    attempts.parentElement.hidden = !complex;
    obstacleTo.parentElement.hidden = complex;
    const conflict = view?.scene?.conflict;
    const running = Boolean(conflict && !conflict.ended);
    enemyNote.textContent = running
      ? "They join the conflict under way, paid for from Rising Tension."
      : "A conflict starts with them, paid for from Rising Tension.";
    button.textContent = label(running);
  }

  function label(running) {
    switch (on.value) {
      case "disadvantage":
        return `Spend: ${int(count) || 1} Disadvantage on ${who.value || "…"}'s next roll`;
      case "trigger":
        return "Spend: add the Trigger";
      case "obstacle":
        return obstacleKind.value === "complex"
          ? "Spend: set the Complex Obstacle"
          : `Spend: a Simple Obstacle for ${obstacleTo.value || "the group"}`;
      default:
        return running
          ? "Spend: the enemies join the conflict"
          : "Spend: start the conflict with these enemies";
    }
  }

  /** The one command that pays and buys. */
  async function command() {
    const why = reason.value.trim();
    const base = why ? { reason: why } : {};
    switch (on.value) {
      case "disadvantage":
        if (!who.value) throw new Error("Pick the character whose next roll takes the Disadvantage.");
        return {
          do: "spend_tension",
          on: "disadvantage",
          character: who.value,
          count: int(count) || 1,
          ...base,
        };
      case "trigger": {
        const [t] = readTriggers(triggerRows);
        if (!t) throw new Error("Say what the Trigger does.");
        return { do: "spend_tension", on: "trigger", trigger: t, ...base };
      }
      case "obstacle": {
        const obstacle =
          obstacleKind.value === "complex"
            ? { kind: "complex", obstruction: int(obstruction), attempts: int(attempts) }
            : { kind: "simple", ...(obstacleTo.value ? { to: obstacleTo.value } : {}) };
        return { do: "spend_tension", on: "obstacle", obstacle, ...base };
      }
      default: {
        let list;
        try {
          list = await readData(enemies.value);
        } catch (err) {
          throw new Error(`Enemies: ${err.message}`, { cause: err });
        }
        return { do: "spend_tension", on: "enemy", enemies: Array.isArray(list) ? list : [list], ...base };
      }
    }
  }

  async function buy() {
    let c;
    try {
      c = await command();
    } catch (err) {
      ctx.say(err.message, "error");
      return;
    }
    if (await ctx.send(c)) {
      reason.value = "";
      if (on.value === "trigger") {
        fill(triggerRows);
        triggerRow(triggerRows);
      }
    }
  }

  for (const x of [on, who, count, obstacleKind, obstacleTo]) x.addEventListener("change", show);
  show();

  return {
    el,
    refresh(v) {
      view = v;
      const names = (v.characters || []).map((c) => c.name);
      for (const [sel, none] of [
        [who, null],
        [obstacleTo, "the group"],
      ]) {
        const was = sel.value;
        fill(
          sel,
          none ? h("option", { value: "" }, none) : null,
          names.map((n) => h("option", { value: n }, n)),
        );
        if ([...sel.options].some((o) => o.value === was)) sel.value = was;
      }
      show();
    },
  };
}

// The GM's seats: who plays which character, handing a character to another player (or to the GM), and
// removing a player from the table (their link stops working; their characters pass to the GM).

import { fill, h } from "./ui.js";

/** mountSeats(ctx): ctx = {table, players, say, refreshNow?}. Returns {el, refresh(view)}. */
export function mountSeats(ctx) {
  const list = h("ul.triggers", { id: "seat-list" });
  const character = h("select", { id: "hand-character" });
  const to = h("select", { id: "hand-to" });
  const hand = h(
    "button.gm.small",
    { type: "button", id: "hand-button", onclick: handOn },
    "Hand the character over",
  );
  const el = h(
    "div.stack",
    list,
    h("div.row", h("label", "Character", character), h("label", "To", to), hand),
    h(
      "p.small.muted",
      "Removing a player stops their link at once; their characters pass to you, and you can hand them on.",
    ),
  );

  async function handOn() {
    const name = character.value;
    if (!name) return;
    try {
      await ctx.table.handCharacter(name, to.value || null);
      ctx.say(`${name} is now played by ${to.value ? ctx.players[to.value] : "the GM"}.`);
    } catch (err) {
      ctx.say(`${name} could not be handed over: ${err.message}`, "error");
    }
  }

  async function remove(id, name) {
    if (!window.confirm(`Remove ${name} from the table? Their link stops working at once.`)) return;
    try {
      await ctx.table.removePlayer(id);
      ctx.say(`${name} has left the table; their characters are yours to hand on.`);
    } catch (err) {
      ctx.say(`${name} could not be removed: ${err.message}`, "error");
    }
  }

  return {
    el,
    refresh(view) {
      const owners = ctx.owners || {};
      const players = ctx.players || {};
      const names = (view.characters || view.heroes || []).map((c) => c.name || c.sheet?.name);
      fill(
        list,
        Object.entries(players).map(([id, name]) => {
          const theirs = names.filter((n) => owners[n] === id);
          return h(
            "li",
            { "data-player": id },
            h("strong", name),
            h("span.small.muted", theirs.length ? `plays ${theirs.join(", ")}` : "no character yet"),
            h(
              "button.ghost.small",
              { type: "button", "data-remove": id, onclick: () => remove(id, name) },
              `Remove ${name}`,
            ),
          );
        }),
        Object.keys(players).length ? null : h("li.muted", "No players have joined yet."),
      );
      const was = [character.value, to.value];
      fill(
        character,
        names.map((n) =>
          h("option", { value: n }, `${n} (${owners[n] ? players[owners[n]] || "a player" : "the GM"})`),
        ),
      );
      fill(
        to,
        h("option", { value: "" }, "the GM"),
        Object.entries(players).map(([id, name]) => h("option", { value: id }, name)),
      );
      if (names.includes(was[0])) character.value = was[0];
      if ([...to.options].some((o) => o.value === was[1])) to.value = was[1];
      hand.disabled = !names.length;
    },
  };
}

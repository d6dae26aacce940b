// A full, read-only sheet for every character at the table (descriptions, limitations, dice, Skills), and
// the turn order of a conflict round. Everyone sees every sheet; the owner and the GM also see where to
// change it (the cooperative scene's "Change, upgrade or learn", as the rules allow).

import { h } from "./ui.js";

// Which sheets are open survives the page redrawing them when the table changes.
const openSheets = new Set();
const keepOpen = (name) => ({
  "data-sheet": name,
  open: openSheets.has(name),
  ontoggle: (e) => (e.target.open ? openSheets.add(name) : openSheets.delete(name)),
});

const effectText = (e) =>
  Object.entries(e || {})
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
const pairs = (o) =>
  Object.entries(o || {})
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "–";

/** An Inciting Incident character (one entry of view.characters) as a definition list and its Talents. */
export function iiSheet(c, { editable = false, wounds = 0 } = {}) {
  const sh = c.sheet || {};
  const dice = c.talent_dice || {};
  return h(
    "details.sheet-view",
    keepOpen(c.name),
    h("summary", `${c.name}'s sheet`),
    h(
      "dl",
      h("dt", "Abilities"),
      h("dd", pairs(sh.abilities)),
      h("dt", "Defences"),
      h("dd", pairs(c.defences)),
      h("dt", "Wounds"),
      h("dd", `${wounds} of ${c.max_hits ?? "–"}`),
      c.cost !== undefined ? [h("dt", "Cost"), h("dd", String(c.cost))] : null,
    ),
    h(
      "ul",
      (sh.talents || []).map((t) =>
        h(
          "li",
          { "data-talent": t.name },
          h("strong", `${t.name} ${t.level}`),
          ` (${t.ability}${dice[t.name] ? `; rolls ${dice[t.name].join(" + ") || "no dice"} with the d6` : ""})`,
          t.description ? h("div.small", t.description) : null,
          (t.limitations || []).length
            ? h("div.small.muted", `Limitations: ${t.limitations.join("; ")}`)
            : null,
          (t.skills || []).length
            ? h(
                "ul.small",
                t.skills.map((s) =>
                  h(
                    "li",
                    h("strong", s.name),
                    ` — ${s.kind} Skill, cost ${s.cost}${effectText(s.effects) ? `, ${effectText(s.effects)}` : ""}`,
                    s.text ? `: ${s.text}` : "",
                  ),
                ),
              )
            : null,
        ),
      ),
    ),
    editable
      ? h(
          "p.small.muted",
          "To change this sheet: in a cooperative scene, Actions → “Change, upgrade or learn” (once per scene, as the rules allow).",
        )
      : null,
  );
}

/** An Ascend hero as a definition list. */
export function ascendSheet(hero, { editable = false } = {}) {
  const sh = hero.sheet || hero;
  const known = ["skills", "convictions", "traits", "backgrounds", "aids"];
  return h(
    "details.sheet-view",
    keepOpen(sh.name),
    h("summary", `${sh.name}'s sheet`),
    h(
      "dl",
      known.flatMap((k) => [h("dt", k[0].toUpperCase() + k.slice(1)), h("dd", pairs(sh[k]))]),
    ),
    editable
      ? h(
          "p.small.muted",
          "Your hero's ratings change between sessions by the rules; the GM records the change.",
        )
      : null,
  );
}

/**
 * The round of a conflict: who has acted and who has yet to, characters' side first, then the opposition,
 * each side in table order. `view` is the system view; returns null outside a conflict.
 */
export function turnOrder(view) {
  const conflict = view.scene?.conflict;
  if (!conflict || conflict.ended) return null;
  const out = new Set(conflict.out || []);
  const acted = new Set(conflict.acted || []);
  const present = view.scene.present?.length
    ? view.scene.present
    : (view.characters || []).map((c) => c.name);
  const people = [
    ...present.map((name) => ({ name, side: "characters" })),
    ...(conflict.enemies || []).map((e) => ({ name: e.name, side: "opposition" })),
  ].filter((p) => !out.has(p.name));
  const next = people.find((p) => !acted.has(p.name));
  return h(
    "div",
    { id: "turns" },
    h("h3", `Round ${conflict.round ?? 1}: each acts once`),
    h(
      "ol.turns",
      people.map((p) =>
        h(
          `li${acted.has(p.name) ? ".acted" : ""}${p === next ? ".next" : ""}`,
          { "data-turn": p.name, "aria-current": p === next ? "step" : null },
          h("span", p.name),
          h("span.small.muted", p.side === "characters" ? "character" : "opposition"),
          acted.has(p.name)
            ? h("span.badge.good", "acted")
            : p === next
              ? h("span.badge.warn", "next")
              : h("span.badge", "to act"),
        ),
      ),
    ),
  );
}

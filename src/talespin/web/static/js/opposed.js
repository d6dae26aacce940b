// The defending side of an opposed Ascend Test (AS-OPP-1): who resists, with what, and the Dice Pool they
// use. The Test builder supplies the attacking side; the odds of winning come from the odds endpoint.

import { fill, h } from "./ui.js";

const KINDS = [["traits", "Trait", "trait"], ["backgrounds", "Background", "background"], ["aids", "Aid", "aid"]];

/** mountDefender(onChange) → {el, refresh(view, attacker), spec(), numbers(), ready()}. */
export function mountDefender(onChange) {
  let heroes = [];
  const heroSel = h("select", { id: "defender" });
  const testedSel = h("select", { id: "defender-tested" });
  const difficulty = h("input", { id: "defender-difficulty", type: "number", min: 0, value: "0" });
  const items = Object.fromEntries(KINDS.map(([, , key]) => [key, h("select", { id: `defender-${key}` })]));
  const el = h("fieldset", { id: "defender-side" }, h("legend", "Resisting side"),
    h("div.row", h("label", "Who resists", heroSel), h("label", "Tested", testedSel),
      h("label", "Difficulty", difficulty)),
    h("div.row", KINDS.map(([, label, key]) => h("label", label, items[key]))));

  const sheet = () => (heroes.find((x) => (x.sheet || x).name === heroSel.value) || {}).sheet || {};

  function fillHero() {
    const s = sheet();
    const keep = testedSel.value;
    fill(testedSel,
      Object.entries(s.skills || {}).map(([n, r]) => h("option", { value: `skill:${n}` }, `Skill: ${n} (${r})`)),
      Object.entries(s.convictions || {}).map(([n, r]) => h("option", { value: `conviction:${n}` }, `Conviction: ${n} (${r})`)));
    if ([...testedSel.options].some((o) => o.value === keep)) testedSel.value = keep;
    for (const [kind, label, key] of KINDS) {
      const was = items[key].value;
      fill(items[key], h("option", { value: "" }, `No ${label}`),
        Object.entries(s[kind] || {}).map(([n, r]) => h("option", { value: n }, `${n} (${r})`)));
      if ([...items[key].options].some((o) => o.value === was)) items[key].value = was;
    }
  }

  heroSel.addEventListener("change", () => { fillHero(); onChange(); });
  for (const x of [testedSel, difficulty, ...Object.values(items)]) x.addEventListener("change", onChange);

  return {
    el,
    /** The heroes of the view; the resisting side stays as chosen, or is the first who is not `attacker`. */
    refresh(view, attacker) {
      heroes = view.heroes || [];
      const names = heroes.map((x) => (x.sheet || x).name);
      const keep = heroSel.value;
      fill(heroSel, names.map((n) => h("option", { value: n }, n)));
      const pick = keep && keep !== attacker && names.includes(keep) ? keep : names.find((n) => n !== attacker) || names[0];
      if (pick) heroSel.value = pick;
      fillHero();
    },
    /** The defending side as a command's TestSpec. */
    spec() {
      const [kind, name] = testedSel.value.split(/:(.*)/s);
      const out = { hero: heroSel.value, [kind]: name, difficulty: Number(difficulty.value) || 0 };
      for (const [, , key] of KINDS) if (items[key].value) out[key] = items[key].value;
      return out;
    },
    /** {rating, difficulty, pool} for the odds endpoint. */
    numbers() {
      const s = sheet();
      const [kind, name] = testedSel.value.split(/:(.*)/s);
      const rating = Number(((kind === "skill" ? s.skills : s.convictions) || {})[name] ?? 0);
      const pool = KINDS.reduce((sum, [k, , key]) => sum + Number((s[k] || {})[items[key].value] ?? 0), 0);
      return { rating, difficulty: Number(difficulty.value) || 0, pool };
    },
    ready: () => Boolean(heroSel.value && testedSel.value),
  };
}

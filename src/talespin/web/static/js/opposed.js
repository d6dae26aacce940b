// The defending side of an opposed Ascend Test (AS-OPP-1): who resists, with what, the Dice Pool they use
// and the items they Invoke when their narration earns it (AS-POOL rules, as for the attacking side). The
// Test builder supplies the attacking side and whom it may oppose (the server's `legal` list names them);
// the odds of winning come from the odds endpoint.

import { fill, h } from "./ui.js";

const KINDS = [
  ["traits", "Trait", "trait"],
  ["backgrounds", "Background", "background"],
  ["aids", "Aid", "aid"],
];

/** mountDefender(onChange) → {el, refresh(view, resisting), spec(), numbers(), ready()}. */
export function mountDefender(onChange) {
  let heroes = [];
  const heroSel = h("select", { id: "defender" });
  const testedSel = h("select", { id: "defender-tested" });
  const difficulty = h("input", { id: "defender-difficulty", type: "number", min: 0, value: "0" });
  const items = Object.fromEntries(KINDS.map(([, , key]) => [key, h("select", { id: `defender-${key}` })]));
  const narration = h(
    "select",
    { id: "defender-narration" },
    h("option", { value: "none" }, "No narration"),
    h("option", { value: "narrated" }, "Narrated: Invoke 1 more"),
    h("option", { value: "exceptional" }, "Exceptional: Invoke 2 more"),
  );
  const invokeBox = h("div.row", { id: "defender-invokes" });
  // AS-OPP-1: the resisting side's choices are its controller's. For a hero this page does not control, only
  // "who resists" is asked: its player (or the GM, for an adversary) chooses the rest when the Test is proposed.
  const testedLabel = h("label", "Tested", testedSel);
  const difficultyLabel = h("label", "Difficulty", difficulty);
  const itemsRow = h(
    "div.row",
    KINDS.map(([, label, key]) => h("label", label, items[key])),
    h("label", "Narration", narration),
  );
  const theirs = h("p.small.muted", { id: "defender-chooses", hidden: true });
  let choosing = true;
  const el = h(
    "fieldset",
    { id: "defender-side" },
    h("legend", "Resisting side"),
    h("div.row", h("label", "Who resists", heroSel), testedLabel, difficultyLabel),
    itemsRow,
    invokeBox,
    theirs,
  );
  const allowed = () => (narration.value === "exceptional" ? 2 : narration.value === "narrated" ? 1 : 0);
  const invoked = () => [...invokeBox.querySelectorAll("input:checked")].map((i) => i.value);

  /** The items the resisting side may Invoke: its Traits, Backgrounds and Aids not already in the pool. */
  function fillInvokes() {
    const s = sheet();
    const used = new Set(KINDS.map(([, , key]) => items[key].value).filter(Boolean));
    const was = new Set(invoked());
    const n = allowed();
    const list = KINDS.flatMap(([kind]) =>
      Object.entries(s[kind] || {}).map(([name, r]) => [kind, name, r]),
    ).filter(([, name]) => !used.has(name));
    fill(
      invokeBox,
      h("span.small.muted", n ? `Invoke up to ${n}:` : "Invoke (narrate to Invoke):"),
      list.map(([kind, name, r]) =>
        h(
          "label.check",
          {},
          h("input", {
            type: "checkbox",
            value: name,
            "data-kind": kind,
            disabled: !n,
            checked: n > 0 && was.has(name),
            onchange: () => {
              limit();
              onChange();
            },
          }),
          `${name} (${r})`,
        ),
      ),
    );
    limit();
  }

  function limit() {
    const boxes = [...invokeBox.querySelectorAll("input")];
    const ticked = boxes.filter((b) => b.checked).length;
    boxes.forEach((b) => {
      b.disabled = !b.checked && ticked >= allowed();
    });
  }

  const sheet = () => (heroes.find((x) => (x.sheet || x).name === heroSel.value) || {}).sheet || {};

  function fillHero() {
    const s = sheet();
    const keep = testedSel.value;
    fill(
      testedSel,
      Object.entries(s.skills || {}).map(([n, r]) =>
        h("option", { value: `skill:${n}` }, `Skill: ${n} (${r})`),
      ),
      Object.entries(s.convictions || {}).map(([n, r]) =>
        h("option", { value: `conviction:${n}` }, `Conviction: ${n} (${r})`),
      ),
    );
    if ([...testedSel.options].some((o) => o.value === keep)) testedSel.value = keep;
    for (const [kind, label, key] of KINDS) {
      const was = items[key].value;
      fill(
        items[key],
        h("option", { value: "" }, `No ${label}`),
        Object.entries(s[kind] || {}).map(([n, r]) => h("option", { value: n }, `${n} (${r})`)),
      );
      if ([...items[key].options].some((o) => o.value === was)) items[key].value = was;
    }
    fillInvokes();
  }

  heroSel.addEventListener("change", () => {
    fillHero();
    onChange();
  });
  for (const x of [testedSel, difficulty]) x.addEventListener("change", onChange);
  for (const x of [narration, ...Object.values(items)])
    x.addEventListener("change", () => {
      fillInvokes();
      onChange();
    });

  return {
    el,
    /**
     * The heroes of the view, and `resisting`: the names the attacker may oppose now, as the server's list
     * gives them. The resisting side stays as chosen while it is among them, or is the first of them.
     */
    refresh(view, resisting) {
      heroes = view.heroes || [];
      const keep = heroSel.value;
      fill(
        heroSel,
        resisting.map((n) => h("option", { value: n }, n)),
      );
      const pick = resisting.includes(keep) ? keep : resisting[0];
      if (pick) heroSel.value = pick;
      fillHero();
    },
    /** Whether this page makes the resisting side's choices (it controls that hero) or leaves them to it. */
    setChoosing(yes) {
      choosing = yes;
      for (const x of [testedLabel, difficultyLabel, itemsRow, invokeBox]) x.hidden = !yes;
      theirs.hidden = yes;
      theirs.textContent = yes
        ? ""
        : `${heroSel.value} chooses its own side — its player, or the GM for an adversary — once you propose the Test; it resolves when both sides have chosen.`;
    },
    hero: () => heroSel.value,
    choosing: () => choosing,
    /** The defending side as a command's TestSpec (only the hero when its controller chooses the rest). */
    spec() {
      if (!choosing) return { hero: heroSel.value };
      const [kind, name] = testedSel.value.split(/:(.*)/s);
      const out = { hero: heroSel.value, [kind]: name, difficulty: Number(difficulty.value) || 0 };
      for (const [, , key] of KINDS) if (items[key].value) out[key] = items[key].value;
      if (narration.value !== "none") out.narration = narration.value;
      if (invoked().length) out.invoke = invoked();
      return out;
    },
    /** {rating, difficulty, pool} for the odds endpoint. */
    numbers() {
      const s = sheet();
      const [kind, name] = testedSel.value.split(/:(.*)/s);
      const rating = Number(((kind === "skill" ? s.skills : s.convictions) || {})[name] ?? 0);
      const rated = (name) => Math.max(...KINDS.map(([k]) => Number((s[k] || {})[name] ?? 0)));
      const pool =
        KINDS.reduce((sum, [k, , key]) => sum + Number((s[k] || {})[items[key].value] ?? 0), 0) +
        invoked().reduce((sum, name) => sum + rated(name), 0);
      return { rating, difficulty: Number(difficulty.value) || 0, pool };
    },
    ready: () => Boolean(heroSel.value && testedSel.value),
  };
}

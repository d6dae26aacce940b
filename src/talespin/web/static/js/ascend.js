// The Ascend Test builder: pick what is Tested, the one Trait, Background and Aid of the Dice Pool, the
// narration level and the Invoked items; see the odds of this choice and the ranked advice (from the odds
// endpoint) before rolling.

import { distributionChart } from "./chart.js";
import { mountDefender } from "./opposed.js";
import { fill, h, parseFaces, pct } from "./ui.js";

const NONE = "";

function options(entries, noneLabel) {
  return [h("option", { value: NONE }, noneLabel), ...entries.map(([n, r]) => h("option", { value: n }, `${n} (${r})`))];
}

/** mountAscend(root, ctx): ctx = {table, role, send, say}. Returns {refresh(view, actors)}. */
export function mountAscend(root, ctx) {
  let heroes = [];
  let advice = null;
  let seq = 0;
  const heroSel = h("select", { id: "hero" });
  const testedSel = h("select", { id: "tested" });
  const difficulty = h("input", { id: "difficulty", type: "number", min: 0, value: "0" });
  const required = h("input", { id: "required", type: "number", min: 1, value: "1" });
  const narration = h("select", { id: "narration" },
    h("option", { value: "none" }, "No narration"),
    h("option", { value: "narrated" }, "Narrated: Invoke 1 more"),
    h("option", { value: "exceptional" }, "Exceptional: Invoke 2 more"));
  const traitSel = h("select", { id: "trait" });
  const bgSel = h("select", { id: "background" });
  const aidSel = h("select", { id: "aid" });
  const invokeBox = h("fieldset", { id: "invokes" }, h("legend", "Invoke"));
  const faces = h("input", { id: "ascend-faces", placeholder: "e.g. 0 3 9 4 7 2", autocomplete: "off" });
  const blind = h("input", { id: "ascend-blind", type: "checkbox" });
  const stepBox = h("input", { id: "extended-step", type: "checkbox", checked: true });
  const stepRow = h("label.check", { hidden: true }, stepBox, h("span", { id: "extended-label" }, "Count this Test toward the extended Test"));
  const current = h("div", { id: "test-odds", "aria-live": "polite" });
  const opposed = h("input", { id: "opposed", type: "checkbox" });
  const opposedOdds = h("p.odds", { id: "opposed-odds", "aria-live": "polite" });
  const defender = mountDefender(() => showOpposed());
  defender.el.hidden = true;
  const adviceEl = h("div.table-scroll", { id: "advice" });
  fill(root,
    h("h2", "Test"),
    h("div.row", h("label", "Hero", heroSel), h("label", "Tested", testedSel),
      h("label", "Difficulty", difficulty), h("label", "Successes needed", required)),
    h("div.row", h("label", "Trait", traitSel), h("label", "Background", bgSel), h("label", "Aid", aidSel),
      h("label", "Narration", narration)),
    invokeBox,
    current,
    h("label.check", opposed, "Opposed Test: someone resists (more Successes wins)"),
    defender.el,
    opposedOdds,
    h("details", h("summary", "Physical dice"), h("label", "Faces of the d10s, read 0–9, one per die", faces)),
    h("label.check", { hidden: ctx.role !== "gm" }, blind, "Blind roll"),
    stepRow,
    h("div.row", h("button", { type: "button", id: "roll-test", onclick: roll }, "Roll the Test")),
    h("h3", "Advice: the best Dice Pools for this Test"),
    adviceEl);

  const $label = () => stepRow.querySelector("#extended-label");
  const sheet = () => (heroes.find((x) => (x.sheet || x).name === heroSel.value) || {}).sheet || {};

  function fillHero() {
    const s = sheet();
    const tested = [...Object.entries(s.skills || {}).map(([n, r]) => h("option", { value: `skill:${n}` }, `Skill: ${n} (${r})`)),
      ...Object.entries(s.convictions || {}).map(([n, r]) => h("option", { value: `conviction:${n}` }, `Conviction: ${n} (${r})`))];
    const keep = testedSel.value;
    fill(testedSel, tested);
    if ([...testedSel.options].some((o) => o.value === keep)) testedSel.value = keep;
    for (const [sel, kind, none] of [[traitSel, "traits", "No Trait"], [bgSel, "backgrounds", "No Background"], [aidSel, "aids", "No Aid"]]) {
      const was = sel.value;
      fill(sel, options(Object.entries(s[kind] || {}), none));
      if ([...sel.options].some((o) => o.value === was)) sel.value = was;
    }
    fillInvokes();
  }

  function fillInvokes() {
    const s = sheet();
    const used = new Set([traitSel.value, bgSel.value, aidSel.value].filter(Boolean));
    const allowed = narration.value === "exceptional" ? 2 : narration.value === "narrated" ? 1 : 0;
    const checked = new Set([...invokeBox.querySelectorAll("input:checked")].map((i) => i.value));
    const items = ["traits", "backgrounds", "aids"].flatMap((k) => Object.entries(s[k] || {}).map(([n, r]) => [k, n, r]));
    fill(invokeBox, h("legend", allowed ? `Invoke up to ${allowed} more (narration)` : "Invoke (narrate the action to Invoke)"),
      h("div.row", items.filter(([, n]) => !used.has(n)).map(([k, n, r]) => h("label.check", {},
        h("input", { type: "checkbox", value: n, "data-kind": k, disabled: !allowed, checked: allowed && checked.has(n),
          onchange: () => { limitInvokes(allowed); showCurrent(); } }), `${n} (${r})`))));
  }

  function limitInvokes(allowed) {
    const boxes = [...invokeBox.querySelectorAll("input")];
    const n = boxes.filter((b) => b.checked).length;
    boxes.forEach((b) => { b.disabled = !b.checked && n >= allowed; });
  }

  function query() {
    const [kind, name] = testedSel.value.split(/:(.*)/s);
    return { hero: heroSel.value, [kind]: name, difficulty: Number(difficulty.value) || 0,
      required: Math.max(1, Number(required.value) || 1), narration: narration.value };
  }

  const invokes = () => [...invokeBox.querySelectorAll("input:checked")].map((i) => i.value);

  async function load() {
    if (!heroSel.value || !testedSel.value) {
      fill(adviceEl, h("p.muted", "Add a hero with a Skill or Conviction to build a Test."));
      fill(current);
      return;
    }
    const mine = ++seq;
    try {
      const res = await ctx.table.odds(query());
      if (mine !== seq) return;
      advice = res;
      showAdvice();
      showCurrent();
    } catch (err) {
      if (mine === seq) fill(adviceEl, h("p.muted", `Advice unavailable: ${err.message}`));
    }
  }

  function matches(row) {
    const same = (a, b) => (a || NONE) === (b || NONE);
    const inv = [...(row.invoke || [])].sort().join("|");
    return same(row.trait, traitSel.value) && same(row.background, bgSel.value) && same(row.aid, aidSel.value)
      && inv === invokes().sort().join("|");
  }

  function showAdvice() {
    const rows = (advice?.advice || []).slice(0, 8);
    if (!rows.length) { fill(adviceEl, h("p.muted", "No Dice Pool is possible.")); return; }
    fill(adviceEl, h("table.advice", h("thead", h("tr", ["Pool", "Trait", "Background", "Aid", "Invoke", "Success", ""].map((t) => h("th", t)))),
      h("tbody", rows.map((r, i) => h(`tr${i === 0 ? ".best" : ""}`,
        h("td", `${r.pool}d10`), h("td", r.trait || "–"), h("td", r.background || "–"), h("td", r.aid || "–"),
        h("td", (r.invoke || []).join(", ") || "–"), h("td", h("strong", pct(r.p_success))),
        h("td", h("button.ghost.small", { type: "button", onclick: () => use(r) }, "Use")))))));
  }

  function use(r) {
    traitSel.value = r.trait || NONE;
    bgSel.value = r.background || NONE;
    aidSel.value = r.aid || NONE;
    fillInvokes();
    const want = new Set(r.invoke || []);
    invokeBox.querySelectorAll("input").forEach((b) => { b.checked = want.has(b.value); });
    limitInvokes(narration.value === "exceptional" ? 2 : narration.value === "narrated" ? 1 : 0);
    showCurrent();
  }

  function showCurrent() {
    showOpposed();
    const target = advice?.target;
    const row = (advice?.advice || []).find(matches);
    if (!row) {
      fill(current, h("p.odds", "This Dice Pool is not among the legal choices for this Test."));
      return;
    }
    fill(current,
      h("p.odds", h("strong", `${row.pool}d10 · target ${target} · ${pct(row.p_success)} chance of ${advice.required ?? 1}+ successes`)),
      row.distribution ? distributionChart(row.distribution, { threshold: advice.required ?? 1, title: "Successes" }) : null);
  }

  /** P(win), P(tie), P(lose) of the opposed Test as built (AS-ODDS-2), before anyone rolls. */
  async function showOpposed() {
    defender.el.hidden = !opposed.checked;
    if (!opposed.checked || !defender.ready() || !testedSel.value) { fill(opposedOdds); return; }
    const s = sheet();
    const [kind, name] = testedSel.value.split(/:(.*)/s);
    const rating = Number(((kind === "skill" ? s.skills : s.convictions) || {})[name] ?? 0);
    const rated = (k, v) => Number((s[k] || {})[v] ?? 0);
    const invoked = invokes().reduce((sum, n) => sum + Math.max(rated("traits", n), rated("backgrounds", n), rated("aids", n)), 0);
    const pool = rated("traits", traitSel.value) + rated("backgrounds", bgSel.value) + rated("aids", aidSel.value) + invoked;
    try {
      const odds = await ctx.table.odds({ kind: "opposed",
        attacker: { rating, difficulty: Number(difficulty.value) || 0, pool }, defender: defender.numbers() });
      fill(opposedOdds, h("strong", `Win ${pct(odds.p_win)} · tie ${pct(odds.p_tie)} · lose ${pct(odds.p_lose)}`),
        ` (${pool}d10 against ${defender.numbers().pool}d10)`);
    } catch (err) {
      fill(opposedOdds, `Odds unavailable: ${err.message}`);
    }
  }

  /** The attacking side (or the lone Test) as a TestSpec. */
  function spec() {
    const out = query();
    if (traitSel.value) out.trait = traitSel.value;
    if (bgSel.value) out.background = bgSel.value;
    if (aidSel.value) out.aid = aidSel.value;
    if (invokes().length) out.invoke = invokes();
    const f = parseFaces(faces.value, false);
    if (f) out.faces = f;
    return out;
  }

  async function roll() {
    let command;
    try {
      command = opposed.checked
        ? { do: "opposed_test", attacker: spec(), defender: defender.spec() }
        : { do: !stepRow.hidden && stepBox.checked ? "extended_step" : "test", ...spec() };
    } catch (err) {
      ctx.say(`Physical dice: ${err.message}`, "error");
      return;
    }
    if (opposed.checked) delete command.attacker.required;
    if (blind.checked) command.visibility = "gm";
    if (await ctx.send(command)) faces.value = "";
  }

  opposed.addEventListener("change", showOpposed);

  heroSel.addEventListener("change", () => { fillHero(); load(); });
  for (const el of [testedSel, difficulty, required]) el.addEventListener("change", load);
  narration.addEventListener("change", () => { fillInvokes(); load(); });
  for (const el of [traitSel, bgSel, aidSel]) el.addEventListener("change", () => { fillInvokes(); showCurrent(); });

  return {
    refresh(view, actors) {
      const ext = view.extended;
      stepRow.hidden = !ext || ext.done;
      if (ext && !ext.done) {
        $label().textContent = `Count this Test toward the extended Test (${ext.successes ?? "?"} of ${ext.goal} successes, ${ext.tests}${ext.limit ? ` of ${ext.limit}` : ""} Tests)`;
      }
      heroes = (view.heroes || []).filter((x) => actors.includes((x.sheet || x).name));
      const keep = heroSel.value;
      fill(heroSel, heroes.map((x) => h("option", { value: (x.sheet || x).name }, (x.sheet || x).name)));
      if ([...heroSel.options].some((o) => o.value === keep)) heroSel.value = keep;
      defender.refresh(view, heroSel.value);
      const had = testedSel.value;
      fillHero();
      if (had && [...testedSel.options].some((o) => o.value === had)) testedSel.value = had;
      load();
    },
  };
}

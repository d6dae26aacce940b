// The Ascend Test builder: pick what is Tested, the one Trait, Background and Aid of the Dice Pool, the
// narration level and the Invoked items; see the odds of this choice and the ranked advice (from the odds
// endpoint) before rolling.
//
// What may be rolled now is the server's to say, never decided here: the Roll button (a Test, an extended
// Test's step, an opposed Test proposed, or the defender's side of one), asking for exceptional narration
// and withdrawing an opposed Test are enabled only while the state's `legal` list holds the command's core
// (who acts, what is Tested, at whom; see legal.js), and carry it as `data-command`. The Dice Pool (Trait,
// Background, Aid, Invoke, narration), the Difficulty, physical dice and a blind roll are the sender's, on
// top of that core. The hero selector still lists every hero this page acts for, so odds can be browsed.

import { distributionChart } from "./chart.js";
import { canonical, Legal, offer } from "./legal.js";
import { mountDefender } from "./opposed.js";
import { resultPanel, showResult } from "./result.js";
import { changeGate, fill, h, parseFaces, pct } from "./ui.js";

const NONE = "";
const TOP = 8; // the advice rows shown: the server answers these and the chosen pool's row, not all of them

function options(entries, noneLabel) {
  return [
    h("option", { value: NONE }, noneLabel),
    ...entries.map(([n, r]) => h("option", { value: n }, `${n} (${r})`)),
  ];
}

/** mountAscend(root, ctx): ctx = {table, role, send, say}. Returns {refresh(view, actors)}. */
export function mountAscend(root, ctx) {
  let heroes = [];
  let advice = null;
  let seq = 0;
  // Advice is asked for again only when the Test asked about, the hero's sheet or the extended Test changes;
  // the opposed odds only when either side's numbers do (never merely because an event arrived).
  const asked = changeGate();
  const opposedAsked = changeGate();
  let controlled = new Set(); // the heroes this page acts for
  let pending = null; // an opposed Test waiting for its defender (AS-OPP-1)
  let defending = false; // … and this page makes that defender's choices, as the server's list lets it
  let view = {};
  const heroSel = h("select", { id: "hero" });
  const testedSel = h("select", { id: "tested" });
  const difficulty = h("input", { id: "difficulty", type: "number", min: 0, value: "0" });
  const required = h("input", { id: "required", type: "number", min: 1, value: "1" });
  const narration = h(
    "select",
    { id: "narration" },
    h("option", { value: "none" }, "No narration"),
    h("option", { value: "narrated" }, "Narrated: Invoke 1 more"),
    h("option", { value: "exceptional" }, "Exceptional: Invoke 2 more"),
  );
  const traitSel = h("select", { id: "trait" });
  const bgSel = h("select", { id: "background" });
  const aidSel = h("select", { id: "aid" });
  const invokeBox = h("fieldset", { id: "invokes" }, h("legend", "Invoke"));
  const faces = h("input", { id: "ascend-faces", placeholder: "e.g. 0 3 9 4 7 2", autocomplete: "off" });
  const blind = h("input", { id: "ascend-blind", type: "checkbox" });
  const stepBox = h("input", { id: "extended-step", type: "checkbox", checked: true });
  const stepRow = h(
    "label.check",
    { hidden: true },
    stepBox,
    h("span", { id: "extended-label" }, "Count this Test toward the extended Test"),
  );
  const current = h("div", { id: "test-odds", "aria-live": "polite" });
  const opposed = h("input", { id: "opposed", type: "checkbox" });
  const opposedOdds = h("p.odds", { id: "opposed-odds", "aria-live": "polite" });
  const defender = mountDefender(() => {
    offerRoll();
    showOpposed();
  });
  defender.el.hidden = true;
  const adviceEl = h("div.table-scroll", { id: "advice" });
  const waiting = h("div.notice", { id: "opposed-waiting", hidden: true, "aria-live": "polite" });
  const opposedRow = h("label.check", opposed, "Opposed Test: someone resists (more Successes wins)");
  const result = resultPanel();
  const rollButton = h("button", { type: "button", id: "roll-test", onclick: roll }, "Roll the Test");
  // AS-POOL-3: exceptional narration is the GM's award; a player asks for it.
  const askButton = h(
    "button.secondary.small",
    { type: "button", id: "ask-exceptional", onclick: ask },
    "Ask the GM for exceptional narration",
  );
  const awardStatus = h("span.small.muted", { id: "exceptional-status" });
  const physicalBox = h(
    "details",
    h("summary", "Physical dice"),
    h("label", "Faces of the d10s, read 0–9, one per die", faces),
  );
  // Phone first: what is tested, its odds, the Roll button and the result; the Dice Pool's parts below.
  fill(
    root,
    h("h2", "Test"),
    waiting,
    h("div.row", h("label", "Hero", heroSel), h("label", "Tested", testedSel)),
    current,
    h("div.row", rollButton),
    result,
    h("div.row", h("label", "Difficulty", difficulty), h("label", "Successes needed", required)),
    h(
      "div.row",
      h("label", "Trait", traitSel),
      h("label", "Background", bgSel),
      h("label", "Aid", aidSel),
      h("label", "Narration", narration),
    ),
    h("div.row", askButton, awardStatus),
    invokeBox,
    opposedRow,
    defender.el,
    opposedOdds,
    physicalBox,
    h("label.check", { hidden: ctx.role !== "gm" }, blind, "Blind roll"),
    stepRow,
    h("h3", "Advice: the best Dice Pools for this Test"),
    adviceEl,
  );

  const $label = () => stepRow.querySelector("#extended-label");
  /** The server's list of what this viewer may send now (see legal.js). */
  const legal = () => ctx.legal || new Legal([]);
  const sheet = () => (heroes.find((x) => (x.sheet || x).name === heroSel.value) || {}).sheet || {};

  function fillHero() {
    const s = sheet();
    const tested = [
      ...Object.entries(s.skills || {}).map(([n, r]) =>
        h("option", { value: `skill:${n}` }, `Skill: ${n} (${r})`),
      ),
      ...Object.entries(s.convictions || {}).map(([n, r]) =>
        h("option", { value: `conviction:${n}` }, `Conviction: ${n} (${r})`),
      ),
    ];
    const keep = testedSel.value;
    fill(testedSel, tested);
    if ([...testedSel.options].some((o) => o.value === keep)) testedSel.value = keep;
    for (const [sel, kind, none] of [
      [traitSel, "traits", "No Trait"],
      [bgSel, "backgrounds", "No Background"],
      [aidSel, "aids", "No Aid"],
    ]) {
      const was = sel.value;
      fill(sel, options(Object.entries(s[kind] || {}), none));
      if ([...sel.options].some((o) => o.value === was)) sel.value = was;
    }
    fillInvokes();
  }

  /** AS-POOL-3: "Exceptional" only with the GM's award for this hero (unless the campaign lets players claim it). */
  function showAward() {
    const hero = heroSel.value;
    const claimable = ctx.variant?.invokes?.exceptional_award === "player";
    const awarded = claimable || (view.awards || []).includes(hero);
    const asked = (view.requests || []).includes(hero);
    const option = [...narration.options].find((o) => o.value === "exceptional");
    option.disabled = !awarded;
    option.textContent = awarded
      ? "Exceptional: Invoke 2 more"
      : "Exceptional: Invoke 2 more (the GM's award)";
    if (!awarded && narration.value === "exceptional") {
      narration.value = "narrated";
      fillInvokes();
    }
    // Asking is offered while the server's list holds it (the hero holds no award and has not asked yet);
    // where the player claims exceptional narration with the Test itself there is nothing to ask for.
    const asking = offer(askButton, legal(), { do: "request_narration", hero });
    askButton.hidden = !asking || claimable;
    awardStatus.textContent = claimable
      ? ""
      : awarded
        ? `The GM awarded ${hero} exceptional narration for the next Test.`
        : asked
          ? `${hero} asked for exceptional narration: waiting for the GM.`
          : "";
  }

  async function ask() {
    await ctx.send({ do: "request_narration", hero: heroSel.value });
  }

  function fillInvokes() {
    const s = sheet();
    const used = new Set([traitSel.value, bgSel.value, aidSel.value].filter(Boolean));
    const allowed = narration.value === "exceptional" ? 2 : narration.value === "narrated" ? 1 : 0;
    const checked = new Set([...invokeBox.querySelectorAll("input:checked")].map((i) => i.value));
    const items = ["traits", "backgrounds", "aids"].flatMap((k) =>
      Object.entries(s[k] || {}).map(([n, r]) => [k, n, r]),
    );
    fill(
      invokeBox,
      h(
        "legend",
        allowed ? `Invoke up to ${allowed} more (narration)` : "Invoke (narrate the action to Invoke)",
      ),
      h(
        "div.row",
        items
          .filter(([, n]) => !used.has(n))
          .map(([k, n, r]) =>
            h(
              "label.check",
              {},
              h("input", {
                type: "checkbox",
                value: n,
                "data-kind": k,
                disabled: !allowed,
                checked: allowed && checked.has(n),
                onchange: () => {
                  limitInvokes(allowed);
                  showCurrent();
                },
              }),
              `${n} (${r})`,
            ),
          ),
      ),
    );
  }

  function limitInvokes(allowed) {
    const boxes = [...invokeBox.querySelectorAll("input")];
    const n = boxes.filter((b) => b.checked).length;
    boxes.forEach((b) => {
      b.disabled = !b.checked && n >= allowed;
    });
  }

  function query() {
    const [kind, name] = testedSel.value.split(/:(.*)/s);
    return {
      hero: heroSel.value,
      [kind]: name,
      difficulty: Number(difficulty.value) || 0,
      required: Math.max(1, Number(required.value) || 1),
      narration: narration.value,
    };
  }

  const invokes = () => [...invokeBox.querySelectorAll("input:checked")].map((i) => i.value);
  /** The Invoked items as a command names them: by kind when the hero has the name in two kinds (AS-POOL-1). */
  const invokeEntries = () =>
    [...invokeBox.querySelectorAll("input:checked")].map((i) => {
      const s = sheet();
      const kinds = ["traits", "backgrounds", "aids"].filter((k) => i.value in (s[k] || {}));
      return kinds.length > 1 ? { [i.dataset.kind.replace(/s$/, "")]: i.value } : i.value;
    });

  /** The Dice Pool chosen now, as the advice query's `current` names it. */
  const chosenPool = () => ({
    trait: traitSel.value || null,
    background: bgSel.value || null,
    aid: aidSel.value || null,
    invoke: invokes().sort(),
  });

  /**
   * The advice for the Test as built: the best TOP pools and the chosen one (AS-ODDS-3). Asked for when
   * what it depends on changed, or `again` when the chosen pool is not among the rows already here.
   */
  async function load({ again = false } = {}) {
    if (!heroSel.value || !testedSel.value) {
      asked.forget();
      advice = null;
      fill(adviceEl, h("p.muted", "Add a hero with a Skill or Conviction to build a Test."));
      fill(current);
      return;
    }
    const q = query();
    const hero = heroes.find((x) => (x.sheet || x).name === heroSel.value) || null;
    if (!asked.fresh([q, hero, view.extended, view.rules_version]) && !again) {
      showOpposed();
      return;
    }
    const mine = ++seq;
    const pool = chosenPool();
    try {
      const res = await ctx.table.odds({ ...q, top: TOP, current: pool });
      if (mine !== seq) return;
      advice = { ...res, asked: JSON.stringify(pool) };
      showAdvice();
      showCurrent();
    } catch (err) {
      if (mine !== seq) return;
      asked.forget();
      fill(adviceEl, h("p.muted", `Advice unavailable: ${err.message}`));
    }
  }

  function matches(row) {
    const same = (a, b) => (a || NONE) === (b || NONE);
    const inv = [...(row.invoke || [])].sort().join("|");
    return (
      same(row.trait, traitSel.value) &&
      same(row.background, bgSel.value) &&
      same(row.aid, aidSel.value) &&
      inv === invokes().sort().join("|")
    );
  }

  function showAdvice() {
    const rows = (advice?.advice || []).slice(0, TOP);
    if (!rows.length) {
      fill(adviceEl, h("p.muted", "No Dice Pool is possible."));
      return;
    }
    // The best pool is marked and every other says what it gives up; during an extended Test, each pool's
    // chance to reach the goal in the Tests left (AS-ODDS-2) if every one of them is rolled with it.
    const ext = advice.extended;
    const goalHead = ext
      ? [`Goal (${ext.successes_needed} more${ext.tests_left === null ? "" : ` in ${ext.tests_left}`})`]
      : [];
    fill(
      adviceEl,
      h(
        "table.advice",
        h(
          "thead",
          h(
            "tr",
            ["Pool", "Trait", "Background", "Aid", "Invoke", "Success", "vs best", ...goalHead].map((t) =>
              h("th", { scope: "col" }, t),
            ),
            h("th", { scope: "col" }, h("span.sr-only", "Use this pool")),
          ),
        ),
        h(
          "tbody",
          rows.map((r, i) =>
            h(
              `tr${i === 0 ? ".best" : ""}`,
              h("td", `${r.pool}d10`),
              h("td", r.trait || "–"),
              h("td", r.background || "–"),
              h("td", r.aid || "–"),
              h("td", (r.invoke || []).join(", ") || "–"),
              h("td", h("strong", pct(r.p_success))),
              h(
                "td.vs-best",
                r.optimal ? h("span.badge.good.best-choice", "★ Best") : `−${pct(r.cost_vs_best)}`,
              ),
              ext ? h("td.reach-goal", pct(r.p_reach_goal)) : null,
              h(
                "td",
                h(
                  "button.ghost.small",
                  { type: "button", onclick: () => use(r) },
                  "Use",
                  h("span.sr-only", ` ${r.pool}d10${r.trait ? ` with ${r.trait}` : ""}`),
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function use(r) {
    traitSel.value = r.trait || NONE;
    bgSel.value = r.background || NONE;
    aidSel.value = r.aid || NONE;
    fillInvokes();
    const want = new Set(r.invoke || []);
    invokeBox.querySelectorAll("input").forEach((b) => {
      b.checked = want.has(b.value);
    });
    limitInvokes(narration.value === "exceptional" ? 2 : narration.value === "narrated" ? 1 : 0);
    showCurrent();
  }

  function showCurrent() {
    showOpposed();
    if (!advice) return; // the advice is on its way (or cannot be had: the panel says so)
    const target = advice.target;
    const row = (advice.advice || []).find(matches);
    if (!row && advice.truncated && advice.asked !== JSON.stringify(chosenPool())) {
      load({ again: true }); // a pool outside the rows here: ask for its row
      return;
    }
    if (!row) {
      fill(current, h("p.odds", "This Dice Pool is not among the legal choices for this Test."));
      return;
    }
    fill(
      current,
      h(
        "p.odds",
        h(
          "strong",
          `${row.pool}d10 · target ${target} · ${pct(row.p_success)} chance of ${advice.required ?? 1}+ successes`,
        ),
        row.optimal === false
          ? ` · ${pct(row.cost_vs_best)} less than the best pool`
          : row.optimal
            ? " · the best pool"
            : "",
      ),
      row.distribution
        ? distributionChart(row.distribution, { threshold: advice.required ?? 1, title: "Successes" })
        : null,
    );
  }

  /** P(win), P(tie), P(lose) of the opposed Test as built (AS-ODDS-2), before anyone rolls. */
  async function showOpposed() {
    if (defending) {
      defender.el.hidden = true;
      return showDefence();
    }
    defender.el.hidden = !opposed.checked;
    defender.setChoosing(chooses(defender.hero()));
    if (!opposed.checked || !testedSel.value) {
      opposedAsked.forget();
      fill(opposedOdds);
      return;
    }
    if (!defender.choosing()) {
      opposedAsked.forget();
      fill(opposedOdds, `The odds of winning show once ${defender.hero()}'s side is chosen.`);
      return;
    }
    if (!defender.ready()) {
      opposedAsked.forget();
      fill(opposedOdds);
      return;
    }
    const mine = numbers(sheet(), built());
    const asking = { kind: "opposed", attacker: mine, defender: defender.numbers() };
    if (!opposedAsked.fresh(["attack", asking])) return;
    try {
      const odds = await ctx.table.odds(asking);
      fill(
        opposedOdds,
        h("strong", `Win ${pct(odds.p_win)} · tie ${pct(odds.p_tie)} · lose ${pct(odds.p_lose)}`),
        ` (${mine.pool}d10 against ${defender.numbers().pool}d10)`,
      );
    } catch (err) {
      opposedAsked.forget();
      fill(opposedOdds, `Odds unavailable: ${err.message}`);
    }
  }

  /** AS-OPP-1: this page chooses a resisting hero's side when it is the hero's controller: its player's own
   *  page, or the GM's for an adversary (a hero no player owns). The GM asks a player's hero, as a player would. */
  const chooses = (hero) => (ctx.role === "gm" ? !ctx.owners?.[hero] : controlled.has(hero));

  /** The Test as built here, without its dice (for odds). */
  const built = () => ({
    ...query(),
    trait: traitSel.value,
    background: bgSel.value,
    aid: aidSel.value,
    invoke: invokeEntries(),
  });

  /** {rating, difficulty, pool} of a Test spec for a sheet, as the odds endpoint takes them. */
  function numbers(s, test) {
    const kind = test.skill !== undefined ? "skill" : "conviction";
    const rating = Number(((kind === "skill" ? s.skills : s.convictions) || {})[test[kind]] ?? 0);
    const rated = (k, v) => Number((s[k] || {})[v] ?? 0);
    const one = (entry) => {
      if (entry && typeof entry === "object") {
        const [[k, n]] = Object.entries(entry);
        return rated(`${k}s`, n);
      }
      return Math.max(rated("traits", entry), rated("backgrounds", entry), rated("aids", entry));
    };
    const pool =
      rated("traits", test.trait) +
      rated("backgrounds", test.background) +
      rated("aids", test.aid) +
      (test.invoke || []).reduce((sum, entry) => sum + one(entry), 0);
    return { rating, difficulty: Number(test.difficulty) || 0, pool };
  }

  /** Defending: the proposed attacker's numbers against the side being built here, before the roll. */
  async function showDefence() {
    if (!testedSel.value) {
      opposedAsked.forget();
      fill(opposedOdds);
      return;
    }
    const attackerSheet =
      ((view.heroes || []).find((x) => (x.sheet || x).name === pending.attacker.hero) || {}).sheet || {};
    const them = numbers(attackerSheet, pending.attacker);
    const mine = numbers(sheet(), built());
    const asking = { kind: "opposed", attacker: them, defender: mine };
    if (!opposedAsked.fresh(["defence", asking, pending.attacker.hero])) return;
    try {
      const odds = await ctx.table.odds(asking);
      fill(
        opposedOdds,
        h(
          "strong",
          `You hold ${pct(odds.p_lose + odds.p_tie)} · ${pending.attacker.hero} wins ${pct(odds.p_win)}`,
        ),
        ` (${mine.pool}d10 against ${them.pool}d10; a tie goes to the ${ctx.variant?.opposed?.tie === "reroll" ? "reroll" : "defender"})`,
      );
    } catch (err) {
      opposedAsked.forget();
      fill(opposedOdds, `Odds unavailable: ${err.message}`);
    }
  }

  /** The attacking side (or the lone Test) as a TestSpec. */
  function spec() {
    const out = query();
    if (traitSel.value) out.trait = traitSel.value;
    if (bgSel.value) out.background = bgSel.value;
    if (aidSel.value) out.aid = aidSel.value;
    if (invokes().length) out.invoke = invokeEntries();
    const f = parseFaces(faces.value, false);
    if (f) out.faces = f;
    return out;
  }

  /** What is Tested, as a command names it: `{skill: name}` or `{conviction: name}` (`{}` before a choice). */
  function tested() {
    if (!testedSel.value) return {};
    const [kind, name] = testedSel.value.split(/:(.*)/s);
    return { [kind]: name };
  }

  /** The heroes the server's list lets `hero` oppose now, each once (none while one waits, AS-OPP-1). */
  function opponents(hero) {
    const names = [];
    for (const e of legal().offers({ do: "opposed_test" }))
      if (e.attacker?.hero === hero && !names.includes(e.defender?.hero)) names.push(e.defender.hero);
    return names;
  }

  /** What the Roll button sends: the defender's side, an opposed Test proposed, an extended step, a Test. */
  function rolling() {
    if (defending) return "defend";
    if (opposed.checked && !opposedRow.hidden) return "opposed_test";
    return !stepRow.hidden && stepBox.checked ? "extended_step" : "test";
  }

  /** The core of the command the Roll button sends, as the server's list spells it: who acts and what is
   *  Tested, and for an opposed Test who resists (the Dice Pool and the rest are the sender's). */
  function core() {
    const side = { hero: heroSel.value, ...tested() };
    const what = rolling();
    return what === "opposed_test"
      ? { do: what, attacker: side, defender: { hero: defender.hero() } }
      : { do: what, ...side };
  }

  /** The Roll button is enabled only while the server's list holds the command it would send. */
  function offerRoll() {
    offer(rollButton, legal(), core());
  }

  /**
   * Show the choices the server's list opens for the chosen hero: counting the Test toward an open extended
   * Test, opposing another hero (and whom), then offer the Roll button for what it would send.
   */
  function showOffers() {
    const hero = heroSel.value;
    stepRow.hidden = !legal().offers({ do: "extended_step", hero }).length;
    const foes = defending ? [] : opponents(hero);
    opposedRow.hidden = !foes.length;
    if (opposedRow.hidden) opposed.checked = false;
    defender.refresh(view, foes);
    offerRoll();
  }

  async function roll() {
    const what = rolling();
    let command;
    try {
      command =
        what === "opposed_test"
          ? { do: what, attacker: spec(), defender: defender.spec() }
          : { do: what, ...spec() };
    } catch (err) {
      ctx.say(`Physical dice: ${err.message}`, "error");
      return;
    }
    if (what === "opposed_test") delete command.attacker.required;
    if (what === "defend") delete command.required;
    if (blind.checked) command.visibility = "gm";
    const res = await ctx.send(command);
    if (!res) return;
    faces.value = "";
    showResult(result, res.events);
    // Focus stays on the Roll button (the next Test is the next sensible thing); the result is read out.
    rollButton.focus();
  }

  /** The Roll button's words: resisting an opposed Test, or the chosen hero's Test. */
  function rollLabel() {
    if (defending) return "Resist: roll both sides";
    return heroSel.value ? `Roll ${heroSel.value}'s Test` : "Roll the Test";
  }

  /** AS-OPP-1: an opposed Test waiting for its defender: this page chooses that side, or waits for it. */
  function showWaiting() {
    waiting.hidden = !pending;
    rollButton.textContent = rollLabel();
    if (!pending) {
      fill(waiting);
      return;
    }
    const what = pending.attacker.skill || pending.attacker.conviction || "a Test";
    const withdrawal = { do: "withdraw_opposed" };
    const withdraw = legal().allows(withdrawal)
      ? h(
          "button.secondary.small",
          {
            type: "button",
            id: "withdraw-opposed",
            "data-command": canonical(withdrawal),
            onclick: () => ctx.send(withdrawal),
          },
          "Withdraw it",
        )
      : null;
    fill(
      waiting,
      defending
        ? h(
            "p",
            h("strong", `${pending.attacker.hero} opposes ${pending.defender} with ${what}.`),
            ` Choose ${pending.defender}'s side below and roll to resist.`,
            withdraw,
          )
        : h(
            "p",
            `An opposed Test of ${pending.attacker.hero} (${what}) waits for ${pending.defender}'s side.`,
            withdraw,
          ),
    );
  }

  opposed.addEventListener("change", () => {
    offerRoll();
    showOpposed();
  });
  stepBox.addEventListener("change", offerRoll);

  heroSel.addEventListener("change", () => {
    rollButton.textContent = rollLabel();
    fillHero();
    showOffers();
    showAward();
    load();
  });
  testedSel.addEventListener("change", offerRoll);
  for (const el of [testedSel, difficulty, required]) el.addEventListener("change", load);
  narration.addEventListener("change", () => {
    fillInvokes();
    load();
  });
  for (const el of [traitSel, bgSel, aidSel])
    el.addEventListener("change", () => {
      fillInvokes();
      showCurrent();
    });

  return {
    refresh(next, actors) {
      view = next;
      controlled = new Set(actors);
      pending = view.pending_opposed || null;
      // The defender's side is this page's to choose when it controls that hero and the list lets it defend.
      defending = Boolean(
        pending &&
        chooses(pending.defender) &&
        legal().offers({ do: "defend", hero: pending.defender }).length,
      );
      showWaiting();
      physicalBox.hidden = ctx.role !== "gm" && ctx.physical === "gm";
      if (physicalBox.hidden) faces.value = "";
      const ext = view.extended;
      if (ext && !ext.done) {
        $label().textContent = `Count this Test toward the extended Test (${ext.successes ?? "?"} of ${ext.goal} successes, ${ext.tests}${ext.limit ? ` of ${ext.limit}` : ""} Tests)`;
      }
      heroes = (view.heroes || []).filter((x) =>
        (defending ? [pending.defender] : actors).includes((x.sheet || x).name),
      );
      const keep = heroSel.value;
      fill(
        heroSel,
        heroes.map((x) => h("option", { value: (x.sheet || x).name }, (x.sheet || x).name)),
      );
      if ([...heroSel.options].some((o) => o.value === keep)) heroSel.value = keep;
      rollButton.textContent = rollLabel();
      const had = testedSel.value;
      fillHero();
      if (had && [...testedSel.options].some((o) => o.value === had)) testedSel.value = had;
      showOffers();
      showAward();
      load();
    },
  };
}

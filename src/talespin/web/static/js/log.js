// The session log: every event as a line in words, rolls drawn die by die, undone entries struck through.

import { rollDiceEl } from "./dice.js";
import { h } from "./ui.js";

const ROLLS = new Set(["TalentRolled", "AbilityRolled", "TestRolled"]);
const s = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const who = (d) => d.character || d.hero || d.attacker || d.actor || "";

/** A sentence for an event, in the game's words. Unknown types fall back to their name and fields. */
export function describe(type, d = {}) {
  const by = d.cause ? ` (${d.cause})` : d.reason ? ` (${d.reason})` : "";
  switch (type) {
    case "CharacterAdded":
      return `${d.sheet?.name || d.name || "A character"} joined the table.`;
    case "CharacterChanged":
      return `${d.character} changed their sheet.`;
    case "SceneStarted":
      return `A${d.kind === "action" ? "n" : ""} ${d.kind || ""} scene began${d.difficulty ? ` at difficulty ${d.difficulty}` : ""}${d.location ? ` — ${d.location}` : ""}.`;
    case "SceneEnded":
      return "The scene ended.";
    case "TriggerAdded":
      return `Trigger at ${d.at}${d.every ? ` (every ${d.every})` : ""}: “${d.text}”${d.visibility === "gm" ? " — GM only" : ""}.`;
    case "TriggerFired":
      return `Trigger fired at ${d.value}: “${d.text ?? ""}”${d.character ? ` — it falls on ${d.character}` : ""}.`;
    case "TriggerRearmed":
      return `Trigger ${d.trigger} re-armed.`;
    case "CrisisRaised":
      return `Crisis rose${d.by !== undefined ? ` by ${d.by}` : d.amount !== undefined ? ` by ${d.amount}` : ""} to ${d.crisis}${by}.`;
    case "CrisisLowered":
      return `Crisis fell to ${d.crisis}${by}.`;
    case "RisingTensionGained":
      return `Rising Tension rose to ${d.rising_tension}${by}.`;
    case "RisingTensionSpent":
      return `The GM spent ${d.amount ?? ""} Rising Tension on ${boughtText(d)}: ${d.rising_tension} left.`.replace(
        "spent  ",
        "spent ",
      );
    case "RisingTensionLowered":
      return `Rising Tension fell to ${d.rising_tension}${by}.`;
    case "SimpleObstaclePresented":
      return `A Simple Obstacle faces ${d.to || "the group"}${d.must_pass?.length > 1 ? " (each must pass)" : ""}.`;
    case "SimpleObstacleFaced":
      return `${d.character} faced the Simple Obstacle${d.choice === "auto" ? " and passed without rolling" : ""}.`;
    case "ObstaclePassed":
      return "The obstacle was passed.";
    case "ComplexObstacleSet":
      return `A Complex Obstacle: Obstruction ${d.obstruction}, ${s(d.attempts, "Decisive attempt", "Decisive attempts")}.`;
    case "RegularActionTaken":
      return `${d.character} took a Regular Action${d.talent ? ` with ${d.talent}` : " (auto)"}.`;
    case "ObstructionReduced":
      return `Obstruction fell to ${d.obstruction}.`;
    case "DecisiveActionTaken":
      return `${d.character} took a Decisive Action — ${s(d.attempts_left, "attempt", "attempts")} left.`;
    case "ObstacleBeaten":
      return "The obstacle was beaten.";
    case "TalentRolled":
    case "AbilityRolled": {
      const what = d.talent || d.ability || "the dice";
      const res = d.success === undefined ? "" : d.success ? " — success" : " — failure";
      const against = d.against ? ` against ${d.against}` : "";
      return `${who(d)} rolled ${what}: ${d.total}${against}${res}.`;
    }
    case "BlindRollMade":
      return `${who(d) || "Someone"} made a blind roll (only the GM sees it until it is revealed).`;
    case "EntryWithheld":
      return `${(d.do || "a command").replace(/_/g, " ")}${d.actor ? ` for ${d.actor}` : ""}: its outcome shows when the GM reveals the blind roll before it.`;
    case "BlindRollRevealed":
      return `Blind roll #${d.blind} revealed: its seed is public now, and what it caused follows.`;
    case "SkillUsed":
      return `${d.character} used ${d.skill}.`;
    case "SkillPrepared":
      return `${d.character} readied ${d.skill}.`;
    case "PreparationUsed":
      return `${d.character}'s roll carried what was readied for it: ${(d.sources || []).map((x) => (x === "GM" ? "Disadvantage the GM bought with Rising Tension" : x)).join(", ") || "a readied Skill"}.`;
    case "Moved":
      return `${d.character} moved${d.text ? `: ${d.text}` : ""} (their action this round).`;
    case "SkillRecreated":
      return `${d.character} ${d.success ? "recreated" : "failed to recreate"} ${d.skill}.`;
    case "WoundsHealed":
      return `${d.character} healed (${s(d.wounds, "wound", "wounds")} left).`;
    case "ConflictStarted":
      return `A conflict began against ${(d.enemies || []).map((e) => e.name || e.sheet?.name).join(", ")}.`;
    case "RoundStarted":
      return `Round ${d.round} began.`;
    case "AttackMade":
      return `${d.attacker} attacked ${d.target}${d.ability ? ` through ${d.ability}` : ""}${d.decisive ? " (Decisive)" : ""}.`;
    case "FlowShifted":
      return `The Flow of Battle moved to ${d.flow > 0 ? "+" : ""}${d.flow}.`;
    case "WoundTaken":
      return `${d.character} took a wound (${d.wounds}).`;
    case "TakenOut":
      return `${d.character} was taken out.`;
    case "SideYielded":
      return `The ${d.side} yielded.`;
    case "ConflictEnded":
      return `The conflict ended${d.winner ? `: the ${d.winner} won` : ""}.`;
    case "TestRolled":
    case "TestMade":
    case "TestResolved": {
      const item = d.skill || d.conviction || "a Test";
      const res =
        d.success === undefined
          ? ""
          : d.success
            ? ` — success (margin ${d.margin})`
            : ` — failure (margin ${d.margin})`;
      return `${who(d)} tested ${item}: ${s(d.successes ?? 0, "success", "successes")} on ${d.pool ?? (d.faces || []).length}d10, target ${d.target}${res}.`;
    }
    case "OutcomeNarrated":
      return `${who(d) ? `${who(d)}: ` : ""}${d.text || "an outcome narrated without dice"}${d.success === undefined || d.success === null ? "" : d.success ? " (success)" : " (failure)"}.`;
    case "HeroAdded":
      return `${d.hero || d.sheet?.name} joined the table.`;
    case "NarrationRequested":
      return `${d.hero} asks for exceptional narration${d.text ? `: “${d.text}”` : ""}.`;
    case "NarrationAwarded":
      return d.by === "claimed"
        ? `${d.hero} claimed exceptional narration: two more Invokes.`
        : `${d.hero} was awarded exceptional narration${d.granted_by ? ` by ${d.granted_by}` : ""}: two more Invokes on the next Test.`;
    case "NarrationDeclined":
      return `Exceptional narration for ${d.hero} was declined${d.declined_by ? ` by ${d.declined_by}` : ""}.`;
    case "NarrationUsed":
      return `${d.hero} narrates exceptionally: two more Invokes.`;
    case "OpposedTestProposed":
      return `${d.attacker_hero} opposes ${d.defender} (${d.attacker?.skill || d.attacker?.conviction || "a Test"}): ${d.defender}'s side chooses its Test.`;
    case "OpposedTestWithdrawn":
      return `The opposed Test of ${d.attacker ?? "?"} against ${d.defender} was withdrawn.`;
    case "AdvancedActionTaken":
      return `${d.character} attempted ${d.skill} (Advanced Action)${d.success ? " — it worked" : " — it failed"}.`;
    case "EnemiesJoined":
      return `${(d.enemies || []).map((e) => e.name || e.sheet?.name).join(", ")} joined the conflict.`;
    case "SettingChanged":
      return d.physical_dice === "gm"
        ? "From now on only the GM enters physical dice."
        : "Players may enter physical dice for their own characters.";
    case "OpposedTestDecided": {
      const score = `${d.attacker_successes} to ${d.defender_successes}`;
      const winner = d.winning_hero || d.winner;
      return `Opposed Test, ${d.attacker ?? "attacker"} against ${d.defender ?? "defender"}: ${winner} won, ${score}${d.tie ? ` (a tie goes to the ${d.tie_rule === "reroll" ? "reroll" : d.tie_rule})` : ""}.`;
    }
    case "ExtendedTestStarted":
      return `An extended Test began: goal ${d.goal} successes${d.limit ? ` within ${d.limit} Tests` : ""}.`;
    case "ExtendedTestEnded":
      return `The extended Test ended: ${d.successes}/${d.goal} successes in ${s(d.tests, "Test", "Tests")}${d.reached ? " — goal reached" : " — goal not reached"}.`;
    case "NoteAdded":
      return `Note: ${d.text}`;
    case "EntryUndone":
      return `The GM undid entry #${d.entry}${d.do ? ` (${String(d.do).replace(/_/g, " ")})` : ""}.`;
    case "CampaignCreated":
      return `The campaign “${d.name}” was created.`;
    case "PlayerJoined":
      return `${d.name} joined the table.`;
    case "PlayerRemoved":
      return `The GM removed ${d.name} from the table.`;
    case "CharacterHanded":
      return `${d.character} changed hands: now played by ${d.to ? "another player" : "the GM"}.`;
    case "InviteRenewed":
      return "The GM made a new invite link; the previous one no longer works.";
    case "SeedCommitted":
      return `Fair dice: the server committed to seed ${d.number ?? d.commitment} (SHA-256 ${short(typeof d.commitment === "string" ? d.commitment : d.sha256)}).`;
    case "SeedRevealed":
      return `Fair dice: seed ${d.number ?? d.commitment} revealed (${short(d.seed)}).`;
    default:
      return `${spaced(type)}${d.character || d.hero ? ` — ${d.character || d.hero}` : ""}.`;
  }
}

/** What a Rising Tension purchase bought, in words. */
function boughtText(d) {
  const n = Number(d.count ?? 1);
  switch (d.on) {
    case "disadvantage":
      return `${s(n, "Disadvantage", "Disadvantage")}${d.character ? ` on ${d.character}'s next roll` : ""}`;
    case "trigger":
      return "a new Trigger";
    case "obstacle":
      return n === 1 ? "an obstacle" : `${n} obstacles`;
    case "enemy":
      return n === 1 ? "an enemy" : `${n} enemies`;
    default:
      return d.on || "something";
  }
}

/** "PreparationUsed" → "Preparation used": an event type we have no sentence for, at least in words. */
function spaced(type) {
  const words = String(type)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const short = (x) => (x ? `${String(x).slice(0, 12)}…` : "");

/** A command as words: "simple obstacle — Ada rolls Piloting (+2 advantage, physical dice)". */
export function describeCommand(c = {}) {
  const what = String(c.do || "command").replace(/_/g, " ");
  const actor = c.character || c.hero || "";
  const bits = [];
  if (c.choice === "auto") bits.push("auto");
  if (c.talent) bits.push(`rolls ${c.talent}`);
  if (["test", "extended_step"].includes(c.do) && c.skill) bits.push(`tests ${c.skill}`);
  if (c.conviction) bits.push(`tests ${c.conviction}`);
  if (c.do === "use_skill") return `use skill — ${actor} uses ${c.skill}${c.target ? ` on ${c.target}` : ""}`;
  if (c.do === "recreate_skill")
    return `recreate skill — ${actor} recreates ${c.skill?.name ?? "a Skill"} with ${c.talent}${c.faces ? ", physical dice" : ""}`;
  if (c.do === "ability_roll")
    return `ability roll — ${actor} rolls ${c.ability}${c.faces ? ", physical dice" : ""}`;
  if (c.do === "learn") {
    const change = c.skill
      ? `learns ${c.skill.name ?? "a Skill"} (${c.talent})`
      : c.ability
        ? `sets ${c.ability} to ${c.level}`
        : `changes ${c.talent?.name ?? "a Talent"}${c.talent?.level !== undefined ? ` (level ${c.talent.level})` : ""}`;
    return `learn — ${actor} ${change}`;
  }
  if (c.do === "opposed_test") {
    const side = (x) => `${x?.hero ?? "?"} (${x?.skill || x?.conviction || "?"})`;
    return `opposed test — ${side(c.attacker)} against ${side(c.defender)}${c.attacker?.faces ? ", physical dice" : ""}`;
  }
  if (c.do === "extended_test")
    return `extended test — goal ${c.goal}${c.limit ? ` within ${c.limit} Tests` : ""}`;
  if (Array.isArray(c.skills) && c.skills.length) bits.push(`with ${c.skills.join(", ")}`);
  if (c.target && c.do !== "test") bits.push(`at ${c.target}`);
  if (c.advantage) bits.push(`+${c.advantage} advantage`);
  if (c.disadvantage) bits.push(`${c.disadvantage} disadvantage`);
  if (c.faces) bits.push("physical dice");
  if (c.visibility === "gm") bits.push("blind");
  if (c.do === "note") return `note: ${c.text}`;
  if (c.do === "add_character" || c.do === "add_hero") return `added ${c.sheet?.name || "a character"}`;
  if (c.do === "start_scene" && c.kind)
    return `start ${c.kind} scene${c.difficulty ? ` (difficulty ${c.difficulty})` : ""}`;
  return `${what}${actor ? ` — ${actor}` : ""}${bits.length ? ` ${bits.join(", ")}` : ""}`;
}

/**
 * The log as entries: one list item per command (its "CommandIssued" line and every event it caused), so
 * undoing an entry strikes the whole of it through. Events outside any entry get an item of their own.
 */
export class EntryLog {
  constructor(listEl, { nameOf = (x) => x } = {}) {
    this.list = listEl;
    this.nameOf = nameOf;
    this.items = new Map(); // entry version → <li>
    this.seen = new Set(); // event versions
    this.undone = new Set();
  }

  add(ev) {
    if (this.seen.has(ev.version)) return false;
    this.seen.add(ev.version);
    const key = ev.entry ?? `solo-${ev.version}`;
    let li = this.items.get(key);
    if (!li) {
      li = h(
        "li.log-entry",
        { "data-entry": key, "data-version": ev.version },
        h("div.meta", h("span", `#${ev.entry ?? ev.version}`)),
        h("div.what"),
        h("div.events"),
      );
      this.items.set(key, li);
      const order = Number(ev.entry ?? ev.version);
      li.dataset.order = String(order);
      this.place(li, order);
    }
    const d = ev.data || {};
    if (ev.type === "CommandIssued") {
      const cmd = d.command || {};
      li.dataset.do = cmd.do || "";
      const meta = li.querySelector(".meta");
      meta.append(h("span.by", this.nameOf(d.by)));
      if (ev.at) meta.append(h("time", { datetime: ev.at }, new Date(ev.at).toLocaleTimeString()));
      if (d.dice === "physical") meta.append(h("span.badge", "physical dice"));
      li.dataset.by = d.by || "";
      li.dataset.dice = d.dice || "";
      if (ev.visibility === "gm") meta.append(h("span.badge.gm", "GM only"));
      li.querySelector(".what").append(h("span.type", `${this.nameOf(d.by)}: ${describeCommand(cmd)}`));
    } else {
      if (ev.visibility === "gm") li.classList.add("gm-only");
      const actor = who(d);
      if (actor) li.dataset.actor = actor;
      // Who granted an award, and who typed physical dice, come from the entry's own command line.
      const by = li.dataset.by ? this.nameOf(li.dataset.by) : "";
      const said = describe(
        ev.type,
        ev.type === "NarrationAwarded"
          ? { ...d, granted_by: by }
          : ev.type === "NarrationDeclined"
            ? { ...d, declined_by: by }
            : d,
      );
      const typed =
        li.dataset.dice === "physical" && ROLLS.has(ev.type)
          ? h("span.small.typed", ` Physical dice, entered by ${by}.`)
          : null;
      const line = h(
        "div.event",
        { "data-type": ev.type, "data-version": ev.version },
        said,
        typed,
        rollDiceEl(d),
      );
      // In version order within the entry, also when its earlier events are loaded after its later ones.
      const box = li.querySelector(".events");
      let before = null;
      for (
        let x = box.lastElementChild;
        x && Number(x.dataset.version) > ev.version;
        x = x.previousElementSibling
      )
        before = x;
      box.insertBefore(line, before);
    }
    if (ev.type === "EntryUndone") this.strike(d.entry);
    if (this.undone.has(key)) this.strike(key);
    return true;
  }

  /**
   * Put a new entry's item in its place, newest first, by version. New entries belong at the top and earlier
   * ones (loaded on demand) at the bottom; one that arrives late (a command's own reply can overtake the
   * feed) is a few steps from the top. No list of the items is copied, so a long log stays cheap.
   */
  place(li, order) {
    const first = this.list.firstElementChild;
    if (!first || Number(first.dataset.order) < order) {
      this.list.prepend(li);
      return;
    }
    if (Number(this.list.lastElementChild.dataset.order) > order) {
      this.list.append(li);
      return;
    }
    let next = first;
    while (next && Number(next.dataset.order) > order) next = next.nextElementSibling;
    this.list.insertBefore(li, next);
  }

  strike(entry) {
    this.undone.add(entry);
    const li = this.items.get(entry);
    if (!li || li.classList.contains("undone")) return;
    li.classList.add("undone");
    li.querySelector(".meta").append(h("span.badge.bad", "undone"));
  }
}

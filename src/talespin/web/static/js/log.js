// The session log: every event as a line in words, rolls drawn die by die, undone entries struck through.

import { rollDiceEl } from "./dice.js";
import { h } from "./ui.js";

const s = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const who = (d) => d.character || d.hero || d.attacker || d.actor || "";

/** A sentence for an event, in the game's words. Unknown types fall back to their name and fields. */
export function describe(type, d = {}) {
  const by = d.cause ? ` (${d.cause})` : d.reason ? ` (${d.reason})` : "";
  switch (type) {
    case "CharacterAdded": return `${d.sheet?.name || d.name || "A character"} joined the table.`;
    case "CharacterChanged": return `${d.character} changed their sheet.`;
    case "SceneStarted": return `A${d.kind === "action" ? "n" : ""} ${d.kind || ""} scene began${d.difficulty ? ` at difficulty ${d.difficulty}` : ""}${d.location ? ` — ${d.location}` : ""}.`;
    case "SceneEnded": return "The scene ended.";
    case "TriggerAdded": return `Trigger at ${d.at}${d.every ? ` (every ${d.every})` : ""}: “${d.text}”${d.visibility === "gm" ? " — GM only" : ""}.`;
    case "TriggerFired": return `Trigger fired at ${d.value}: “${d.text ?? ""}”${d.character ? ` — it falls on ${d.character}` : ""}.`;
    case "TriggerRearmed": return `Trigger ${d.trigger} re-armed.`;
    case "CrisisRaised": return `Crisis rose${d.by !== undefined ? ` by ${d.by}` : d.amount !== undefined ? ` by ${d.amount}` : ""} to ${d.crisis}${by}.`;
    case "CrisisLowered": return `Crisis fell to ${d.crisis}${by}.`;
    case "RisingTensionGained": return `Rising Tension rose to ${d.rising_tension}${by}.`;
    case "RisingTensionSpent": return `The GM spent Rising Tension${d.on ? ` on ${d.on}` : ""}: now ${d.rising_tension}.`;
    case "RisingTensionLowered": return `Rising Tension fell to ${d.rising_tension}${by}.`;
    case "SimpleObstaclePresented": return `A Simple Obstacle faces ${d.to || "the group"}${d.must_pass?.length > 1 ? " (each must pass)" : ""}.`;
    case "SimpleObstacleFaced": return `${d.character} faced the Simple Obstacle${d.choice === "auto" ? " and passed without rolling" : ""}.`;
    case "ObstaclePassed": return "The obstacle was passed.";
    case "ComplexObstacleSet": return `A Complex Obstacle: Obstruction ${d.obstruction}, ${s(d.attempts, "Decisive attempt", "Decisive attempts")}.`;
    case "RegularActionTaken": return `${d.character} took a Regular Action${d.talent ? ` with ${d.talent}` : " (auto)"}.`;
    case "ObstructionReduced": return `Obstruction fell to ${d.obstruction}.`;
    case "DecisiveActionTaken": return `${d.character} took a Decisive Action — ${s(d.attempts_left, "attempt", "attempts")} left.`;
    case "ObstacleBeaten": return "The obstacle was beaten.";
    case "TalentRolled": case "AbilityRolled": {
      const what = d.talent || d.ability || "the dice";
      const res = d.success === undefined ? "" : d.success ? " — success" : " — failure";
      const against = d.against ? ` against ${d.against}` : "";
      return `${who(d)} rolled ${what}: ${d.total}${against}${res}.`;
    }
    case "BlindRollMade": return `${who(d) || "Someone"} made a blind roll (only the GM sees it).`;
    case "SkillUsed": return `${d.character} used ${d.skill}.`;
    case "SkillPrepared": return `${d.character} readied ${d.skill}.`;
    case "SkillRecreated": return `${d.character} ${d.success ? "recreated" : "failed to recreate"} ${d.skill}.`;
    case "WoundsHealed": return `${d.character} healed (${s(d.wounds, "wound", "wounds")} left).`;
    case "ConflictStarted": return `A conflict began against ${(d.enemies || []).map((e) => e.name || e.sheet?.name).join(", ")}.`;
    case "RoundStarted": return `Round ${d.round} began.`;
    case "AttackMade": return `${d.attacker} attacked ${d.target}${d.ability ? ` through ${d.ability}` : ""}${d.decisive ? " (Decisive)" : ""}.`;
    case "FlowShifted": return `The Flow of Battle moved to ${d.flow > 0 ? "+" : ""}${d.flow}.`;
    case "WoundTaken": return `${d.character} took a wound (${d.wounds}).`;
    case "TakenOut": return `${d.character} was taken out.`;
    case "SideYielded": return `The ${d.side} yielded.`;
    case "ConflictEnded": return `The conflict ended${d.winner ? `: the ${d.winner} won` : ""}.`;
    case "TestRolled": case "TestMade": case "TestResolved": {
      const item = d.skill || d.conviction || "a Test";
      const res = d.success === undefined ? "" : d.success ? ` — success (margin ${d.margin})` : ` — failure (margin ${d.margin})`;
      return `${who(d)} tested ${item}: ${s(d.successes ?? 0, "success", "successes")} on ${d.pool ?? (d.faces || []).length}d10, target ${d.target}${res}.`;
    }
    case "Narrated": case "OutcomeNarrated": return `${who(d)}: ${d.text || "a narrated outcome"}.`;
    case "NoteAdded": case "NoteTaken": case "Note": return `Note: ${d.text}`;
    case "CommandUndone": case "Undone": case "EntryUndone": return `The GM undid entry ${d.version ?? d.undone ?? d.target ?? ""}.`;
    case "ScenePledged": case "SeedCommitted": case "FairnessCommitted": case "CommitmentMade":
      return `Fair dice: the server committed to this scene's seed (${short(d.commitment || d.hash)}).`;
    case "SeedRevealed": case "FairnessRevealed": return `Fair dice: the seed was revealed (${short(d.seed)}).`;
    default: return `${type}${Object.keys(d).length ? `: ${compact(d)}` : ""}`;
  }
}

const short = (x) => (x ? `${String(x).slice(0, 12)}…` : "");

function compact(d) {
  return Object.entries(d)
    .filter(([k]) => !["chains", "faces", "sheet", "distribution"].includes(k))
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(", ");
}

/**
 * One log entry: `entry` = {version, type, data, visibility, actor?, undone?, time?}.
 */
export function entryEl(entry) {
  const d = entry.data || {};
  const classes = ["log-entry"];
  if (entry.visibility === "gm") classes.push("gm-only");
  if (entry.undone) classes.push("undone");
  const meta = h("div.meta",
    h("span", `#${entry.version}`),
    entry.by ? h("span", entry.by) : null,
    entry.time ? h("time", { datetime: entry.time }, new Date(entry.time).toLocaleTimeString()) : null,
    entry.visibility === "gm" ? h("span.badge.gm", "GM only") : null,
    entry.undone ? h("span.badge.bad", "undone") : null);
  return h("li", {
    class: classes.join(" "), "data-version": entry.version, "data-type": entry.type,
    "data-actor": who(d) || undefined,
  }, meta, h("div.what", h("span.type", describe(entry.type, d))), rollDiceEl(d));
}

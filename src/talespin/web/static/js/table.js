// The game table: loads the campaign as this token may see it, keeps it live over the WebSocket, and wires
// the scene, the actions with their odds, the Ascend Test builder, the GM controls and the log.
//
// The state is fetched once; then it arrives over the WebSocket with each batch of events (`?state=1`), and is
// fetched again only while the socket is down (the feed polls) or after a refused command. The log loads its
// newest RECENT events first; earlier ones load on demand ("Load earlier entries"), so a long campaign opens
// as fast as a short one.

import "./theme.js";
import { mountActions } from "./actions.js";
import { mountAscend } from "./ascend.js";
import { canonicalSystem, hashParams, playsHeroes, systemLabel, Table } from "./api.js";
import { verifySeed } from "./fairness.js";
import { mountGm } from "./gm.js";
import { Legal } from "./legal.js";
import { LiveFeed } from "./live.js";
import { describe, EntryLog } from "./log.js";
import { rememberTable } from "./mine.js";
import { downloadReceipt, keepHeads } from "./receipts.js";
import { mountTalk } from "./talk.js";
import { renderIiScene, renderPeople } from "./scene.js";
import { $, copyButton, fill, h, toast } from "./ui.js";

const params = hashParams();
const table = new Table(params.campaign, params.token);
const ctx = { table, version: 0, role: null, system: null, view: null, owned: [], name: "" };
let actions = null;
let ascend = null;
let gm = null;
let talk = null;
let lastMove = null;
let feed = null;
let shownVersion = -1; // the version of the state on screen: an older state arriving late is not shown
const RECENT = 200; // the events the log loads first; earlier ones a page of this many at a time, on demand
let loadedAfter = 0; // the log holds every event after this version (0: the whole log)

// ---------- the shapes the service sends, read in one place ----------
// state: {id, name, system, version, role, player_id, players: [{id, name}], owners: {character: player id
// or null}, state: the system's view, notes, seeds: [{commitment, sha256, revealed, seed}], undoable,
// legal: [every complete command this viewer may send now]}: the pages offer a command's control only when
// the command is in `legal` (see legal.js).
// events: {version, type, data, visibility, actor, at, entry} — one version per event.

function readState(res) {
  const view = res.state || res.view || {};
  const owners = res.owners || {};
  const players = Object.fromEntries((res.players || []).map((p) => [p.id, p.name]));
  return {
    version: Number(res.version ?? 0),
    role: res.role || "player",
    system: canonicalSystem(res.system || view.system),
    name: res.name || "",
    view,
    owned: Object.keys(owners).filter((c) => res.player_id && owners[c] === res.player_id),
    owners,
    players,
    player: res.player_id ? players[res.player_id] : null,
    seeds: res.seeds || [],
    undoable: res.undoable ?? null,
    pending: res.pending || { blind: 0, withheld: 0, entries: [] },
    variant: res.variant || {},
    notes: res.notes || [],
    notesTotal: res.notes_total ?? (res.notes || []).length,
    inviteLink: res.invite_link || null,
    physical: res.physical_dice || "players",
    legal: new Legal(res.legal),
  };
}

// ---------- sending commands ----------

function say(message, kind = "") {
  toast(message, kind);
}
ctx.say = say;

ctx.send = async (command) => {
  try {
    const res = await table.command(command, ctx.version);
    ctx.version = Math.max(ctx.version, Number(res.version ?? ctx.version));
    if (Array.isArray(res.events)) {
      addEvents(res.events);
      const rolled = res.events.filter((e) => /Rolled$|Decided$/.test(e.type));
      if (rolled.length) say(rolled.map((e) => describe(e.type, e.data)).join(" "));
      if (talk) talk.sent(res.events);
    }
    if (!feed || !feed.live) scheduleRefresh(); // while the socket is up, the new state comes over it
    return res;
  } catch (err) {
    if (err.status === 409) {
      // The table moved on while this page chose: never re-send on the person's behalf, show what changed.
      await refresh();
      say(
        "Someone else acted first, so nothing was sent. The table now shows the latest; check it and try again.",
        "error",
      );
      return false;
    }
    say(`${err.message}${err.rule ? ` (rule ${err.rule})` : ""}`, "error");
    return false;
  }
};

// ---------- the log ----------

const nameOf = (by) => (by === "gm" ? "GM" : ctx.players?.[by] || "a player");
const log = new EntryLog($("#log"), { nameOf });

function addEvents(events) {
  for (const ev of events) {
    if (ev.type === "ChatSaid") continue; // table talk has its own panel
    log.add(ev);
  }
}

/**
 * The events after `after` up to `before` (to the newest when null), reaching back to the start of an entry
 * the range would cut (so each entry shows with its command line): {events, after} with the `after` reached.
 */
async function readLog(after, before) {
  let events = await table.eventsBetween(after, before);
  const entry = Number(events[0]?.entry);
  if (Number.isFinite(entry) && entry >= 1 && entry <= after) {
    events = [...(await table.eventsBetween(entry - 1, after)), ...events];
    after = entry - 1;
  }
  return { events, after };
}

/** The "Load earlier entries" button and the words saying how much of the log is shown. */
function showLoaded() {
  $("#log-more").hidden = loadedAfter <= 0;
  $("#log-status").textContent =
    loadedAfter > 0
      ? `The newest entries are shown below; ${loadedAfter} earlier event${loadedAfter === 1 ? " is" : "s are"} not loaded yet.`
      : "";
}

async function loadEarlier() {
  const button = $("#log-earlier");
  button.disabled = true;
  try {
    const { events, after } = await readLog(Math.max(0, loadedAfter - RECENT), loadedAfter);
    keepHeads(table.id, { events });
    addEvents(events);
    if (talk) talk.heard(events);
    loadedAfter = after;
  } catch (err) {
    say(`Could not load the earlier entries: ${err.message}`, "error");
  }
  button.disabled = false;
  showLoaded();
  if (loadedAfter <= 0) {
    $("#log").focus(); // the button is gone: on to the log, whose end holds the entries just loaded
    $("#log-status").textContent = "The whole log is shown.";
  }
}
$("#log-earlier").addEventListener("click", loadEarlier);

// ---------- fair dice ----------

/** A seed as {number, sha256, revealed, seed}, whichever way the service spells the number and the hash. */
function readSeed(x) {
  const hash = typeof x.commitment === "string" ? x.commitment : x.sha256;
  const number = x.number ?? (typeof x.commitment === "number" ? x.commitment : null);
  return { number, sha256: hash, revealed: Boolean(x.revealed), seed: x.seed || null };
}

async function renderFairness(rawSeeds) {
  const el = $("#fairness");
  const seeds = rawSeeds.map(readSeed);
  const revealed = seeds.filter((x) => x.revealed && x.seed);
  const open = seeds.filter((x) => !x.revealed);
  const checks = await Promise.all(
    revealed.map(async (x) => ({ ...x, result: await verifySeed(x.seed, x.sha256) })),
  );
  const last = checks[checks.length - 1];
  const current = open[open.length - 1];
  fill(
    el,
    h("h3", "Fair dice"),
    current
      ? h(
          "p",
          h("span.muted", `Commitment ${current.number} (server rolls now): SHA-256 `),
          h("code", { id: "fair-commitment" }, current.sha256),
        )
      : null,
    last
      ? h(
          "div",
          { id: "fair-check", "data-ok": String(last.result.ok) },
          h(
            "p",
            h("span.muted", `Seed ${last.number} revealed: `),
            h("code", { id: "fair-seed" }, last.seed),
          ),
          h(
            "p",
            last.result.ok
              ? h(
                  "span.verdict.good",
                  { id: "fair-verdict" },
                  `✓ Verified in this browser: SHA-256 of the seed matches commitment ${last.number}`,
                )
              : h(
                  "span.verdict.bad",
                  { id: "fair-verdict" },
                  `✗ Mismatch: SHA-256 of the seed is ${last.result.computed}, the commitment was ${last.sha256}`,
                ),
          ),
          checks.length > 1
            ? h(
                "p.small.muted",
                `${checks.filter((c) => c.result.ok).length} of ${checks.length} revealed seeds match their commitments.`,
              )
            : null,
        )
      : h(
          "p.small.muted",
          "The seed is revealed when the scene ends; this page then checks it against the commitment.",
        ),
  );
}

// ---------- state and rendering ----------

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 60);
}

/** Fetch the state over HTTP and show it (the first load, while the feed polls, after a refused command). */
async function refresh() {
  let raw;
  try {
    raw = await table.state();
  } catch (err) {
    if (ctx.role === null) {
      fill(
        $("#scene"),
        h("h2", "This table cannot be opened"),
        h(
          "p",
          err.status === 401
            ? "The link's token is not known here: ask your GM for the link again."
            : err.status === 404
              ? "There is no campaign with this id."
              : err.message,
        ),
      );
    } else {
      say(`The table could not be brought up to date: ${err.message}`, "error");
    }
    return;
  }
  showState(raw);
}

/** Show a state, fetched or sent over the socket: exactly what GET /state answers this viewer. */
function showState(raw) {
  if (Number(raw.version ?? 0) < shownVersion) return;
  shownVersion = Number(raw.version ?? 0);
  keepHeads(table.id, raw, raw.role);
  const s = readState(raw);
  ctx.version = Math.max(ctx.version, s.version);
  const first = ctx.role === null;
  Object.assign(ctx, {
    role: s.role,
    system: s.system,
    view: s.view,
    owned: s.owned,
    owners: s.owners,
    name: s.name,
    players: s.players,
    undoable: s.undoable,
    pending: s.pending,
    variant: s.variant,
    notes: s.notes,
    notesTotal: s.notesTotal,
    physical: s.physical,
    legal: s.legal,
  });
  // Physical dice (faces typed by hand): the players' own, unless the GM keeps them for itself.
  document.body.dataset.physical = s.physical;
  if (first) setup(s);
  render();
  renderFairness(s.seeds);
}

function setup(s) {
  document.body.dataset.role = s.role;
  document.body.dataset.system = s.system;
  $("#campaign-name").textContent = s.name || "The table";
  document.title = `talespin — ${s.name || "the table"}`;
  $("#system-badge").textContent = systemLabel(s.system);
  const roleBadge = $("#role-badge");
  roleBadge.textContent = s.role === "gm" ? "GM" : `Player${s.player ? `: ${s.player}` : ""}`;
  roleBadge.className = s.role === "gm" ? "badge gm" : "badge";
  talk = mountTalk($("#talk"), ctx);
  if (s.role === "gm") {
    gm = mountGm($("#gm"), ctx);
    rememberTable(table.id, s.name, s.system, location.pathname + location.hash);
    $("#gm").hidden = false;
    showInvite(s.inviteLink || localStorage.getItem(`talespin:invite:${table.id}`));
    $("#invite-card").hidden = false;
  }
  if (playsHeroes(s.system)) ascend = mountAscend($("#act"), ctx);
  else actions = mountActions($("#act"), ctx);
}

/** The invite link on the GM's screen, or a word that a new one can be made (the old one is not kept). */
function showInvite(invite) {
  const known = Boolean(invite);
  $("#invite-link").value = known ? new URL(invite, location.origin).href : "";
  $("#invite-link").placeholder = "Make a new link to invite players";
  fill($("#invite-copy"), known ? copyButton($("#invite-link"), "Copy invite") : null);
  $("#invite-help").textContent = known
    ? "Send this link to your players. A new link replaces it; players already at the table keep their seats."
    : "This browser does not hold the invite link. Make a new one: the old link stops working, players already at the table keep their seats.";
}

async function renewInvite() {
  try {
    const res = await table.renewInvite();
    localStorage.setItem(`talespin:invite:${table.id}`, res.invite_link);
    showInvite(res.invite_link);
    say("A new invite link is ready; the previous one no longer works.");
  } catch (err) {
    say(`Could not make a new invite link: ${err.message}`, "error");
  }
}
$("#new-invite").addEventListener("click", renewInvite);

function actors() {
  const view = ctx.view;
  const all = playsHeroes(ctx.system)
    ? (view.heroes || []).map((x) => (x.sheet || x).name)
    : (view.characters || []).map((c) => c.name);
  const enemies = (view.scene?.conflict?.enemies || []).filter((e) => !e.out).map((e) => e.name);
  return ctx.role === "gm" ? [...all, ...enemies] : all.filter((n) => ctx.owned.includes(n));
}

function render() {
  $("#version").textContent = String(ctx.version);
  const view = ctx.view;
  if (playsHeroes(ctx.system)) {
    const ext = view.extended;
    fill(
      $("#scene"),
      h("h2", systemLabel(ctx.system)),
      h(
        "div.stats",
        h("div.stat", h("div.k", "Tests rolled"), h("div.v", String(view.tests ?? 0))),
        ext
          ? h(
              "div.stat",
              { id: "stat-extended" },
              h("div.k", ext.done ? "Extended Test (over)" : "Extended Test"),
              h("div.v", `${ext.successes ?? "?"}/${ext.goal}`),
              h(
                "div.small.muted",
                `${ext.tests}${ext.limit ? ` of ${ext.limit}` : ""} Tests${ext.done ? (ext.reached ? " · goal reached" : " · goal missed") : ""}`,
              ),
            )
          : null,
      ),
    );
    ascend.refresh(view, actors());
  } else {
    renderIiScene($("#scene"), view, ctx.role, ctx.send);
    actions.refresh(view, actors());
  }
  renderPeople($("#people"), view, ctx.system, ctx.role === "gm" ? [] : ctx.owned, {
    role: ctx.role,
    send: ctx.send,
    players: Object.values(ctx.players || {}),
    legal: ctx.legal,
  });
  if (ctx.notes?.length) {
    $("#people").append(
      h("h3", "Notes"),
      // The state carries the newest notes only; the older ones are in the log.
      ctx.notesTotal > ctx.notes.length
        ? h(
            "p.small.muted",
            `The newest ${ctx.notes.length} of ${ctx.notesTotal} notes; older ones are in the log.`,
          )
        : null,
      h(
        "ul.triggers",
        { id: "notes" },
        ctx.notes.map((n) =>
          h(
            "li",
            n.text,
            n.visibility === "gm" ? h("span.badge.gm", "GM only") : null,
            h("span.small.muted", nameOf(n.by)),
          ),
        ),
      ),
    );
  }
  if (Object.keys(ctx.variant || {}).length) {
    const lab = `/lab.html#${new URLSearchParams({ system: ctx.system, name: ctx.name || "campaign", variant: JSON.stringify(ctx.variant) })}`;
    $("#people").append(
      h(
        "details",
        { id: "variant" },
        h("summary", "This campaign plays a rules variant"),
        h("pre.small.mono", JSON.stringify(ctx.variant, null, 2)),
        h(
          "p.small",
          h(
            "a",
            { id: "variant-lab", href: lab, target: "_blank", rel: "noopener" },
            "Compare this variant with the shipped rules in the lab",
          ),
        ),
      ),
    );
  }
  if (ctx.pending?.blind) {
    $("#people").append(
      h(
        "p.notice",
        { id: "pending" },
        ctx.role === "gm"
          ? `${ctx.pending.blind} blind roll${ctx.pending.blind === 1 ? "" : "s"} not revealed: players see ${ctx.pending.withheld} entr${ctx.pending.withheld === 1 ? "y" : "ies"} without outcome until you reveal.`
          : `Hidden changes are pending: the GM made ${ctx.pending.blind === 1 ? "a blind roll" : `${ctx.pending.blind} blind rolls`}; what followed (${ctx.pending.withheld} entr${ctx.pending.withheld === 1 ? "y" : "ies"}) shows when the GM reveals it.`,
      ),
    );
  }
  if (gm) gm.refresh(view, log);
  if (talk) talk.refresh(ctx);
  $("#act").hidden = false;
  noticeMove();
}

/** Whose move it is, for this player: a sentence, or null when nothing waits on them. */
function myMove() {
  if (ctx.role !== "player" || playsHeroes(ctx.system)) return null;
  const scene = ctx.view?.scene;
  if (!scene || scene.kind === "cooperative") return null;
  const everyone = (ctx.view.characters || []).map((c) => c.name);
  const present = Array.isArray(scene.present) && scene.present.length ? scene.present : everyone;
  const mine = ctx.owned.filter((n) => present.includes(n));
  if (!mine.length) return null;
  const conflict = scene.conflict;
  if (conflict && !conflict.ended) {
    const ready = mine.filter(
      (n) => !(conflict.acted || []).includes(n) && !(conflict.out || []).includes(n),
    );
    return ready.length ? `Your move: ${ready.join(" or ")} can act in round ${conflict.round ?? 1}.` : null;
  }
  const obstacle = scene.obstacle;
  if (!obstacle || obstacle.beaten) return null;
  if (obstacle.kind === "simple") {
    const waiting = (obstacle.must_pass || []).length
      ? obstacle.must_pass.filter((n) => !(obstacle.passed || []).includes(n))
      : obstacle.presented_to
        ? [obstacle.presented_to]
        : mine;
    const who = mine.filter((n) => waiting.includes(n));
    return who.length
      ? `Your move: ${who.join(" and ")} ${who.length > 1 ? "face" : "faces"} a Simple Obstacle.`
      : null;
  }
  return `Your move: the Complex Obstacle stands at Obstruction ${obstacle.obstruction}; ${mine.join(" or ")} can act.`;
}

/** A notice when it becomes this player's move: in the actions, in the tab's title, and read out once. */
function noticeMove() {
  const text = myMove();
  const ascendPlayer = ctx.role === "player" && playsHeroes(ctx.system) && ctx.owned.length > 0;
  document.body.dataset.myMove = String(Boolean(text) || ascendPlayer);
  if (actions) actions.moveNote(text);
  const base = `talespin — ${ctx.name || "the table"}`;
  document.title = text ? `(Your move) ${base}` : base;
  if (text && text !== lastMove) say(text);
  lastMove = text;
}

// ---------- exports ----------

async function download(format) {
  try {
    const text = await table.exportText(format);
    const blob = new Blob([text], { type: format === "json" ? "application/json" : "text/markdown" });
    const name = format === "json" ? `campaign-${table.id}.json` : `campaign-${table.id}-recap.md`;
    const a = h("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    say(`Export failed: ${err.message}`, "error");
  }
}
$("#export-json").addEventListener("click", () => download("json"));
$("#export-md").addEventListener("click", () => download("markdown"));
$("#export-receipt").addEventListener("click", () => {
  const receipt = downloadReceipt(table.id);
  say(`Receipt saved: ${receipt.heads.length} chain head(s) this browser was shown.`);
});

// ---------- start ----------

async function start() {
  if (!params.campaign || !params.token) {
    fill(
      $("#scene"),
      h("h2", "This link is incomplete"),
      h("p", "Open the table from the GM link or from the join page."),
    );
    return;
  }
  await refresh();
  if (ctx.role === null) return;
  feed = new LiveFeed(
    table,
    (events) => {
      keepHeads(table.id, { events });
      addEvents(events);
      if (talk) talk.heard(events);
      if (feed.polling) scheduleRefresh(); // over the socket, the state follows the events by itself
    },
    (up) => {
      const conn = $("#conn");
      conn.textContent = up ? "live" : "reconnecting…";
      conn.className = `conn ${up ? "on" : "off"}`;
    },
  );
  feed.onPresence = (online) => talk && talk.presence(online);
  feed.onState = showState;
  try {
    const recent = await readLog(Math.max(0, ctx.version - RECENT), null);
    loadedAfter = recent.after;
    feed.after = loadedAfter;
    feed.accept(recent.events);
  } catch (err) {
    say(`Could not load the log: ${err.message}`, "error");
    loadedAfter = feed.after = ctx.version; // live from here; the button loads what came before
  }
  showLoaded();
  feed.start(feed.after);
  window.talespinFeed = feed;
}

start();

// The game table: loads the campaign as this token may see it, keeps it live over the WebSocket, and wires
// the scene, the actions with their odds, the Ascend Test builder, the GM controls and the log.

import { mountActions } from "./actions.js";
import { mountAscend } from "./ascend.js";
import { canonicalSystem, hashParams, SYSTEM_LABELS, Table } from "./api.js";
import { verifySeed } from "./fairness.js";
import { mountGm } from "./gm.js";
import { LiveFeed } from "./live.js";
import { entryEl } from "./log.js";
import { renderIiScene, renderPeople } from "./scene.js";
import { $, copyButton, fill, h, toast } from "./ui.js";

const params = hashParams();
const table = new Table(params.campaign, params.token);
const ctx = { table, version: 0, role: null, system: null, view: null, owned: [], name: "" };
const entries = new Map(); // key → entry, in arrival order
const undone = new Set();
const fairness = []; // {version, commitment, seed, result}
let actions = null;
let ascend = null;
let gm = null;

// ---------- the shapes the service sends, read in one place ----------

function readState(res) {
  const view = res.view || res.state || res;
  const role = res.role || (res.player_id || res.player ? "player" : "gm");
  const owned = res.owned || res.characters_owned || res.player?.characters || res.mine || [];
  return {
    version: Number(res.version ?? 0),
    role,
    system: canonicalSystem(res.system || view.system),
    name: res.name || res.campaign?.name || "",
    view,
    owned,
    undone: res.undone || [],
    inviteLink: res.invite_link || (res.invite_token ? `/join.html#campaign=${table.id}&invite=${res.invite_token}` : null),
    player: res.player_name || res.player?.name || null,
  };
}

export function readEvent(raw) {
  const inner = raw.event || raw;
  return {
    version: Number(raw.version ?? inner.version ?? 0),
    type: inner.type,
    data: inner.data || {},
    visibility: inner.visibility || raw.visibility || "public",
    by: raw.by || raw.actor_name || raw.player || null,
    time: raw.time || raw.at || null,
    undone: Boolean(raw.undone || inner.undone),
  };
}

function undoneTargets(ev) {
  if (!/Undone|Undo/.test(ev.type || "")) return [];
  const d = ev.data;
  const list = d.versions || d.undone_versions || [d.version ?? d.undone ?? d.target ?? d.undone_version];
  return list.filter((v) => v !== undefined && v !== null).map(Number);
}

// ---------- sending commands ----------

function say(message, kind = "") {
  toast(message, kind);
}
ctx.say = say;

ctx.send = async (command) => {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await table.command(command, ctx.version);
      ctx.version = Math.max(ctx.version, Number(res.version ?? ctx.version));
      if (Array.isArray(res.events)) addEvents(res.events.filter((e) => (e.version ?? e.event?.version) !== undefined));
      scheduleRefresh();
      return true;
    } catch (err) {
      if (err.status === 409 && attempt === 0) {
        await refresh();
        continue;
      }
      say(`${err.rule ? `${err.rule}: ` : ""}${err.message}`, "error");
      return false;
    }
  }
  return false;
};

// ---------- the log ----------

function entryKey(e, i) {
  return `${e.version}:${e.type}:${i}`;
}

function addEvents(raws) {
  const log = $("#log");
  for (const raw of raws) {
    const ev = readEvent(raw);
    let i = 0;
    while (entries.has(entryKey(ev, i)) && JSON.stringify(entries.get(entryKey(ev, i)).data) !== JSON.stringify(ev.data)) i++;
    const key = entryKey(ev, i);
    if (entries.has(key)) continue;
    entries.set(key, ev);
    for (const v of undoneTargets(ev)) undone.add(v);
    if (ev.undone) undone.add(ev.version);
    log.prepend(entryEl({ ...ev, undone: undone.has(ev.version) }));
    noteFairness(ev);
  }
  strikeUndone();
}

function strikeUndone() {
  for (const li of $("#log").children) {
    const isUndone = undone.has(Number(li.dataset.version)) && !/Undone|Undo/.test(li.dataset.type);
    if (isUndone && !li.classList.contains("undone")) {
      li.classList.add("undone");
      li.querySelector(".meta").append(h("span.badge.bad", "undone"));
    }
  }
}

// ---------- fair dice ----------

function noteFairness(ev) {
  const d = ev.data;
  const commitment = d.commitment || d.seed_hash || d.hash;
  if (commitment && !d.seed) fairness.push({ version: ev.version, commitment, seed: null, result: null });
  if (d.seed) {
    const open = [...fairness].reverse().find((f) => !f.seed && (!d.commitment || f.commitment === d.commitment));
    const item = open || { version: ev.version, commitment: d.commitment || commitment, seed: null, result: null };
    if (!open) fairness.push(item);
    item.seed = d.seed;
    verifySeed(d.seed, item.commitment).then((result) => { item.result = result; renderFairness(); });
  }
  renderFairness();
}

function renderFairness() {
  const el = $("#fairness");
  if (!fairness.length) {
    fill(el, h("p.muted", "Fair dice: the server commits to each scene's seed when the scene starts."));
    return;
  }
  const last = fairness[fairness.length - 1];
  const verdict = !last.seed ? h("span.verdict", "seed revealed when the scene ends") :
    !last.result ? h("span.verdict", "checking…") :
      last.result.ok ? h("span.verdict.good", { id: "fair-verdict" }, "✓ SHA-256 of the revealed seed matches the commitment") :
        h("span.verdict.bad", { id: "fair-verdict" }, `✗ mismatch: SHA-256 of the seed is ${last.result.computed}`);
  fill(el, h("p", h("strong", "Fair dice "), verdict),
    h("p", h("span.muted", "commitment "), h("code", { id: "fair-commitment" }, last.commitment)),
    last.seed ? h("p", h("span.muted", "seed "), h("code", { id: "fair-seed" }, last.seed)) : null,
    fairness.length > 1 ? h("p.small.muted", `${fairness.filter((f) => f.result?.ok).length} of ${fairness.filter((f) => f.seed).length} revealed seeds verified`) : null);
}

// ---------- state and rendering ----------

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 60);
}

async function refresh() {
  let s;
  try {
    s = readState(await table.state());
  } catch (err) {
    say(`Could not load the table: ${err.message}`, "error");
    return;
  }
  ctx.version = Math.max(ctx.version, s.version);
  for (const v of s.undone) undone.add(Number(v));
  const first = ctx.role === null;
  Object.assign(ctx, { role: s.role, system: s.system, view: s.view, owned: s.owned, name: s.name });
  if (first) setup(s);
  render();
  strikeUndone();
}

function setup(s) {
  document.body.dataset.role = s.role;
  document.body.dataset.system = s.system;
  $("#campaign-name").textContent = s.name || "The table";
  document.title = `talespin — ${s.name || "the table"}`;
  $("#system-badge").textContent = SYSTEM_LABELS[s.system] || s.system;
  const roleBadge = $("#role-badge");
  roleBadge.textContent = s.role === "gm" ? "GM" : `Player${s.player ? `: ${s.player}` : ""}`;
  roleBadge.className = s.role === "gm" ? "badge gm" : "badge";
  if (s.role === "gm") {
    gm = mountGm($("#gm"), ctx);
    $("#gm").hidden = false;
    if (s.inviteLink) {
      $("#invite-link").value = new URL(s.inviteLink, location.origin).href;
      fill($("#invite-copy"), copyButton($("#invite-link"), "Copy invite"));
      $("#invite-card").hidden = false;
    }
  }
  if (s.system === "ascend") ascend = mountAscend($("#act"), ctx);
  else actions = mountActions($("#act"), ctx);
}

function actors() {
  const view = ctx.view;
  const all = ctx.system === "ascend" ? (view.heroes || []).map((x) => (x.sheet || x).name) : (view.characters || []).map((c) => c.name);
  const enemies = (view.scene?.conflict?.enemies || []).filter((e) => !e.out).map((e) => e.name);
  return ctx.role === "gm" ? [...all, ...enemies] : all.filter((n) => ctx.owned.includes(n));
}

function render() {
  $("#version").textContent = String(ctx.version);
  const view = ctx.view;
  if (ctx.system === "ascend") {
    const ext = view.extended;
    fill($("#scene"), h("h2", "Ascend"),
      h("div.stats", h("div.stat", h("div.k", "Tests rolled"), h("div.v", String(view.tests ?? 0))),
        ext ? h("div.stat", h("div.k", "Extended Test"), h("div.v", `${ext.successes}/${ext.goal}`)) : null));
    ascend.refresh(view, actors());
  } else {
    renderIiScene($("#scene"), view, ctx.role);
    actions.refresh(view, actors());
  }
  renderPeople($("#people"), view, ctx.system, ctx.role === "gm" ? [] : ctx.owned);
  if (gm) gm.refresh(view);
  $("#act").hidden = false;
}

// ---------- exports ----------

async function download(format) {
  try {
    const text = await table.exportText(format);
    const blob = new Blob([text], { type: format === "json" ? "application/json" : "text/markdown" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `campaign-${table.id}.${format === "json" ? "json" : "md"}` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    say(`Export failed: ${err.message}`, "error");
  }
}
$("#export-json").addEventListener("click", () => download("json"));
$("#export-md").addEventListener("click", () => download("markdown"));

// ---------- start ----------

async function start() {
  if (!params.campaign || !params.token) {
    fill($("#scene"), h("h2", "This link is incomplete"), h("p", "Open the table from the GM link or from the join page."));
    return;
  }
  await refresh();
  if (ctx.role === null) return;
  renderFairness();
  const feed = new LiveFeed(table, (events) => { addEvents(events); scheduleRefresh(); }, (up) => {
    const conn = $("#conn");
    conn.textContent = up ? "live" : "reconnecting…";
    conn.className = `conn ${up ? "on" : "off"}`;
  });
  try {
    const past = await table.events(0);
    feed.accept(Array.isArray(past) ? past : past.events);
  } catch (err) {
    say(`Could not load the log: ${err.message}`, "error");
  }
  feed.start(feed.after);
  window.talespinFeed = feed;
}

start();

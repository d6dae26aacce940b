// The HTTP side of the game table: one small client shared by every page.
// The token travels in `Authorization: Bearer …`; errors come back as {"error": {"code", "message", "rule"?}}.

import { keepHeads } from "./receipts.js";

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(
      err.message ||
        (status >= 500
          ? "The server met a problem it did not expect; try again."
          : `The request was refused (HTTP ${status}).`),
    );
    this.status = status;
    this.code = err.code || String(status);
    this.rule = err.rule || null;
    this.body = body;
  }
}

/** The words a person reads when the server cannot be reached (instead of the browser's "Failed to fetch"). */
export const UNREACHABLE =
  "The table's server cannot be reached right now. Check your connection; nothing was lost, try again in a moment.";

/** fetch(), but a network failure becomes an ApiError (status 0) in plain words. */
async function reach(path, options) {
  try {
    return await fetch(path, options);
  } catch {
    throw new ApiError(0, { error: { code: "unreachable", message: UNREACHABLE } });
  }
}

export async function request(method, path, { token = null, body = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await reach(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: { code: "not_json", message: text.slice(0, 200) } };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** 128 random bits as 32 hex digits, from the browser's cryptographic generator. */
export function freshNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const PAGE = 500; // the most versions one `events` answer covers (the server's MAX_EVENTS_PAGE)

/** A client bound to one campaign and one token. */
export class Table {
  constructor(campaignId, token) {
    this.id = campaignId;
    this.token = token;
    this.base = `/api/campaigns/${encodeURIComponent(campaignId)}`;
  }
  state() {
    return request("GET", `${this.base}/state`, { token: this.token });
  }
  /** Every event after version `after`, read page by page (each answer says where the `next` one starts). */
  async events(after = 0) {
    let page = await request("GET", `${this.base}/events?after=${after}`, { token: this.token });
    const events = [...page.events];
    while (page.next !== null && page.next !== undefined) {
      page = await request("GET", `${this.base}/events?after=${page.next}`, { token: this.token });
      events.push(...page.events);
    }
    return { ...page, events };
  }
  /**
   * The events of versions `after`+1 … `before` (to the newest when `before` is null), a page of at most
   * PAGE versions at a time: how the page reads the recent part of a long log, then earlier parts on demand.
   */
  async eventsBetween(after, before = null) {
    const events = [];
    let at = Math.max(0, after);
    for (;;) {
      const limit = before === null ? PAGE : Math.min(PAGE, before - at);
      if (limit <= 0) break;
      const page = await request("GET", `${this.base}/events?after=${at}&limit=${limit}`, {
        token: this.token,
      });
      events.push(...page.events);
      if (page.next === null || page.next === undefined) break;
      at = page.next;
    }
    return events;
  }
  odds(query) {
    return request("POST", `${this.base}/odds`, { token: this.token, body: query });
  }
  /** The GM's fresh invite: {invite_token, invite_link}; the previous invite stops working. */
  renewInvite() {
    return request("POST", `${this.base}/invite`, { token: this.token });
  }
  /** One command; each carries a fresh nonce, this page's share of any server dice it rolls. */
  async command(command, expectedVersion) {
    const answer = await request("POST", `${this.base}/commands`, {
      token: this.token,
      body: { command, expected_version: expectedVersion, nonce: freshNonce() },
    });
    keepHeads(this.id, answer); // the receipt of what this command's answer showed
    return answer;
  }
  /** Table talk: to everyone, or a whisper (`to`: "gm" from a player, a player id from the GM). */
  say(text, to = null) {
    const body = { text };
    if (to) body.to = to;
    return request("POST", `${this.base}/chat`, { token: this.token, body });
  }
  /** The GM takes a player's seat away: their link stops working, their characters pass to the GM. */
  removePlayer(playerId) {
    return request("POST", `${this.base}/seats/remove`, { token: this.token, body: { player_id: playerId } });
  }
  /** The GM hands a character to a player (`to`: a player id, or null for the GM). */
  handCharacter(character, to) {
    return request("POST", `${this.base}/seats/hand`, { token: this.token, body: { character, to } });
  }
  exportUrl(format, after = 0) {
    return `${this.base}/export?format=${format}&after=${after}`;
  }
  async exportPage(format, after) {
    const response = await reach(this.exportUrl(format, after), {
      headers: { Authorization: `Bearer ${this.token}` },
    });
    if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
    return response.text();
  }
  /**
   * The whole record as one file. The server answers a page at a time: JSON pages are joined into one
   * export (what `talespin verify` reads); Markdown pages follow one another.
   */
  async exportText(format) {
    if (format !== "json") {
      const texts = [];
      let after = 0;
      for (;;) {
        const text = await this.exportPage(format, after);
        texts.push(text);
        const next = /the next page is `\?after=(\d+)`/.exec(text);
        if (!next) break;
        after = Number(next[1]);
      }
      return texts.join("\n");
    }
    const first = await this.exportPage(format, 0);
    let page = JSON.parse(first);
    if (page.next === null || page.next === undefined) return first; // the whole record, byte for byte
    const events = [...page.events];
    while (page.next !== null && page.next !== undefined) {
      page = JSON.parse(await this.exportPage(format, page.next));
      events.push(...page.events);
    }
    return JSON.stringify({ ...page, events, after: 0, limit: null, next: null }, null, 2);
  }
  socketUrl(after) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams({
      token: this.token,
      after: String(after),
      presence: "1",
      state: "1",
      batch: "1",
    });
    return `${scheme}://${location.host}${this.base}/ws?${q}`;
  }
}

export function createCampaign(name, system, variant) {
  const body = { name, system };
  if (variant && Object.keys(variant).length) body.variant = variant;
  return request("POST", "/api/campaigns", { body });
}

export function joinCampaign(campaignId, inviteToken, name) {
  return request("POST", `/api/campaigns/${encodeURIComponent(campaignId)}/join`, {
    body: { invite_token: inviteToken, name },
  });
}

export function validateSheet(system, sheet) {
  return request("POST", `/api/systems/${encodeURIComponent(system)}/validate`, { body: { sheet } });
}

/**
 * The campaign's verdict on a sheet, its variant included (what `add_character` would say): `form` is
 * `{sheet}` or `{text, kind}` (read as the CLI reads a file; the answer then holds `sheet`, the data read).
 * `token` is any token of the campaign, the invite too: a joining player checks its sheet before it joins.
 */
export function validateForCampaign(campaignId, token, form) {
  return request("POST", `/api/campaigns/${encodeURIComponent(campaignId)}/validate`, { token, body: form });
}

/** The `#campaign=…&token=…` part of a link, as an object. */
export function hashParams() {
  return Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, "")));
}

/**
 * The rule systems as the server's registry lists them (GET /api/systems: `[{name, aliases, label, sheet}]`), read once
 * when this module loads, so no page spells a system's name: the server's registry is the one owner of them.
 * Unreachable, it is empty, and names pass through as given.
 */
async function registered() {
  try {
    return (await request("GET", "/api/systems")).registry || [];
  } catch {
    return [];
  }
}
export const SYSTEMS = await registered();

/** The canonical system name for any of its aliases (by the server's registry). */
export function canonicalSystem(name) {
  const key = String(name || "").toLowerCase();
  const found = SYSTEMS.find((entry) => entry.name === key || entry.aliases.includes(key));
  return found ? found.name : key;
}

/** Each system's label (what a person reads) by its canonical name. */
export const SYSTEM_LABELS = Object.fromEntries(SYSTEMS.map((entry) => [entry.name, entry.label]));

/** The label of a system (any of its names), or the name as given when the registry does not know it. */
export function systemLabel(name) {
  return SYSTEM_LABELS[canonicalSystem(name)] || String(name || "");
}

/**
 * Whether a system's sheets are heroes, Tested by a Dice Pool (the registry's `sheet`), rather than characters
 * rolling Talents: what the pages lay their editors, Test builders and lab grids out by.
 */
export function playsHeroes(name) {
  const key = canonicalSystem(name);
  return SYSTEMS.some((entry) => entry.name === key && entry.sheet === "hero");
}

// The GM's list of campaigns, kept in this browser (no accounts): every table opened with a GM link is
// remembered, and the list can be exported to a file and imported on another device, where each link
// opens the table in the GM's seat again.

const KEY = "talespin:tables";
const FORMAT = "talespin-tables/1";

/** The remembered tables, newest first: [{id, name, system, gm}]. */
export function rememberedTables() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter(isTable) : [];
  } catch {
    return [];
  }
}

function isTable(t) {
  return t && typeof t.id === "string" && typeof t.gm === "string" && /^\/table\.html#campaign=/.test(t.gm);
}

function save(list) {
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 100)));
}

/** Put a table at the top of the list (or refresh its name). */
export function rememberTable(id, name, system, gm) {
  const entry = { id, name: name || id, system, gm };
  if (!isTable(entry)) return;
  save([entry, ...rememberedTables().filter((t) => t.id !== id)]);
}

/** The list as a file's text: JSON with a format name, so an import can refuse anything else. */
export function exportTables() {
  return JSON.stringify({ format: FORMAT, tables: rememberedTables() }, null, 2);
}

/**
 * Merge an exported list into this browser's; returns how many tables it added or refreshed.
 * Throws an Error in plain words when the text is not such a list.
 */
export function importTables(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("This file is not a list of tables exported from talespin (it is not JSON).");
  }
  if (!data || data.format !== FORMAT || !Array.isArray(data.tables)) {
    throw new Error("This file is not a list of tables exported from talespin.");
  }
  const incoming = data.tables
    .filter(isTable)
    .map((t) => ({ id: t.id, name: String(t.name || t.id), system: String(t.system || ""), gm: t.gm }));
  const ids = new Set(incoming.map((t) => t.id));
  save([...incoming, ...rememberedTables().filter((t) => !ids.has(t.id))]);
  return incoming.length;
}

// The start page: create a campaign and hand out the GM link and the invite link.

import "./theme.js";
import { createCampaign, SYSTEM_LABELS } from "./api.js";
import { exportTables, importTables, rememberedTables, rememberTable } from "./mine.js";
import { readData } from "./sheetio.js";
import { $, copyButton, fill, h } from "./ui.js";

function absolute(path) {
  return new URL(path, location.origin).href;
}

// The GM links made or opened in this browser, so a GM finds their tables again; the list moves to another
// device as a file (export here, import there).
function remember(entry) {
  rememberTable(entry.id, entry.name, entry.system, entry.gm);
  showMine();
}
function showMine() {
  const list = rememberedTables();
  fill(
    $("#mine"),
    list.map((t) =>
      h("li", h("a", { href: t.gm }, t.name), h("span.badge", SYSTEM_LABELS[t.system] || t.system)),
    ),
  );
  $("#mine-empty").hidden = list.length > 0;
  $("#export-tables").disabled = !list.length;
}
showMine();

$("#export-tables").addEventListener("click", () => {
  const blob = new Blob([exportTables()], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: "talespin-tables.json" });
  document.body.append(a);
  a.click();
  a.remove();
});
$("#import-tables").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const note = $("#tables-note");
  try {
    const n = importTables(await file.text());
    note.textContent = `${n} ${n === 1 ? "table" : "tables"} added to this browser's list.`;
    showMine();
  } catch (err) {
    note.textContent = err.message;
  }
  event.target.value = "";
});

$("#create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const errors = $("#create-errors");
  fill(errors);
  const name = $("#campaign-name").value.trim();
  const system = $("#campaign-system").value;
  let variant = {};
  try {
    const text = $("#campaign-variant").value.trim();
    if (text) variant = await readData(text);
    if (typeof variant !== "object" || Array.isArray(variant))
      throw new Error("the variant must be a mapping");
  } catch (err) {
    fill(errors, h("li", `Variant: ${err.message}`));
    return;
  }
  if (!name) {
    fill(errors, h("li", "Give the campaign a name."));
    return;
  }
  const button = $("#create-button");
  button.disabled = true;
  try {
    const made = await createCampaign(name, system, variant);
    const gm = made.gm_link || `/table.html#campaign=${made.id}&token=${made.gm_token}`;
    const invite = made.invite_link || `/join.html#campaign=${made.id}&invite=${made.invite_token}`;
    localStorage.setItem(`talespin:invite:${made.id}`, invite);
    remember({ id: made.id, name, system, gm });
    $("#gm-link").value = absolute(gm);
    $("#invite-link").value = absolute(invite);
    fill($("#gm-copy"), copyButton($("#gm-link"), "Copy GM link"));
    fill($("#invite-copy"), copyButton($("#invite-link"), "Copy invite"));
    $("#open-table").href = gm;
    $("#links-intro").textContent = `“${name}”, played with ${SYSTEM_LABELS[system] || system}.`;
    $("#links-card").hidden = false;
    $("#gm-link").focus();
  } catch (err) {
    fill(errors, h("li", err.rule ? h("code", err.rule) : null, err.rule ? " " : null, err.message));
  } finally {
    button.disabled = false;
  }
});

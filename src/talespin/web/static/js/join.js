// The join page: a player opens the invite, picks a name, writes or imports a sheet (checked live against
// the campaign's rules, its variant included, by the server) and adds it to the campaign with `add_character`,
// then goes to the table. The page never reads a sheet itself: texts and data go to the campaign's validate
// endpoint, which answers with the same verdict `add_character` reaches.

import "./theme.js";
import {
  canonicalSystem,
  hashParams,
  joinCampaign,
  playsHeroes,
  systemLabel,
  Table,
  validateForCampaign,
} from "./api.js";
import { blankSheet, mountEditor } from "./editor.js";
import { kindOf } from "./sheetio.js";
import { $, fill, h } from "./ui.js";

const params = hashParams();
const campaign = params.campaign;
const invite = params.invite;
const memoryKey = `talespin:player:${campaign}:${invite}`;
let table = null;
let editor = null;
let system = null;

function tableLink(token) {
  return `/table.html#campaign=${encodeURIComponent(campaign)}&token=${encodeURIComponent(token)}`;
}

// The invite lets a joining player ask what the campaign says of a sheet; once the GM renews it, the player's
// own token asks instead.
async function checkSheet(form) {
  try {
    return await validateForCampaign(campaign, invite, form);
  } catch (err) {
    if (err.status !== 401 || !table) throw err;
    return validateForCampaign(campaign, table.token, form);
  }
}

function showError(el, err) {
  fill(el, h("li", err.rule ? h("code", err.rule) : null, err.rule ? " " : null, err.message));
}

async function openEditor(token, playerName) {
  table = new Table(campaign, token);
  const state = await table.state();
  system = canonicalSystem(state.system || (state.view && state.view.system));
  $("#join-card").hidden = true;
  $("#sheet-card").hidden = false;
  $("#sheet-title").textContent =
    `Your ${playsHeroes(system) ? "hero" : "character"} (${systemLabel(system)})`;
  document.title = `talespin — join ${systemLabel(system)}`;
  $("#skip-link").href = tableLink(token);
  $("#skip-link").hidden = false;
  editor = mountEditor($("#editor"), {
    system,
    sheet: blankSheet(system, playerName),
    check: (sheet) => checkSheet({ sheet }),
  });
  $("#sheet-name").focus();
}

if (!campaign || !invite) {
  fill($("#join-errors"), h("li", "This link is incomplete: ask your GM for the invite link again."));
  $("#join-button").disabled = true;
} else {
  const remembered = JSON.parse(localStorage.getItem(memoryKey) || "null");
  if (remembered) {
    $("#player-name").value = remembered.name;
    $("#join-intro").textContent = `You joined before as ${remembered.name}.`;
    $("#join-form").append(
      h("a.button.secondary", { href: tableLink(remembered.token), id: "rejoin" }, "Back to the table"),
    );
  }
}

$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("#player-name").value.trim();
  if (!name) return showError($("#join-errors"), { message: "Pick a name first." });
  $("#join-button").disabled = true;
  try {
    const joined = await joinCampaign(campaign, invite, name);
    localStorage.setItem(memoryKey, JSON.stringify({ name, token: joined.player_token }));
    await openEditor(joined.player_token, name);
  } catch (err) {
    showError($("#join-errors"), err);
  } finally {
    $("#join-button").disabled = false;
  }
});

// The text is read and checked by the server under the campaign's rules (as `talespin … validate FILE` reads
// it); its verdict on the text is listed here, and the data it read goes into the editor. A repeated key,
// lost from the data, is only in this verdict.
async function importText(text, kind = "yaml") {
  const out = $("#import-errors");
  out.removeAttribute("data-valid");
  out.dataset.state = "reading";
  try {
    const verdict = await checkSheet({ text, kind });
    const sheet = verdict.sheet;
    if (!sheet || typeof sheet !== "object" || Array.isArray(sheet))
      throw new Error("a sheet is a mapping of fields");
    editor.set(sheet);
    out.dataset.valid = String(verdict.valid);
    out.dataset.cost = verdict.cost ?? "";
    fill(
      out,
      verdict.errors.map((e) =>
        h(
          "li",
          { "data-rule": e.rule, "data-path": e.path },
          h("code", e.rule || "sheet"),
          e.path ? ` at ${e.path}: ` : ": ",
          e.message,
        ),
      ),
    );
    if (verdict.valid) $("#import").open = false;
    out.dataset.state = "read";
  } catch (err) {
    showError(out, { message: `Could not read the sheet: ${err.message}` });
    out.dataset.state = "refused";
  }
}

$("#import-button").addEventListener("click", () => importText($("#import-text").value));
$("#import-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) importText(await file.text(), kindOf(file.name));
});

$("#sheet-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("#add-button");
  button.disabled = true;
  fill($("#add-errors"));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { version } = await table.state();
      try {
        await table.command({ do: "add_character", sheet: editor.get() }, version);
        location.href = tableLink(table.token);
        return;
      } catch (err) {
        if (err.status !== 409) throw err;
      }
    }
    throw new Error("the table is busy; try again");
  } catch (err) {
    showError($("#add-errors"), err);
    editor.validate();
  } finally {
    button.disabled = false;
  }
});

document.title = "talespin — join the table";

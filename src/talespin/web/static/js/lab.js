// The designer's lab: rules variants compared on the same grid of exact odds (POST /api/lab/compare), drawn
// as heatmaps — the baseline's figures, then each variant's difference from it, with the choice a player
// would make marked — a whole scene analysed exactly (lab-scene.js), best play on a Complex Obstacle
// (lab-advice.js) and the balance report (lab-report.js). Pure computation: no login.
// A campaign's table links here with its variant in the address (#system=…&variant=…&name=…).

import "./theme.js";
import { playsHeroes, request } from "./api.js";
import { heatmap } from "./heatmap.js";
import { mountAdvice } from "./lab-advice.js";
import { mountReport } from "./lab-report.js";
import { mountScene } from "./lab-scene.js";
import { readData } from "./sheetio.js";
import { $, fill, h, num, pct } from "./ui.js";

const list = $("#variants");
let count = 0;
let last = null;

function addVariant(name = "", text = "") {
  count += 1;
  const n = count;
  const row = h(
    "fieldset.variant",
    { "data-n": n },
    h("legend", `Variant ${n}`),
    h(
      "label",
      "Name",
      h("input.v-name", { value: name || `variant ${n}`, maxlength: 60, autocomplete: "off" }),
    ),
    h("label", "Overrides (YAML or JSON)", h("textarea.v-text", { placeholder: "crisis: {auto: 5}" }, text)),
    h(
      "button.ghost.small",
      {
        type: "button",
        onclick: () => {
          row.remove();
        },
      },
      "Remove",
      h("span.sr-only", ` variant ${n}`),
    ),
  );
  list.append(row);
  return row;
}

async function readVariants() {
  const variants = {};
  const problems = [];
  for (const row of list.querySelectorAll(".variant")) {
    const name = row.querySelector(".v-name").value.trim();
    const area = row.querySelector(".v-text");
    area.removeAttribute("aria-invalid");
    try {
      const value = await readData(area.value);
      if (typeof value !== "object" || Array.isArray(value))
        throw new Error("the overrides must be a mapping");
      if (!name) throw new Error("give the variant a name");
      if (name in variants) throw new Error(`two variants are called “${name}”`);
      variants[name] = value;
    } catch (err) {
      area.setAttribute("aria-invalid", "true");
      problems.push(`${name || "A variant"}: ${err.message}`);
    }
  }
  if (!Object.keys(variants).length && !problems.length)
    problems.push("Add at least one variant to compare.");
  return { variants, problems };
}

function optionRow(id, label, values, chosen, words) {
  const select = h(
    "select",
    { id },
    values.map((v) => h("option", { value: v, selected: v === chosen }, words ? words(v) : String(v))),
  );
  select.addEventListener("change", draw);
  return h("label", label, select);
}

function summary(data) {
  const ii = !playsHeroes(data.system);
  const head = ii
    ? ["variant", "mean P(success)", "mean E[Crisis]", "cells that roll", "choices changed"]
    : ["variant", "mean P(success)", "largest |ΔP|", "even-odds pools changed"];
  const base = data.variants[0];
  const mean = (grid) => {
    const flat = grid.flat(Infinity);
    return flat.reduce((a, b) => a + Number(b), 0) / flat.length;
  };
  const baseFlat = base.p_success.flat(Infinity);
  const rows = data.variants.map((v) => {
    if (ii)
      return [
        v.name,
        pct(mean(v.p_success)),
        num(mean(v.expected_crisis), 2),
        String(v.rolls.flat(Infinity).filter(Boolean).length),
        String(v.changed_choices),
      ];
    const diff = Math.max(...v.p_success.flat(Infinity).map((p, i) => Math.abs(p - baseFlat[i])));
    return [v.name, pct(mean(v.p_success)), num(diff, 3), String(v.changed_choices)];
  });
  fill(
    $("#summary"),
    h(
      "thead",
      h(
        "tr",
        head.map((c) => h("th", { scope: "col" }, c)),
      ),
    ),
    h(
      "tbody",
      rows.map((r) =>
        h(
          "tr",
          h("th", { scope: "row" }, r[0]),
          r.slice(1).map((c) => h("td", c)),
        ),
      ),
    ),
  );
}

function drawII(data) {
  const k = data.nets.indexOf(Number($("#grid-net").value));
  const figure = $("#grid-figure").value;
  const [base, ...others] = data.variants;
  // "played": the expected Crisis of what the player chooses — the roll, or the automatic pass.
  const cell = (v, i, j) =>
    figure === "played"
      ? v.rolls[i][j][k]
        ? v.expected_crisis[i][j][k]
        : v.auto_crisis
      : v[figure][i][j][k];
  const words = {
    played: "E[Crisis] of the play chosen",
    expected_crisis: "E[Crisis] of the roll",
    p_success: "P(success)",
  };
  const show = (x) => (figure === "p_success" ? pct(x) : num(x, 2));
  const letter = (v, i, j) => (v.rolls[i][j][k] ? "R" : "A");
  $("#grid-legend").textContent =
    "R: a player rolls (the roll's expected Crisis is below the automatic pass's); A: takes the automatic pass. ◆: the variant changes that choice.";
  const maps = [
    heatmap({
      id: "grid-base",
      caption: `${base.name}: ${words[figure]}, net Advantage ${data.nets[k]}`,
      rowLabel: "level",
      colLabel: "base d6",
      rows: data.levels,
      cols: data.bases,
      value: (i, j) => cell(base, i, j),
      text: (i, j) => `${show(cell(base, i, j))} ${letter(base, i, j)}`,
      scale: figure === "p_success" ? 1 : Math.max(...base.expected_crisis.flat(Infinity), base.auto_crisis),
      diverging: false,
    }),
  ];
  for (const v of others) {
    const diff = (i, j) => cell(v, i, j) - cell(base, i, j);
    const bound = Math.max(
      1e-9,
      ...data.levels.flatMap((_, i) => data.bases.map((__, j) => Math.abs(diff(i, j)))),
    );
    maps.push(
      heatmap({
        caption: `${v.name} − ${base.name}: Δ ${words[figure]}, net Advantage ${data.nets[k]}`,
        rowLabel: "level",
        colLabel: "base d6",
        rows: data.levels,
        cols: data.bases,
        value: diff,
        text: (i, j) =>
          `${diff(i, j) >= 0 ? "+" : "−"}${figure === "p_success" ? pct(Math.abs(diff(i, j))) : num(Math.abs(diff(i, j)), 2)} ${letter(v, i, j)}`,
        mark: (i, j) => (v.rolls[i][j][k] !== base.rolls[i][j][k] ? "choice changed" : null),
        scale: bound,
        diverging: true,
      }),
    );
  }
  return maps;
}

function drawAscend(data) {
  const k = data.required.indexOf(Number($("#grid-required").value));
  const [base, ...others] = data.variants;
  const even = (v, i, j) =>
    v.dice_for_even_odds[i][k] === data.pools[j] ? "fewest dice for even odds" : null;
  $("#grid-legend").textContent =
    "◆: the fewest dice that give at least even odds at that Target (an Ascend Test has no automatic pass).";
  const maps = [
    heatmap({
      id: "grid-base",
      caption: `${base.name}: P(${data.required[k]}+ Successes)`,
      rowLabel: "Target",
      colLabel: "pool",
      rows: data.targets,
      cols: data.pools,
      value: (i, j) => base.p_success[i][j][k],
      text: (i, j) => pct(base.p_success[i][j][k]),
      mark: (i, j) => even(base, i, j),
      scale: 1,
      diverging: false,
    }),
  ];
  for (const v of others) {
    const diff = (i, j) => v.p_success[i][j][k] - base.p_success[i][j][k];
    const bound = Math.max(
      1e-9,
      ...data.targets.flatMap((_, i) => data.pools.map((__, j) => Math.abs(diff(i, j)))),
    );
    maps.push(
      heatmap({
        caption: `${v.name} − ${base.name}: Δ P(${data.required[k]}+ Successes)`,
        rowLabel: "Target",
        colLabel: "pool",
        rows: data.targets,
        cols: data.pools,
        value: diff,
        text: (i, j) => `${diff(i, j) >= 0 ? "+" : "−"}${pct(Math.abs(diff(i, j)))}`,
        mark: (i, j) => even(v, i, j),
        scale: bound,
        diverging: true,
      }),
    );
  }
  return maps;
}

function draw() {
  if (!last) return;
  fill($("#grids"), playsHeroes(last.system) ? drawAscend(last) : drawII(last));
}

function show(data) {
  last = data;
  $("#results-card").hidden = false;
  summary(data);
  fill(
    $("#grid-controls"),
    playsHeroes(data.system)
      ? optionRow("grid-required", "Successes required", data.required, 1)
      : [
          optionRow("grid-net", "Net Advantage", data.nets, 0),
          optionRow(
            "grid-figure",
            "Figure",
            ["played", "expected_crisis", "p_success"],
            "played",
            (f) =>
              ({
                played: "E[Crisis] of the play chosen",
                expected_crisis: "E[Crisis] of the roll",
                p_success: "P(success)",
              })[f],
          ),
        ],
  );
  draw();
  $("#results-status").textContent = `Compared ${data.variants.length} rule sets on the same grid.`;
}

$("#add-variant").addEventListener("click", () => addVariant().querySelector(".v-text").focus());
$("#variant-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  addVariant(file.name.replace(/\.(ya?ml|json)$/i, ""), await file.text());
  event.target.value = "";
});
$("#compare-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const { variants, problems } = await readVariants();
  const errors = $("#compare-errors");
  fill(
    errors,
    problems.map((p) => h("li", p)),
  );
  if (problems.length) return;
  const button = $("#compare-button");
  button.disabled = true;
  $("#results-status").textContent = "Computing…";
  try {
    show(await request("POST", "/api/lab/compare", { body: { system: $("#lab-system").value, variants } }));
  } catch (err) {
    const path = err.body?.error?.path;
    fill(errors, h("li", path ? [h("code", path), " "] : null, err.message));
    $("#results-status").textContent = "";
  } finally {
    button.disabled = false;
  }
});

// A link from a campaign's table: #system=…&name=…&variant=<JSON>.
const given = new URLSearchParams(location.hash.slice(1));
if (given.get("system")) $("#lab-system").value = given.get("system");
if (given.get("variant")) addVariant(given.get("name") || "campaign", given.get("variant"));
else addVariant("auto 5", "crisis: {auto: 5}");
mountScene();
mountAdvice();
mountReport();

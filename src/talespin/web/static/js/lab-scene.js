// The lab page's exact scene analysis (POST /api/lab/scene): a difficulty, Triggers, the characters present
// and the obstacles in order, played under a policy — the Crisis the scene ends with (a chart and a table),
// each Trigger's odds of firing and how often, the expected Rising Tension and the expected actions.

import { request } from "./api.js";
import { distributionChart } from "./chart.js";
import { readData } from "./sheetio.js";
import { $, fill, h, num, pct } from "./ui.js";

const POLICY_WORDS = {
  auto: "always the automatic pass",
  roll: "always the best Talent roll",
  optimal: "optimal play",
};

/** The scene as typed: each YAML/JSON field read by the server, named when it cannot be read. */
async function query() {
  const body = {
    difficulty: Number($("#scene-difficulty").value),
    policy: $("#scene-policy").value,
  };
  const fields = [
    ["triggers", "#scene-triggers", "The Triggers"],
    ["characters", "#scene-characters", "The characters"],
    ["obstacles", "#scene-obstacles", "The obstacles"],
  ];
  for (const [key, id, words] of fields) {
    const area = $(id);
    area.removeAttribute("aria-invalid");
    try {
      body[key] = await readData(area.value);
    } catch (err) {
      area.setAttribute("aria-invalid", "true");
      throw new Error(`${words}: ${err.message}`, { cause: err });
    }
  }
  return body;
}

function figures(a) {
  const row = (label, value) => [h("dt", label), h("dd", value)];
  return h(
    "dl.figures",
    { id: "scene-figures" },
    row("Expected Crisis", num(a.expected_crisis, 2)),
    row(`P(Crisis reaches ${a.cap})`, pct(a.p_cap_reached)),
    row("Expected Rising Tension", num(a.expected_rising_tension, 2)),
    row("Expected actions", num(a.expected_actions, 2)),
  );
}

function crisisTable(a) {
  const label = (c) => (c === a.cap ? `${c} or more` : String(c));
  return h(
    "div.heatmap-wrap",
    { tabindex: "0", role: "region", "aria-label": "The Crisis the scene ends with" },
    h(
      "table.summary",
      { id: "scene-crisis" },
      h("caption", "P(the scene ends at this Crisis)"),
      h("thead", h("tr", h("th", { scope: "col" }, "Crisis"), h("th", { scope: "col" }, "P"))),
      h(
        "tbody",
        a.crisis.map(([c, p, exact]) =>
          h("tr", h("th", { scope: "row" }, label(c)), h("td", { title: exact || null }, pct(p))),
        ),
      ),
    ),
  );
}

function triggerTable(a) {
  const name = (t) => `${t.text ? `${t.text}: ` : ""}at ${t.at}${t.every ? `, again every ${t.every}` : ""}`;
  const often = (t) =>
    t.firings
      .filter((f) => f.count > 0 && f.p > 0)
      .map((f) => `${f.count}${f.at_least ? "+" : ""}×: ${pct(f.p)}`)
      .join(", ") || "never";
  return h(
    "div.heatmap-wrap",
    { tabindex: "0", role: "region", "aria-label": "Each Trigger's odds" },
    h(
      "table.summary",
      { id: "scene-triggers-table" },
      h("caption", "Each Trigger: P(it fires), and how often"),
      h(
        "thead",
        h(
          "tr",
          ["Trigger", "P(fires)", "how often"].map((c) => h("th", { scope: "col" }, c)),
        ),
      ),
      h(
        "tbody",
        a.triggers.map((t) =>
          h("tr", h("th", { scope: "row" }, name(t)), h("td", pct(t.p_fires)), h("td", often(t))),
        ),
      ),
    ),
  );
}

function show(a) {
  const first = a.triggers.length ? Math.min(...a.triggers.map((t) => t.at)) : null;
  fill(
    $("#scene-result"),
    h(
      "p",
      { id: "scene-status" },
      `Under ${POLICY_WORDS[a.policy] || a.policy}, Crisis counted up to ${a.cap}.`,
    ),
    figures(a),
    distributionChart(a.crisis, {
      threshold: first,
      title: "Crisis at the end of the scene (highlighted: a Trigger has fired)",
      capped: true,
    }),
    crisisTable(a),
    triggerTable(a),
  );
}

export function mountScene() {
  $("#scene-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const errors = $("#scene-errors");
    fill(errors);
    let body;
    try {
      body = await query();
    } catch (err) {
      fill(errors, h("li", err.message));
      return;
    }
    const button = $("#scene-button");
    button.disabled = true;
    fill($("#scene-result"), h("p.small.muted", "Analysing…"));
    try {
      show(await request("POST", "/api/lab/scene", { body }));
    } catch (err) {
      fill($("#scene-result"));
      const path = err.body?.error?.path;
      fill(errors, h("li", path ? [h("code", path), " "] : null, err.message));
    } finally {
      button.disabled = false;
    }
  });
}

// The lab page's Complex Obstacle solver (POST /api/lab/advise): the party and the obstacle as typed, every
// legal action with its value under optimal play, the best marked, each alternative's cost against it.

import { request } from "./api.js";
import { readData } from "./sheetio.js";
import { $, fill, h, num, pct } from "./ui.js";

async function query() {
  const whole = (id) => Number($(id).value);
  const body = {
    characters: await readData($("#advice-party").value),
    obstruction: whole("#advice-obstruction"),
    attempts: whole("#advice-attempts"),
    crisis: whole("#advice-crisis"),
    cap: whole("#advice-cap"),
    objective: $("#advice-objective").value,
  };
  const lastActor = $("#advice-last").value.trim();
  if (lastActor) body.last = lastActor;
  return body;
}

function table(advice) {
  const crisis = advice.objective === "crisis";
  const head = ["action", crisis ? "E[Crisis]" : `P(Crisis < ${advice.cap})`, "cost vs best"];
  return h(
    "div.heatmap-wrap",
    { tabindex: "0", role: "region", "aria-label": "Every legal action" },
    h(
      "table.summary",
      { id: "advice-table" },
      h(
        "caption",
        `Obstruction ${advice.obstruction}, ${advice.attempts_left} attempts left, Crisis ${advice.crisis}`,
      ),
      h(
        "thead",
        h(
          "tr",
          head.map((c) => h("th", { scope: "col" }, c)),
        ),
      ),
      h(
        "tbody",
        advice.actions.map((a) =>
          h(
            `tr${a.best ? ".best" : ""}`,
            h("th", { scope: "row" }, a.label, a.best ? h("span.badge.good.best-choice", " ★ Best") : null),
            h("td", crisis ? num(a.expected_crisis, 3) : pct(a.p_below_cap)),
            h("td", a.best ? "—" : crisis ? `+${num(a.cost, 3)} Crisis` : `−${pct(a.cost)}`),
          ),
        ),
      ),
    ),
  );
}

export function mountAdvice() {
  $("#advice-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const errors = $("#advice-errors");
    fill(errors);
    let body;
    try {
      body = await query();
    } catch (err) {
      fill(errors, h("li", `The characters: ${err.message}`));
      return;
    }
    const button = $("#advice-button");
    button.disabled = true;
    fill($("#advice-result"), h("p.small.muted", "Solving…"));
    try {
      const advice = await request("POST", "/api/lab/advise", { body });
      fill($("#advice-result"), h("p", h("strong", "Best: "), advice.best), table(advice));
    } catch (err) {
      fill($("#advice-result"));
      fill(errors, h("li", err.message));
    } finally {
      button.disabled = false;
    }
  });
}

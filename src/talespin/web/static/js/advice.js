// Best play on a Complex Obstacle: the exact solver's verdict that the odds endpoint adds ("advice"), shown
// as one line above the choices and, on each choice, a "Best" badge or what it costs against the best.

import { h, num, pct } from "./ui.js";

function objectiveWords(advice) {
  return advice.objective === "crisis"
    ? "least expected Crisis"
    : `best chance that Crisis stays below ${advice.cap}`;
}

/** "★ Best" on the best choice, "+0.5 Crisis vs best" (or "−3% vs best") on the others; null without advice. */
export function costBadge(choice, advice) {
  if (!advice || choice.cost_vs_best === undefined || choice.cost_vs_best === null) return null;
  if (choice.optimal) {
    return h(
      "span.badge.good.best-choice",
      { title: `The best action now (${objectiveWords(advice)}, exact)` },
      "★ Best",
    );
  }
  const cost =
    advice.objective === "crisis"
      ? `+${num(choice.cost_vs_best, 2)} Crisis vs best`
      : `−${pct(choice.cost_vs_best)} chance vs best`;
  return h("span.badge.warn.choice-cost", cost);
}

/** The line above the choices: the best action of anyone present, or why there is no advice. */
export function adviceNote(odds) {
  if (odds.advice === undefined) return null;
  if (!odds.advice)
    return h("p.small.muted", { id: "advice-note" }, `No best-play advice: ${odds.advice_reason}.`);
  return h(
    "p.small",
    { id: "advice-note" },
    h("strong", "Best play now: "),
    odds.advice.best,
    ` — ${objectiveWords(odds.advice)}, solved exactly.`,
  );
}

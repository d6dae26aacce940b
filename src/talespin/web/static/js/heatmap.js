// A heatmap as an HTML table: every cell keeps its number as text (read by screen readers, copied by
// people), its colour only repeats it. Headers are real <th scope> cells; the table scrolls sideways on a
// phone instead of shrinking.

import { h } from "./ui.js";

/** Background and ink for a value in [-1, 1] (diverging) or [0, 1] (sequential), both readable (AA). */
export function shade(t, diverging) {
  const x = Math.max(-1, Math.min(1, Number.isFinite(t) ? t : 0));
  const hue = diverging ? (x < 0 ? 212 : 8) : 212;
  const amount = diverging ? Math.abs(x) : x;
  const light = 97 - amount * 60;
  const lum = luminance(hue, 0.65, light / 100);
  // The ink with the larger contrast ratio against this background (black or white: never below 4.58:1).
  return {
    background: `hsl(${hue} 65% ${light}%)`,
    color: (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) ? "#000" : "#fff",
  };
}

/** WCAG relative luminance of an HSL colour (h in degrees, s and l in [0, 1]). */
function luminance(hue, s, l) {
  const a = s * Math.min(l, 1 - l);
  const f = (n) => {
    const k = (n + hue / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(f(0)) + 0.7152 * lin(f(8)) + 0.0722 * lin(f(4));
}

/**
 * heatmap({caption, rowLabel, colLabel, rows, cols, value(r, c), text(r, c), mark?(r, c), scale, diverging})
 * → a <div.heatmap-wrap> holding a <table.heatmap>. `scale` is the value that gets the strongest colour.
 */
export function heatmap(spec) {
  const { caption, rowLabel, colLabel, rows, cols, value, text, mark, scale, diverging, id } = spec;
  const head = h(
    "tr",
    h("th", { scope: "col" }, `${rowLabel} \\ ${colLabel}`),
    cols.map((c) => h("th", { scope: "col" }, String(c))),
  );
  const body = rows.map((r, i) =>
    h(
      "tr",
      h("th", { scope: "row" }, String(r)),
      cols.map((c, j) => {
        const v = value(i, j);
        const style = shade(scale ? v / scale : 0, diverging);
        const marked = mark ? mark(i, j) : null;
        return h(
          `td${marked ? ".marked" : ""}`,
          {
            style: `background:${style.background};color:${style.color}`,
            title: `${rowLabel} ${r}, ${colLabel} ${c}: ${text(i, j)}${marked ? ` (${marked})` : ""}`,
          },
          text(i, j),
          marked ? h("span.mark", { "aria-label": marked }, " ◆") : null,
        );
      }),
    ),
  );
  return h(
    "div.heatmap-wrap",
    { id, tabindex: "0", role: "region", "aria-label": caption },
    h("table.heatmap", h("caption", caption), h("thead", head), h("tbody", body)),
  );
}

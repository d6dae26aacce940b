// A small SVG bar chart of a distribution [[outcome, p, "n/d"], …], with the success region highlighted.

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text = null) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

/**
 * distributionChart(rows, {threshold, atLeast, title}) → an <svg>.
 * `threshold`: outcomes ≥ it (atLeast=true, the default) succeed and are drawn in the accent colour.
 * The last row of a capped distribution holds the mass of "≥ cap"; it is labelled so.
 */
export function distributionChart(rows, { threshold = null, title = "Distribution", capped = false } = {}) {
  const data = (rows || []).map(([x, p]) => [Number(x), Number(p)]);
  const width = 320;
  const height = 120;
  const pad = { l: 26, r: 6, t: 8, b: 20 };
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    role: "img",
    "aria-label": title,
  });
  root.append(svg("title", {}, title));
  if (!data.length) return root;
  const maxP = Math.max(...data.map(([, p]) => p), 1e-9);
  const n = data.length;
  const innerW = width - pad.l - pad.r;
  const innerH = height - pad.t - pad.b;
  const bw = innerW / n;
  root.append(
    svg("line", { x1: pad.l, y1: pad.t + innerH, x2: width - pad.r, y2: pad.t + innerH, stroke: "#9aa5b1" }),
  );
  root.append(
    svg("text", { x: pad.l - 3, y: pad.t + 8, "text-anchor": "end" }, `${Math.round(maxP * 100)}%`),
  );
  root.append(svg("text", { x: pad.l - 3, y: pad.t + innerH, "text-anchor": "end" }, "0"));
  const step = Math.max(1, Math.ceil(n / 10));
  data.forEach(([x, p], i) => {
    const bh = (p / maxP) * innerH;
    const win = threshold !== null && x >= threshold;
    const bar = svg("rect", {
      x: pad.l + i * bw + 0.5,
      y: pad.t + innerH - bh,
      width: Math.max(bw - 1, 0.5),
      height: bh,
      class: win ? "bar win" : "bar",
    });
    const last = capped && i === n - 1;
    bar.append(svg("title", {}, `${last ? "≥ " : ""}${x}: ${(p * 100).toFixed(1)}%`));
    root.append(bar);
    if (i % step === 0 || last) {
      root.append(
        svg(
          "text",
          {
            x: pad.l + i * bw + bw / 2,
            y: height - 6,
            "text-anchor": "middle",
          },
          `${last ? "≥" : ""}${x}`,
        ),
      );
    }
  });
  if (threshold !== null) {
    const idx = data.findIndex(([x]) => x >= threshold);
    if (idx > 0) {
      const x = pad.l + idx * bw;
      root.append(svg("line", { x1: x, y1: pad.t - 4, x2: x, y2: pad.t + innerH, class: "threshold" }));
    }
  }
  return root;
}

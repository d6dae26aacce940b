// Drawing rolls die by die. An exploding chain shows its faces side by side; a die that showed its maximum
// (and so exploded into the next) is marked. Ascend d10s read 0–9 and are marked as successes or misses.

import { h } from "./ui.js";

/** One exploding chain {"size", "faces"} as a group of dice. */
export function chainEl(chain) {
  const size = Number(chain.size);
  const faces = chain.faces || [];
  const exploded = faces.length > 1;
  const parts = [];
  faces.forEach((face, i) => {
    if (i > 0) parts.push(h("span.plus", { "aria-hidden": "true" }, "+"));
    const isMax = face === size && i < faces.length - 1;
    parts.push(
      h(
        `span.die${isMax ? ".max" : ""}`,
        {
          title: isMax ? `d${size}: ${face}, exploded` : `d${size}: ${face}`,
          "data-face": face,
          "data-size": size,
        },
        String(face),
        h("small", `d${size}`),
      ),
    );
  });
  const label = `d${size}: ${faces.join(" then ")}${exploded ? " (exploded)" : ""}`;
  return h(`span.chain${exploded ? ".exploded" : ""}`, { role: "img", "aria-label": label }, parts);
}

/** Every chain of an Inciting Incident roll. */
export function chainsEl(chains) {
  return h("div.dice", (chains || []).map(chainEl));
}

/** Ascend d10 faces (0–9); those at or under the target are successes. */
export function poolEl(faces, target) {
  return h(
    "div.dice",
    (faces || []).map((face) => {
      const hit = target !== undefined && target !== null && face <= target;
      return h(
        `span.die.${hit ? "hit" : "miss"}`,
        {
          title: hit ? `${face}: success` : `${face}: miss`,
          "data-face": face,
        },
        String(face),
        h("small", hit ? "✓" : "d10"),
      );
    }),
  );
}

/** The dice of any roll event's data, whichever system made it. */
export function rollDiceEl(data) {
  if (!data) return null;
  if (Array.isArray(data.chains) && data.chains.length && data.faces === undefined)
    return chainsEl(data.chains);
  if (Array.isArray(data.faces)) return poolEl(data.faces.flat(), data.target);
  if (Array.isArray(data.chains) && data.chains.length) {
    const sizes = new Set(data.chains.map((c) => c.size));
    if (sizes.size === 1 && sizes.has(10) && data.target !== undefined) {
      return poolEl(
        data.chains.flatMap((c) => c.faces),
        data.target,
      );
    }
    return chainsEl(data.chains);
  }
  return null;
}

// Small DOM helpers: build elements without string-concatenated HTML (so no text is ever parsed as markup).

/** h("div.card", {id: "x", onclick: fn}, child, "text", [more]) → an Element. */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = {};
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = [el.className, value].filter(Boolean).join(" ");
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style")
      el.style.cssText = String(value); // through CSSOM: the CSP forbids style attributes
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace all children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

let toastTimer = null;
/** A short message at the bottom of the screen (announced to screen readers). */
export function toast(message, kind = "") {
  let el = document.getElementById("toast");
  if (!el) {
    el = h("div.toast", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(el);
  }
  el.className = `toast ${kind}`;
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(
    () => {
      el.hidden = true;
    },
    kind === "error" ? 7000 : 3500,
  );
}

/** A copy button for the text of an input. */
export function copyButton(input, label = "Copy") {
  return h(
    "button.secondary.small",
    {
      type: "button",
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(input.value);
        } catch {
          document.execCommand("copy");
        }
        toast("Copied to the clipboard");
      },
    },
    label,
  );
}

export function pct(p) {
  if (p === null || p === undefined || Number.isNaN(p)) return "–";
  const v = p * 100;
  if (v > 0 && v < 1) return "<1%";
  if (v < 100 && v > 99) return ">99%";
  return `${Math.round(v)}%`;
}

export function num(x, digits = 1) {
  if (x === null || x === undefined || Number.isNaN(x)) return "–";
  return Number(x).toFixed(digits).replace(/\.0+$/, "");
}

/** Run `fn` after the user stops typing for `ms` milliseconds. */
export function debounce(fn, ms = 300) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** Parse "6,2;3;4" or "[[6,2],[3]]" or "0 3 9" into a faces value for a command. */
export function parseFaces(text, chained) {
  const raw = String(text || "").trim();
  if (!raw) return null;
  if (raw.startsWith("[")) return JSON.parse(raw);
  const toInts = (s) =>
    s
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((x) => {
        const n = Number(x);
        if (!Number.isInteger(n)) throw new Error(`"${x}" is not a whole number`);
        return n;
      });
  if (chained)
    return raw
      .split(";")
      .map((chain) => toInts(chain))
      .filter((c) => c.length);
  return toInts(raw);
}

/**
 * A gate for requests that depend on what is asked and on the state it is asked of: `fresh(key)` is true
 * when `key` (any JSON value) differs from the last one let through, so odds are asked for again only when
 * an option or the relevant state changed, not after every live event. `forget()` lets the next key through
 * (after a failed request, so it is tried again).
 */
export function changeGate() {
  let last = null;
  return {
    fresh(key) {
      const text = JSON.stringify(key);
      if (text === last) return false;
      last = text;
      return true;
    },
    forget() {
      last = null;
    },
  };
}

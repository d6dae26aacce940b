// The GM's keyboard shortcuts (Alt+Shift+letter, so they never fire while typing a plain letter), listed in
// the page, and the same three actions in the top bar: the first controls a Tab reaches.

import { $, h } from "./ui.js";

/**
 * mountShortcuts([{code, keys, what, button: () => Element}]): each press clicks the button the page shows
 * for it (so a shortcut does exactly what the button does, and nothing while the button is disabled).
 * Returns {el}: the list of shortcuts, for the GM's panel.
 */
export function mountShortcuts(list) {
  document.addEventListener("keydown", (event) => {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) return;
    const found = list.find((s) => s.code === event.code);
    const button = found && found.button();
    if (!button) return;
    event.preventDefault();
    if (!button.disabled) button.click();
  });
  const bar = $("#gm-bar");
  if (bar) {
    bar.replaceChildren(
      ...list.map((s) =>
        h(
          "button.ghost.small",
          {
            type: "button",
            id: `bar-${s.code.slice(3).toLowerCase()}`,
            "aria-keyshortcuts": s.keys,
            title: `${s.what} (${s.keys})`,
            onclick: () => {
              const b = s.button();
              if (b && !b.disabled) b.click();
            },
          },
          barLabel(s),
        ),
      ),
    );
    bar.hidden = false;
  }
  const el = h(
    "details.shortcuts",
    { id: "shortcuts", open: true },
    h("summary", "Keyboard shortcuts"),
    h(
      "ul",
      list.map((s) => h("li", h("kbd", s.keys), ` ${s.what}`)),
    ),
  );
  return { el };
}

function barLabel(s) {
  if (s.code === "KeyZ") return "Undo";
  if (s.code === "KeyN") return "Next obstacle";
  if (s.code === "KeyE") return "End scene";
  return s.what;
}

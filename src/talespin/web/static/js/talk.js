// Who is here and table talk: the seats with who is connected now (told over the WebSocket), chat to the
// table, whispers to the GM (and the GM's whispers back to one player), and this seat's own link for another
// device. A whisper is cut out on the server: no other player's page ever receives its text.

import { copyButton, fill, h } from "./ui.js";

/** mountTalk(root, ctx): ctx = {table, role, players, say}. Returns {refresh, heard, sent, presence}. */
export function mountTalk(root, ctx) {
  const seen = new Set();
  let online = [];
  const seats = h("ul.presence", { id: "presence", "aria-label": "Seats at the table" });
  const list = h("ol.chat-list", { id: "chat", tabindex: "0", "aria-label": "Table talk, oldest first" });
  const empty = h("p.small.muted", { id: "chat-empty" }, "Nothing said yet.");
  const text = h("input", {
    id: "chat-text",
    maxlength: 1000,
    autocomplete: "off",
    placeholder: "Say something to the table",
  });
  const to = h("select", { id: "chat-to" });
  const form = h(
    "form.chat-form",
    { id: "chat-form" },
    h("div.stack", h("label", "Message", text), h("label", "To", to)),
    h("button", { type: "submit", id: "chat-send" }, "Send"),
  );
  const seatLink = h("input", { id: "seat-link", readonly: true, "aria-label": "Your seat link" });
  const seat = h(
    "details",
    { id: "seat" },
    h("summary", "Your seat on another device"),
    h(
      "p.small.muted",
      "Open this link on your other device to sit in this same seat. Anyone holding it sits in your seat: keep it to yourself.",
    ),
    h("div.share", seatLink, copyButton(seatLink, "Copy seat link")),
  );
  fill(root, h("h2", "Who is here"), seats, h("h3", "Table talk"), empty, list, form, seat);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const words = text.value.trim();
    if (!words) {
      ctx.say("Write a message first.", "error");
      text.focus();
      return;
    }
    try {
      const res = await ctx.table.say(words, to.value || null);
      text.value = "";
      heard(res.event ? [res.event] : []);
    } catch (err) {
      ctx.say(`The message was not sent: ${err.message}`, "error");
    }
    text.focus();
  });

  const nameOf = (by) => (by === "gm" ? "GM" : ctx.players?.[by] || "a player");

  function heard(events) {
    for (const ev of events || []) {
      if (ev.type !== "ChatSaid" || seen.has(ev.version)) continue;
      seen.add(ev.version);
      const d = ev.data || {};
      const whisper = ev.visibility === "whisper";
      const toWhom = whisper ? (d.by === "gm" ? ` → ${nameOf(d.with)}` : " → GM") : "";
      const said = h(
        `li${whisper ? ".whisper" : ""}`,
        { "data-version": ev.version },
        h("span.who", `${d.name || nameOf(d.by)}${toWhom}`),
        whisper ? h("span.badge.gm", "whisper") : null,
        " ",
        d.text,
      );
      // Oldest first: a new message goes last; an earlier one (the log's earlier part loaded) before newer ones.
      let before = null;
      for (
        let x = list.lastElementChild;
        x && Number(x.dataset.version) > ev.version;
        x = x.previousElementSibling
      )
        before = x;
      list.insertBefore(said, before);
      empty.hidden = true;
      if (!before) list.scrollTop = list.scrollHeight;
    }
  }

  function showSeats() {
    const here = new Set(online.map((o) => o.who));
    const all = [
      { who: "gm", name: "GM" },
      ...Object.entries(ctx.players || {}).map(([id, name]) => ({ who: id, name })),
    ];
    fill(
      seats,
      all.map((p) =>
        h(
          `li.${here.has(p.who) ? "online" : "offline"}`,
          { "data-who": p.who },
          p.name,
          h("span.sr-only", here.has(p.who) ? " (connected)" : " (not connected)"),
        ),
      ),
    );
  }

  return {
    heard,
    sent: heard,
    presence(list) {
      online = list;
      showSeats();
    },
    refresh(c) {
      const was = to.value;
      const options = [h("option", { value: "" }, "everyone")];
      if (c.role === "gm") {
        for (const [id, name] of Object.entries(c.players || {}))
          options.push(h("option", { value: id }, `a whisper to ${name}`));
      } else {
        options.push(h("option", { value: "gm" }, "a whisper to the GM"));
      }
      fill(to, options);
      if ([...to.options].some((o) => o.value === was)) to.value = was;
      seatLink.value = location.href;
      showSeats();
    },
  };
}

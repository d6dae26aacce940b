// The current Inciting Incident scene: kind, Crisis as a meter with its Trigger thresholds, Obstruction,
// Rising Tension, the Flow of Battle and wounds. GM-only Triggers reach this code only on the GM's screen:
// the server never sends them to players.

import { playsHeroes } from "./api.js";
import { ascendSheet, iiSheet, turnOrder } from "./sheetview.js";
import { canonical, Legal } from "./legal.js";
import { fill, h } from "./ui.js";

/** Every value a Trigger fires at up to `limit` (T, T+k, T+2k, …). */
function triggerValues(t, limit) {
  const out = [];
  if (!t.every) return [t.at];
  for (let v = t.at; v <= limit && out.length < 40; v += t.every) out.push(v);
  return out;
}

function crisisMeter(scene) {
  const crisis = Number(scene.crisis || 0);
  const triggers = scene.triggers || [];
  const firstValues = triggers.map((t) => t.at);
  const scale = Math.max(20, Math.ceil((Math.max(crisis, ...firstValues, 0) + 6) / 10) * 10);
  const marks = [];
  for (const t of triggers) {
    for (const v of triggerValues(t, scale)) {
      const fired = (t.fired || []).includes(v);
      const cls = ["meter-mark", t.visibility === "gm" ? "gm" : "", fired ? "fired" : ""]
        .filter(Boolean)
        .join(".");
      marks.push(
        h(
          `div.${cls}`,
          {
            style: `left:${(v / scale) * 100}%`,
            title: `${t.text} (at ${v}${t.visibility === "gm" ? ", GM only" : ""}${fired ? ", fired" : ""})`,
            "data-trigger": t.id,
            "data-visibility": t.visibility || "public",
          },
          h("span", String(v)),
        ),
      );
    }
  }
  return h(
    "div.meter",
    { id: "crisis-meter" },
    h(
      "div.meter-label",
      { style: `left:calc(${Math.min(crisis / scale, 1) * 100}% - .6rem)` },
      String(crisis),
    ),
    h(
      "div.meter-track",
      {
        role: "meter",
        "aria-label": "Crisis",
        "aria-valuemin": 0,
        "aria-valuemax": scale,
        "aria-valuenow": crisis,
      },
      h("div.meter-fill", { style: `width:${Math.min(crisis / scale, 1) * 100}%` }),
    ),
    marks,
  );
}

const stat = (k, v, id) => h("div.stat", { id }, h("div.k", k), h("div.v", String(v)));

export function renderIiScene(root, view, role, send = null) {
  const scene = view.scene;
  const rt = view.rising_tension ?? 0;
  if (!scene) {
    fill(
      root,
      h("h2", "No scene in play"),
      h(
        "p.muted",
        role === "gm" ? "Start a scene from the GM controls below." : "Waiting for the GM to start a scene.",
      ),
      h("div.stats", stat("Rising Tension", rt, "stat-tension")),
    );
    return;
  }
  const obstacle = scene.obstacle;
  const conflict = scene.conflict;
  const stats = [
    stat("Crisis", scene.crisis ?? 0, "stat-crisis"),
    stat("Rising Tension", rt, "stat-tension"),
    stat("Difficulty", `${scene.difficulty ?? "–"}d6`, "stat-difficulty"),
  ];
  if (obstacle && obstacle.kind === "complex") {
    stats.push(stat("Obstruction", obstacle.obstruction ?? 0, "stat-obstruction"));
    stats.push(stat("Decisive attempts", obstacle.attempts_left ?? "–", "stat-attempts"));
  }
  if (conflict)
    stats.push(stat("Flow of Battle", `${conflict.flow > 0 ? "+" : ""}${conflict.flow ?? 0}`, "stat-flow"));
  let obstacleLine = null;
  if (obstacle) {
    const state = obstacle.beaten
      ? h("span.badge.good", obstacle.kind === "simple" ? "passed" : "beaten")
      : h("span.badge.warn", "in play");
    obstacleLine = h(
      "p",
      { id: "obstacle" },
      h("strong", obstacle.kind === "complex" ? "Complex Obstacle " : "Simple Obstacle "),
      state,
      obstacle.presented_to ? ` · presented to ${obstacle.presented_to}` : "",
      obstacle.last_actor ? ` · last to act: ${obstacle.last_actor}` : "",
    );
  }
  const triggers = (scene.triggers || []).map((t) =>
    h(
      "li",
      { "data-trigger": t.id, "data-visibility": t.visibility || "public" },
      h("strong", `${t.at}${t.every ? ` (+${t.every})` : ""}`),
      t.text,
      t.visibility === "gm" ? h("span.badge.gm", "GM only") : null,
      (t.fired || []).length ? h("span.badge.bad", `fired at ${t.fired.join(", ")}`) : null,
      role === "gm" && send && (t.fired || []).length
        ? h(
            "button.ghost.small",
            {
              type: "button",
              "data-rearm": t.id,
              onclick: () => send({ do: "rearm_trigger", trigger: t.id }),
            },
            "Re-arm",
          )
        : null,
    ),
  );
  const enemies = conflict
    ? h(
        "div",
        h("h3", "Opposition"),
        h(
          "ul.triggers",
          (conflict.enemies || []).map((e) =>
            h(
              "li",
              h("strong", e.name),
              `wounds ${e.wounds}/${e.max_hits}`,
              e.out ? h("span.badge.bad", "out") : null,
            ),
          ),
        ),
      )
    : null;
  fill(
    root,
    h("h2", `${cap(scene.kind)} scene`, scene.location ? h("span.muted.small", scene.location) : null),
    crisisMeter(scene),
    h("div.stats", stats),
    Array.isArray(scene.present)
      ? h(
          "p.small",
          { id: "scene-present-list" },
          h("span.muted", "Present: "),
          scene.present.length ? scene.present.join(", ") : "nobody",
        )
      : null,
    obstacleLine,
    triggers.length
      ? h("div", h("h3", "Triggers"), h("ul.triggers", { id: "trigger-list" }, triggers))
      : null,
    enemies,
    turnOrder(view),
  );
}

export function renderPeople(
  root,
  view,
  system,
  owned,
  { role = "player", send = null, players = [], legal = new Legal([]) } = {},
) {
  const mine = (name) => owned.includes(name);
  const seated = h(
    "p.small.muted",
    { id: "players" },
    `At the table: the GM${players.length ? `, ${players.join(", ")}` : ""}.`,
  );
  if (playsHeroes(system)) {
    fill(
      root,
      h("h2", "Heroes"),
      seated,
      h(
        "ul.triggers",
        (view.heroes || []).map((hero) => {
          const sh = hero.sheet || hero;
          const items = ["skills", "convictions", "traits", "backgrounds", "aids"]
            .map((k) =>
              Object.entries(sh[k] || {})
                .map(([n, r]) => `${n} ${r}`)
                .join(", "),
            )
            .filter(Boolean)
            .join(" · ");
          return h(
            "li",
            h("strong", sh.name),
            mine(sh.name) ? h("span.badge", "yours") : null,
            h("span.small.muted", items),
            ascendSheet(hero, { editable: role === "gm" || mine(sh.name) }),
          );
        }),
      ),
    );
    return;
  }
  const wounds = view.wounds || {};
  fill(
    root,
    h("h2", "Characters"),
    seated,
    h(
      "ul.triggers",
      (view.characters || []).map((c) => {
        const sh = c.sheet || {};
        const talents = (sh.talents || []).map((t) => `${t.name} ${t.level}`).join(", ");
        return h(
          "li",
          { "data-character": c.name },
          h("strong", c.name),
          mine(c.name) ? h("span.badge", "yours") : null,
          h("span.small", `wounds ${wounds[c.name] ?? c.wounds ?? 0}/${c.max_hits ?? "–"}`),
          // Healing is offered when the server's list holds it (a cooperative scene, a wounded character
          // of this viewer's).
          send && legal.allows({ do: "heal", character: c.name })
            ? h(
                "button.secondary.small",
                {
                  type: "button",
                  "data-heal": c.name,
                  "data-command": canonical({ do: "heal", character: c.name }),
                  onclick: () => send({ do: "heal", character: c.name }),
                },
                "Heal",
              )
            : null,
          h("span.small.muted", talents),
          iiSheet(c, { editable: role === "gm" || mine(c.name), wounds: wounds[c.name] ?? c.wounds ?? 0 }),
        );
      }),
    ),
  );
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

// The GM's controls: scenes with their difficulty and Triggers (public or GM-only), obstacles, Crisis and
// Rising Tension by hand, conflicts, notes, adding characters, and undo. Each control sends one command of
// the table's `do:` vocabulary. A control for a command the server lists in `legal` (starting and ending a
// scene, presenting a Simple Obstacle, rest, yielding, undo, reveal, the physical dice, awarding exceptional
// narration, closing an extended Test) is enabled only while the list holds that command (see legal.js);
// the commands needing a text, numbers or a sheet stay open.

import { playsHeroes, systemLabel } from "./api.js";
import { canonical, Legal, offer } from "./legal.js";
import { mountSeats } from "./seats.js";
import { mountShortcuts } from "./shortcuts.js";
import { readData } from "./sheetio.js";
import { mountSpend } from "./spend.js";
import { fill, h } from "./ui.js";

const int = (el) => Number(el.value);

/** One Trigger's fields (`t` fills them, e.g. a Trigger carried over from the scene in play). */
export function triggerRow(rows, t = {}) {
  const row = h(
    "div.sheet-row.trigger-row",
    h("label", "At Crisis", h("input", { type: "number", min: 0, value: String(t.at ?? 10), class: "t-at" })),
    h(
      "label",
      "Every (0 = once)",
      h("input", { type: "number", min: 0, value: String(t.every ?? 0), class: "t-every" }),
    ),
    h(
      "label.wide",
      "What happens",
      h("input", { class: "t-text", placeholder: "A patrol arrives", value: t.text ?? "" }),
    ),
    h(
      "label.check",
      h("input", { type: "checkbox", class: "t-gm", checked: t.visibility === "gm" }),
      "GM only until it fires",
    ),
    h("button.ghost.small", { type: "button", onclick: () => row.remove() }, "Remove this Trigger"),
  );
  rows.append(row);
  return row;
}

export function readTriggers(rows) {
  return [...rows.querySelectorAll(".trigger-row")]
    .map((r) => {
      const t = { at: int(r.querySelector(".t-at")), text: r.querySelector(".t-text").value.trim() };
      const every = int(r.querySelector(".t-every"));
      if (every > 0) t.every = every;
      if (r.querySelector(".t-gm").checked) t.visibility = "gm";
      return t;
    })
    .filter((t) => t.text);
}

/**
 * One row of GM controls: labelled fields, then the button that sends them.
 * `labels` are [text, field] pairs; `extra` adds attributes to the button (a keyboard shortcut, say).
 */
const controlRow = (labels, { id, text, onclick, ...extra }) =>
  h(
    "div.row",
    labels.map(([label, field]) => h("label", label, field)),
    h("button.gm", { type: "button", id, onclick, ...extra }, text),
  );

/** A GM control group: a disclosure, so the panel stays short; the most used ones start open. */
const group = (title, ...children) =>
  h(
    "details.gm-group",
    { open: OPEN.has(title), "data-group": title },
    h("summary", title),
    h("div.stack", ...children),
  );
const OPEN = new Set(["Scene", "Obstacles"]);

/** mountGm(root, ctx): ctx = {system, send, say}. Returns {refresh(view)}. */
export function mountGm(root, ctx) {
  const ii = !playsHeroes(ctx.system);
  const send = ctx.send;
  const charSel = h("select", { id: "gm-simple-to" });

  // Scene.
  const kind = h(
    "select",
    { id: "scene-kind" },
    ["action", "conflict", "cooperative"].map((k) => h("option", { value: k }, k)),
  );
  const difficulty = h("input", { id: "scene-difficulty", type: "number", min: 1, max: 9, value: "5" });
  const location = h("input", { id: "scene-location", placeholder: "The hangar" });
  const triggerRows = h("div.rows", { id: "scene-triggers" });
  // Who is present (II-SCENE-1): every character unless the GM unticks some; a new character starts ticked.
  const absent = new Set();
  const presentBox = h("fieldset", { id: "scene-present" }, h("legend", "Present in the scene"));
  const present = () => [...presentBox.querySelectorAll("input:checked")].map((b) => b.value);
  let sceneView = null;
  /** Starting a scene as the server lists it (for Inciting Incident, of the kind chosen). */
  const startCommand = () => (ii ? { do: "start_scene", kind: kind.value } : { do: "start_scene" });
  const startScene = async () => {
    const command = startCommand();
    if (ii) {
      Object.assign(command, { difficulty: int(difficulty) });
      // A cooperative scene has no Crisis, so no Triggers: the rows wait for the next action scene.
      if (kind.value !== "cooperative") command.triggers = readTriggers(triggerRows);
      if (presentBox.querySelector("input")) command.present = present();
      if (location.value.trim()) command.location = location.value.trim();
    }
    const res = await send(command);
    // Each scene starts from an empty form: nothing rides into the next scene unless the GM carries it over.
    if (res && ii) {
      if (kind.value !== "cooperative") fill(triggerRows);
      location.value = "";
    }
    return res;
  };
  const carry = () => {
    const triggers = sceneView?.triggers || [];
    if (!triggers.length) {
      ctx.say("The scene in play has no Triggers to carry over.");
      return;
    }
    for (const t of triggers) triggerRow(triggerRows, t);
    ctx.say(
      `${triggers.length} Trigger${triggers.length === 1 ? "" : "s"} carried over into the form; change or remove them before you start.`,
    );
  };
  const triggerBlock = h(
    "div",
    { id: "scene-trigger-block" },
    h("h3", "Triggers for the new scene"),
    triggerRows,
    h(
      "div.row",
      h(
        "button.secondary.small",
        { type: "button", id: "add-trigger-row", onclick: () => triggerRow(triggerRows) },
        "Add a Trigger",
      ),
      h(
        "button.ghost.small",
        { type: "button", id: "carry-triggers", onclick: carry },
        "Carry over the Triggers of the scene in play",
      ),
    ),
  );
  kind.addEventListener("change", () => {
    triggerBlock.hidden = kind.value === "cooperative";
    offerAll();
  });
  const sceneBox = group(
    "Scene",
    ii
      ? h(
          "div.row",
          h("label", "Kind", kind),
          h("label", "Difficulty (d6)", difficulty),
          h("label", "Location", location),
        )
      : null,
    ii ? presentBox : null,
    ii ? triggerBlock : null,
    ii
      ? null
      : h(
          "p.small.muted",
          `${systemLabel(ctx.system)} has no scenes in its rules. Starting or ending one here reveals the dice seed ` +
            "used so far and commits to a new one, so every roll before it can be checked.",
        ),
    h(
      "div.row",
      h("button.gm", { type: "button", id: "start-scene", onclick: startScene }, "Start the scene"),
      h(
        "button.secondary",
        {
          type: "button",
          id: "end-scene",
          "aria-keyshortcuts": "Alt+Shift+E",
          onclick: () => send({ do: "end_scene" }),
        },
        "End the scene",
      ),
    ),
  );

  // Obstacles.
  const each = h("input", { type: "checkbox", id: "gm-simple-each" });
  const simpleButton = () => root.querySelector("#gm-simple");
  /** The next obstacle: a Simple Obstacle for the character (or the group) the form names. */
  function nextObstacle() {
    const c = { do: "simple_obstacle" };
    if (each.checked) c.individually = true;
    else if (charSel.value) c.to = charSel.value;
    return send(c);
  }
  charSel.addEventListener("change", () => {
    const b = simpleButton();
    if (b) b.textContent = each.checked ? "Present to each" : `Present to ${charSel.value || "the group"}`;
  });
  const obstruction = h("input", { id: "gm-obstruction", type: "number", min: 0, value: "30" });
  const attempts = h("input", { id: "gm-attempts", type: "number", min: 1, max: 3, value: "2" });
  const obstacleBox = ii
    ? group(
        "Obstacles",
        h(
          "div.row",
          h("label", "Simple Obstacle for", charSel),
          h("label.check", each, "each must pass"),
          h(
            "button.gm",
            { type: "button", id: "gm-simple", "aria-keyshortcuts": "Alt+Shift+N", onclick: nextObstacle },
            "Present",
          ),
        ),
        controlRow(
          [
            ["Obstruction", obstruction],
            ["Decisive attempts", attempts],
          ],
          {
            id: "gm-complex",
            text: "Set a Complex Obstacle",
            onclick: () =>
              send({ do: "complex_obstacle", obstruction: int(obstruction), attempts: int(attempts) }),
          },
        ),
      )
    : null;

  // Crisis, Rising Tension, Triggers mid-scene.
  const midRows = h("div.rows");
  const enemies = h("textarea", {
    id: "gm-enemies",
    placeholder: '[{"name": "Guard", "abilities": {...}, "talents": [...]}]',
  });
  const crisisBy = h("input", { id: "gm-crisis", type: "number", value: "2" });
  const crisisWhy = h("input", { id: "gm-crisis-why", placeholder: "reason" });
  const rtBy = h("input", { id: "gm-rt", type: "number", min: 1, value: "1" });
  const rtWhy = h("input", { id: "gm-rt-why", placeholder: "reason" });
  const countersBox = ii
    ? group(
        "Crisis and Rising Tension",
        controlRow(
          [
            ["Crisis change", crisisBy],
            ["Why", crisisWhy],
          ],
          {
            id: "gm-adjust-crisis",
            text: "Adjust Crisis",
            onclick: () =>
              send({
                do: "adjust_crisis",
                amount: int(crisisBy),
                reason: crisisWhy.value || "GM adjustment",
              }),
          },
        ),
        controlRow(
          [
            ["Rising Tension", rtBy],
            ["Why", rtWhy],
          ],
          {
            id: "gm-add-tension",
            text: "Add Rising Tension",
            onclick: () => send({ do: "add_tension", amount: int(rtBy), reason: rtWhy.value || "story" }),
          },
        ),
        h(
          "div.row",
          h(
            "button.secondary",
            { type: "button", id: "gm-rest", onclick: () => send({ do: "rest" }) },
            "Restful scene: lower Rising Tension",
          ),
        ),
      )
    : null;

  const triggerBox = ii
    ? group(
        "Add a Trigger now",
        midRows,
        h(
          "button.gm.small",
          {
            type: "button",
            id: "gm-add-trigger",
            onclick: async () => {
              for (const t of readTriggers(midRows)) await send({ do: "add_trigger", ...t });
              fill(midRows);
              triggerRow(midRows);
            },
          },
          "Add the Trigger",
        ),
      )
    : null;
  if (ii) triggerRow(midRows);

  // Conflict.
  const conflictBox = ii
    ? group(
        "Conflict",
        h("label", "Enemies (JSON or YAML list of sheets)", enemies),
        h(
          "div.row",
          h(
            "button.gm",
            {
              type: "button",
              id: "gm-start-conflict",
              onclick: async () => {
                let list;
                try {
                  list = await readData(enemies.value);
                } catch (err) {
                  ctx.say(err.message, "error");
                  return;
                }
                return send({ do: "start_conflict", enemies: Array.isArray(list) ? list : [list] });
              },
            },
            "Start the conflict",
          ),
          h(
            "button.secondary",
            { type: "button", id: "gm-end-conflict", onclick: () => send({ do: "end_conflict" }) },
            "End the conflict",
          ),
          h(
            "button.secondary",
            { type: "button", id: "gm-yield-enemies", onclick: () => send({ do: "yield", side: "enemies" }) },
            "The opposition yields",
          ),
          h(
            "button.secondary",
            {
              type: "button",
              id: "gm-yield-characters",
              onclick: () => send({ do: "yield", side: "characters" }),
            },
            "The characters yield",
          ),
        ),
      )
    : null;

  const spend = ii ? mountSpend(ctx, { triggerRow, readTriggers }) : null;
  const spendBox = ii ? group("Spend Rising Tension", spend.el) : null;
  const seats = mountSeats(ctx);
  const seatsBox = group("Seats", seats.el);

  // Notes, characters, undo.
  // Undo names the entry its button shows: the server refuses it if another entry has become the last.
  let undoEntry = null;
  const undoButton = h(
    "button.danger",
    {
      type: "button",
      id: "gm-undo",
      "aria-keyshortcuts": "Alt+Shift+Z",
      onclick: () => undoEntry !== null && send({ do: "undo", entry: undoEntry }),
    },
    "Undo the last entry",
  );
  // Reveal: the oldest blind roll not revealed yet; players then see it and everything held behind it.
  let revealEntry = null;
  const revealButton = h(
    "button.gm",
    {
      type: "button",
      id: "gm-reveal",
      disabled: true,
      onclick: () => revealEntry !== null && send({ do: "reveal", entry: revealEntry }),
    },
    "Reveal the blind roll",
  );
  const note = h("input", { id: "gm-note", placeholder: "The door is trapped" });
  const noteGm = h("input", { id: "gm-note-private", type: "checkbox", checked: true });
  const sheet = h("textarea", {
    id: "gm-sheet",
    placeholder: ii
      ? '{"name": "Guard", "abilities": {...}, "talents": [...]}'
      : '{"name": "Ghoul", "skills": {...}}',
  });
  const extraBox = group(
    "Notes and cast",
    h(
      "div.row",
      h("label", "Note", note),
      h("label.check", noteGm, "GM only"),
      h(
        "button.gm",
        {
          type: "button",
          id: "gm-add-note",
          onclick: async () => {
            if (!note.value.trim()) return;
            if (
              await send({
                do: "note",
                text: note.value.trim(),
                visibility: noteGm.checked ? "gm" : "public",
              })
            )
              note.value = "";
          },
        },
        "Add the note",
      ),
    ),
    h(
      "details",
      h("summary", ii ? "Add a character (supporting cast, enemies)" : "Add a hero or adversary"),
      h("label", "Sheet (JSON or YAML)", sheet),
      h(
        "button.gm.small",
        {
          type: "button",
          id: "gm-add-character",
          onclick: async () => {
            let parsed;
            try {
              parsed = await readData(sheet.value);
            } catch (err) {
              ctx.say(err.message, "error");
              return;
            }
            return send({ do: "add_character", sheet: parsed });
          },
        },
        "Add",
      ),
    ),
  );

  // Ascend: an outcome narrated without dice (AS-TEST-5).
  const story = h("input", { id: "gm-narrate", placeholder: "Susan climbs the wall: nothing is at stake" });
  const storyHero = h("select", { id: "gm-narrate-hero" });
  const narrateBox = ii
    ? null
    : group(
        "Narrate without dice",
        h(
          "div.row",
          h("label", "Hero", storyHero),
          h("label", "What happens", story),
          h(
            "button.gm",
            {
              type: "button",
              id: "gm-narrate-button",
              onclick: async () => {
                const c = { do: "narrate", text: story.value.trim() || "narrated" };
                if (storyHero.value) c.hero = storyHero.value;
                if (await send(c)) story.value = "";
              },
            },
            "Record",
          ),
        ),
      );

  // Ascend: exceptional narration is the GM's award, on the group's consensus (AS-POOL-3).
  const requestList = h("div.stack", { id: "narration-requests" });
  const awardHero = h("select", { id: "gm-award-hero" });
  const awardBox = ii
    ? null
    : group(
        "Exceptional narration",
        requestList,
        h(
          "div.row",
          h("label", "Award to", awardHero),
          h(
            "button.gm.small",
            {
              type: "button",
              id: "gm-award",
              onclick: () => send({ do: "award_narration", hero: awardHero.value }),
            },
            "Award exceptional narration",
          ),
        ),
      );

  // Physical dice: who may type faces by hand (a table setting).
  const physical = h(
    "select",
    { id: "gm-physical-dice" },
    h("option", { value: "players" }, "Players enter their own dice"),
    h("option", { value: "gm" }, "Only the GM enters dice"),
  );
  let shownPhysical = null;
  physical.addEventListener("change", () => offerAll());
  const diceBox = group(
    "Physical dice",
    h(
      "div.row",
      h("label", "Physical dice", physical),
      h(
        "button.gm.small",
        {
          type: "button",
          id: "gm-physical-set",
          onclick: () => send({ do: "set_physical_dice", who: physical.value }),
        },
        "Set",
      ),
    ),
    h("p.small.muted", "Whoever types faces, the log shows who entered them, for everyone to see."),
  );

  // Ascend: an extended Test (AS-EXT-1), its steps rolled from the Test builder.
  const goal = h("input", { id: "gm-ext-goal", type: "number", min: 1, value: "5" });
  const limit = h("input", { id: "gm-ext-limit", type: "number", min: 0, value: "3" });
  const extendedBox = ii
    ? null
    : group(
        "Extended Test",
        h(
          "div.row",
          h("label", "Successes to reach", goal),
          h("label", "Within Tests (0 = no limit)", limit),
          h(
            "button.gm",
            {
              type: "button",
              id: "gm-ext-start",
              onclick: () => {
                const c = { do: "extended_test", goal: int(goal) };
                if (int(limit) > 0) c.limit = int(limit);
                return send(c);
              },
            },
            "Start",
          ),
          h(
            "button.secondary",
            { type: "button", id: "gm-ext-end", onclick: () => send({ do: "end_extended" }) },
            "Close it",
          ),
        ),
      );

  const shortcuts = mountShortcuts([
    { code: "KeyZ", keys: "Alt+Shift+Z", what: "undo the last entry", button: () => undoButton },
    ...(ii
      ? [
          {
            code: "KeyN",
            keys: "Alt+Shift+N",
            what: "the next obstacle (a Simple Obstacle for the character chosen under Obstacles)",
            button: simpleButton,
          },
        ]
      : []),
    {
      code: "KeyE",
      keys: "Alt+Shift+E",
      what: "end the scene",
      button: () => root.querySelector("#end-scene"),
    },
  ]);
  fill(
    root,
    h("h2", "GM controls", h("span.badge.gm", "only you see this")),
    h(
      "div.row",
      undoButton,
      h("span.small.muted", "Undo marks the entry as undone on every screen; it is never erased."),
    ),
    h(
      "div.row",
      revealButton,
      h(
        "span.small.muted",
        "A command sent GM only rolls blind: players see only that it happened until you reveal it.",
      ),
    ),
    shortcuts.el,
    h(
      "div.stack",
      sceneBox,
      obstacleBox,
      countersBox,
      spendBox,
      triggerBox,
      conflictBox,
      narrateBox,
      awardBox,
      extendedBox,
      diceBox,
      seatsBox,
      extraBox,
    ),
  );

  /** A hero's request for exceptional narration, with Grant and Decline as the server's list offers them. */
  function requestRow(hero) {
    const grant = { do: "award_narration", hero };
    const decline = { do: "award_narration", hero, grant: false };
    return h(
      "div.row.request",
      { "data-request": hero },
      h("span", `${hero} asks for exceptional narration.`),
      legal().allows(grant)
        ? h(
            "button.gm.small",
            {
              type: "button",
              "data-grant": hero,
              "data-command": canonical(grant),
              onclick: () => send(grant),
            },
            "Grant",
          )
        : null,
      legal().allows(decline)
        ? h(
            "button.secondary.small",
            {
              type: "button",
              "data-decline": hero,
              "data-command": canonical(decline),
              onclick: () => send(decline),
            },
            "Decline",
          )
        : null,
    );
  }

  /** The server's list of what the GM may send now (see legal.js). */
  const legal = () => ctx.legal || new Legal([]);

  /** Enable each listed command's control only while the server's list holds its command. */
  function offerAll() {
    const l = legal();
    const button = (id) => root.querySelector(`#${id}`);
    offer(button("start-scene"), l, startCommand());
    offer(button("end-scene"), l, { do: "end_scene" });
    if (ii) {
      offer(button("gm-simple"), l, { do: "simple_obstacle" });
      offer(button("gm-rest"), l, { do: "rest" });
      offer(button("gm-yield-enemies"), l, { do: "yield", side: "enemies" });
      offer(button("gm-yield-characters"), l, { do: "yield", side: "characters" });
    } else {
      offer(button("gm-award"), l, { do: "award_narration", hero: awardHero.value });
      offer(button("gm-ext-end"), l, { do: "end_extended" });
    }
    offer(button("gm-physical-set"), l, { do: "set_physical_dice", who: physical.value });
    offer(undoButton, l, { do: "undo", entry: undoEntry });
    offer(revealButton, l, { do: "reveal", entry: revealEntry });
  }
  awardHero.addEventListener("change", () => offerAll());

  return {
    refresh(view, log) {
      // The blind roll to reveal and the entry to undo: the ones the server's list names.
      const reveals = legal().choices({ do: "reveal" }, "entry");
      revealEntry = reveals.length ? Number(reveals[0]) : null;
      revealButton.textContent =
        revealEntry === null ? "Reveal the blind roll" : `Reveal the blind roll #${revealEntry}`;
      sceneView = view.scene || null;
      if (spend) spend.refresh(view);
      seats.refresh(view);
      const undoes = legal().choices({ do: "undo" }, "entry");
      undoEntry = undoes.length ? Number(undoes[0]) : null;
      const li = undoEntry === null ? null : log?.items.get(undoEntry);
      undoButton.textContent = li
        ? `Undo #${undoEntry} (${(li.dataset.do || "entry").replace(/_/g, " ")})`
        : undoEntry === null
          ? "Undo the last entry"
          : `Undo #${undoEntry}`; // an entry older than the part of the log loaded
      const barUndo = document.getElementById("bar-z"); // the top bar's Undo names the same entry
      if (barUndo) {
        barUndo.textContent = undoEntry === null ? "Undo" : `Undo #${undoEntry}`;
        barUndo.disabled = undoEntry === null;
      }
      const names = (view.characters || view.heroes || []).map((c) => c.name || c.sheet?.name);
      const was = charSel.value;
      fill(
        charSel,
        h("option", { value: "" }, "the group"),
        names.map((n) => h("option", { value: n }, n)),
      );
      if (names.includes(was)) charSel.value = was;
      const characters = (view.characters || []).map((c) => c.name);
      fill(
        presentBox,
        h("legend", "Present in the scene"),
        characters.length
          ? h(
              "div.row",
              characters.map((n) =>
                h(
                  "label.check",
                  {},
                  h("input", {
                    type: "checkbox",
                    value: n,
                    checked: !absent.has(n),
                    onchange: (e) => (e.target.checked ? absent.delete(n) : absent.add(n)),
                  }),
                  n,
                ),
              ),
            )
          : h("p.small.muted", "Everyone, once characters join."),
      );
      if (!ii) {
        const requests = view.requests || [];
        fill(
          requestList,
          requests.length
            ? requests.map((hero) => requestRow(hero))
            : h("p.small.muted", "No request for exceptional narration."),
        );
        if (requests.length) awardBox.open = true;
        // The heroes the server's list lets the GM award exceptional narration to now.
        const awardable = legal()
          .offers({ do: "award_narration" })
          .filter((e) => !("grant" in e))
          .map((e) => e.hero);
        const awas = awardHero.value;
        fill(
          awardHero,
          awardable.map((n) => h("option", { value: n }, n)),
        );
        if (awardable.includes(awas)) awardHero.value = awas;
      }
      // Follow the setting when it changes, never over a choice the GM is making.
      if (ctx.physical && ctx.physical !== shownPhysical) physical.value = shownPhysical = ctx.physical;
      const hwas = storyHero.value;
      fill(
        storyHero,
        h("option", { value: "" }, "nobody in particular"),
        names.map((n) => h("option", { value: n }, n)),
      );
      if (names.includes(hwas)) storyHero.value = hwas;
      offerAll();
    },
  };
}

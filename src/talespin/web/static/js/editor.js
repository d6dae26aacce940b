// The sheet editor: a form for an Inciting Incident character or an Ascend hero. As the player types, the
// sheet is sent (debounced) to a validate endpoint (the campaign's, given as `check`, else the system's shipped
// rules) and the server's verdict is shown: every broken rule with its rule ID and path, and the cost.

import { playsHeroes, validateSheet } from "./api.js";
import { debounce, fill, h } from "./ui.js";

const ABILITIES = ["fortitude", "perseverance", "nimbleness"];
const HERO_KINDS = [
  ["skills", "Skills", "Tested: physical, mental or social prowess"],
  ["convictions", "Convictions", "Tested: internal struggles"],
  ["traits", "Traits", "Size the Dice Pool"],
  ["backgrounds", "Backgrounds", "Size the Dice Pool"],
  ["aids", "Aids", "Items, Relationships, Prophecies…"],
];

export function blankSheet(system, name = "") {
  if (playsHeroes(system)) {
    return { name, skills: { "": 0 }, convictions: {}, traits: { "": 0 }, backgrounds: {}, aids: {} };
  }
  return {
    name,
    abilities: { fortitude: 3, perseverance: 3, nimbleness: 3 },
    talents: [{ name: "", ability: "nimbleness", level: 2, description: "", limitations: [], skills: [] }],
  };
}

const toInt = (v) => (v === "" || v === null || Number.isNaN(Number(v)) ? v : Number(v));
const splitList = (text) =>
  String(text)
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);

function effectsText(effects) {
  return Object.entries(effects || {})
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
}
function parseEffects(text) {
  const out = {};
  for (const part of String(text).split(",")) {
    const [k, v] = part.split(":").map((s) => s && s.trim());
    if (k) out[k] = toInt(v ?? "");
  }
  return out;
}

/**
 * mountEditor(root, {system, sheet, check, onChange}) → {get(), set(sheet), validate(), show(result)}.
 * `check(sheet)` asks the server for a verdict (default: the system's shipped rules); `onChange(result)`
 * receives each verdict {"valid", "cost", "errors"}.
 */
export function mountEditor(
  root,
  { system, sheet, check: ask = (s) => validateSheet(system, s), onChange = () => {} },
) {
  // Ascend kinds are edited as ordered [name, rating] rows so empty or repeated names can be typed.
  let model = fromSheet(sheet || blankSheet(system));
  const errorsEl = h("ul.errors", { id: "sheet-errors", "aria-live": "polite" });
  const statusEl = h("p.small", { id: "sheet-status" });
  const formEl = h("div.stack");
  let seq = 0;

  function fromSheet(s) {
    if (!playsHeroes(system)) {
      const copy = structuredClone(s);
      copy.abilities = copy.abilities || {};
      copy.talents = (copy.talents || []).map((t) => ({
        ...t,
        limitations: t.limitations || [],
        skills: t.skills || [],
      }));
      return copy;
    }
    const m = { name: s.name || "" };
    for (const [kind] of HERO_KINDS) m[kind] = Object.entries(s[kind] || {});
    return m;
  }

  function get() {
    if (!playsHeroes(system)) return structuredClone(model);
    const out = { name: model.name };
    for (const [kind] of HERO_KINDS)
      out[kind] = Object.fromEntries(model[kind].map(([k, v]) => [k, toInt(v)]));
    return out;
  }

  const check = debounce(async () => {
    const mine = ++seq;
    statusEl.textContent = "Checking…";
    try {
      const result = await ask(get());
      if (mine !== seq) return;
      showResult(result);
      onChange(result);
    } catch (err) {
      if (mine !== seq) return;
      statusEl.textContent = `Could not check the sheet: ${err.message}`;
    }
  }, 250);

  function showResult(result) {
    const errors = result.errors || [];
    fill(
      errorsEl,
      errors.map((e) =>
        h(
          "li",
          { "data-rule": e.rule, "data-path": e.path },
          h("code", e.rule || "sheet"),
          e.path ? ` at ${e.path}: ` : ": ",
          e.message,
        ),
      ),
    );
    statusEl.className = result.valid ? "small ok-note" : "small";
    const cost = result.cost === null || result.cost === undefined ? "" : ` · cost ${result.cost} points`;
    statusEl.textContent = result.valid
      ? `The sheet follows every rule${cost}.`
      : `${errors.length} rule${errors.length === 1 ? "" : "s"} broken${cost}.`;
    formEl.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    for (const e of errors) {
      formEl
        .querySelectorAll(`[data-path="${CSS.escape(e.path || "")}"]`)
        .forEach((el) => el.setAttribute("aria-invalid", "true"));
    }
  }

  const changed = () => check();
  const field = (label, path, value, set, attrs = {}) =>
    h(
      "label",
      label,
      h("input", {
        value: value ?? "",
        "data-path": path,
        ...attrs,
        oninput: (ev) => {
          set(attrs.type === "number" ? toInt(ev.target.value) : ev.target.value);
          changed();
        },
      }),
    );
  const remove = (label, fn, text = "Remove") =>
    h(
      "button.ghost.small",
      {
        type: "button",
        "aria-label": label,
        onclick: () => {
          fn();
          render();
          changed();
        },
      },
      text,
    );

  function renderIi() {
    const abilities = h(
      "fieldset",
      h("legend", "Abilities (0–9)"),
      h(
        "div.row",
        ABILITIES.map((a) =>
          field(
            a[0].toUpperCase() + a.slice(1),
            `abilities.${a}`,
            model.abilities[a],
            (v) => {
              model.abilities[a] = v;
            },
            { type: "number", min: 0, max: 9, inputmode: "numeric" },
          ),
        ),
      ),
    );
    const talents = model.talents.map((t, i) => {
      const p = `talents[${i}]`;
      const select = h(
        "select",
        {
          "data-path": `${p}.ability`,
          onchange: (ev) => {
            t.ability = ev.target.value;
            changed();
          },
        },
        ABILITIES.map((a) => h("option", { value: a, selected: t.ability === a }, a)),
      );
      const skills = t.skills.map((s, j) => {
        const sp = `${p}.skills[${j}]`;
        const kind = h(
          "select",
          {
            "data-path": `${sp}.kind`,
            onchange: (ev) => {
              s.kind = ev.target.value;
              changed();
            },
          },
          ["modifier", "advanced"].map((k) => h("option", { value: k, selected: s.kind === k }, k)),
        );
        return h(
          "div.sheet-row.skill-row",
          { "data-path": sp },
          field("Skill", `${sp}.name`, s.name, (v) => {
            s.name = v;
          }),
          field(
            "Cost",
            `${sp}.cost`,
            s.cost,
            (v) => {
              s.cost = v;
            },
            { type: "number", min: 0 },
          ),
          h("label", "Kind", kind),
          field(
            "Effects",
            `${sp}.effects`,
            effectsText(s.effects),
            (v) => {
              s.effects = parseEffects(v);
            },
            { placeholder: "e.g. advantage: 2" },
          ),
          h(
            "div.wide",
            field("Text", `${sp}.text`, s.text, (v) => {
              s.text = v;
            }),
          ),
          remove(`Remove skill ${j + 1} of talent ${i + 1}`, () => t.skills.splice(j, 1), "Remove skill"),
        );
      });
      return h(
        "div.sheet-row",
        { "data-path": p },
        field(
          "Talent",
          `${p}.name`,
          t.name,
          (v) => {
            t.name = v;
          },
          { placeholder: "e.g. Piloting" },
        ),
        h("label", "Ability", select),
        field(
          "Level",
          `${p}.level`,
          t.level,
          (v) => {
            t.level = v;
          },
          { type: "number", min: 0, max: 9 },
        ),
        h(
          "div.wide",
          field("Description", `${p}.description`, t.description, (v) => {
            t.description = v;
          }),
        ),
        h(
          "div.wide",
          field(
            "Limitations (separate with ;)",
            `${p}.limitations`,
            (t.limitations || []).join("; "),
            (v) => {
              t.limitations = splitList(v);
            },
          ),
        ),
        h(
          "div.wide.stack",
          skills,
          h(
            "div.row",
            h(
              "button.secondary.small",
              {
                type: "button",
                onclick: () => {
                  t.skills.push({ name: "", cost: 0, kind: "modifier", text: "", effects: {} });
                  render();
                  changed();
                },
              },
              "Add a skill",
            ),
            remove(`Remove talent ${i + 1}`, () => model.talents.splice(i, 1), "Remove talent"),
          ),
        ),
      );
    });
    return [
      abilities,
      h(
        "fieldset",
        h("legend", "Talents"),
        h("div.rows", talents),
        h(
          "p",
          h(
            "button.secondary.small",
            {
              type: "button",
              id: "add-talent",
              onclick: () => {
                model.talents.push({
                  name: "",
                  ability: "nimbleness",
                  level: 1,
                  description: "",
                  limitations: [],
                  skills: [],
                });
                render();
                changed();
              },
            },
            "Add a talent",
          ),
        ),
      ),
    ];
  }

  function renderAscend() {
    return HERO_KINDS.map(([kind, title, hint]) =>
      h(
        "fieldset",
        { "data-kind": kind },
        h("legend", title),
        h("p.small.muted", hint),
        h(
          "div.rows",
          model[kind].map((pair, i) =>
            h(
              "div.sheet-row",
              { "data-path": `${kind}.${pair[0]}` },
              field("Name", `${kind}.${pair[0]}`, pair[0], (v) => {
                pair[0] = v;
              }),
              field(
                "Rating",
                `${kind}.${pair[0]}`,
                pair[1],
                (v) => {
                  pair[1] = v;
                },
                { type: "number", min: 0, max: 9 },
              ),
              remove(`Remove ${title.toLowerCase()} ${i + 1}`, () => model[kind].splice(i, 1)),
            ),
          ),
        ),
        h(
          "p",
          h(
            "button.secondary.small",
            {
              type: "button",
              "data-add": kind,
              onclick: () => {
                model[kind].push(["", 1]);
                render();
                changed();
              },
            },
            `Add ${title.toLowerCase().replace(/s$/, "")}`,
          ),
        ),
      ),
    );
  }

  function render() {
    fill(
      formEl,
      field(
        "Name",
        "name",
        model.name,
        (v) => {
          model.name = v;
        },
        { id: "sheet-name" },
      ),
      playsHeroes(system) ? renderAscend() : renderIi(),
    );
  }

  render();
  fill(root, formEl, statusEl, errorsEl);
  check();
  return {
    get,
    set(sheet) {
      model = fromSheet(sheet);
      render();
      check();
    },
    validate: check,
    show: showResult,
  };
}

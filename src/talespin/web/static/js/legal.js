// The commands this viewer may send now, as the server lists them (`legal` in GET /state and in each state
// the socket sends): the one place a page asks whether a control is offered.
//
// Each entry of the list is a complete command the table accepts as it is (`{"do": "simple_obstacle",
// "character": "Ada", "talent": "Piloting"}`, `{"do": "undo", "entry": 12}`). A page builds the core of the
// command its control sends (what the rules decide on: who acts, through which Talent, Skill or Ability,
// at whom) and offers the control only when that core is in the list; what the sender adds on top
// (Advantage, physical dice, a blind roll, a Difficulty, the Dice Pool's items) is left to the sender, as
// the server's list leaves it. Commands the list never holds (those needing a text, numbers only the GM
// chooses, or a sheet: a note, a Trigger, a Complex Obstacle) are not asked about here.
//
// A control offered from the list carries its core as `data-command` (JSON), so what the page offers can
// be read back and checked against the list.

/** `value` as JSON with its keys sorted, so two equal commands read the same whatever their key order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** Whether `entry` holds every key of `partial` with the same value. */
function holds(entry, partial) {
  return Object.entries(partial).every(([k, v]) => k in entry && canonical(entry[k]) === canonical(v));
}

/** The server's `legal` list, asked the questions the pages ask of it. */
export class Legal {
  /** `entries`: the `legal` of a state (a missing list offers nothing). */
  constructor(entries) {
    this.entries = Array.isArray(entries) ? entries : [];
    this.keys = new Set(this.entries.map(canonical));
  }

  /** Whether `command` (a core, exactly as the list would spell it) is in the list. */
  allows(command) {
    return this.keys.has(canonical(command));
  }

  /** The entries holding every key of `partial` (`{do: "ability_roll", character: "Ada"}`), in order. */
  offers(partial) {
    return this.entries.filter((e) => holds(e, partial));
  }

  /** The values of `key` among the entries `offers(partial)` gives, each once, in order. */
  choices(partial, key) {
    const seen = [];
    for (const e of this.offers(partial)) if (key in e && !seen.includes(e[key])) seen.push(e[key]);
    return seen;
  }
}

/**
 * Offer `button` for `command` only if `legal` allows it: it is enabled, and carries the command as
 * `data-command`, exactly when the command is in the list. Returns whether it is.
 */
export function offer(button, legal, command) {
  const allowed = legal.allows(command);
  button.disabled = !allowed;
  button.dataset.command = canonical(command);
  return allowed;
}

export { canonical };

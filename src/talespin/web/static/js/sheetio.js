// Reading sheets pasted or uploaded by a player: JSON, or the plain YAML people write for sheets
// (block mappings and lists, `{…}`/`[…]` flow collections, quoted and plain scalars, `#` comments, `|`/`>`
// blocks). Anchors, tags and multi-document streams are not supported: such input gets a clear error.

export class SheetSyntaxError extends Error {}

/** JSON if it looks like JSON, else the YAML subset above. */
export function parseLoose(text) {
  const src = String(text || "").trim();
  if (!src) return {};
  if (src.startsWith("{") || src.startsWith("[")) {
    try {
      return JSON.parse(src);
    } catch {
      // Flow-style YAML such as {name: Ada} is not JSON: fall through.
    }
  }
  if (src.startsWith("{") || src.startsWith("[")) return inline(src.replace(/\s*\n\s*/g, " "), 1);
  return parseYaml(src);
}

function stripComment(line) {
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]))) {
      return line.slice(0, i);
    }
  }
  return line;
}

export function parseYaml(text) {
  const lines = [];
  String(text)
    .split(/\r?\n/)
    .forEach((raw, n) => {
      if (/^\s*(---|\.\.\.)\s*$/.test(raw)) return;
      if (/^\t/.test(raw)) throw new SheetSyntaxError(`line ${n + 1}: use spaces, not tabs, to indent`);
      const body = stripComment(raw).replace(/\s+$/, "");
      lines.push({ n: n + 1, indent: raw.length - raw.trimStart().length, text: body.trim(), raw });
    });
  const state = { lines, i: 0 };
  skipBlank(state);
  if (state.i >= lines.length) return {};
  const value = parseBlock(state, lines[state.i].indent);
  skipBlank(state);
  if (state.i < lines.length) {
    throw new SheetSyntaxError(`line ${lines[state.i].n}: unexpected indentation`);
  }
  return value;
}

function skipBlank(state) {
  while (state.i < state.lines.length && !state.lines[state.i].text) state.i++;
}

function parseBlock(state, indent) {
  skipBlank(state);
  const line = state.lines[state.i];
  if (line.text.startsWith("- ") || line.text === "-") return parseSeq(state, indent);
  return parseMap(state, indent);
}

function splitKey(text, n) {
  const m = text.match(/^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:{}[\],#][^:]*?)\s*:(?:\s+(.*))?$/);
  if (!m) throw new SheetSyntaxError(`line ${n}: expected "key: value", found "${text}"`);
  return [scalar(m[1]), m[2] === undefined ? "" : m[2]];
}

function parseMap(state, indent) {
  const out = {};
  for (;;) {
    skipBlank(state);
    const line = state.lines[state.i];
    if (!line || line.indent < indent) return out;
    if (line.indent > indent) throw new SheetSyntaxError(`line ${line.n}: unexpected indentation`);
    if (line.text.startsWith("- ")) return out;
    const [key, rest] = splitKey(line.text, line.n);
    state.i++;
    out[key] = valueAfterKey(state, rest, indent, line.n);
  }
}

function valueAfterKey(state, rest, indent, n) {
  if (rest === "|" || rest === ">" || rest === "|-" || rest === ">-") return blockScalar(state, rest, indent);
  if (rest !== "") return inline(rest, n);
  skipBlank(state);
  const next = state.lines[state.i];
  if (!next) return null;
  if (next.indent > indent) return parseBlock(state, next.indent);
  if (next.indent === indent && (next.text.startsWith("- ") || next.text === "-"))
    return parseSeq(state, indent);
  return null;
}

function parseSeq(state, indent) {
  const out = [];
  for (;;) {
    skipBlank(state);
    const line = state.lines[state.i];
    if (!line || line.indent < indent || !(line.text.startsWith("- ") || line.text === "-")) return out;
    if (line.indent > indent) throw new SheetSyntaxError(`line ${line.n}: unexpected indentation`);
    const rest = line.text.slice(1).trim();
    const inner =
      line.indent +
      (line.raw.slice(line.indent + 1).length - line.raw.slice(line.indent + 1).trimStart().length) +
      1;
    if (!rest) {
      state.i++;
      skipBlank(state);
      const next = state.lines[state.i];
      out.push(next && next.indent > indent ? parseBlock(state, next.indent) : null);
    } else if (/^[^"'{[][^:]*:(\s|$)/.test(rest) || /^"[^"]*"\s*:(\s|$)/.test(rest)) {
      // "- key: value" opens a mapping whose further keys sit under the key.
      state.lines[state.i] = { ...line, indent: inner, text: rest };
      out.push(parseMap(state, inner));
    } else {
      state.i++;
      out.push(inline(rest, line.n));
    }
  }
}

function blockScalar(state, style, indent) {
  const parts = [];
  let inner = null;
  while (state.i < state.lines.length) {
    const line = state.lines[state.i];
    if (line.raw.trim() && line.indent <= indent) break;
    if (inner === null && line.raw.trim()) inner = line.indent;
    parts.push(line.raw.slice(inner ?? 0));
    state.i++;
  }
  while (parts.length && !parts[parts.length - 1].trim()) parts.pop();
  const joined = style.startsWith("|") ? parts.join("\n") : parts.join(" ").replace(/\s+/g, " ");
  return style.endsWith("-") ? joined : `${joined}\n`;
}

function inline(text, n) {
  const t = text.trim();
  if (t.startsWith("{") || t.startsWith("[")) {
    const p = { s: t, i: 0, n };
    const v = flow(p);
    if (p.s.slice(p.i).trim()) throw new SheetSyntaxError(`line ${n}: unexpected "${p.s.slice(p.i).trim()}"`);
    return v;
  }
  if (/^[&*!]/.test(t)) throw new SheetSyntaxError(`line ${n}: anchors, aliases and tags are not supported`);
  return scalar(t);
}

function flow(p) {
  ws(p);
  const c = p.s[p.i];
  if (c === "{") {
    p.i++;
    const out = {};
    for (;;) {
      ws(p);
      if (p.s[p.i] === "}") {
        p.i++;
        return out;
      }
      const key = scalar(token(p, ":"));
      if (p.s[p.i] !== ":") throw new SheetSyntaxError(`line ${p.n}: expected ":" after "${key}"`);
      p.i++;
      out[key] = flow(p);
      ws(p);
      if (p.s[p.i] === ",") p.i++;
      else if (p.s[p.i] !== "}") throw new SheetSyntaxError(`line ${p.n}: expected "," or "}"`);
    }
  }
  if (c === "[") {
    p.i++;
    const out = [];
    for (;;) {
      ws(p);
      if (p.s[p.i] === "]") {
        p.i++;
        return out;
      }
      out.push(flow(p));
      ws(p);
      if (p.s[p.i] === ",") p.i++;
      else if (p.s[p.i] !== "]") throw new SheetSyntaxError(`line ${p.n}: expected "," or "]"`);
    }
  }
  return scalar(token(p, ""));
}

function ws(p) {
  while (p.i < p.s.length && /\s/.test(p.s[p.i])) p.i++;
}

function token(p, extraStop) {
  ws(p);
  const q = p.s[p.i];
  if (q === '"' || q === "'") {
    const start = p.i++;
    while (p.i < p.s.length && p.s[p.i] !== q) p.i += p.s[p.i] === "\\" && q === '"' ? 2 : 1;
    p.i++;
    const tok = p.s.slice(start, p.i);
    ws(p);
    return tok;
  }
  const start = p.i;
  while (p.i < p.s.length && !",]}".includes(p.s[p.i]) && !(extraStop && p.s[p.i] === extraStop)) p.i++;
  if (p.i >= p.s.length) throw new SheetSyntaxError(`line ${p.n}: unclosed bracket`);
  return p.s.slice(start, p.i).trim();
}

function scalar(text) {
  const t = String(text).trim();
  if (t.startsWith('"')) {
    try {
      return JSON.parse(t);
    } catch {
      throw new SheetSyntaxError(`bad quoted text ${t}`);
    }
  }
  if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
  if (t === "" || t === "~" || t === "null" || t === "Null") return null;
  if (/^(true|True|yes)$/.test(t)) return true;
  if (/^(false|False|no)$/.test(t)) return false;
  if (/^[-+]?\d+$/.test(t)) return Number(t);
  if (/^[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return t;
}

// The lab page's balance report (POST /api/lab/report): the rule system and the variants of the compare form,
// and for Ascend a hero sheet, sent as the texts typed; the server's Markdown page is laid out here (headings,
// paragraphs, tables, lists, pictures), every text as text, never parsed as HTML, each picture an SVG data
// URI. The page can be saved as one Markdown file with its pictures inline.

import { playsHeroes, request, systemLabel } from "./api.js";
import { $, fill, h } from "./ui.js";

/** `**bold**` and `code` within a line; everything else stays plain text. */
function inline(text) {
  return text
    .split(/(\*\*[^*]+\*\*|`[^`]+`)/)
    .filter(Boolean)
    .map((part) =>
      part.startsWith("**") && part.endsWith("**") && part.length > 4
        ? h("strong", part.slice(2, -2))
        : part.startsWith("`") && part.endsWith("`") && part.length > 2
          ? h("code", part.slice(1, -1))
          : part,
    );
}

const cells = (line) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());

function table(lines, about) {
  const [head, , ...body] = lines;
  return h(
    "div.heatmap-wrap",
    { tabindex: "0", role: "region", "aria-label": about },
    h(
      "table.summary",
      h(
        "thead",
        h(
          "tr",
          cells(head).map((c) => h("th", { scope: "col" }, inline(c))),
        ),
      ),
      h(
        "tbody",
        body.map((line) => {
          const [first, ...rest] = cells(line);
          return h(
            "tr",
            h("th", { scope: "row" }, inline(first)),
            rest.map((c) => h("td", inline(c))),
          );
        }),
      ),
    ),
  );
}

/** The report's Markdown as elements: `#`/`##` headings (as h3/h4 under the section's h2), tables, lists,
 * pictures (by the name the page gives them) and paragraphs. */
export function layOut(markdown, uris) {
  const out = [];
  let heading = "The report";
  let tables = 0;
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    const picture = line.match(/^!\[(.*)\]\(([^()]+)\)$/);
    if (!line.trim()) {
      i += 1;
    } else if (line.startsWith("#")) {
      const level = line.match(/^#+/)[0].length;
      heading = line.replace(/^#+\s*/, "").replaceAll("**", "");
      tables = 0;
      out.push(h(level === 1 ? "h3" : "h4", inline(heading)));
      i += 1;
    } else if (picture) {
      const uri = uris[picture[2]];
      if (uri) out.push(h("img.report-plot", { src: uri, alt: picture[1] }));
      i += 1;
    } else if (line.startsWith("|")) {
      const block = [];
      while (i < lines.length && lines[i].startsWith("|")) block.push(lines[i++]);
      tables += 1;
      out.push(table(block, tables > 1 ? `${heading}, table ${tables}` : heading));
    } else if (line.startsWith("- ")) {
      const items = [];
      while (i < lines.length && lines[i].startsWith("- ")) items.push(lines[i++].slice(2));
      out.push(
        h(
          "ul",
          items.map((item) => h("li", inline(item))),
        ),
      );
    } else {
      const words = [];
      while (i < lines.length && lines[i].trim() && !/^(#|\||- |!\[)/.test(lines[i])) words.push(lines[i++]);
      out.push(h("p", inline(words.join(" "))));
    }
  }
  return out;
}

/** The variants of the compare form as typed: {name: text}; the server reads each text. */
function variantTexts() {
  const variants = {};
  for (const row of document.querySelectorAll("#variants .variant")) {
    const name = row.querySelector(".v-name").value.trim();
    if (name) variants[name] = row.querySelector(".v-text").value;
  }
  return variants;
}

function saveLink(report, uris) {
  let page = report.markdown;
  for (const [name, uri] of Object.entries(uris)) page = page.split(`](${name})`).join(`](${uri})`);
  const href = URL.createObjectURL(new Blob([page], { type: "text/markdown" }));
  return h(
    "a.button.secondary.small",
    { id: "report-save", href, download: `${report.system}-report.md` },
    "Save the page (Markdown, pictures inline)",
  );
}

function show(report) {
  const uris = Object.fromEntries(report.plots.map((p) => [p.name, p.data_uri]));
  const notes = [];
  if (report.plots_missing) notes.push(h("p.small.muted", `No pictures: ${report.plots_missing}`));
  fill(
    $("#report-result"),
    h("div.row", saveLink(report, uris)),
    notes,
    h("div.lab-report", { id: "report-page" }, layOut(report.markdown, uris)),
  );
}

export function mountReport() {
  const system = $("#lab-system");
  const hero = $("#report-hero-field");
  const sync = () => {
    hero.hidden = !playsHeroes(system.value);
  };
  system.addEventListener("change", sync);
  sync();
  $("#report-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const errors = $("#report-errors");
    fill(errors);
    const body = { system: system.value, variants: variantTexts() };
    const sheet = $("#report-hero").value;
    if (playsHeroes(system.value) && sheet.trim()) body.hero = sheet;
    const button = $("#report-button");
    button.disabled = true;
    $("#report-status").textContent = "Computing the report…";
    try {
      const report = await request("POST", "/api/lab/report", { body });
      show(report);
      $("#report-status").textContent =
        `The ${systemLabel(report.system)} balance report, ${report.plots.length} pictures.`;
    } catch (err) {
      const path = err.body?.error?.path;
      fill(errors, h("li", path ? [h("code", path), " "] : null, err.message));
      $("#report-status").textContent = "";
    } finally {
      button.disabled = false;
    }
  });
}

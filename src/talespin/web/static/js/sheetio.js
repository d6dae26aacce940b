// Reading what a person pastes or uploads (a sheet, a variant, a list of enemies): the server reads it.
// The text goes to POST /api/documents, the one document reader the CLI uses too, so `yes`, `010` and a
// repeated key mean the same here as in `talespin … FILE`; the page never parses YAML itself. A text the
// server refuses throws its ApiError, whose message says what is wrong (and `path` where).

import { request } from "./api.js";

/** "json" for a file named *.json, else "yaml" (which reads JSON too), as the CLI picks by file name. */
export function kindOf(fileName = "") {
  return /\.json$/i.test(fileName) ? "json" : "yaml";
}

/** The server's reading of `text`: `{data, repeated}`; an empty text is an empty mapping. */
export async function readDocument(text, kind = "yaml") {
  if (!String(text || "").trim()) return { data: {}, repeated: [] };
  return request("POST", "/api/documents", { body: { text: String(text), kind } });
}

/** The data of `text` as the server reads it (see readDocument). */
export async function readData(text, kind = "yaml") {
  return (await readDocument(text, kind)).data;
}

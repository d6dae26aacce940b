// Receipts: the hash-chain heads this browser was shown for a campaign, kept in localStorage.
//
// Every answer of the table carries the head of this viewer's chain (each event its own `head`, a command's
// answer and the state the newest one). Each head pins the whole record before it, so a file of the heads
// a player was shown proves, with `talespin verify EXPORT --receipt FILE`, whether an export is the record
// that player saw: a record rewritten later (a re-forged scene, a roll changed) has other heads.
// The file: {"format": "talespin-receipt/1", "campaign", "role": "gm"|"player", "heads": [{version, head}]}.

const FORMAT = "talespin-receipt/1";
const KEEP = 2000; // the newest heads kept per campaign (the newest alone already pins everything before it)
const key = (campaignId) => `talespin:receipt:${campaignId}`;

/** The receipt kept for a campaign (an empty one when there is none yet). */
export function receiptOf(campaignId) {
  try {
    const kept = JSON.parse(localStorage.getItem(key(campaignId)) || "null");
    if (kept && kept.format === FORMAT && Array.isArray(kept.heads)) return kept;
  } catch {
    // A damaged entry is started afresh.
  }
  return { format: FORMAT, campaign: campaignId, role: null, heads: [] };
}

/** Keep the heads of an answer: `{version, head}` pairs from its events and its own `head`/`version`. */
export function keepHeads(campaignId, answer, role = null) {
  if (!answer) return;
  const found = [];
  for (const ev of answer.events || []) {
    if (ev && typeof ev.head === "string" && Number.isFinite(Number(ev.version)))
      found.push({ version: Number(ev.version), head: ev.head });
  }
  if (typeof answer.head === "string" && Number.isFinite(Number(answer.version)))
    found.push({ version: Number(answer.version), head: answer.head });
  if (!found.length && !role) return;
  const receipt = receiptOf(campaignId);
  if (role) receipt.role = role;
  const seen = new Set(receipt.heads.map((item) => item.head));
  for (const item of found) {
    if (!seen.has(item.head)) {
      seen.add(item.head);
      receipt.heads.push(item);
    }
  }
  receipt.heads.sort((a, b) => a.version - b.version);
  receipt.heads = receipt.heads.slice(-KEEP);
  try {
    localStorage.setItem(key(campaignId), JSON.stringify(receipt));
  } catch {
    // Storage full: the heads already kept stay.
  }
}

/** Save the receipt as a file, `receipt-CAMPAIGN.json`. */
export function downloadReceipt(campaignId) {
  const receipt = receiptOf(campaignId);
  const blob = new Blob([JSON.stringify(receipt, null, 2)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `receipt-${campaignId}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  return receipt;
}

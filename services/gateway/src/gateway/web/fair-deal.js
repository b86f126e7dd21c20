/* Provably fair deals on the player's side (docs/fair-deal.md): the client sends its own random value to the
 * deck of its table's next hand, keeps the commitment of every hand it saw dealt, and, in the replayer, recomputes
 * the deck from the seed and contributions a history reveals (Web Crypto: HMAC-SHA256 and SHA-256) and checks the
 * seed against the commitment it saw and every card the history shows against the deck.
 *
 * The derivation is the table engine's (fair_deal.py), step for step: contributions sorted by their UTF-8 bytes,
 * each a 4-byte big-endian length then its bytes; block i = HMAC-SHA256(seed, i as 8 bytes big-endian ‖ that);
 * 4-byte big-endian draws, rejection sampling below n; Fisher–Yates from 51 down to 1. */
"use strict";

const SEEN_COMMITMENTS = "fairDeal.seen"; // sessionStorage: hand id -> the commitment published when it was dealt
const SEEN_KEPT = 300; // the newest hands only: a long session's list stays small
const SUIT_ORDER = "cdhs"; // card c is rank c / 4 (RANKS, hands.js), suit c % 4

function hexOf(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function bytesOfHex(hex) {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
}

/* 32 bytes of the browser's secure generator, in hex: a contribution no one else can predict. */
function randomContribution() {
  return hexOf(crypto.getRandomValues(new Uint8Array(32)));
}

/* The commitments this browser saw published before each hand it watched (kept for the session). */
const seenCommitments = {
  all() {
    try { return JSON.parse(sessionStorage.getItem(SEEN_COMMITMENTS) || "{}"); } catch { return {}; }
  },
  remember(handId, commitment) {
    if (!handId || !commitment) return;
    const seen = this.all();
    if (seen[handId] === commitment) return;
    delete seen[handId]; // re-inserted last: insertion order is age
    seen[handId] = commitment;
    const ids = Object.keys(seen);
    for (const old of ids.slice(0, Math.max(0, ids.length - SEEN_KEPT))) delete seen[old];
    try { sessionStorage.setItem(SEEN_COMMITMENTS, JSON.stringify(seen)); } catch { /* storage full or off */ }
  },
  of(handId) {
    return this.all()[handId] || null;
  },
};

function compareBytes(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function encodeContributions(contributions) {
  const items = contributions.map((c) => new TextEncoder().encode(c)).sort(compareBytes);
  const out = new Uint8Array(items.reduce((sum, item) => sum + 4 + item.length, 0));
  let at = 0;
  for (const item of items) {
    new DataView(out.buffer).setUint32(at, item.length);
    out.set(item, at + 4);
    at += 4 + item.length;
  }
  return out;
}

/* The deck ("As", …, dealing order) that the seed (hex) and the contributions give. */
async function deriveDeck(seedHex, contributions) {
  const key = await crypto.subtle.importKey("raw", bytesOfHex(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const message = encodeContributions(contributions);
  const pool = [];
  let counter = 0;
  const draw = async () => {
    if (!pool.length) {
      const input = new Uint8Array(8 + message.length);
      new DataView(input.buffer).setBigUint64(0, BigInt(counter++));
      input.set(message, 8);
      const block = new DataView(await crypto.subtle.sign("HMAC", key, input));
      for (let i = 0; i < block.byteLength; i += 4) pool.push(block.getUint32(i));
    }
    return pool.shift();
  };
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const span = 2 ** 32;
    const limit = span - (span % (i + 1));
    let u = await draw();
    while (u >= limit) u = await draw();
    const j = u % (i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.map((c) => RANKS[Math.floor(c / 4)] + SUIT_ORDER[c % 4]);
}

/* Every card a history (parsed PHH) shows, at its deck position: player k (0-based, dealing order) holds k and
 * k + n, the board 2n+1..2n+3, 2n+5, 2n+7 (after each burn). Dealt and shown hole cards alike. */
function shownCards(phh) {
  const n = phh.starting_stacks?.length || 0;
  const slots = [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7];
  const found = [];
  const hole = (player, text, what) => {
    const cards = text && !text.includes("?") ? text.match(/../g) || [] : [];
    const k = Number(player.slice(1)) - 1;
    cards.forEach((c, i) => found.push({ position: k + i * n, card: c, what }));
  };
  let board = 0;
  for (const action of phh.actions || []) {
    const parts = action.split(/\s+/);
    if (parts[0] === "d" && parts[1] === "dh") hole(parts[2], parts[3], "hole");
    else if (parts[0] === "d" && parts[1] === "db") for (const c of (parts[2] || "").match(/../g) || []) found.push({ position: slots[board++], card: c, what: "board" });
    else if (parts[1] === "sm") hole(parts[0], parts[2], "shown");
  }
  return found;
}

/* The check of a hand's history: {status: "verified" | "mismatch" | "none", against: "seen" | "file", problems:
 * [[en, it]], checked: number of cards}. `seen`: the commitment this browser saw published, if any. */
async function verifyDeal(phh, seen) {
  const seed = phh._deck_seed;
  const contributions = phh._deck_contributions;
  const inFile = phh._deck_commitment;
  if (typeof seed !== "string" || !Array.isArray(contributions) || typeof inFile !== "string") return { status: "none", problems: [], checked: 0 };
  if (!globalThis.crypto?.subtle) return { status: "unavailable", problems: [], checked: 0 }; // not a secure origin
  const seedBytes = bytesOfHex(seed);
  if (!seedBytes || seedBytes.length !== 32) return { status: "mismatch", against: seen ? "seen" : "file", problems: [["The seed is not 32 bytes in hex", "Il seme non è di 32 byte in esadecimale"]], checked: 0 };
  const problems = [];
  const against = seen ? "seen" : "file";
  const hashed = hexOf(await crypto.subtle.digest("SHA-256", seedBytes));
  if (seen && inFile.toLowerCase() !== seen) problems.push(["The history's commitment is not the one published before the hand", "L'impegno nella storia non è quello pubblicato prima della mano"]);
  if (hashed !== (seen || inFile.toLowerCase())) problems.push(["The seed does not match the commitment", "Il seme non corrisponde all'impegno"]);
  const deck = await deriveDeck(seed, contributions);
  const cards = shownCards(phh);
  for (const { position, card, what } of cards) {
    if (deck[position] !== card) problems.push([`${card} (${what}) is not the card the seed gives (${deck[position] ?? "none"})`, `${card} non è la carta che dà il seme (${deck[position] ?? "nessuna"})`]);
  }
  const checked = new Set(cards.map((c) => c.position)).size; // a hole card dealt and shown is one card
  return { status: problems.length ? "mismatch" : "verified", against, problems, checked };
}

/* What the replayer shows of the check of hand `handId` (both languages). */
function dealCheckView(result, handId) {
  const box = dealCheckBox(result);
  box.dataset.hand = handId;
  return box;
}

function dealCheckBox(result) {
  if (result.status === "none") return h("p", { class: "deal-check muted", "data-status": "none" }, both("This hand has no provably fair deal to check", "Questa mano non ha una distribuzione verificabile"));
  if (result.status === "unavailable") return h("p", { class: "deal-check muted", "data-status": "unavailable" }, both("This browser cannot check the deal here (Web Crypto needs HTTPS)", "Questo browser non può verificare la mano qui (Web Crypto richiede HTTPS)"));
  if (result.status === "verified") {
    const note = result.against === "seen"
      ? both(`${result.checked} cards checked against the commitment published before the hand`, `${result.checked} carte controllate con l'impegno pubblicato prima della mano`)
      : both(`${result.checked} cards checked; this browser did not see the hand dealt, so the commitment is the one in the history`, `${result.checked} carte controllate; questo browser non ha visto distribuire la mano: l'impegno è quello della storia`);
    return h("div", { class: "deal-check ok", "data-status": "verified", "data-against": result.against, role: "status" },
      h("strong", {}, "✓ ", both("Deal verified", "Mano verificata")), h("p", { class: "muted" }, note));
  }
  return h("div", { class: "deal-check warning", "data-status": "mismatch", role: "alert" },
    h("strong", {}, "⚠ ", both("Deal NOT verified: this history does not match a fair deal", "Mano NON verificata: questa storia non corrisponde a una distribuzione equa")),
    h("ul", {}, result.problems.map(([en, it]) => h("li", {}, both(en, it)))));
}

/* The hand replayer (issue 15, item 11): a hand stepped through from its PHH — the player's own copy, with their
 * hole cards and the cards shown at the table only (P-1.4) — action by action: stacks, bets, the pot, the board,
 * the showdown and who won what. Reached from a table's hand history and from a tournament's result. Above it,
 * whether the deal verifies (fair-deal.js): "deal verified / mano verificata", or a warning.
 *
 * `replayPhh(text)` is pure (no DOM): the PHH the table engine writes, one `key = value` line per field (the
 * values are JSON-compatible TOML), replayed into one snapshot per step. Heads-up, PHH lists the forced bets
 * reversed (the writer's rule): they are turned back before posting. */
"use strict";

/* The fields of a PHH text; values that are not JSON (TOML dates) stay as text. */
function parsePhh(text) {
  const fields = {};
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Za-z_]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    try { fields[match[1]] = JSON.parse(match[2]); } catch { fields[match[1]] = match[2]; }
  }
  return fields;
}

/* Every step of the hand: {players: [{id, seat, stack, bet, cards, folded, last}], board, pot, line}, the first
 * with the forced bets posted, the last with the winnings when the hand is complete. */
function replayPhh(text) {
  const phh = parsePhh(text);
  const count = phh.starting_stacks.length;
  const turn = (values) => (count === 2 ? [...values].reverse() : [...values]);
  const players = phh.starting_stacks.map((stack, i) => ({
    id: phh.players?.[i] ?? `p${i + 1}`, seat: phh.seats?.[i] ?? i + 1, stack, bet: 0, cards: null, folded: false, last: null,
  }));
  let collected = 0;
  const post = (player, amount, words) => { const paid = Math.min(amount, player.stack); player.stack -= paid; player.bet += paid; player.last = words; };
  turn(phh.antes || []).forEach((ante, i) => { if (ante) { const paid = Math.min(ante, players[i].stack); players[i].stack -= paid; collected += paid; } });
  turn(phh.blinds_or_straddles || []).forEach((blind, i) => { if (blind) post(players[i], blind, ["posts", "mette", blind]); });
  const board = [];
  const snapshot = (line) => ({
    players: players.map((p) => ({ ...p, cards: p.cards && [...p.cards] })), board: [...board],
    pot: collected + players.reduce((sum, p) => sum + p.bet, 0), line,
  });
  const steps = [snapshot({ words: ["Blinds posted", "Bui versati"] })];
  for (const action of phh.actions || []) {
    const line = applyAction(action, players, board, post, () => { collected += players.reduce((s, p) => s + p.bet, 0); players.forEach((p) => { p.bet = 0; p.last = null; }); });
    if (line) steps.push(snapshot(line));
  }
  if (phh.finishing_stacks) steps.push(settle(phh, steps.at(-1), board));
  return { steps, players: players.map((p) => p.id) };
}

/* One PHH action applied to the players and the board; the step's line {who?, words: [en, it, amount?], cards?},
 * or null for a deal the player may not see (another player's hidden cards, "????"). */
function applyAction(action, players, board, post, endStreet) {
  const parts = action.split(/\s+/);
  const cardsOf = (text) => (text || "").match(/../g) || [];
  if (parts[0] === "d" && parts[1] === "dh") {
    const hole = cardsOf(parts[3]);
    if (!hole.length || hole.includes("??")) return null;
    const player = players[Number(parts[2].slice(1)) - 1];
    player.cards = hole;
    return { who: player.id, words: ["is dealt", "riceve"], cards: hole };
  }
  if (parts[0] === "d") {
    endStreet();
    const cards = cardsOf(parts[2]);
    board.push(...cards);
    const street = { 3: "Flop", 4: "Turn" }[board.length] || "River";
    return { words: [street, street], cards };
  }
  const player = players[Number(parts[0].slice(1)) - 1];
  const facing = Math.max(...players.map((p) => p.bet));
  if (parts[1] === "f") {
    player.folded = true;
    player.last = ["folds", "lascia"];
  } else if (parts[1] === "cc") {
    const owed = facing - player.bet;
    if (owed > 0) post(player, owed, ["calls", "vede", owed]);
    else player.last = ["checks", "passa"];
  } else if (parts[1] === "cbr") {
    const to = Number(parts[2]);
    post(player, to - player.bet, facing > 0 ? ["raises to", "rilancia a", to] : ["bets", "punta", to]);
  } else if (parts[1] === "sm") {
    player.cards = cardsOf(parts[2]).length ? cardsOf(parts[2]) : player.cards;
    player.last = parts[2] ? ["shows", "mostra"] : ["mucks", "non mostra"];
    return { who: player.id, words: player.last, cards: cardsOf(parts[2]) };
  } else {
    return null;
  }
  return { who: player.id, words: player.last };
}

/* The last step: who won what (finishing stacks against what each had left), and with which hand if shown. */
function settle(phh, last, board) {
  const players = last.players.map((p, i) => ({ ...p, bet: 0, won: phh.finishing_stacks[i] - p.stack, stack: phh.finishing_stacks[i] }));
  const winners = players.filter((p) => p.won > 0).map((p) => ({ id: p.id, won: p.won, hand: p.cards && board.length >= 3 ? readHand(p.cards, board) : null }));
  return { players, board: [...board], pot: last.pot, winners, line: { words: ["Result", "Risultato"] } };
}

/* ---- the replayer page ----------------------------------------------------------------------------------- */

async function phhText(handId) {
  return (await authorizedFetch(`/hands/${encodeURIComponent(handId)}/phh`)).text();
}

/* A step's line in both languages, the nickname for the actor and the amount written the language's way. */
function stepLine(line, name) {
  const [en, it, amount] = line.words;
  const who = line.who ? `${name(line.who)} ` : "";
  const tail = (language) => (amount != null ? ` ${num(amount, 0, language)}` : "");
  const cards = line.cards?.length ? ` [${line.cards.join(" ")}]` : "";
  return both(`${who}${en}${tail("en")}${cards}`, `${who}${it}${tail("it")}${cards}`);
}

function winnerLines(step, name) {
  return (step.winners || []).map((w) => {
    const [en, it] = [numEn(w.won), numIt(w.won)];
    return h("p", { class: "winner-line", "data-player": w.id }, w.hand
      ? both(`${name(w.id)} wins ${en} with ${w.hand.en}`, `${name(w.id)} vince ${it} con ${w.hand.it}`)
      : both(`${name(w.id)} wins ${en}`, `${name(w.id)} vince ${it}`));
  });
}

function stepView(step, index, total, name) {
  const best = new Set((step.winners || []).flatMap((w) => w.hand?.cards || []));
  const rows = step.players.map((p) => h("tr", { class: p.folded ? "out" : "", "data-player": p.id },
    h("td", {}, name(p.id)),
    h("td", { class: "cards" }, h("span", { class: "hole" }, (p.cards || []).map((c) => card(c, best.has(c))))),
    h("td", { class: "num" }, num(p.stack)),
    h("td", { class: "num" }, p.bet ? num(p.bet) : ""),
    h("td", {}, p.won > 0 ? h("strong", {}, "+", num(p.won)) : p.last ? both(p.last[0], p.last[1]) : "")));
  return [
    h("p", { class: "muted step-no" }, both(`Step ${index + 1} of ${total}`, `Passo ${index + 1} di ${total}`)),
    h("p", { class: "step-line" }, stepLine(step.line, name)),
    h("div", { class: "board" }, step.board.map((c) => card(c, best.has(c)))),
    h("p", { class: "pot" }, term("pot"), `: ${num(step.pot)}`),
    ...winnerLines(step, name),
    stackable(h("table", { class: "grid replay-seats" },
      h("thead", {}, h("tr", {}, h("th", {}, term("players")), h("th", {}, both("Cards", "Carte")), h("th", { class: "num" }, both("Stack", "Fiches")),
        h("th", { class: "num" }, both("Bet", "Puntata")), h("th", {}, both("Action", "Azione")))),
      h("tbody", {}, rows))),
  ];
}

/* First, back, forward, last (and the arrow keys); returns the function that stops listening to the keys. */
function replayControls(stage, steps, name) {
  let at = 0;
  const screen = h("div", { class: "replay-step" });
  const go = (to) => { at = Math.max(0, Math.min(steps.length - 1, to)); fill(screen, ...stepView(steps[at], at, steps.length, name)); };
  const button = (text, label, to, key) => h("button", { type: "button", class: "secondary", "data-step": key, "aria-label": label, onclick: () => go(to()) }, text);
  fill(stage, h("div", { class: "replay-controls" },
    button("«", say("First", "Inizio"), () => 0, "first"), button("‹", say("Back", "Indietro"), () => at - 1, "back"),
    button("›", say("Next", "Avanti"), () => at + 1, "next"), button("»", say("Last", "Fine"), () => steps.length - 1, "last")), screen);
  go(0);
  const onKey = (event) => {
    if (event.target instanceof HTMLElement && event.target.closest("input, textarea")) return;
    if (event.key === "ArrowRight") go(at + 1);
    if (event.key === "ArrowLeft") go(at - 1);
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}

/* The replayer of hand `hand` at table `id`; `back`: where "← Hand history" leads (the table's hands, or the
 * tournament's the player came from). */
function replayPage(view, { id, hand }, back = `#/table/${encodeURIComponent(id)}/hands`) {
  const stage = h("div", { class: "replay", "aria-live": "polite" }, h("p", { class: "muted" }, both("Loading…", "Caricamento…")));
  view.append(h("section", { class: "panel" },
    h("h1", {}, both("Hand replay", "Rivedi la mano"), " — ", tableName(id)),
    h("p", {}, h("a", { href: back }, "← ", term("handHistory"))),
    stage));
  let stop = () => {};
  let left = false;
  phhText(hand)
    .then(async (text) => {
      const { steps, players } = replayPhh(text);
      const name = await nicknames(players);
      if (left) return;
      stop = replayControls(stage, steps, name);
      // The deal's check, recomputed here: against the commitment this browser saw before the hand, if it did.
      const check = await verifyDeal(parsePhh(text), seenCommitments.of(hand))
        .catch((error) => ({ status: "mismatch", problems: [[String(error), String(error)]], checked: 0 }));
      if (!left) stage.prepend(dealCheckView(check, hand));
    })
    .catch((problem) => fill(stage, h("p", { class: "error" }, problemText(problem))));
  return () => { left = true; stop(); };
}

page("#/table/:id/hands/:hand", (view, params) => replayPage(view, params), { auth: true });
/* From a tournament's results (hand-list.js). */
page("#/tournament/:tournament/replay/:id/:hand", (view, params) => replayPage(view, params, `#/tournament/${encodeURIComponent(params.tournament)}/hands`), { auth: true });

/* Hand histories: a table's hands, and a tournament's — every table's, or one player's — reached from its results
 * (issue 15, item 11). One list for both: newest first, paged, each hand with its replay and its PHH download once
 * it has ended. A player's copy of a hand shows their own hole cards and the cards shown at the table, anyone
 * else's only the cards shown (P-1.4): the server decides, the lists carry no card. */
"use strict";

/* A PHH names players by id: the player's copy names them by nickname (P-11.5), as the table showed them. */
function withNicknames(phh, ids, name) {
  return ids.reduce((text, playerId) => text.replaceAll(JSON.stringify(playerId), JSON.stringify(name(playerId))), phh);
}

/* One hand: its number (and table, in a tournament's list), status, time, blinds and each stack before → after. */
function handRow(hand, name, replayHref, withTable) {
  const ids = hand.players.map((p) => p.player_id);
  const stacks = hand.players.map((p) => `${name(p.player_id)} ${num(p.stack)}${hand.end_stacks ? ` → ${num(hand.end_stacks[p.seat])}` : ""}`).join(", ");
  return h("article", { class: "card-row", "data-hand": hand.hand_no, "data-hand-id": hand.hand_id },
    h("div", { class: "grow" },
      h("h3", {}, both(`Hand #${hand.hand_no}`, `Mano n. ${hand.hand_no}`), h("span", { class: "muted" },
        withTable && hand.table_id ? [" · ", tableName(hand.table_id)] : null, " · ", statusWord(hand.status), ` · ${when(hand.started_at)}`)),
      h("p", { class: "muted" }, term("blinds"), ` ${num(hand.level.small_blind)}/${num(hand.level.big_blind)} · ${stacks}`)),
    h("div", { class: "actions" }, hand.status === "in_progress" ? null : [
      h("a", { class: "button", "data-replay": hand.hand_id, href: replayHref(hand) }, both("Replay", "Rivedi")),
      actionButton(term("download"), () => download(`/hands/${encodeURIComponent(hand.hand_id)}/phh`, `hand-${hand.hand_no}.phh`,
        (phh) => withNicknames(phh, ids, name)), { class: "secondary" })]));
}

/* How many pages a list reads on by itself while they bring no hand (a player's hands, looked for in a long
 * tournament: the server looks through a bounded number of hands per page). */
const EMPTY_PAGES_READ_ON = 10;

/* The list element and its "Older hands" button, filled from `path` (the API's list, `?` already in it). */
function handList(path, replayHref, { withTable = false } = {}) {
  const list = h("div", { class: "hand-list" }, h("p", { class: "muted" }, both("Loading…", "Caricamento…")));
  const more = h("button", { class: "secondary", hidden: true }, both("Older hands", "Mani precedenti"));
  let before = null;
  let rows = [];
  async function show() {
    try {
      let found = [];
      for (let read = 0; !found.length && read < EMPTY_PAGES_READ_ON && (read === 0 || before); read++) {
        const page_ = await request("GET", `${path}limit=50${before ? `&before=${before}` : ""}`);
        before = page_.next_before;
        found = page_.hands;
      }
      const name = await nicknames(found.flatMap((hand) => hand.players.map((p) => p.player_id)));
      rows = rows.concat(found.map((hand) => handRow(hand, name, replayHref, withTable)));
      fill(list, ...(rows.length ? rows : [h("p", { class: "muted" }, both("No hands yet.", "Ancora nessuna mano."))]));
      more.hidden = !before;
    } catch (problem) {
      fill(list, h("p", { class: "error" }, problemText(problem)));
    }
  }
  more.addEventListener("click", show);
  show();
  return [list, more];
}

const COPY_NOTE = () => h("p", { class: "muted" }, both("Your copy of a hand shows your own hole cards and the cards shown at the table (PHH format).",
  "La tua copia di una mano mostra le tue carte e quelle scoperte al tavolo (formato PHH)."));

page("#/table/:id/hands", (view, { id }) => {
  const replay = (hand) => `#/table/${encodeURIComponent(id)}/hands/${encodeURIComponent(hand.hand_id)}`;
  view.append(h("section", { class: "panel" },
    h("h1", {}, term("handHistory"), " — ", tableName(id)),
    h("p", {}, h("a", { href: `#/table/${encodeURIComponent(id)}` }, "← ", term("table"))),
    COPY_NOTE(),
    handList(`/tables/${encodeURIComponent(id)}/hands?`, replay)));
}, { auth: true });

/* A link to a tournament's hands: every table's (`whose` "all"), or one player's ("Your hands" for the player's). */
function handsLink(tournamentId, whose) {
  const base = `#/tournament/${encodeURIComponent(tournamentId)}/hands`;
  if (whose === "all") return h("a", { href: base, "data-hands": "all" }, both("All the tournament's hands", "Tutte le mani del torneo"));
  const mine = whose === session.playerId;
  return h("a", { href: `${base}/${encodeURIComponent(whose)}`, "data-hands": mine ? "mine" : whose }, mine ? both("Your hands", "Le tue mani") : both("Hands", "Mani"));
}

/* A tournament's hands, every table's; with `player`, that player's (from their row in the standings). */
function tournamentHands(view, id, player = null) {
  const tournament = `#/tournament/${encodeURIComponent(id)}`;
  const replay = (hand) => `${tournament}/replay/${encodeURIComponent(hand.table_id)}/${encodeURIComponent(hand.hand_id)}`;
  const title = h("span", { class: "tournament-name" }, term("tournament"));
  const whose = h("p", { class: "whose" });
  view.append(h("section", { class: "panel tournament-hands" },
    h("h1", {}, term("handHistory"), " — ", title),
    h("p", {}, h("a", { href: tournament }, "← ", term("tournament"))),
    whose,
    COPY_NOTE(),
    handList(`/tournaments/${encodeURIComponent(id)}/hands?${player ? `player_id=${encodeURIComponent(player)}&` : ""}`, replay, { withTable: true })));
  request("GET", `/tournaments/${encodeURIComponent(id)}`).then((t) => fill(title, t.name)).catch(() => {});
  const mine = session.playerId && player !== session.playerId ? handsLink(id, session.playerId) : null;
  if (!player) { fill(whose, mine); return; }
  nicknames([player]).then((name) => fill(whose, both(`Hands dealt to ${name(player)}`, `Mani giocate da ${name(player)}`), " · ", handsLink(id, "all"), mine ? [" · ", mine] : null));
}

page("#/tournament/:id/hands", (view, { id }) => tournamentHands(view, id), { auth: true });
page("#/tournament/:id/hands/:player", (view, { id, player }) => tournamentHands(view, id, player), { auth: true });

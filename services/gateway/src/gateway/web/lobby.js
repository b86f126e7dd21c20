/* The lobby (tournaments with live updates, registration, the draws open for bets) and a tournament's page
 * (structure, payouts, registration, standings). Both follow the lobby socket and reload what an event changed. */
"use strict";

const KIND_LABELS = { sit_and_go: ["Sit & Go", "Sit & Go"], scheduled: ["Scheduled", "Torneo programmato"] };

function kindLabel(kind) {
  return KIND_LABELS[kind] ? both(...KIND_LABELS[kind]) : h("span", {}, kind || "");
}
const LIVE_STATUSES = ["announced", "registering", "running"];

/* A burst of calls runs `run` once, `ms` (plus up to `jitter`, random) after the burst's first call: at most once
 * per that time however long the burst lasts. The jitter spreads the reloads of thousands of lobbies hearing the
 * same news over a second instead of sending them to the gateway in the same instant (issue 14). */
function debounced(run, ms = 300, jitter = 0) {
  let timer = null;
  const call = () => {
    if (timer === null) timer = setTimeout(() => { timer = null; run(); }, ms + Math.random() * jitter);
  };
  call.cancel = () => { clearTimeout(timer); timer = null; };
  return call;
}

/* Reloads after news from the socket: 1 to 2 s after it (the player's own clicks reload at once). */
const NEWS_DELAY_MS = 1000;
const NEWS_JITTER_MS = 1000;
const REGISTRATION_NEWS = ["tournament.player.registered", "tournament.player.unregistered"];

/* A registration's news carries the count after it: shown in place on the tournament's card or header. */
function showRegistered(root, data) {
  const id = data.payload?.tournament_id;
  for (const count of root.querySelectorAll(".registered")) {
    if (count.dataset.registeredOf === id) count.textContent = num(data.payload.registered);
  }
}

function buyIn(t) {
  if (t.freeroll) return both("Freeroll", "Gratuito");
  const prize = t.buy_in_prize_cents ?? 0;
  const fee = t.buy_in_fee_cents ?? 0;
  const part = (cents, language) => money(cents, t.currency, 2, language);
  return h("span", {}, `${money(prize + fee, t.currency)} (`,
    both(`${part(prize, "en")} prize pool + ${part(fee, "en")} fee`, `${part(prize, "it")} montepremi + ${part(fee, "it")} commissione`), ")");
}

/* `entry` "satellite" takes a seat the player won in one of the tournament's satellites (P-3.4). */
async function registerFor(tournamentId, entry = "buy_in") {
  await request("POST", `/tournaments/${encodeURIComponent(tournamentId)}/registrations`, { entry },
    { headers: { "Idempotency-Key": newIdempotencyKey() } });
  toast(say("Registered. Your table opens as soon as the tournament starts.", "Iscrizione fatta. Il tuo tavolo si apre appena il torneo comincia."));
}

async function unregisterFrom(tournamentId) {
  const answer = await request("DELETE", `/tournaments/${encodeURIComponent(tournamentId)}/registrations/${session.playerId}`,
    undefined, { headers: { "Idempotency-Key": newIdempotencyKey() } });
  const refund = (language) => money(answer.refunded_cents, "EUR", 2, language);
  toast(answer?.refunded_cents
    ? say(`Unregistered: ${refund("en")} refunded.`, `Iscrizione annullata: ${refund("it")} rimborsati.`)
    : say("Unregistered.", "Iscrizione annullata."));
}

/* The tournaments the player holds an unused satellite seat for (P-3.4). */
async function seatTargets() {
  if (!session.playerId) return new Set();
  const tickets = await request("GET", `/players/${session.playerId}/tickets`).catch(() => []);
  return new Set(tickets.filter((x) => x.target_tournament_id && !x.used_by_tournament_id).map((x) => x.target_tournament_id));
}

/* The buttons a tournament offers the player, given their own entry in it (if any) and their seats. */
function playerTournamentActions(t, mine, refresh, seats = new Set()) {
  const actions = [];
  if (mine?.table_id && t.status === "running") {
    actions.push(h("a", { class: "button needs-lobby", href: `#/table/${encodeURIComponent(mine.table_id)}` }, term("openTable")));
  }
  if (session.playerId && t.status === "registering") {
    const entry = seats.has(t.tournament_id) ? "satellite" : "buy_in";
    actions.push(mine
      ? actionButton(term("unregister"), async () => { await unregisterFrom(t.tournament_id); refresh(); }, { class: "secondary" })
      : actionButton(term(entry === "satellite" ? "registerWithSeat" : "register"), async () => { await registerFor(t.tournament_id, entry); refresh(); },
        { class: "needs-lobby", "data-tournament": t.tournament_id, "data-entry": entry }));
  }
  return actions;
}

function goToTable(tableId) {
  const onTablePages = /^#\/(lobby|tournament\/)/.test(location.hash);
  if (onTablePages) location.hash = `#/table/${encodeURIComponent(tableId)}`;
  else toast(say("Your table is ready.", "Il tuo tavolo è pronto."), { action: h("a", { href: `#/table/${encodeURIComponent(tableId)}` }, term("openTable")) });
}

/* A satellite pays seats in its target (P-3.4): how many the pool buys so far, and what is left in cash. */
function satellitePrizes(satellite, t) {
  const seat = satellite.seat_price.prize_part_cents + satellite.seat_price.fee_cents;
  const pool = t.prize_pool_cents;
  const target = h("a", { href: `#/tournament/${encodeURIComponent(satellite.target_tournament_id)}` }, both("the target tournament", "il torneo di destinazione"));
  const worth = money(seat, t.currency);
  const cash = pool != null && pool % seat ? money(pool % seat, t.currency) : null;
  return h("div", { class: "satellite" },
    h("p", {}, term("satellite"), ": ", both(`a seat worth ${worth} per place in`, `un posto da ${worth} per piazzamento nel`), " ", target),
    pool == null ? null : h("p", { "data-seats": t.satellite_seats }, both(
      `Seats so far: ${t.satellite_seats}${cash ? `, and ${cash} in cash for the next place` : ""}`,
      `Posti finora: ${t.satellite_seats}${cash ? `, più ${cash} in denaro per il piazzamento seguente` : ""}`)));
}

page("#/lobby", (view) => {
  const tournaments = h("div", { class: "cards", "aria-live": "polite" }, h("p", { class: "muted" }, both("Loading…", "Caricamento…")));
  const draws = h("div", { class: "cards" });
  const jackpot = h("span", {});
  view.append(h("div", { class: "lobby" },
    h("section", { class: "panel" }, h("h1", {}, term("tournaments")),
      h("p", { class: "muted offline-only" }, both("Lobby connection lost: reconnecting. Your tables go on; new ones open when it is back.",
        "Connessione alla sala persa: riconnessione in corso. I tuoi tavoli continuano; i nuovi si aprono quando torna.")),
      tournaments),
    h("section", { class: "panel" }, h("h2", {}, term("totalizator")), h("p", {}, term("jackpot"), ": ", jackpot), draws),
  ));

  const showTournaments = debounced(async () => {
    try {
      const [list, mine, seats] = await Promise.all([
        request("GET", "/tournaments"),
        session.playerId ? request("GET", `/players/${session.playerId}/tournaments`).catch(() => []) : [],
        seatTargets(),
      ]);
      const entries = new Map(mine.map((entry) => [entry.tournament_id, entry]));
      const shown = list.filter((t) => LIVE_STATUSES.includes(t.status) || entries.has(t.tournament_id));
      fill(tournaments, ...(shown.length ? shown.map((t) => tournamentCard(t, entries.get(t.tournament_id), showTournaments, seats)) : [h("p", { class: "muted" }, both("No tournaments open right now.", "Nessun torneo aperto in questo momento."))]));
    } catch (problem) {
      fill(tournaments, h("p", { class: "error" }, problemText(problem)));
    }
  }, 50);

  const showDraws = debounced(async () => {
    try {
      const [list, pot] = await Promise.all([request("GET", "/draws", undefined, { auth: false }), request("GET", "/totalizator/jackpot", undefined, { auth: false }).catch(() => null)]);
      jackpot.textContent = pot ? decimalMoney(pot.jackpot_usd) : "—";
      const shown = list.filter((d) => ["open", "closed", "settling"].includes(d.status)).slice(0, 10);
      fill(draws, ...(shown.length ? shown.map(drawCard) : [h("p", { class: "muted" }, both("No draw open right now.", "Nessun concorso aperto in questo momento."))]));
    } catch (problem) {
      fill(draws, h("p", { class: "error" }, problemText(problem)));
    }
  }, 50);

  const tournamentNews = debounced(showTournaments, NEWS_DELAY_MS, NEWS_JITTER_MS);
  const drawNews = debounced(showDraws, NEWS_DELAY_MS, NEWS_JITTER_MS);
  showTournaments();
  showDraws();
  const stop = lobbyLink.listen((frame) => {
    if (frame.type === "resync") { showTournaments(); showDraws(); return; }
    const table = seatingOf(frame.data);
    if (table) goToTable(table);
    const event = frame.data.event || "";
    if (REGISTRATION_NEWS.includes(event)) showRegistered(tournaments, frame.data);
    else if (event.startsWith("tournament.")) tournamentNews();
    if (event.startsWith("totalizator.")) drawNews();
  });
  return () => { stop(); showTournaments.cancel(); showDraws.cancel(); tournamentNews.cancel(); drawNews.cancel(); };
}, { auth: true });

/* The buy-in and the field ("3/100"), on the lobby's card and the tournament's page; `more` follows them. */
function entryLine(t, more = null) {
  return h("p", {}, term("buyIn"), ": ", buyIn(t), " · ", term("players"), ": ",
    h("span", { class: "registered", "data-registered-of": t.tournament_id }, num(t.registered)), `/${num(t.max_players)}`, more);
}

/* The player's finishing position and prize, once they have one. */
function resultLine(t, entry) {
  if (!entry?.position) return null;
  return h("p", { class: "result" }, term("position"), `: ${entry.position}`,
    entry.prize_cents ? h("span", {}, " · ", term("prize"), ` ${money(entry.prize_cents, t.currency)}`) : "");
}

function tournamentCard(t, mine, refresh, seats) {
  // A running tournament paused for a technical problem reads "Paused" (its page says why and since when).
  return h("article", { class: "card-row", "data-tournament": t.tournament_id, "data-paused": t.paused_at ? "true" : null },
    h("div", { class: "grow" },
      h("h3", {}, h("a", { href: `#/tournament/${encodeURIComponent(t.tournament_id)}` }, t.name)),
      h("p", { class: "muted" },
        kindLabel(t.kind), " · ", h("span", { class: "tournament-status" }, statusWord(t.paused_at ? "paused" : t.status)),
        t.starts_at ? ` · ${when(t.starts_at)}` : "",
        t.guarantee_cents ? h("span", {}, " · ", both("guaranteed", "garantiti"), ` ${money(t.guarantee_cents, t.currency)}`) : "",
        t.recurring ? h("span", { class: "recurring" }, " · ", both("a new one opens when full", "se ne apre un altro appena è pieno")) : ""),
      entryLine(t),
      resultLine(t, mine),
    ),
    h("div", { class: "actions" }, playerTournamentActions(t, mine, refresh, seats)),
  );
}

function drawCard(d) {
  return h("article", { class: "card-row" },
    h("div", { class: "grow" },
      h("h3", {}, h("a", { href: `#/draw/${encodeURIComponent(d.draw_id)}` }, term("draw"), ` ${d.draw_id}`)),
      h("p", { class: "muted" }, statusWord(d.status), " · ", term("closes"), `: ${when(d.close_at)} · `, term("jackpot"), ` ${decimalMoney(d.jackpot_usd)}`)),
    h("div", { class: "actions" }, d.status === "open" ? h("a", { class: "button", href: `#/draw/${encodeURIComponent(d.draw_id)}` }, term("coupon")) : null),
  );
}

/* ---- a tournament's page --------------------------------------------------------------------------------- */
/* What the director's detail tells (GET /tournaments/{id}): the definition, the payout schedule for the current
 * field (percentages until the prize pool is known, amounts then), the clock, the players left; the standings
 * add everyone's chips and finishing position with the prize won. */

function levelsTable(levels, current) {
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", {}, term("level")), h("th", {}, term("blinds")), h("th", {}, "Ante"), h("th", {}, both("Minutes", "Minuti")))),
    h("tbody", {}, levels.map((level, i) => h("tr", { class: current === i + 1 ? "me" : "" },
      h("td", {}, i + 1),
      h("td", {}, `${num(level.small_blind)}/${num(level.big_blind)}`),
      h("td", {}, level.ante ? num(level.ante) : "—"),
      h("td", {}, level.duration_seconds ? num(level.duration_seconds / 60) : "—")))));
}

/* P-8.4: the shares of the pool by finishing position; the amounts once the pool is known. */
function payoutsTable(t) {
  const shares = t.payout_schedule?.shares_bps || [];
  const amounts = t.prizes_cents || [];
  if (!shares.length && !amounts.length) return h("p", { class: "muted" }, both("The prize table depends on the number of players.", "La tabella dei premi dipende dal numero di iscritti."));
  const rows = Math.max(shares.length, amounts.length);
  return h("table", { class: "grid payouts" },
    h("thead", {}, h("tr", {}, h("th", {}, term("position")), h("th", { class: "num" }, "%"), h("th", { class: "num" }, term("prize")))),
    h("tbody", {}, Array.from({ length: rows }, (_, i) => h("tr", { "data-position": i + 1 },
      h("td", {}, `${i + 1}º`),
      h("td", { class: "num" }, shares[i] != null ? `${num(shares[i] / 100, 2)}%` : "—"),
      h("td", { class: "num" }, amounts[i] != null ? money(amounts[i], t.currency) : "—")))));
}

/* The level clock: blinds now, when they change and to what, and the next break. */
function clockPanel(t) {
  const clock = t.clock;
  if (!clock) return null;
  const levels = t.definition?.blinds?.levels || [];
  const next = levels[clock.level];
  const nextBreak = (t.definition?.blinds?.breaks || []).find((b) => b.after_level >= clock.level);
  const endsAt = clock.ends_at ? h("span", { class: "countdown", "data-until": clock.ends_at }, countdown(clock.ends_at)) : "—";
  return h("div", { class: "clock" },
    pausedNotice(clock),
    h("p", {}, term("level"), ` ${clock.level}`, clock.on_break ? h("strong", {}, " · ", both("On break", "In pausa")) : "",
      " · ", term("blinds"), ` ${num(clock.small_blind)}/${num(clock.big_blind)}${clock.ante ? ` · ante ${num(clock.ante)}` : ""}`),
    h("p", {}, both("Next level in", "Prossimo livello tra"), " ", endsAt,
      next ? h("span", {}, " · ", term("blinds"), ` ${num(next.small_blind)}/${num(next.big_blind)}${next.ante ? ` · ante ${num(next.ante)}` : ""}`) : ""),
    nextBreak ? h("p", {}, both(`Next break: after level ${nextBreak.after_level}`, `Prossima pausa: dopo il livello ${nextBreak.after_level}`),
      ` (${num(nextBreak.duration_seconds / 60)} min)`) : null);
}

/* A running tournament the director paused for a technical problem: the clock stands still, no hand is dealt. */
function pausedNotice(clock) {
  if (!clock?.paused_at) return null;
  return h("p", { class: "paused-notice", role: "status", "data-paused-at": clock.paused_at },
    h("strong", {}, both("Paused", "In pausa")), " — ",
    both(`a technical problem, since ${when(clock.paused_at, "en")}: the clock stands still and no new hand is dealt.`,
      `problema tecnico, dalle ${when(clock.paused_at, "it")}: il tempo è fermo e non si distribuiscono nuove mani.`));
}

function countdown(iso) {
  const left = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  const two = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(left / 3600);
  return hours ? `${hours}:${two(Math.floor(left / 60) % 60)}:${two(left % 60)}` : `${Math.floor(left / 60)}:${two(left % 60)}`;
}

/* Rebuys and add-ons, where the tournament has them: the price, the chips and the window (P-4.2, P-4.3). */
function purchaseWindows(t) {
  const { rebuy, addon } = t.definition || {};
  const price = (p, language = "en") => money(p.prize_part_cents + p.fee_cents, t.currency, 2, language);
  const level = t.clock?.level;
  return [
    rebuy ? h("p", { "data-window": "rebuy" }, both(
      `Rebuy: ${numEn(rebuy.chips)} chips for ${price(rebuy.price)}, up to ${rebuy.max_rebuys}, until the end of level ${rebuy.last_level}`,
      `Rebuy: ${numIt(rebuy.chips)} fiches per ${price(rebuy.price, "it")}, fino a ${rebuy.max_rebuys}, entro la fine del livello ${rebuy.last_level}`),
    level ? h("strong", {}, " · ", level <= rebuy.last_level ? both("open", "aperti") : both("closed", "chiusi")) : "") : null,
    addon ? h("p", { "data-window": "addon" }, both(
      `Add-on: ${numEn(addon.chips)} chips for ${price(addon.price)}, at the break after level ${addon.at_breaks_after_levels.join(", ")}`,
      `Add-on: ${numIt(addon.chips)} fiches per ${price(addon.price, "it")}, nella pausa dopo il livello ${addon.at_breaks_after_levels.join(", ")}`)) : null,
  ];
}

/* Players left, average and largest stack, and the player's own rank, from the standings. */
function fieldSummary(t, players) {
  const alive = players.filter((p) => p.position == null && p.chips != null);
  if (!alive.length && t.players_left == null) return null;
  const chips = alive.map((p) => p.chips);
  const total = chips.reduce((a, b) => a + b, 0);
  const mine = players.findIndex((p) => p.player_id === session.playerId);
  const me = players[mine];
  const rank = me ? me.position ?? mine + 1 : null;
  return h("p", { class: "field" },
    both("Players left", "Giocatori rimasti"), `: ${num(t.players_left ?? alive.length)}`,
    alive.length ? h("span", {}, " · ", both("Average stack", "Stack medio"), `: ${num(total / alive.length)} · `, both("Largest", "Più alto"), `: ${num(Math.max(...chips))}`) : "",
    rank ? h("strong", { "data-rank": rank }, " · ", both("Your rank", "La tua posizione"), `: ${rank}/${num(players.length)}`) : "");
}

/* A tournament has hands to replay once it has started. */
function hasHands(t) {
  return t.status === "running" || t.status === "finished";
}

/* The results: position, chips, table, prize, and each player's hands to replay (issue 15, item 11) once the
 * tournament has dealt any. */
function standingsTable(players, name, t) {
  const dealt = hasHands(t);
  return stackable(h("table", { class: "grid standings" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, term("nickname")), h("th", { class: "num" }, term("chips")), h("th", {}, term("table")), h("th", { class: "num" }, term("prize")),
      dealt ? h("th", {}, term("handHistory")) : null)),
    h("tbody", {}, players.map((p, i) => h("tr", { class: p.player_id === session.playerId ? "me" : "", "data-player": p.player_id },
      h("td", {}, p.position ?? i + 1),
      h("td", {}, name(p.player_id)),
      h("td", { class: "num" }, p.position != null ? "—" : num(p.chips)),
      h("td", {}, p.table_id ? h("a", { href: `#/table/${encodeURIComponent(p.table_id)}` }, tableName(p.table_id)) : "—"),
      h("td", { class: "num" }, p.prize_cents ? money(p.prize_cents, t.currency) : ""),
      dealt ? h("td", {}, handsLink(t.tournament_id, p.player_id)) : null)))));
}

/* Above the standings: the way to every hand of the tournament, and to the player's own. */
function tournamentHandLinks(t, players) {
  if (!hasHands(t)) return null;
  const played = players.some((p) => p.player_id === session.playerId);
  return h("p", { class: "hand-links" }, handsLink(t.tournament_id, "all"), played ? [" · ", handsLink(t.tournament_id, session.playerId)] : null);
}

function tournamentHeader(t, entry, refresh, seats) {
  return [
    h("h1", {}, t.name),
    h("p", { class: "muted" }, kindLabel(t.kind), " · ", statusWord(t.status), t.starts_at ? ` · ${when(t.starts_at)}` : ""),
    entryLine(t, t.prize_pool_cents != null ? h("span", {}, " · ", term("prizePool"), `: ${money(t.prize_pool_cents, t.currency)}`) : null),
    resultLine(t, entry),
    h("div", { class: "actions" }, playerTournamentActions(t, entry, refresh, seats)),
  ];
}

page("#/tournament/:id", (view, { id }) => {
  const header = h("section", { class: "panel" }, h("p", { class: "muted" }, both("Loading…", "Caricamento…")));
  const live = h("section", { class: "panel live", hidden: true });
  const structure = h("section", { class: "panel" }, h("h2", {}, term("structure")));
  const payouts = h("section", { class: "panel" }, h("h2", {}, term("payouts")));
  const standings = h("section", { class: "panel" }, h("h2", {}, term("standings")));
  view.append(h("div", { class: "tournament" }, header, live, h("div", { class: "columns" }, payouts, structure), standings));

  const show = debounced(async () => {
    try {
      const [t, mine, table, seats] = await Promise.all([
        request("GET", `/tournaments/${encodeURIComponent(id)}`),
        session.playerId ? request("GET", `/players/${session.playerId}/tournaments`).catch(() => []) : [],
        request("GET", `/tournaments/${encodeURIComponent(id)}/standings`).catch(() => ({ players: [] })),
        seatTargets(),
      ]);
      const players = table.players || [];
      const name = await nicknames(players.map((p) => p.player_id));
      fill(header, tournamentHeader(t, mine.find((e) => e.tournament_id === id), show, seats));
      // Once it is over, its results (and the way to its hands) come first: what players open it for then.
      if (t.status === "finished") header.after(standings);
      const summary = [clockPanel(t), fieldSummary(t, players), ...purchaseWindows(t)].filter(Boolean);
      live.hidden = !summary.length;
      fill(live, h("h2", {}, t.status === "running" ? both("Live", "In diretta") : both("Rules", "Regole")), summary);
      fill(structure, h("h2", {}, term("structure")), levelsTable(t.definition?.blinds?.levels || [], t.clock?.level));
      const satellite = t.definition?.satellite;
      fill(payouts, h("h2", {}, term("payouts")), satellite ? satellitePrizes(satellite, t) : payoutsTable(t));
      fill(standings, h("h2", {}, term("standings")), tournamentHandLinks(t, players),
        players.length ? standingsTable(players, name, t) : h("p", { class: "muted" }, both("Nobody yet.", "Ancora nessuno.")));
    } catch (problem) {
      fill(header, h("p", { class: "error" }, problemText(problem)));
    }
  }, 50);

  // The page's payouts and players change with every registration too: the count at once, the rest reloaded.
  const news = debounced(show, NEWS_DELAY_MS, NEWS_JITTER_MS);
  show();
  const ticking = setInterval(() => { for (const node of view.querySelectorAll("[data-until]")) node.textContent = countdown(node.dataset.until); }, 1000);
  const stop = lobbyLink.listen((frame) => {
    if (frame.type === "resync") { show(); return; }
    const table = seatingOf(frame.data);
    if (table) goToTable(table);
    if (frame.channel !== `tournament:${id}` && frame.data.payload?.tournament_id !== id) return;
    if (REGISTRATION_NEWS.includes(frame.data.event)) showRegistered(header, frame.data);
    news();
  }, [`tournament:${id}`]);
  return () => { stop(); show.cancel(); news.cancel(); clearInterval(ticking); };
}, { auth: true });

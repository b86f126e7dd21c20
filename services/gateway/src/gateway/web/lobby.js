/* The lobby (tournaments with live updates, registration, the draws open for bets) and a tournament's page
 * (structure, payouts, registration, standings). Both follow the lobby socket and reload what an event changed. */
"use strict";

const KIND_LABELS = { sit_and_go: "Sit & Go", scheduled: "Scheduled" };
const LIVE_STATUSES = ["announced", "registering", "running"];

/* Several events in a burst cause one reload. */
function debounced(run, ms = 300) {
  let timer = null;
  const call = () => { clearTimeout(timer); timer = setTimeout(run, ms); };
  call.cancel = () => clearTimeout(timer);
  return call;
}

function buyIn(t) {
  if (t.freeroll) return "Freeroll";
  const prize = t.buy_in_prize_cents ?? 0;
  const fee = t.buy_in_fee_cents ?? 0;
  return `${money(prize + fee, t.currency)} (${money(prize, t.currency)} + ${money(fee, t.currency)})`;
}

/* `entry` "satellite" takes a seat the player won in one of the tournament's satellites (P-3.4). */
async function registerFor(tournamentId, entry = "buy_in") {
  await request("POST", `/tournaments/${encodeURIComponent(tournamentId)}/registrations`, { entry },
    { headers: { "Idempotency-Key": newIdempotencyKey() } });
  toast("Registered. Your table opens as soon as the tournament starts.");
}

async function unregisterFrom(tournamentId) {
  const answer = await request("DELETE", `/tournaments/${encodeURIComponent(tournamentId)}/registrations/${session.playerId}`,
    undefined, { headers: { "Idempotency-Key": newIdempotencyKey() } });
  toast(`Unregistered${answer?.refunded_cents ? `: ${money(answer.refunded_cents)} refunded` : ""}.`);
}

/* The tournaments the player holds an unused satellite seat for (P-3.4). */
async function seatTargets() {
  if (!session.playerId) return new Set();
  const tickets = await request("GET", `/players/${session.playerId}/tickets`).catch(() => []);
  return new Set(tickets.filter((x) => x.target_tournament_id && !x.used_by_tournament_id).map((x) => x.target_tournament_id));
}

/* The buttons a tournament offers the player, given their own entry in it (if any) and their seats. */
function tournamentActions(t, mine, refresh, seats = new Set()) {
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
  else toast("Your table is ready.", { action: h("a", { href: `#/table/${encodeURIComponent(tableId)}` }, term("openTable")) });
}

/* A satellite pays seats in its target (P-3.4): how many the pool buys so far, and what is left in cash. */
function satellitePrizes(satellite, t) {
  const seat = satellite.seat_price.prize_part_cents + satellite.seat_price.fee_cents;
  const pool = t.prize_pool_cents;
  const target = h("a", { href: `#/tournament/${encodeURIComponent(satellite.target_tournament_id)}` }, satellite.target_tournament_id);
  return h("div", { class: "satellite" },
    h("p", {}, term("satellite"), ": ", `a seat worth ${money(seat, t.currency)} in `, target, " per place."),
    pool == null ? null : h("p", { "data-seats": t.satellite_seats }, `${t.satellite_seats} seat(s) so far`,
      pool % seat ? `, and ${money(pool % seat, t.currency)} in cash for the next place.` : "."));
}

page("#/lobby", (view) => {
  const tournaments = h("div", { class: "cards", "aria-live": "polite" }, h("p", { class: "muted" }, "Loading…"));
  const draws = h("div", { class: "cards" });
  const jackpot = h("span", {});
  view.append(h("div", { class: "lobby" },
    h("section", { class: "panel" }, h("h1", {}, term("tournaments")),
      h("p", { class: "muted offline-only" }, "Lobby connection lost: reconnecting. Your tables go on; new ones open when it is back."),
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
      fill(tournaments, ...(shown.length ? shown.map((t) => tournamentCard(t, entries.get(t.tournament_id), showTournaments, seats)) : [h("p", { class: "muted" }, "No tournaments open right now.")]));
    } catch (problem) {
      fill(tournaments, h("p", { class: "error" }, problemText(problem)));
    }
  }, 50);

  const showDraws = debounced(async () => {
    try {
      const [list, pot] = await Promise.all([request("GET", "/draws", undefined, { auth: false }), request("GET", "/totalizator/jackpot", undefined, { auth: false }).catch(() => null)]);
      jackpot.textContent = pot ? `$${pot.jackpot_usd}` : "—";
      const shown = list.filter((d) => ["open", "closed", "settling"].includes(d.status)).slice(0, 10);
      fill(draws, ...(shown.length ? shown.map(drawCard) : [h("p", { class: "muted" }, "No draw open right now.")]));
    } catch (problem) {
      fill(draws, h("p", { class: "error" }, problemText(problem)));
    }
  }, 50);

  showTournaments();
  showDraws();
  const stop = lobbyLink.listen((frame) => {
    if (frame.type === "resync") { showTournaments(); showDraws(); return; }
    const table = seatingOf(frame.data);
    if (table) goToTable(table);
    const event = frame.data.event || "";
    if (event.startsWith("tournament.")) showTournaments();
    if (event.startsWith("totalizator.")) showDraws();
  });
  return () => { stop(); showTournaments.cancel(); showDraws.cancel(); };
}, { auth: true });

function tournamentCard(t, mine, refresh, seats) {
  return h("article", { class: "card-row", "data-tournament": t.tournament_id },
    h("div", { class: "grow" },
      h("h3", {}, h("a", { href: `#/tournament/${encodeURIComponent(t.tournament_id)}` }, t.name)),
      h("p", { class: "muted" },
        `${KIND_LABELS[t.kind] || t.kind} · ${t.status}`,
        t.starts_at ? ` · ${when(t.starts_at)}` : "",
        t.guarantee_cents ? ` · guaranteed ${money(t.guarantee_cents, t.currency)}` : ""),
      h("p", {}, term("buyIn"), ": ", buyIn(t), " · ", term("players"), `: ${t.registered}/${t.max_players}`),
      mine?.position ? h("p", { class: "result" }, term("position"), `: ${mine.position}`, mine.prize_cents ? ` · ${money(mine.prize_cents, t.currency)}` : "") : null,
    ),
    h("div", { class: "actions" }, tournamentActions(t, mine, refresh, seats)),
  );
}

function drawCard(d) {
  return h("article", { class: "card-row" },
    h("div", { class: "grow" },
      h("h3", {}, h("a", { href: `#/draw/${encodeURIComponent(d.draw_id)}` }, term("draw"), ` ${d.draw_id}`)),
      h("p", { class: "muted" }, `${d.status} · `, term("closes"), `: ${when(d.close_at)} · `, term("jackpot"), ` $${d.jackpot_usd}`)),
    h("div", { class: "actions" }, d.status === "open" ? h("a", { class: "button", href: `#/draw/${encodeURIComponent(d.draw_id)}` }, term("coupon")) : null),
  );
}

/* ---- a tournament's page --------------------------------------------------------------------------------- */
/* The director's detail is rich and may grow: the page shows what it recognises and lists the rest plainly. */
function findList(detail, names) {
  const queue = [detail];
  while (queue.length) {
    const node = queue.shift();
    if (!node || typeof node !== "object") continue;
    for (const name of names) if (Array.isArray(node[name]) && node[name].length) return node[name];
    queue.push(...Object.values(node).filter((v) => v && typeof v === "object" && !Array.isArray(v)));
  }
  return [];
}

function levelsTable(levels) {
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", {}, term("level")), h("th", {}, term("blinds")), h("th", {}, "Ante"), h("th", {}, "Minutes"))),
    h("tbody", {}, levels.map((level, i) => h("tr", {},
      h("td", {}, level.level_no ?? i + 1),
      h("td", {}, `${level.small_blind}/${level.big_blind}`),
      h("td", {}, level.ante || "—"),
      h("td", {}, level.duration_seconds ? Math.round(level.duration_seconds / 60) : "—")))));
}

function payoutsTable(payouts, currency) {
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", {}, term("position")), h("th", {}, term("prize")))),
    h("tbody", {}, payouts.map((p, i) => h("tr", {},
      h("td", {}, p.position ?? p.positions ?? `${p.from ?? i + 1}${p.to && p.to !== p.from ? `–${p.to}` : ""}`),
      h("td", {}, p.prize_cents != null ? money(p.prize_cents, currency) : p.percent != null ? `${p.percent}%` : JSON.stringify(p))))));
}

page("#/tournament/:id", (view, { id }) => {
  const header = h("section", { class: "panel" }, h("p", { class: "muted" }, "Loading…"));
  const structure = h("section", { class: "panel" }, h("h2", {}, term("structure")));
  const payouts = h("section", { class: "panel" }, h("h2", {}, term("payouts")));
  const standings = h("section", { class: "panel" }, h("h2", {}, term("standings")));
  view.append(h("div", { class: "tournament" }, header, h("div", { class: "columns" }, structure, payouts), standings));

  const show = debounced(async () => {
    try {
      const [t, mine, table, seats] = await Promise.all([
        request("GET", `/tournaments/${encodeURIComponent(id)}`),
        session.playerId ? request("GET", `/players/${session.playerId}/tournaments`).catch(() => []) : [],
        request("GET", `/tournaments/${encodeURIComponent(id)}/standings`).catch(() => ({ players: [] })),
        seatTargets(),
      ]);
      const entry = mine.find((e) => e.tournament_id === id);
      fill(header, 
        h("h1", {}, t.name || id),
        h("p", { class: "muted" }, `${KIND_LABELS[t.kind] || t.kind || ""} · ${t.status}`, t.starts_at ? ` · ${when(t.starts_at)}` : ""),
        h("p", {}, term("buyIn"), ": ", buyIn(t), " · ", term("players"), `: ${t.registered ?? "?"}/${t.max_players ?? "?"}`),
        t.current_level ? h("p", {}, term("level"), `: ${JSON.stringify(t.current_level)}`) : null,
        entry?.position ? h("p", { class: "result" }, term("position"), `: ${entry.position}`, entry.prize_cents ? ` · ${term("prize").textContent} ${money(entry.prize_cents, t.currency)}` : "") : null,
        h("div", { class: "actions" }, tournamentActions(t, entry, show, seats)),
      );
      const levels = findList(t, ["levels"]);
      fill(structure, h("h2", {}, term("structure")), levels.length ? levelsTable(levels) : h("p", { class: "muted" }, "—"));
      const schedule = findList(t, ["payouts", "payout_schedule", "prizes"]);
      const satellite = t.definition?.satellite;
      fill(payouts, h("h2", {}, term("payouts")), satellite
        ? satellitePrizes(satellite, t)
        : schedule.length ? payoutsTable(schedule, t.currency) : h("p", { class: "muted" }, "Set when registration closes."));
      const players = table.players || [];
      const name = await nicknames(players.map((p) => p.player_id));
      fill(standings, h("h2", {}, term("standings")), players.length
        ? h("table", { class: "grid" },
          h("thead", {}, h("tr", {}, h("th", {}, term("nickname")), h("th", {}, term("chips")), h("th", {}, term("table")), h("th", {}, term("position")))),
          h("tbody", {}, players.map((p) => h("tr", { class: p.player_id === session.playerId ? "me" : "" },
            h("td", {}, name(p.player_id)), h("td", {}, p.chips ?? "—"),
            h("td", {}, p.table_id ? h("a", { href: `#/table/${encodeURIComponent(p.table_id)}` }, p.seat ? `${p.table_id} #${p.seat}` : p.table_id) : "—"),
            h("td", {}, p.position ?? "")))))
        : h("p", { class: "muted" }, "Nobody yet."));
    } catch (problem) {
      fill(header, h("p", { class: "error" }, problemText(problem)));
    }
  }, 50);

  show();
  const stop = lobbyLink.listen((frame) => {
    if (frame.type === "resync") { show(); return; }
    const table = seatingOf(frame.data);
    if (table) goToTable(table);
    if (frame.channel === `tournament:${id}` || frame.data.payload?.tournament_id === id) show();
  }, [`tournament:${id}`]);
  return () => { stop(); show.cancel(); };
}, { auth: true });

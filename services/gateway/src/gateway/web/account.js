/* The player's account (balances, statement page by page, coupons) and the public leaderboard with its tiers,
 * Italian names first with the English beside them (P-11.5: players by nickname only). */
"use strict";

const PURPOSES = {
  deposit: ["Deposit", "Deposito"],
  withdrawal: ["Withdrawal", "Prelievo"],
  buy_in: ["Buy-in", "Iscrizione al torneo"],
  rebuy: ["Rebuy", "Rebuy"],
  add_on: ["Add-on", "Add-on"],
  prize_payout: ["Prize", "Premio"],
  jackpot_award: ["Jackpot", "Jackpot"],
  satellite_entry: ["Satellite seat", "Posto satellite"],
  sponsored_entry: ["Sponsored entry", "Iscrizione offerta"],
  hold_post: ["Payment", "Pagamento"],
  reversal: ["Correction", "Rettifica"],
  stake: ["Coupon stake", "Giocata schedina"],
  draw_payout: ["Totalizator win", "Vincita al totalizzatore"],
  draw_refund: ["Totalizator refund", "Rimborso del totalizzatore"],
  refund: ["Refund", "Rimborso"],
  bonus_prizes: ["Bonus prize", "Premio bonus"],
};

/* Why a ticket was issued (tournament director's `issued_reason`). */
const TICKET_REASONS = {
  satellite_ticket: ["Satellite seat (ticket)", "Posto satellite (biglietto)"],
  satellite_right: ["Satellite seat", "Posto satellite"],
  satellite_seat: ["Satellite seat (automatic registration)", "Posto satellite (iscrizione automatica)"],
  unregistration: ["Entry given back", "Iscrizione restituita"],
  cancellation: ["Cancelled tournament", "Torneo annullato"],
};

function words(table, code) {
  return table[code] ? both(...table[code]) : h("span", {}, String(code).replaceAll("_", " "));
}

/* Tournament names for the statement and the tickets (players read names, not ids); looked up once each. */
const tournamentNames = new Map();

async function tournamentName(tournamentId) {
  if (!tournamentNames.has(tournamentId)) {
    tournamentNames.set(tournamentId, request("GET", `/tournaments/${encodeURIComponent(tournamentId)}`).then((t) => t.name).catch(() => null));
  }
  return (await tournamentNames.get(tournamentId)) || both("a tournament", "un torneo");
}

/* One money move may be several transfers (a buy-in: the prize-pool part and the fee): one line, with its parts. */
function statementLines(items) {
  const lines = [];
  for (const item of items) {
    const last = lines[lines.length - 1];
    if (last && item.operation_id != null && last.operation_id === item.operation_id && last.account.currency === item.account.currency) {
      last.parts.push(item);
      last.amount += item.amount;
    } else lines.push({ ...item, parts: [item] });
  }
  return lines;
}

/* Where a part of a money move goes (the wallet's account kinds). */
const COUNTERPARTS = { tournament_escrow: ["prize pool", "montepremi"], margin: ["fee", "commissione"], tax: ["tax", "imposta"], draw_pool: ["pool", "montepremi"] };

/* The parts of a buy-in line: "€4.00 prize pool + €1.00 fee". */
function partsNote(line, units) {
  if (line.parts.length < 2) return null;
  const amount = (part, language) => money(Math.abs(part.amount), line.account.currency, units, language);
  const kind = (part) => COUNTERPARTS[part.counterparty?.kind] || [part.counterparty?.kind || "", part.counterparty?.kind || ""];
  const parts = [...line.parts].sort((a, b) => Math.abs(b.amount) - Math.abs(a.amount)); // the larger part first
  return h("div", { class: "muted parts" }, both(
    parts.map((part) => `${amount(part, "en")} ${kind(part)[0]}`).join(" + "),
    parts.map((part) => `${amount(part, "it")} ${kind(part)[1]}`).join(" + ")));
}

async function statementReference(line) {
  if (line.tournament_id) return tournamentName(line.tournament_id);
  if (line.draw_id) return both(`Draw ${line.draw_id}`, `Concorso ${line.draw_id}`);
  return statementReferenceText(line);
}

page("#/account", (view) => {
  const balances = h("div", { class: "balances" }, h("p", { class: "muted" }, both("Loading…", "Caricamento…")));
  const rating = h("p", {});
  const rows = h("tbody", {});
  const statement = h("table", { class: "grid statement" },
    h("thead", {}, h("tr", {}, h("th", {}, both("Date", "Data")), h("th", {}, both("What", "Causale")), h("th", {}, both("Reference", "Riferimento")), h("th", { class: "num" }, both("Amount", "Importo")))),
    rows);
  const more = h("button", { class: "secondary", hidden: true }, both("Older", "Precedenti"));
  const coupons = h("div", {});
  const tickets = h("div", {});
  const protection = h("section", { class: "panel protection" });
  view.append(
    h("section", { class: "panel" }, h("h1", {}, term("account")), balances, rating),
    h("section", { class: "panel" }, h("h2", {}, term("statement")), statement, more),
    h("section", { class: "panel" }, h("h2", {}, term("coupons")), coupons),
    h("section", { class: "panel" }, h("h2", {}, term("tickets")), tickets),
    protection,
  );
  const me = session.playerId;
  if (!me) { fill(balances, h("p", {}, both("Staff accounts have no wallet.", "Gli account dello staff non hanno un conto."))); return; }
  const units = new Map(); // currency -> minor units
  let cursor = null;

  async function showBalances() {
    const found = await request("GET", `/players/${me}/accounts`);
    for (const account of found.accounts) units.set(account.currency, account.minor_units);
    fill(balances, ...(found.accounts.length
      ? found.accounts.map((a) => h("div", { class: "balance", "data-currency": a.currency },
        h("span", { class: "muted" }, term(a.kind === "bonus" ? "bonusBalance" : "balance"), ` ${a.currency}`),
        h("strong", {}, money(a.balance, a.currency, a.minor_units)),
        a.held ? h("span", { class: "muted" }, " (", both(`${money(a.available, a.currency, a.minor_units, "en")} available`, `${money(a.available, a.currency, a.minor_units, "it")} disponibili`), ")") : null))
      : [h("p", { class: "muted" }, both("No money yet: your concessionaire's cashier pays in deposits.", "Ancora nessun saldo: i depositi si fanno alla cassa del tuo concessionario."))]));
  }

  async function showStatement() {
    const page_ = await request("GET", `/players/${me}/statement?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    for (const line of statementLines(page_.items)) {
      const currency = line.account.currency;
      const minor = units.get(currency) ?? 2;
      rows.append(h("tr", { "data-kind": line.operation_kind },
        h("td", {}, when(line.created_at)),
        h("td", {}, words(PURPOSES, line.operation_kind), partsNote(line, minor)),
        h("td", { class: "muted" }, await statementReference(line)),
        h("td", { class: `num ${line.amount < 0 ? "debit" : "credit"}` }, money(line.amount, currency, minor))));
    }
    if (!rows.children.length) rows.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, both("Nothing yet.", "Ancora niente."))));
    stackable(statement);
    cursor = page_.next_cursor;
    more.hidden = !cursor;
  }

  more.addEventListener("click", () => showStatement().catch((p) => toast(problemText(p), { kind: "error" })));
  showBalances().then(showStatement).catch((p) => fill(balances, h("p", { class: "error" }, problemText(p))));
  showCoupons(coupons, me);
  showTickets(tickets, me);
  showRating(rating, me);
  showProtection(protection, me); // protection.js
}, { auth: true });

async function showCoupons(coupons, me) {
  const list = await request("GET", `/players/${me}/coupons?limit=20`).catch(() => []);
  fill(coupons, list.length
    ? stackable(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, term("draw")), h("th", {}, "#"), h("th", {}, term("bets")), h("th", {}, term("cost")), h("th", {}, both("Status", "Stato")))),
      h("tbody", {}, list.map((c) => h("tr", { "data-coupon": c.coupon_id },
        h("td", {}, h("a", { href: `#/draw/${encodeURIComponent(c.draw_id)}` }, c.draw_id)), h("td", {}, c.coupon_id),
        h("td", {}, num(c.bets)), h("td", {}, couponCost(c)), h("td", {}, statusWord(c.status)))))))
    : h("p", { class: "muted" }, both("No coupons yet.", "Ancora nessuna schedina.")));
}

async function ticketRow(x) {
  const target = x.target_tournament_id
    ? h("a", { href: `#/tournament/${encodeURIComponent(x.target_tournament_id)}` }, await tournamentName(x.target_tournament_id))
    : kindLabel(x.tournament_kind);
  const used = x.used_by_tournament_id ? h("span", {}, both("used in", "usato in"), " ", await tournamentName(x.used_by_tournament_id)) : both("unused", "non usato");
  return h("tr", { "data-ticket": x.code },
    h("td", {}, h("code", {}, x.code)), h("td", {}, words(TICKET_REASONS, x.issued_reason)),
    h("td", { class: "num" }, money(x.prize_part_cents + x.fee_cents, x.currency)), h("td", {}, target), h("td", {}, used));
}

async function showTickets(tickets, me) {
  const list = await request("GET", `/players/${me}/tickets`).catch(() => []);
  fill(tickets, list.length
    ? stackable(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, both("Code", "Codice")), h("th", {}, both("What", "Causale")), h("th", { class: "num" }, both("Value", "Valore")), h("th", {}, both("For", "Per")), h("th", {}, both("Status", "Stato")))),
      h("tbody", {}, await Promise.all(list.map(ticketRow)))))
    : h("p", { class: "muted" }, both("No tickets.", "Nessun biglietto.")));
}

async function showRating(rating, me) {
  const found = await request("GET", `/players/${me}/rating`).catch(() => null);
  if (found) fill(rating, term("rating"), `: ${num(found.rating, 1)} · `, term("tier"), ": ", tierLabel(found.tier_label), found.rank ? ` · #${num(found.rank)}` : "");
}

/* "GRUPPO UNO (Group One)": the Italian tier name, with the English one beside it. */
function tierLabel(label) {
  const match = /^(.*?)\s*\((.*)\)$/.exec(label || "");
  return match ? h("span", { class: "term tier" }, match[1], h("span", { class: "it" }, h("span", { class: "sep" }, " · "), match[2])) : h("span", { class: "tier" }, label || "—");
}

/* What the standing is and when the tiers change: as of now, tiers by rank now, recomputed when the day closes. */
function standingInfo(board) {
  const active = counted(board.active_count, ["active player", "active players"], ["giocatore attivo", "giocatori attivi"]);
  const at = board.tiers_recomputed_at;
  return [
    h("span", { class: "standing-now" }, both(`Standing as of now · ${active[0]}`, `Classifica aggiornata a ora · ${active[1]}`)),
    at ? h("span", { class: "tiers-when", "data-at": at }, h("br"), both(
      `Tiers are recomputed when the day closes, at ${when(at, "en")}; until then each tier shown is the one the rank gives now.`,
      `Le fasce si ricalcolano alla chiusura della giornata, alle ${when(at, "it")}; fino ad allora ogni fascia indicata è quella data dalla posizione attuale.`)) : null,
  ];
}

page("#/leaderboard", (view) => {
  const body = h("tbody", {});
  const info = h("p", { class: "muted" });
  const pager = h("div", { class: "actions" });
  view.append(h("section", { class: "panel" }, h("h1", {}, term("leaderboard")), info,
    h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, term("nickname")), h("th", { class: "num" }, term("rating")), h("th", {}, term("tier")))),
      body),
    pager));
  let current = 1;

  async function show(pageNo) {
    try {
      // Issue 15 (10): the standing as of now, not the last closed day's — with when the tiers are recomputed.
      const board = await request("GET", `/leaderboard?page=${pageNo}&size=50&standing=now`, undefined, { auth: false });
      current = board.page;
      fill(info, ...standingInfo(board));
      fill(body, ...board.entries.map((e) => h("tr", { class: e.nickname === session.principal?.nickname ? "me" : "" },
        h("td", {}, e.rank), h("td", {}, e.nickname ?? "…"), h("td", { class: "num" }, num(e.rating, 1)), h("td", {}, tierLabel(e.tier_label)))));
      fill(pager, 
        current > 1 ? h("button", { class: "secondary", onclick: () => show(current - 1) }, both("Previous", "Precedente")) : "",
        current * board.size < board.active_count ? h("button", { class: "secondary", onclick: () => show(current + 1) }, both("Next", "Successiva")) : "");
    } catch (problem) {
      fill(info, problemText(problem));
    }
  }
  show(1);
});

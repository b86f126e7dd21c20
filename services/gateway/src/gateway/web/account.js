/* The player's account (balances, statement page by page, coupons) and the public leaderboard with its tiers,
 * Italian names first with the English beside them (P-11.5: players by nickname only). */
"use strict";

const PURPOSES = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  buy_in: "Buy-in",
  rebuy: "Rebuy",
  add_on: "Add-on",
  prize_payout: "Prize",
  jackpot_award: "Jackpot",
  satellite_entry: "Satellite seat",
  sponsored_entry: "Sponsored entry",
  hold_post: "Payment",
  reversal: "Correction",
  stake: "Coupon stake",
  draw_payout: "Totalizator win",
  draw_refund: "Totalizator refund",
  refund: "Refund",
  bonus_prizes: "Bonus prize",
};

/* Why a ticket was issued (tournament director's `issued_reason`). */
const TICKET_REASONS = {
  satellite_ticket: "Satellite seat (ticket)",
  satellite_right: "Satellite seat",
  satellite_seat: "Satellite seat (automatic registration)",
  unregistration: "Entry given back",
  cancellation: "Cancelled tournament",
};

page("#/account", (view) => {
  const balances = h("div", { class: "balances" }, h("p", { class: "muted" }, "Loading…"));
  const rating = h("p", {});
  const rows = h("tbody", {});
  const more = h("button", { class: "secondary", hidden: true }, "Older");
  const coupons = h("div", {});
  const tickets = h("div", {});
  view.append(
    h("section", { class: "panel" }, h("h1", {}, term("account")), balances, rating),
    h("section", { class: "panel" }, h("h2", {}, term("statement")),
      h("table", { class: "grid statement" },
        h("thead", {}, h("tr", {}, h("th", {}, "Date"), h("th", {}, "What"), h("th", {}, "Reference"), h("th", { class: "num" }, "Amount"))),
        rows),
      more),
    h("section", { class: "panel" }, h("h2", {}, term("coupons")), coupons),
    h("section", { class: "panel" }, h("h2", {}, term("tickets")), tickets),
  );
  const me = session.playerId;
  if (!me) { fill(balances, h("p", {}, "Staff accounts have no wallet.")); return; }
  const units = new Map(); // currency -> minor units
  let cursor = null;

  async function showBalances() {
    const found = await request("GET", `/players/${me}/accounts`);
    for (const account of found.accounts) units.set(account.currency, account.minor_units);
    fill(balances, ...(found.accounts.length
      ? found.accounts.map((a) => h("div", { class: "balance", "data-currency": a.currency },
        h("span", { class: "muted" }, term(a.kind === "bonus" ? "bonusBalance" : "balance"), ` ${a.currency}`),
        h("strong", {}, money(a.balance, a.currency, a.minor_units)),
        a.held ? h("span", { class: "muted" }, ` (${money(a.available, a.currency, a.minor_units)} available)`) : null))
      : [h("p", { class: "muted" }, "No money yet: your concessionaire's cashier pays in deposits.")]));
  }

  async function showStatement() {
    const page_ = await request("GET", `/players/${me}/statement?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    for (const line of page_.items) {
      const currency = line.account.currency;
      rows.append(h("tr", { "data-kind": line.operation_kind },
        h("td", {}, when(line.created_at)),
        h("td", {}, PURPOSES[line.operation_kind] || line.operation_kind.replaceAll("_", " ")),
        h("td", { class: "muted" }, line.tournament_id ? `tournament ${line.tournament_id}` : line.draw_id ? `draw ${line.draw_id}` : line.reference || ""),
        h("td", { class: `num ${line.amount < 0 ? "debit" : "credit"}` }, money(line.amount, currency, units.get(currency) ?? 2))));
    }
    if (!rows.children.length) rows.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "Nothing yet.")));
    cursor = page_.next_cursor;
    more.hidden = !cursor;
  }

  async function showCoupons() {
    const list = await request("GET", `/players/${me}/coupons?limit=20`).catch(() => []);
    fill(coupons, list.length
      ? h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, h("th", {}, term("draw")), h("th", {}, "#"), h("th", {}, term("bets")), h("th", {}, term("cost")), h("th", {}, "Status"))),
        h("tbody", {}, list.map((c) => h("tr", {},
          h("td", {}, h("a", { href: `#/draw/${encodeURIComponent(c.draw_id)}` }, c.draw_id)), h("td", {}, c.coupon_id),
          h("td", {}, c.bets), h("td", {}, `${c.amount_text} ${c.currency}`), h("td", {}, c.status)))))
      : h("p", { class: "muted" }, "No coupons yet."));
  }

  async function showTickets() {
    const list = await request("GET", `/players/${me}/tickets`).catch(() => []);
    fill(tickets, list.length
      ? h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, h("th", {}, "Code"), h("th", {}, "What"), h("th", { class: "num" }, "Value"), h("th", {}, "For"), h("th", {}, "Status"))),
        h("tbody", {}, list.map((x) => h("tr", { "data-ticket": x.code },
          h("td", {}, h("code", {}, x.code)), h("td", {}, TICKET_REASONS[x.issued_reason] || x.issued_reason),
          h("td", { class: "num" }, money(x.prize_part_cents + x.fee_cents, x.currency)),
          h("td", {}, x.target_tournament_id ? h("a", { href: `#/tournament/${encodeURIComponent(x.target_tournament_id)}` }, x.target_tournament_id) : x.tournament_kind.replaceAll("_", " ")),
          h("td", {}, x.used_by_tournament_id ? `used in ${x.used_by_tournament_id}` : "unused")))))
      : h("p", { class: "muted" }, "No tickets."));
  }

  async function showRating() {
    const found = await request("GET", `/players/${me}/rating`).catch(() => null);
    if (found) fill(rating, term("rating"), `: ${found.rating} · `, term("tier"), ": ", tierLabel(found.tier_label), found.rank ? ` · #${found.rank}` : "");
  }

  more.addEventListener("click", () => showStatement().catch((p) => toast(problemText(p), { kind: "error" })));
  showBalances().then(showStatement).catch((p) => fill(balances, h("p", { class: "error" }, problemText(p))));
  showCoupons();
  showTickets();
  showRating();
}, { auth: true });

/* "GRUPPO UNO (Group One)": the Italian tier name, with the English one beside it. */
function tierLabel(label) {
  const match = /^(.*?)\s*\((.*)\)$/.exec(label || "");
  return match ? h("span", { class: "term tier" }, match[1], h("span", { class: "it" }, match[2])) : h("span", { class: "tier" }, label || "—");
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
      const board = await request("GET", `/leaderboard?page=${pageNo}&size=50`, undefined, { auth: false });
      current = board.page;
      info.textContent = board.day ? `Standings of ${board.day} · ${board.active_count} active players` : "No day has been closed yet.";
      fill(body, ...board.entries.map((e) => h("tr", { class: e.nickname === session.principal?.nickname ? "me" : "" },
        h("td", {}, e.rank), h("td", {}, e.nickname ?? "…"), h("td", { class: "num" }, e.rating), h("td", {}, tierLabel(e.tier_label)))));
      fill(pager, 
        current > 1 ? h("button", { class: "secondary", onclick: () => show(current - 1) }, "Previous") : "",
        current * board.size < board.active_count ? h("button", { class: "secondary", onclick: () => show(current + 1) }, "Next") : "");
    } catch (problem) {
      info.textContent = problemText(problem);
    }
  }
  show(1);
});

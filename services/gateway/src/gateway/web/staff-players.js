/* The console's players and conduct (the statement's lines and words are the player client's, account.js): a search within the staff member's scope (the API lists an operator's
 * concessionaire only), one player's record (statement, tournaments, coupons, rating and tier, sanctions,
 * protection settings and their history), and the reports queue with a decision beside the suggested sanction
 * (advisory, P-12.2) or a dismissal. */
"use strict";

const GRAVITIES = { minor: ["Minor", "Lieve"], serious: ["Serious", "Grave"], very_serious: ["Very serious", "Gravissima"] };
const SANCTION_KINDS = {
  written_warning: ["Written warning", "Ammonizione scritta"],
  temporary_chat_ban: ["Temporary chat ban", "Sospensione temporanea della chat"],
  permanent_chat_ban: ["Permanent chat ban", "Sospensione definitiva della chat"],
  ranking_penalty: ["Ranking penalty", "Penalizzazione in classifica"],
  tournament_disqualification: ["Disqualification from the tournament", "Squalifica dal torneo"],
  pending_tournaments_disqualification: ["Disqualification from pending tournaments", "Squalifica dai tornei in attesa"],
  temporary_ban: ["Temporary ban", "Esclusione temporanea"],
  permanent_ban: ["Permanent ban", "Esclusione definitiva"],
};

/* ---- search ---------------------------------------------------------------------------------------------- */
staffPage("#/staff/players", (body) => {
  const results = h("div", { class: "player-results" });
  const search = h("input", { type: "search", name: "q", placeholder: say("Nickname, email or id", "Soprannome, email o id"), class: "player-search" });
  let players = [];
  const show = () => {
    const q = search.value.trim().toLowerCase();
    const found = players.filter((p) => !q || p.id === q || p.nickname.toLowerCase().includes(q) || p.email.toLowerCase().includes(q));
    fill(results, staffGrid([TERMS.nickname, TERMS.email, TERMS.concessionaire, ["Since", "Dal"]], found.map((p) => ({
      attrs: { "data-player": p.id },
      cells: [h("a", { href: `#/staff/player/${encodeURIComponent(p.id)}` }, p.nickname), p.email, p.concessionaire_id, when(p.created_at)],
    }))));
  };
  search.addEventListener("input", show);
  body.append(h("section", { class: "panel" }, h("h2", {}, staffTerm("players")), h("label", {}, both("Search", "Cerca"), search), results));
  request("GET", "/players?limit=500").then((list) => { players = list; show(); })
    .catch((problem) => fill(results, h("p", { class: "error refused", role: "alert" }, problemText(problem))));
});

/* ---- one player ------------------------------------------------------------------------------------------ */
staffPage("#/staff/player/:id", (body, { id }) => {
  const base = `/players/${encodeURIComponent(id)}`;
  const get = (path) => () => request("GET", base + path);
  body.append(
    staffSection(both("Player", "Giocatore"), get(""), playerFacts, { class: "panel player-facts" }),
    staffSection(term("balance"), get("/accounts"), (found) => staffGrid([["Currency", "Valuta"], ["Kind", "Tipo"], TERMS.balance],
      found.accounts.map((a) => [a.currency, a.kind, money(a.balance, a.currency, a.minor_units)]))),
    staffSection(term("statement"), get("/statement?limit=30"), (found) => staffGrid([STAFF_TERMS.when, ["Operation", "Operazione"], STAFF_TERMS.amount],
      statementLines(found.items).map((line) => ({ attrs: { "data-kind": line.operation_kind }, cells: [when(line.created_at), [words(PURPOSES, line.operation_kind), partsNote(line, 2)], money(line.amount, line.account.currency)] }))), { class: "panel player-statement" }),
    staffSection(term("tournaments"), get("/tournaments"), (list) => staffGrid([STAFF_TERMS.name, STAFF_TERMS.status, TERMS.position, TERMS.prize],
      list.map((t) => [h("a", { href: `#/staff/tournament/${encodeURIComponent(t.tournament_id)}` }, t.name), statusWord(t.status), t.position ? `#${t.position}` : "—", t.prize_cents ? cents(t.prize_cents) : "—"]))),
    staffSection(term("coupons"), get("/coupons?limit=20"), (list) => staffGrid([TERMS.draw, TERMS.bets, TERMS.cost, STAFF_TERMS.status],
      list.map((c) => ({ attrs: { "data-coupon": c.coupon_id }, cells: [c.draw_id, num(c.bets), `${c.amount_text} ${c.currency}`, statusWord(c.status)] })))),
    staffSection(both("Rating and tier", "Punteggio e fascia"), get("/rating"), (r) => h("p", { class: "rating" },
      term("rating"), `: ${num(r.rating, 1)} · `, term("tier"), ": ", tierLabel(r.tier_label), r.rank ? ` · #${num(r.rank)}` : "")),
    staffSection(both("Conduct and sanctions", "Condotta e sanzioni"), get("/conduct"), conductView, { class: "panel player-conduct" }),
    staffSection(both("Protection settings", "Strumenti di tutela"), get("/protection"), protectionView, { class: "panel player-protection" }),
    staffSection(both("Protection history", "Storico della tutela"), get("/protection/history"), (found) => protectionHistoryTable(found.changes),
      { class: "panel protection-history" }),
  );
});

function playerFacts(p) {
  return h("dl", { class: "facts", "data-player": p.id },
    h("dt", {}, term("nickname")), h("dd", { class: "nickname" }, p.nickname),
    h("dt", {}, term("email")), h("dd", {}, p.email),
    h("dt", {}, term("dateOfBirth")), h("dd", {}, dayOf(p.date_of_birth)),
    h("dt", {}, term("concessionaire")), h("dd", {}, p.concessionaire_id),
    h("dt", {}, "Id"), h("dd", { class: "code" }, p.id));
}

function conductView(conduct) {
  const suggestion = conduct.suggestion;
  return [
    suggestion ? h("p", { class: "suggestion" }, both("Suggested (advisory, P-12.2)", "Suggerita (indicativa, P-12.2)"), ": ", words(SANCTION_KINDS, suggestion.kind),
      suggestion.duration ? ` · ${suggestion.duration}` : "") : null,
    staffGrid([STAFF_TERMS.when, ["Sanction", "Sanzione"], ["Offence", "Infrazione"], ["Gravity", "Gravità"], ["Ends", "Fine"], ["Appeal", "Ricorso"]],
      conduct.sanctions.map((s) => ({ attrs: { "data-sanction": s.sanction_id }, cells: [when(s.decided_at), words(SANCTION_KINDS, s.kind), s.offence.replaceAll("_", " "),
        words(GRAVITIES, s.gravity), s.ends_at ? when(s.ends_at) : "—", appealCell(s)] })),
      both("No sanctions.", "Nessuna sanzione.")),
  ];
}

/* An appeal waiting for a decision can be decided here (it stays in force meanwhile). */
function appealCell(sanction) {
  const appeal = sanction.appeal;
  if (!appeal) return "—";
  if (appeal.outcome) return appeal.outcome.replaceAll("_", " ");
  const decide = (outcome, words) => actionButton(both(...words), async () => {
    await request("POST", `/sanctions/${encodeURIComponent(sanction.sanction_id)}/appeal/decision`, { outcome });
    toast(say("Appeal decided", "Ricorso deciso"));
  });
  return [appeal.grounds, " ", decide("sanction_upheld", ["Uphold", "Conferma"]), decide("sanction_overturned", ["Overturn", "Annulla"])];
}

function protectionView(p) {
  const exclusion = p.self_exclusion;
  const current = p.session;
  return h("dl", { class: "facts" },
    h("dt", {}, both("Self-exclusion", "Autoesclusione")), h("dd", { class: "self-exclusion" },
      exclusion ? [words(EXCLUSION_TERMS, exclusion.term), " · ", when(exclusion.starts_at), " → ", exclusion.ends_at ? when(exclusion.ends_at) : both("permanent", "permanente"),
        exclusion.in_force ? [" · ", both("in force", "in vigore")] : ""] : staffTerm("none")),
    h("dt", {}, both("Reality check", "Promemoria di sessione")), h("dd", {}, p.reality_check_minutes ? `${num(p.reality_check_minutes)} min` : "—"),
    h("dt", {}, both("Session limit", "Limite di sessione")), h("dd", {}, p.session_limit_minutes ? `${num(p.session_limit_minutes)} min` : "—"),
    h("dt", {}, both("Current session", "Sessione in corso")), h("dd", {}, current
      ? [when(current.started_at), ` · ${num(Math.round(current.elapsed_seconds / 60))} min`, current.limit_reached ? [" · ", both("limit reached", "limite raggiunto")] : ""]
      : "—"));
}

/* ---- the reports queue ----------------------------------------------------------------------------------- */
staffPage("#/staff/reports", (body) => {
  body.append(staffSection(staffTerm("reports"), () => request("GET", "/reports?status=open"), reportsQueue, { class: "panel reports" }));
});

function reportsQueue(reports, reload) {
  return staffGrid([STAFF_TERMS.when, ["Offender", "Segnalato"], ["Offence", "Infrazione"], ["Description", "Descrizione"], ["Decision", "Decisione"]],
    reports.map((r) => ({ attrs: { "data-report": r.report_id }, cells: [when(r.filed_at),
      h("a", { href: `#/staff/player/${encodeURIComponent(r.offender_id)}` }, `#${r.offender_id.slice(0, 8)}`),
      r.offence.replaceAll("_", " "), r.description || "—", decisionForm(r, reload)] })),
    both("No open reports.", "Nessuna segnalazione aperta."));
}

/* A sanction on the report (the suggested kind pre-selected once the player's record is read), or a dismissal. */
function decisionForm(report, reload) {
  const kind = h("select", { name: "kind" }, Object.entries(SANCTION_KINDS).map(([code, words]) => h("option", { value: code }, say(...words))));
  const gravity = h("select", { name: "gravity" }, Object.entries(GRAVITIES).map(([code, words]) => h("option", { value: code }, say(...words))));
  const context = h("select", { name: "context" },
    h("option", { value: "after_tournament" }, say("After the tournament (P-12.4)", "Dopo il torneo (P-12.4)")),
    h("option", { value: "during_tournament" }, say("During the tournament (P-12.3)", "Durante il torneo (P-12.3)")));
  const params = new URLSearchParams({ offence: report.offence });
  request("GET", `/players/${encodeURIComponent(report.offender_id)}/conduct?${params}`)
    .then((conduct) => { if (conduct.suggestion) kind.value = conduct.suggestion.kind; }).catch(() => {});
  const reason = h("input", { name: "reason", placeholder: say("Reason", "Motivo") });
  return h("div", { class: "decision" }, kind, gravity, context, reason,
    actionButton(both("Sanction", "Sanziona"), async () => {
      await request("POST", "/sanctions", {
        report_ids: [report.report_id], kind: kind.value, gravity: gravity.value, context: context.value,
        offence: report.offence, tournament_id: report.tournament_id, reason: reason.value,
      });
      toast(say("Sanction imposed", "Sanzione inflitta"));
      reload();
    }, { class: "sanction" }),
    actionButton(both("Dismiss", "Archivia"), async () => {
      await request("POST", `/reports/${encodeURIComponent(report.report_id)}/dismissal`);
      reload();
    }, { class: "dismiss" }));
}

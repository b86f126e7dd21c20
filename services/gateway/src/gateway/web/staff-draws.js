/* The console's totalizator, for network administrators (T-1.5: they alone decide on a draw): a draft of 8 matches
 * with its currencies, minimum stakes, FX rates and jackpot top-up, its announcement, kick-offs, results and
 * voids with reasons, then the settlement preview (categories, coefficients, top-up, next jackpot: what settling
 * would pay, written nowhere) before settling, and the published files. */
"use strict";

staffPage("#/staff/draws", (body) => {
  body.append(newDrawForm(), staffSection(staffTerm("draws"), () => request("GET", "/admin/draws"), (draws) => staffGrid(
    [["Draw", "Concorso"], STAFF_TERMS.status, TERMS.closes, TERMS.jackpot],
    draws.map((d) => ({ attrs: { "data-draw": d.draw_id, "data-status": d.status }, cells: [
      h("a", { href: `#/staff/draw/${encodeURIComponent(d.draw_id)}` }, d.draw_id), statusWord(d.status), when(d.close_at), decimalMoney(d.jackpot_usd)] }))),
  { class: "panel draws" }));
}, { adminOnly: true });

/* The 8 matches' rows: home, away and scheduled kick-off (an hour after closing when left empty). */
function matchFields() {
  return h("fieldset", { class: "draw-matches" }, h("legend", {}, both("Matches", "Partite")),
    Array.from({ length: 8 }, (_, i) => h("div", { class: "draw-match", "data-match": i + 1 },
      h("span", { class: "no" }, `${i + 1}.`),
      h("input", { name: `home_${i + 1}`, required: true, placeholder: say("Home", "Casa"), "aria-label": say(`Match ${i + 1} home`, `Partita ${i + 1} casa`) }),
      h("input", { name: `away_${i + 1}`, required: true, placeholder: say("Away", "Ospiti"), "aria-label": say(`Match ${i + 1} away`, `Partita ${i + 1} ospiti`) }),
      h("input", { name: `kickoff_${i + 1}`, type: "datetime-local", "aria-label": say(`Match ${i + 1} kick-off`, `Partita ${i + 1} calcio d'inizio`) }))));
}

function newDrawForm() {
  return h("section", { class: "panel new-draw" }, h("h2", {}, both("New draw", "Nuovo concorso")),
    form(
      [
        field(both("Draw id", "Codice concorso"), "draw_id", { pattern: "[A-Za-z0-9_.-]+", maxlength: 40 }),
        field(both("Bets close at", "Chiusura delle giocate"), "close_at", { type: "datetime-local", step: 1 }),
        field(both("Currency", "Valuta"), "currency", { value: "EUR", pattern: "[A-Z]{3}" }),
        field(both("Minimum stake per bet", "Posta minima per colonna"), "min_stake", { value: "0.10", inputmode: "decimal" }),
        field(both("US dollars per unit (FX at announcement)", "Dollari USA per unità (cambio all'annuncio)"), "usd_rate", { value: "1.0843", inputmode: "decimal" }),
        optionalField(both("Jackpot top-up (USD)", "Integrazione del jackpot (USD)"), "jackpot_topup_usd", { inputmode: "decimal" }),
        optionalField(both("Top-up reason", "Motivo dell'integrazione"), "topup_reason"),
        matchFields(),
      ],
      both("Create the draft", "Crea la bozza"),
      async (values) => {
        const answer = await request("POST", "/admin/draws", drawBody(values));
        location.hash = `#/staff/draw/${encodeURIComponent(answer.draw_id)}`;
      },
    ));
}

function drawBody(values) {
  const closeAt = isoFromLocal(values.close_at);
  const laterKickoff = new Date(new Date(closeAt).getTime() + 3600 * 1000).toISOString();
  const matches = Array.from({ length: 8 }, (_, i) => ({
    home: values[`home_${i + 1}`], away: values[`away_${i + 1}`], kickoff: isoFromLocal(values[`kickoff_${i + 1}`]) || laterKickoff,
  }));
  return {
    draw_id: values.draw_id, close_at: closeAt, matches,
    currencies: [{ currency: values.currency, min_stake: values.min_stake, usd_rate: values.usd_rate }],
    ...(values.jackpot_topup_usd ? { jackpot_topup_usd: values.jackpot_topup_usd, topup_reason: values.topup_reason || null } : {}),
  };
}

/* ---- one draw -------------------------------------------------------------------------------------------- */
staffPage("#/staff/draw/:id", (body, { id }) => {
  const path = `/admin/draws/${encodeURIComponent(id)}`;
  const head = h("section", { class: "panel draw-head" });
  const matches = h("section", { class: "panel draw-results" });
  const settlement = h("section", { class: "panel draw-settlement" });
  const decisions = h("section", { class: "panel draw-decisions" });
  body.append(head, matches, settlement, decisions);
  let shown = null;
  const refresh = async () => {
    const draw = await request("GET", path).catch((problem) => { fill(head, h("p", { class: "error refused", role: "alert" }, problemText(problem))); return null; });
    if (!draw) return;
    fill(head, drawHead(draw, path, refresh));
    const state = `${draw.status}|${draw.matches.map((m) => `${m.score}${m.void}`).join(",")}`;
    if (state === shown) return; // the result fields keep what is being typed until the draw changes
    shown = state;
    fill(matches, h("h2", {}, both("Kick-offs, results and voids", "Calci d'inizio, risultati e annullamenti")), draw.matches.map((m) => matchRow(m, path, refresh)));
    fill(settlement, settlementPanel(draw, path, refresh));
    request("GET", `${path}/decisions`).then((list) => fill(decisions, h("h2", {}, both("Decisions (T-1.5)", "Decisioni (T-1.5)")), decisionList(list))).catch(() => {});
  };
  return every(3, refresh);
}, { adminOnly: true });

function drawHead(draw, path, refresh) {
  const announce = draw.status === "draft"
    ? actionButton(both("Announce: open for bets", "Annuncia: apri le giocate"), async () => { await request("POST", `${path}/announce`); await refresh(); }, { class: "announce" })
    : null;
  return [
    h("h2", { "data-status": draw.status }, draw.draw_id, " — ", statusWord(draw.status)),
    h("dl", { class: "facts" },
      h("dt", {}, term("closes")), h("dd", {}, when(draw.close_at)),
      h("dt", {}, term("jackpot")), h("dd", {}, decimalMoney(draw.jackpot_usd), draw.jackpot_topup_usd !== "0" ? ` (${say("top-up", "integrazione")} ${decimalMoney(draw.jackpot_topup_usd)})` : ""),
      h("dt", {}, both("Currencies", "Valute")), h("dd", {}, draw.currencies.map((c) => `${c.currency} ≥ ${c.min_stake} (${c.usd_rate} USD)`).join(", ")),
      h("dt", {}, both("Coupons waiting for the wallet", "Schedine in attesa del portafoglio")), h("dd", {}, num(draw.pending_coupons))),
    announce,
  ];
}

/* A match: its score (a correction needs a reason, T-1.5), the actual kick-off, a void with its reason. */
function matchRow(match, path, refresh) {
  const base = `${path}/matches/${match.no}`;
  const score = h("input", { name: "score", value: match.score || "", placeholder: "2:1", size: 5, pattern: "\\d{1,2}:\\d{1,2}", "aria-label": say("Score", "Risultato") });
  const reason = h("input", { name: "reason", placeholder: say("Reason (corrections, voids)", "Motivo (correzioni, annullamenti)") });
  const kickoff = h("input", { name: "kickoff", type: "datetime-local", "aria-label": say("Actual kick-off", "Calcio d'inizio effettivo") });
  const why = () => (reason.value.trim() ? { reason: reason.value.trim() } : {});
  return h("div", { class: "draw-match", "data-match": match.no, "data-void": String(match.void) },
    h("span", { class: "no" }, `${match.no}.`), h("span", { class: "teams" }, `${match.home} – ${match.away}`),
    h("span", { class: "muted" }, when(match.actual_kickoff || match.kickoff)),
    match.void ? h("strong", { class: "void" }, both("Void", "Annullata")) : null,
    score,
    actionButton(staffTerm("save"), async () => {
      const [home, away] = score.value.split(":").map(Number);
      await request("PUT", `${base}/result`, { home, away, ...why() });
      await refresh();
    }, { class: "save-result" }),
    reason,
    actionButton(both("Void", "Annulla"), async () => { await request("POST", `${base}/void`, why()); await refresh(); }, { class: "void-match" }),
    kickoff,
    actionButton(both("Record kick-off", "Registra il calcio d'inizio"), async () => {
      await request("PUT", `${base}/kickoff`, { kickoff: isoFromLocal(kickoff.value), ...why() });
      await refresh();
    }, { class: "record-kickoff" }));
}

function settlementPanel(draw, path, refresh) {
  const encoded = encodeURIComponent(draw.draw_id);
  const files = ["settled", "closed", "settling"].includes(draw.status)
    ? h("p", { class: "files" }, both("Published files", "File pubblicati"), ": ",
      h("a", { href: `/api/v1/draws/${encoded}/files/draw.json` }, "draw.json"), " · ", h("a", { href: `/api/v1/draws/${encoded}/files/bets.csv` }, "bets.csv"))
    : null;
  if (draw.status === "settled" || draw.status === "settling") {
    return [h("h2", {}, both("Settlement", "Liquidazione")), files,
      staffSection(both("Report (T-8.4)", "Resoconto (T-8.4)"), () => request("GET", `/draws/${encoded}/settlement`), settlementReport, { class: "settlement-report" })];
  }
  if (draw.status !== "closed") return [h("h2", {}, both("Settlement", "Liquidazione")), h("p", { class: "muted" }, both("Once bets are closed.", "A giocate chiuse."))];
  const preview = h("div", { class: "settlement-preview" });
  const settle = actionButton(both("Settle and pay out", "Liquida e paga"), async () => { await request("POST", `${path}/settle`); await refresh(); }, { class: "danger settle", hidden: true });
  const show = actionButton(both("Preview the settlement", "Anteprima della liquidazione"), async () => {
    const report = await request("GET", `${path}/settlement-preview`);
    fill(preview, settlementReport(report));
    settle.hidden = !report.final_count;
  }, { class: "preview-settlement" });
  return [h("h2", {}, both("Settlement", "Liquidazione")), files, show, preview, settle];
}

/* The verifier's report: categories and coefficients, the jackpot's parts and the next jackpot, the payouts. */
function settlementReport(r) {
  const jackpot = r.jackpot;
  return h("div", { class: "report", "data-refunded": String(r.refunded) },
    r.refunded ? h("p", { class: "error" }, both("Three or more void matches: every coupon is refunded (T-5.5).", "Tre o più partite annullate: ogni schedina è rimborsata (T-5.5).")) : null,
    h("dl", { class: "facts" },
      h("dt", {}, term("coupons")), h("dd", {}, num(r.coupons)), h("dt", {}, term("bets")), h("dd", {}, num(r.bets)),
      h("dt", {}, both("Pool", "Montepremi")), h("dd", {}, decimalMoney(r.pool_usd)),
      h("dt", {}, both("Prize fund", "Fondo premi")), h("dd", {}, decimalMoney(r.prize_fund_usd)),
      h("dt", {}, both("Organizer top-up", "Integrazione dell'organizzatore")), h("dd", {}, decimalMoney(r.organizer_topup_usd)),
      h("dt", {}, both("Jackpot played", "Jackpot in palio")), h("dd", {}, decimalMoney(jackpot.played_usd)),
      h("dt", {}, both("Next jackpot", "Jackpot del prossimo concorso")), h("dd", { class: "next-jackpot" }, decimalMoney(jackpot.next_usd)),
      h("dt", {}, both("Paid out", "Pagato")), h("dd", { class: "paid" }, decimalMoney(r.paid_usd))),
    staffGrid([["Category", "Categoria"], ["Rights", "Punti"], ["Fund", "Fondo"], TERMS.bets],
      r.categories.map((c) => [String(c.category), `≥ ${c.min_right}`, decimalMoney(c.fund_usd), num(c.bets)])),
    staffGrid([["Rights", "Punti"], ["Coefficient", "Coefficiente"]], r.coefficients.map((c) => [String(c.right), c.coefficient])),
    staffGrid([TERMS.coupon, STAFF_TERMS.amount],
      r.payouts.map((p) => ({ attrs: { "data-coupon": p.coupon_id }, cells: [p.coupon_id, `${p.amount} ${p.currency}`] })),
      both("No winning coupons.", "Nessuna schedina vincente.")));
}

const DECISION_WORDS = {
  create: ["Drafted", "Bozza creata"], announce: ["Announced", "Annunciato"], kickoff: ["Kick-off recorded", "Calcio d'inizio registrato"],
  result: ["Result entered", "Risultato inserito"], void: ["Match voided", "Partita annullata"], settle: ["Settled", "Liquidato"], cancel: ["Cancelled", "Annullato"],
};

/* Every staff decision on the draw with its reason, as the totalizator keeps them (T-1.5). */
function decisionList(list) {
  return staffGrid([STAFF_TERMS.when, ["Decision", "Decisione"], ["Match", "Partita"], STAFF_TERMS.reason, ["By", "Da"]],
    list.map((d) => [when(d.decided_at), words(DECISION_WORDS, d.action), d.match_no ?? "—", d.reason || "—", d.role]));
}

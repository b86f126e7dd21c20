/* The console's tournaments: the staff member's own (the lobby lists the network's; `concessionaire_id` says whose),
 * a new one from a template or from a whole definition (the director's validation messages shown as it gives
 * them), recurring sit'n'gos (created with the box ticked, stopped from the list), and one tournament's page:
 * start, pause for a technical problem and resume, cancel with a reason after the refund preview with each
 * player's amount (P-10, P-3.2), and while it runs its clock, tables, players and chips. */
"use strict";

const STARTABLE = new Set(["announced", "registering"]);
const CANCELLABLE = new Set(["announced", "registering", "running"]);
const KINDS = { sit_and_go: ["Sit'n'go", "Sit'n'go"], scheduled: ["Scheduled", "Programmato"] };

staffPage("#/staff/tournaments", (body) => {
  body.append(newTournamentForm());
  const list = h("div", { class: "tournament-list" });
  body.append(h("section", { class: "panel" }, h("h2", {}, staffTerm("tournaments")), list));
  return every(5, async () => {
    const all = await request("GET", "/tournaments").catch((problem) => { fill(list, h("p", { class: "error" }, problemText(problem))); return null; });
    if (all) fill(list, tournamentGrid(all.filter((t) => staff.inScope(t.concessionaire_id))));
  });
});

function tournamentGrid(tournaments) {
  const rows = tournaments.map((t) => ({
    attrs: { "data-tournament": t.tournament_id, "data-status": t.status },
    cells: [
      h("a", { href: `#/staff/tournament/${encodeURIComponent(t.tournament_id)}` }, t.name),
      words(KINDS, t.kind),
      statusWord(t.status),
      `${num(t.registered)} / ${num(t.max_players)}`,
      `${cents(t.buy_in_prize_cents, t.currency)} + ${cents(t.buy_in_fee_cents, t.currency)}`,
      when(t.starts_at),
      recurrenceCell(t),
    ],
  }));
  return staffGrid([STAFF_TERMS.name, ["Kind", "Tipo"], STAFF_TERMS.status, TERMS.players, TERMS.buyIn, ["Starts", "Inizio"], ["Recurring", "Ricorrente"]], rows);
}

/* A recurring sit'n'go re-opens as an identical one when it fills; stopping it ends the chain with this one (it
 * still plays). Only the one taking registrations can be stopped: the ones already full opened their successor. */
function recurrenceCell(t) {
  if (!t.recurring) return "—";
  if (t.status !== "registering") return both("Yes", "Sì");
  return h("span", { class: "recurring" }, both("Yes", "Sì"), " ", actionButton(both("Stop recurring", "Interrompi"), async () => {
    await request("DELETE", `/tournaments/${encodeURIComponent(t.tournament_id)}/recurrence`);
    toast(say("It will not re-open when full", "Non si riaprirà quando è pieno"));
  }, { class: "secondary stop-recurring" }));
}

/* From a template (its parameters as the director names them) or from a whole definition in JSON. */
function newTournamentForm() {
  const templates = h("select", { name: "template" });
  const definition = h("textarea", { name: "definition", rows: 12, spellcheck: "false", class: "code" });
  const fromScratch = h("input", { type: "checkbox", name: "from_scratch", value: "yes" });
  let known = [];
  const showDefinition = () => {
    const chosen = known.find((t) => t.template === templates.value);
    if (chosen) definition.value = JSON.stringify(chosen.definition, null, 2);
  };
  templates.addEventListener("change", showDefinition);
  loadTemplates(templates, (list) => { known = list; showDefinition(); });
  const created = h("p", { class: "muted created" });
  return h("section", { class: "panel new-tournament" }, h("h2", {}, both("New tournament", "Nuovo torneo")),
    form(
      [
        h("label", {}, both("Template", "Modello"), templates),
        field(staffTerm("name"), "name", { maxlength: 120 }),
        field(both("Buy-in: prize part (€)", "Iscrizione: quota montepremi (€)"), "prize_part", { inputmode: "decimal", value: "9.00" }),
        field(both("Buy-in: fee (€)", "Iscrizione: commissione (€)"), "fee", { inputmode: "decimal", value: "1.00" }),
        optionalField(both("Starts at (scheduled)", "Inizio (torneo programmato)"), "starts_at", { type: "datetime-local" }),
        h("label", { class: "inline" }, h("input", { type: "checkbox", name: "recurring", value: "yes" }),
          both("Recurring sit'n'go: an identical one opens each time it fills", "Sit'n'go ricorrente: se ne apre uno identico ogni volta che si riempie")),
        h("label", { class: "inline" }, fromScratch, both("From scratch: the whole definition below", "Da zero: tutta la definizione qui sotto")),
        h("details", {}, h("summary", {}, both("Definition: structure, blinds, payouts", "Definizione: struttura, bui, premi")), definition),
      ],
      both("Create", "Crea"),
      async (values) => {
        const answer = await request("POST", "/tournaments", tournamentBody(values));
        fill(created, both(`Created: ${answer.name}`, `Creato: ${answer.name}`));
        location.hash = `#/staff/tournament/${encodeURIComponent(answer.tournament_id)}`;
      },
    ),
    created);
}

/* The director's templates as the options of `select`; `loaded(list)` once they are in. */
function loadTemplates(select, loaded = () => {}) {
  request("GET", "/tournament-templates").then((list) => {
    fill(select, list.map((t) => h("option", { value: t.template }, t.template.replaceAll("_", " "))));
    loaded(list);
  }).catch((problem) => fill(select, h("option", { value: "" }, problemText(problem))));
}

/* The body the director validates; amounts it cannot read are sent as given, for it to name the field. */
function tournamentBody(values) {
  const buyIn = { prize_part_cents: parseMinor(values.prize_part) ?? values.prize_part, fee_cents: parseMinor(values.fee) ?? values.fee };
  const startsAt = isoFromLocal(values.starts_at);
  const recurring = values.recurring ? { recurring: true } : {};
  if (values.from_scratch) {
    let definition;
    try { definition = JSON.parse(values.definition); } catch (error) {
      throw { code: "validation_failed", title: `Definition: ${error.message}` };
    }
    return { ...definition, name: values.name, buy_in: buyIn, ...(startsAt ? { starts_at: startsAt } : {}), ...recurring };
  }
  return { template: values.template, name: values.name, buy_in: buyIn, ...(startsAt ? { starts_at: startsAt } : {}), ...recurring };
}

/* ---- one tournament ------------------------------------------------------------------------------------- */
staffPage("#/staff/tournament/:id", (body, { id }) => {
  const path = `/tournaments/${encodeURIComponent(id)}`;
  const summary = h("section", { class: "panel tournament-summary" });
  const actions = h("section", { class: "panel tournament-actions" });
  const live = h("section", { class: "panel tournament-live" });
  body.append(summary, actions, live);
  let shownStatus = null;
  return every(3, async () => {
    try {
      const tournament = await request("GET", path);
      if (!staff.inScope(tournament.concessionaire_id)) { // the lobby is public; the console keeps to one's own
        fill(summary, h("p", { class: "error refused", role: "alert", "data-status": 403 }, both("Another concessionaire's tournament.", "Torneo di un altro concessionario.")));
        return;
      }
      const standings = await request("GET", `${path}/standings`);
      const name = await nicknames(standings.players.map((p) => p.player_id));
      fill(summary, tournamentSummary(tournament));
      fill(live, tournamentLive(tournament, standings, name));
      const state = `${tournament.status}${tournament.clock?.paused_at ? ":paused" : ""}`;
      if (state !== shownStatus) { // the actions keep a half-typed reason until the status changes
        shownStatus = state;
        fill(actions, tournamentActions(tournament, standings, name));
      }
    } catch (problem) {
      fill(summary, h("p", { class: "error refused", role: "alert", "data-status": problem.status || "" }, problemText(problem)));
    }
  });
});

function tournamentSummary(t) {
  const schedule = t.payout_schedule;
  return [
    h("h2", { "data-status": t.status }, t.name, " — ", statusWord(t.status)),
    h("dl", { class: "facts" },
      h("dt", {}, term("buyIn")), h("dd", {}, `${cents(t.buy_in_prize_cents, t.currency)} + ${cents(t.buy_in_fee_cents, t.currency)}`),
      h("dt", {}, term("players")), h("dd", { class: "registered" }, `${num(t.registered)} / ${num(t.max_players)}`),
      h("dt", {}, term("prizePool")), h("dd", {}, cents(t.prize_pool_cents, t.currency)),
      t.end_reason ? [h("dt", {}, staffTerm("reason")), h("dd", { class: "end-reason" }, t.end_reason)] : null,
      schedule ? [h("dt", {}, term("payouts")), h("dd", { class: "payout-schedule" },
        both(`for ${numEn(schedule.entrants)} players: `, `per ${numIt(schedule.entrants)} giocatori: `),
        schedule.shares_bps.map((bps) => `${num(bps / 100, 2)}%`).join(" · "))] : null),
  ];
}

/* The clock, the tables with chips, and the standings (positions and prizes once players are out). */
function tournamentLive(t, standings, name) {
  const clock = t.clock;
  const tables = (t.tables || []).map((table) => h("div", { class: "staff-table", "data-table": table.table_id },
    h("h3", {}, term("table"), ` ${table.table_id}`),
    staffGrid([["Seat", "Posto"], TERMS.nickname, TERMS.chips], table.players.map((p) => [String(p.seat), name(p.player_id), num(p.chips)]))));
  const rows = standings.players.map((p) => ({
    attrs: { "data-player": p.player_id, "data-position": p.position ?? "" },
    cells: [p.position ? `#${p.position}` : "—", name(p.player_id), p.chips == null ? "—" : num(p.chips), p.prize_cents ? cents(p.prize_cents, t.currency) : "—"],
  }));
  return [
    pausedNotice(clock),
    clock ? h("p", { class: "clock" }, term("level"), ` ${clock.level} · `, term("blinds"), ` ${num(clock.small_blind)}/${num(clock.big_blind)}`,
      clock.ante ? ` (ante ${num(clock.ante)})` : "", clock.on_break ? [" · ", both("on break", "in pausa")] : "",
      " · ", both("next change", "prossimo cambio"), ` ${when(clock.ends_at)}`) : null,
    tables.length ? h("div", { class: "staff-tables" }, tables) : null,
    h("h3", {}, term("standings")),
    h("div", { class: "standings" }, staffGrid([TERMS.position, TERMS.nickname, TERMS.chips, TERMS.prize], rows)),
  ];
}

function tournamentActions(t, standings, name) {
  const path = `/tournaments/${encodeURIComponent(t.tournament_id)}`;
  const start = STARTABLE.has(t.status)
    ? actionButton(both("Start now", "Avvia ora"), async () => { await request("POST", `${path}/start`); toast(say("Started", "Avviato")); }, { class: "start" })
    : null;
  if (!CANCELLABLE.has(t.status)) return [h("h2", {}, both("Actions", "Azioni")), h("p", { class: "muted" }, staffTerm("none"))];
  const reason = h("textarea", { name: "reason", rows: 2, minlength: 3, maxlength: 500, class: "cancel-reason" });
  const preview = h("div", { class: "refund-preview" });
  const outcome = h("div", { class: "cancel-outcome" });
  const key = newIdempotencyKey(); // the same cancellation, if the confirmation is clicked again
  const confirm = actionButton(both("Confirm the cancellation", "Conferma l'annullamento"), async () => {
    const answer = await request("POST", `${path}/cancellation`, { reason: reason.value }, { headers: { "Idempotency-Key": key } });
    fill(outcome, cancellationOutcome(answer, t.currency, name));
  }, { class: "danger confirm-cancel", hidden: true });
  const show = actionButton(both("Cancel: preview the refunds", "Annulla: anteprima dei rimborsi"), async () => {
    if (reason.value.trim().length < 3) { fill(preview, h("p", { class: "error" }, both("Give a reason (3 characters or more).", "Indica un motivo (almeno 3 caratteri)."))); return; }
    fill(preview, refundPreview(t, await request("GET", `${path}/cancellation-preview`), standings, name));
    confirm.hidden = false;
  }, { class: "preview-cancel" });
  return [
    h("h2", {}, both("Actions", "Azioni")), start, t.status === "running" ? pauseControl(t, path) : null,
    h("label", {}, both("Reason for cancelling", "Motivo dell'annullamento"), reason), show, preview, confirm, outcome,
  ];
}

/* A technical problem: pause (the clock stops, no new hand is dealt; players see it at once) with the problem
 * named, and resume. The page redraws the actions when the pause begins or ends. */
function pauseControl(t, path) {
  if (t.clock?.paused_at) {
    return h("div", { class: "actions pause-control" }, actionButton(both("Resume the tournament", "Riprendi il torneo"), async () => {
      await request("POST", `${path}/resume`);
      toast(say("Resumed", "Ripreso"));
    }, { class: "resume" }));
  }
  const problem = h("input", { name: "pause_reason", minlength: 3, maxlength: 500, class: "pause-reason",
    placeholder: say("The technical problem, as players are told", "Il problema tecnico, come lo leggono i giocatori") });
  return h("div", { class: "actions pause-control" }, problem, actionButton(both("Pause (technical problem)", "Metti in pausa (problema tecnico)"), async () => {
    await request("POST", `${path}/pause`, { reason: problem.value });
    toast(say("Paused", "In pausa"));
  }, { class: "secondary pause" }));
}

/* What cancelling now would refund, per player, as the director computes it (the cancellation's own calculation,
 * nothing written): every entry in full before the start; while running the P-10 rule it names, on each table's
 * last completed hand. */
function refundPreview(t, previewed, standings, name) {
  const rule = STARTABLE.has(t.status)
    ? both("Not started: every entry is paid back in full (P-10).", "Non iniziato: ogni iscrizione viene rimborsata per intero (P-10).")
    : both(`Running: refunds by rule ${previewed.rule} on each table's last completed hand; a hand in progress is void.`,
      `In corso: rimborsi secondo la regola ${previewed.rule} sull'ultima mano conclusa di ogni tavolo; la mano in corso è annullata.`);
  const left = standings.players.filter((p) => !p.position).length;
  return [
    h("p", { class: "preview-rule", "data-rule": previewed.rule }, rule),
    STARTABLE.has(t.status) ? null : h("p", {}, both(`${numEn(left)} still in; prize pool ${cents(t.prize_pool_cents, t.currency)}.`,
      `${numIt(left)} ancora in gioco; montepremi ${cents(t.prize_pool_cents, t.currency)}.`)),
    refundGrid(previewed.refunds, previewed.currency, name),
    h("p", { class: "preview-total" }, both("Total", "Totale"), `: ${cents(previewed.total_cash_cents, previewed.currency)}`),
  ];
}

function refundGrid(refunds, currency, name) {
  return staffGrid([TERMS.nickname, ["Refund", "Rimborso"], TERMS.tickets],
    refunds.map((r) => ({ attrs: { "data-player": r.player_id }, cells: [name(r.player_id), cents(r.cash_cents, currency), num(r.tickets)] })));
}

function cancellationOutcome(answer, currency, name) {
  const refunds = answer.refunds || [];
  return [
    h("p", { class: "cancelled", "data-rule": answer.rule || "" }, both("Cancelled", "Annullato"), answer.rule ? ` (${answer.rule})` : ""),
    refundGrid(refunds, currency, name),
  ];
}

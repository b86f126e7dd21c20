/* Player protection in the player's own client (issue 17, docs/player-protection.md): the settings on the account
 * page (self-exclusion, deposit limits with their cooling-off, reality check and session limit, the history),
 * and the reality check itself, shown over whatever page the player is on (the table included) when the
 * interval they chose comes round: the session's time and net result, as the API reckons them.
 * The console's player page (staff-players.js) shows the same history with `protectionHistoryTable`. */
"use strict";

const EXCLUSION_TERMS = {
  "30_days": ["30 days", "30 giorni"],
  "60_days": ["60 days", "60 giorni"],
  "90_days": ["90 days", "90 giorni"],
  permanent: ["Permanent", "A tempo indeterminato"],
};
const PROTECTION_SETTINGS = {
  self_exclusion: ["Self-exclusion", "Autoesclusione"],
  reality_check: ["Reality check", "Promemoria di sessione"],
  session_limit: ["Session time limit", "Limite di durata della sessione"],
  deposit_limit: ["Deposit limit", "Limite di deposito"],
};
const LIMIT_PERIODS = { day: ["Daily", "Giornaliero"], week: ["Weekly", "Settimanale"], month: ["Monthly", "Mensile"] };

function minutesText(minutes) {
  return both(`${numEn(minutes)} min`, `${numIt(minutes)} min`);
}

/* "1 h 05 min" of a session, from seconds. */
function durationText(seconds) {
  const minutes = Math.floor(seconds / 60);
  const text = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min` : `${minutes} min`;
  return h("span", { class: "duration" }, text);
}

/* The net result of play per currency ("+€3.00 · −$1.00"); nothing played yet reads as zero. */
function netResultText(net) {
  const entries = Object.entries(net || {});
  if (!entries.length) entries.push(["EUR", 0]); // nothing played yet this session
  return h("span", { class: "net" }, entries.flatMap(([currency, amount], i) => [i ? " · " : "",
    h("span", { "data-currency": currency, "data-net": String(amount) }, `${amount > 0 ? "+" : ""}${money(amount, currency)}`)]));
}

/* One change of the history: a deposit limit's value is money, an interval minutes, a term a term. */
function historyValue(change) {
  if (change.value == null) return both("off", "nessuno");
  if (change.setting === "deposit_limit") return money(Number(change.value), change.currency || "EUR");
  if (change.setting === "self_exclusion") return words(EXCLUSION_TERMS, change.value);
  return minutesText(Number(change.value));
}

function protectionHistoryTable(changes) {
  if (!changes.length) return h("p", { class: "muted empty" }, both("No changes yet.", "Ancora nessuna modifica."));
  const columns = [["When", "Quando"], ["Setting", "Impostazione"], ["Value", "Valore"], ["In force", "In vigore"], ["By", "Da"]];
  return stackable(h("table", { class: "grid protection-history" },
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", {}, both(...c))))),
    h("tbody", {}, changes.map((c) => h("tr", { "data-setting": c.setting, "data-period": c.period || "" },
      h("td", {}, when(c.changed_at)),
      h("td", {}, words(PROTECTION_SETTINGS, c.setting), c.period ? [" · ", words(LIMIT_PERIODS, c.period)] : ""),
      h("td", {}, historyValue(c)),
      h("td", {}, when(c.effective_from), c.effective_until ? ` → ${when(c.effective_until)}` : ""),
      h("td", { class: "muted" }, c.changed_by))))));
}

/* ---- the account page's section ------------------------------------------------------------------------- */

/* Filled by account.js's page for the signed-in player; every part reloads after a change. */
function showProtection(panel, me) {
  const base = `/players/${encodeURIComponent(me)}/protection`;
  const parts = {
    exclusion: h("div", { class: "self-exclusion" }),
    session: h("div", { class: "session-settings" }),
    limits: h("div", { class: "deposit-limits" }),
    history: h("div", { class: "history" }),
  };
  fill(panel,
    h("h2", {}, both("Responsible gaming", "Gioco responsabile")),
    h("h3", {}, both("Session time", "Tempo di sessione")), parts.session,
    h("h3", {}, both("Deposit limits", "Limiti di deposito")), parts.limits,
    h("h3", {}, both("Self-exclusion", "Autoesclusione")), parts.exclusion,
    h("h3", {}, both("History of these settings", "Storico delle impostazioni")), parts.history);

  const failed = (node) => (problem) => fill(node, h("p", { class: "error", role: "alert" }, problemText(problem)));
  /* The history is drawn after the settings, so that a change shown in it is shown in the form too: drawn in
   * whichever order the answers came, a form redrawn late replaced what the player had started typing. */
  const reload = () => {
    request("GET", base).then((p) => { sessionPart(parts.session, base, p, reload); exclusionPart(parts.exclusion, base, p, reload); })
      .catch(failed(parts.session))
      .then(() => request("GET", `${base}/history`))
      .then((found) => fill(parts.history, protectionHistoryTable(found.changes))).catch(failed(parts.history));
    Promise.all([request("GET", `${base}/deposit-limits`), request("GET", `/players/${encodeURIComponent(me)}/accounts`)])
      .then(([limits, found]) => limitsPart(parts.limits, base, limits, found.accounts, reload)).catch(failed(parts.limits));
  };
  reload();
}

function sessionPart(node, base, p, reload) {
  const current = p.session;
  const minutes = (name, value, [low, high]) => h("input", { name, type: "number", min: low, max: high, step: 1, value: value ?? "", inputmode: "numeric" });
  const facts = current ? h("p", { class: "session-now" },
    both("This session", "Questa sessione"), ": ", durationText(current.elapsed_seconds), " · ",
    both("net result", "risultato netto"), " ", netResultText(current.net_result),
    current.ends_at ? [" · ", both("play ends at", "il gioco termina alle"), " ", when(current.ends_at)] : "") : null;
  fill(node, facts, form([
    h("label", {}, both("Reality check every (minutes, 5–240; empty: off)", "Promemoria ogni (minuti, 5–240; vuoto: nessuno)"),
      minutes("reality_check_minutes", p.reality_check_minutes, [5, 240])),
    h("label", {}, both("Session time limit (minutes, 15–1440; empty: none)", "Limite di durata (minuti, 15–1440; vuoto: nessuno)"),
      minutes("session_limit_minutes", p.session_limit_minutes, [15, 1440])),
  ], both("Save", "Salva"), async (values) => {
    const asMinutes = (text) => (text.trim() === "" ? null : Number(text));
    await request("PUT", `${base}/session`, {
      reality_check_minutes: asMinutes(values.reality_check_minutes), session_limit_minutes: asMinutes(values.session_limit_minutes),
    });
    toast(say("Session settings saved", "Impostazioni di sessione salvate"));
    realityCheck.schedule();
    reload();
  }));
}

/* The limits of each currency the player holds an account in (and of any they set limits in; euros before the
 * first account), one after the other, with the cooling-off rule once. */
function limitsPart(node, base, answer, accounts, reload) {
  const units = new Map(accounts.map((a) => [a.currency, a.minor_units])); // a bonus account shares its currency
  for (const limits of answer.limits) if (!units.has(limits.currency)) units.set(limits.currency, isoMinorUnits(limits.currency));
  if (!units.size) units.set("EUR", 2);
  fill(node,
    h("p", { class: "muted cooling-off" }, both(
      `A lower limit applies at once; a higher one, or none, only after a cooling-off of ${answer.cooling_off_hours} hours.`,
      `Un limite più basso vale subito; uno più alto, o nessun limite, solo dopo un periodo di attesa di ${answer.cooling_off_hours} ore.`)),
    [...units].map(([currency, minorUnits]) => currencyLimits(base, currency, minorUnits, answer.limits.find((l) => l.currency === currency), reload)));
}

/* Decimal places of a currency the player has no account in (JPY 0, KWD 3), as the browser knows them. */
function isoMinorUnits(currency) {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits;
}

/* One currency: what each window allows now, what waits for its cooling-off and from when, and a form to change them. */
function currencyLimits(base, currency, minorUnits, limits, reload) {
  const windows = new Map((limits?.windows || []).map((w) => [w.period, w]));
  const cash = (amount, language) => money(amount, currency, minorUnits, language);
  const rows = Object.keys(LIMIT_PERIODS).map((period) => {
    const w = windows.get(period);
    return h("tr", { "data-period": period },
      h("td", {}, words(LIMIT_PERIODS, period)),
      h("td", { class: "num in-force" }, w?.amount != null ? cash(w.amount) : both("none", "nessuno")),
      h("td", { class: "num" }, cash(w?.deposited ?? 0)),
      h("td", { class: "num" }, w?.remaining != null ? cash(w.remaining) : "—"),
      h("td", { class: "pending" }, w?.pending_from ? [w.pending_amount != null ? cash(w.pending_amount) : both("none", "nessuno"), " ",
        both(`from ${when(w.pending_from, "en")}`, `dal ${when(w.pending_from, "it")}`)] : "—"));
  });
  const table = stackable(h("table", { class: "grid limits" },
    h("thead", {}, h("tr", {}, [["Window", "Periodo"], ["Limit", "Limite"], ["Deposited", "Depositato"], ["Remaining", "Residuo"], ["Change waiting (cooling-off)", "Modifica in attesa"]]
      .map((c) => h("th", {}, both(...c))))), h("tbody", {}, rows)));
  const initial = {};
  const inputs = Object.keys(LIMIT_PERIODS).map((period) => {
    const w = windows.get(period);
    initial[period] = w?.amount != null ? cash(w.amount, "en").replace(/[^\d.]/g, "") : "";
    return h("label", {}, words(LIMIT_PERIODS, period), ` (${currency})`, h("input", { name: period, value: initial[period], inputmode: "decimal", placeholder: say("none", "nessuno") }));
  });
  return h("div", { class: "limit-currency", "data-currency": currency }, h("h4", {}, currency), table,
    form(inputs, both(`Save the ${currency} limits`, `Salva i limiti in ${currency}`), async (values) => {
      const body = { currency };
      for (const period of Object.keys(LIMIT_PERIODS)) {
        const text = values[period].trim();
        if (text === initial[period]) continue; // only the windows changed: a pending raise is left alone
        const amount = text === "" ? null : parseMinor(text, minorUnits);
        if (text !== "" && amount === null) throw { title: `${period}: not an amount of ${currency}`, code: "validation_failed" };
        body[period] = amount;
      }
      await request("PUT", `${base}/deposit-limits`, body);
      toast(say(`Deposit limits in ${currency} saved`, `Limiti di deposito in ${currency} salvati`));
      reload();
    }));
}

/* In force: until when, not reversible. Otherwise the terms, chosen then confirmed (a second, explicit click). */
function exclusionPart(node, base, p, reload) {
  const exclusion = p.self_exclusion;
  if (exclusion?.in_force) {
    fill(node, h("p", { class: "in-force", "data-term": exclusion.term }, both("You are excluded from play", "Sei autoescluso dal gioco"), " ",
      exclusion.ends_at ? both(`until ${when(exclusion.ends_at, "en")}`, `fino al ${when(exclusion.ends_at, "it")}`) : both("permanently", "a tempo indeterminato"),
      ". ", both("It cannot be lifted early.", "Non può essere revocata prima della scadenza.")));
    return;
  }
  const choice = h("select", { name: "term" }, Object.entries(EXCLUSION_TERMS).map(([code, names]) => h("option", { value: code }, say(...names))));
  const confirm = actionButton(both("Confirm: exclude me now", "Conferma: escludimi ora"), async () => {
    await request("POST", `${base}/self-exclusion`, { term: choice.value });
    toast(say("You are now excluded from play.", "Ora sei autoescluso dal gioco."));
    reload();
  }, { class: "danger confirm-exclusion", hidden: true });
  const warning = h("p", { class: "error", hidden: true }, both(
    "From now on you cannot play, and your registrations for tournaments not started are withdrawn and refunded. It cannot be undone before its end.",
    "Da subito non potrai giocare e le iscrizioni ai tornei non iniziati saranno ritirate e rimborsate. Non si può annullare prima della scadenza."));
  fill(node, h("div", { class: "actions" }, choice,
    h("button", { type: "button", class: "secondary ask-exclusion", onclick: () => { warning.hidden = false; confirm.hidden = false; } },
      both("Exclude me from play…", "Autoescludimi dal gioco…")), confirm), warning);
}

/* ---- the reality check ---------------------------------------------------------------------------------- */

/* While a player is signed in: at each `next_reality_check_at` the API gives, a dialog with the session's time
 * and net result, over whatever page is open (play goes on behind it; the player acknowledges it). */
const realityCheck = {
  timer: null,
  shown: null,

  async schedule() {
    clearTimeout(this.timer);
    const me = session.playerId;
    if (!me) return;
    const p = await request("GET", `/players/${encodeURIComponent(me)}/protection`).catch(() => null);
    const next = p?.session?.next_reality_check_at;
    if (!next) return;
    // At least a second ahead: the check is due once the instant has passed on the server too.
    this.timer = setTimeout(() => this.show(), Math.max(1000, new Date(next).getTime() - Date.now() + 500));
  },

  async show() {
    const me = session.playerId;
    const p = me ? await request("GET", `/players/${encodeURIComponent(me)}/protection`).catch(() => null) : null;
    if (p?.session) this.open(p.session);
    this.schedule();
  },

  open(current) {
    this.shown?.remove();
    const close = () => { this.shown?.remove(); this.shown = null; };
    this.shown = h("div", { class: "reality-check", role: "alertdialog", "aria-modal": "false", "aria-labelledby": "reality-check-title" },
      h("h2", { id: "reality-check-title" }, both("Reality check", "Promemoria di sessione")),
      h("p", {}, both("You have been playing for", "Stai giocando da"), " ", durationText(current.elapsed_seconds), "."),
      h("p", {}, both("Net result of this session", "Risultato netto della sessione"), ": ", netResultText(current.net_result)),
      current.ends_at ? h("p", { class: "muted" }, both("Your session limit ends play at", "Il limite di sessione termina il gioco alle"), " ", when(current.ends_at)) : null,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "continue", onclick: close }, both("Continue", "Continua")),
        h("a", { class: "button secondary", href: "#/account", onclick: close }, both("My settings", "Le mie impostazioni")),
        h("button", { type: "button", class: "secondary", onclick: () => { close(); logOut(); } }, term("logOut"))));
    document.body.append(this.shown);
  },

  stop() {
    clearTimeout(this.timer);
    this.shown?.remove();
    this.shown = null;
  },
};

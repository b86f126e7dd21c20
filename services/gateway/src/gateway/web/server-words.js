/* What the server says to players, in both languages (issue 15, item 8). The server's texts are English, for
 * developers; players read the client's own words for the machine-readable parts: a refusal's `code` (and, for
 * a refused rebuy or add-on, its `reason`), the known references of statement lines. A code with no words here
 * shows the server's English title beside a general Italian sentence, never nothing. */
"use strict";

/* Problem codes a player can meet (sign-up and log-in, the lobby, the table, coupons, the account). */
const PROBLEMS = {
  // signing up and in
  invalid_credentials: ["Wrong nickname, email or password.", "Soprannome, email o password non corretti."],
  nickname_taken: ["That nickname is taken.", "Soprannome già in uso."],
  nickname_reserved: ["That nickname is reserved.", "Questo soprannome è riservato."],
  email_taken: ["That email is already registered.", "Email già registrata."],
  underage: ["Play is for adults only (18+).", "Il gioco è riservato ai maggiorenni."],
  concessionaire_not_found: ["Unknown concessionaire.", "Concessionario sconosciuto."],
  missing_credentials: ["Log in first.", "Accedi prima."],
  token_expired: ["Your session expired: log in again.", "La sessione è scaduta: accedi di nuovo."],
  invalid_refresh_token: ["Your session ended: log in again.", "La sessione è terminata: accedi di nuovo."],
  refresh_token_expired: ["Your session expired: log in again.", "La sessione è scaduta: accedi di nuovo."],
  refresh_token_revoked: ["Your session ended: log in again.", "La sessione è terminata: accedi di nuovo."],
  // standing and protection (P-12, issue 17)
  player_banned: ["Your account is suspended from play.", "Il tuo conto è sospeso dal gioco."],
  player_self_excluded: ["You excluded yourself from play until the date shown.", "Ti sei autoescluso dal gioco fino alla data indicata."],
  session_time_limit_reached: ["Your session reached the time limit you set: log in again to start a new one.",
    "La sessione ha raggiunto il limite di tempo che hai scelto: accedi di nuovo per iniziarne una nuova."],
  deposit_limit_exceeded: ["That goes over your deposit limit.", "Limite di deposito superato."],
  self_exclusion_in_force: ["A self-exclusion is in force and cannot be shortened.",
    "Un'autoesclusione è già in vigore e non si può accorciare."],
  chat_banned: ["The chat is suspended for you.", "La chat ti è sospesa."],
  // money
  insufficient_funds: ["Not enough money in your account.", "Saldo insufficiente."],
  currency_mismatch: ["Not in this currency.", "Valuta non accettata."],
  payment_in_progress: ["A payment of yours is still going through: try again in a moment.", "Un tuo pagamento è ancora in corso: riprova tra poco."],
  purchase_in_progress: ["Your purchase is still going through.", "Il tuo acquisto è ancora in corso."],
  wallet_unavailable: ["Payments are unavailable right now: try again soon.", "I pagamenti non sono disponibili ora: riprova tra poco."],
  account_unavailable: ["Your account is unavailable right now: try again soon.", "Il tuo conto non è disponibile ora: riprova tra poco."],
  // tournaments
  tournament_not_found: ["There is no such tournament.", "Torneo inesistente."],
  registration_closed: ["Registration is closed.", "Le iscrizioni sono chiuse."],
  tournament_full: ["The tournament is full.", "Il torneo è al completo."],
  already_registered: ["You are already registered.", "Sei già iscritto."],
  not_registered: ["You are not registered.", "Non sei iscritto."],
  already_started: ["The tournament has already started.", "Il torneo è già cominciato."],
  sit_and_go_starts_when_full: ["A sit & go starts when it is full.", "Un sit & go comincia quando è al completo."],
  not_running: ["The tournament is not running.", "Il torneo non è in corso."],
  not_in_tournament: ["You are not playing in this tournament.", "Non stai giocando in questo torneo."],
  no_satellite_seat: ["You have no satellite seat for this tournament.", "Non hai un posto satellite per questo torneo."],
  ticket_used: ["That ticket was already used.", "Questo biglietto è già stato usato."],
  ticket_not_found: ["There is no such ticket.", "Biglietto inesistente."],
  rebuy_refused: ["No rebuy now.", "Nessun rebuy ora."],
  addon_refused: ["No add-on now.", "Nessun add-on ora."],
  // the table (table.action.rejected, and refused commands)
  not_your_turn: ["It is not your turn.", "Non è il tuo turno."],
  hand_complete: ["The hand is over.", "La mano è finita."],
  stale_hand: ["That hand is over.", "Quella mano è finita."],
  not_seated: ["You are not seated at this table.", "Non sei seduto a questo tavolo."],
  not_dealt_in: ["You are not in this hand.", "Non partecipi a questa mano."],
  table_closed: ["This table is closed.", "Questo tavolo è chiuso."],
  unknown_table: ["There is no such table.", "Tavolo inesistente."],
  table_not_found: ["There is no such table.", "Tavolo inesistente."],
  cannot_check: ["You cannot check: there is a bet to call.", "Non puoi passare: c'è una puntata da vedere."],
  cannot_call: ["There is nothing to call.", "Non c'è niente da vedere."],
  cannot_fold: ["You cannot fold now.", "Non puoi lasciare ora."],
  raise_not_reopened: ["The betting was not reopened: you cannot raise.", "Le puntate non sono state riaperte: non puoi rilanciare."],
  raise_cap_reached: ["No more raises on this street.", "Nessun altro rilancio in questo giro."],
  no_opponent_to_raise: ["Nobody left to raise against.", "Nessun avversario contro cui rilanciare."],
  stack_too_short_to_raise: ["Your stack is too short to raise.", "Le tue fiches non bastano per rilanciare."],
  invalid_amount: ["That amount is not valid.", "Importo non valido."],
  amount_too_small: ["That amount is too small.", "Importo troppo basso."],
  amount_too_large: ["That amount is too large.", "Importo troppo alto."],
  hand_not_found: ["There is no such hand.", "Mano inesistente."],
  hand_in_progress: ["The hand is still being played: its history comes once it has ended.", "La mano è ancora in corso: lo storico arriva quando è finita."],
  forbidden_channel: ["You may not follow that.", "Non puoi seguirlo."],
  // the totalizator (T-2)
  draw_not_found: ["There is no such draw.", "Concorso inesistente."],
  betting_closed: ["Betting is closed.", "Le giocate sono chiuse."],
  closing_time_passed: ["Betting is closed.", "Le giocate sono chiuse."],
  draw_cancelled: ["The draw was cancelled.", "Il concorso è stato annullato."],
  draw_not_playable: ["The draw can no longer be played (too many void matches).", "Il concorso non è più giocabile (troppe partite annullate)."],
  underage_player: ["Play is for adults only (18+).", "Il gioco è riservato ai maggiorenni."],
  currency_not_accepted: ["This draw does not take that currency.", "Questo concorso non accetta questa valuta."],
  wrong_match_count: ["Pick a result for every match.", "Scegli un risultato per ogni partita."],
  no_option_picked: ["Pick at least one result for every match.", "Scegli almeno un risultato per ogni partita."],
  option_not_offered: ["That result is not on offer.", "Questo risultato non è in gioco."],
  duplicate_option: ["The same result is picked twice.", "Lo stesso risultato è scelto due volte."],
  below_minimum_stake: ["The stake is below the minimum.", "La posta è sotto il minimo."],
  coupon_not_found: ["There is no such coupon.", "Schedina inesistente."],
  // anywhere
  forbidden: ["You may not do that.", "Operazione non consentita."],
  not_found: ["Not found.", "Non trovato."],
  rate_limited: ["Too many requests: try again in a moment.", "Troppe richieste: riprova tra poco."],
  upstream_unreachable: ["The service is unavailable right now: try again soon.", "Il servizio non è disponibile ora: riprova tra poco."],
  upstream_timeout: ["The service is slow to answer: try again soon.", "Il servizio tarda a rispondere: riprova tra poco."],
  upstream_failed: ["The service failed to answer: try again soon.", "Il servizio non ha risposto: riprova tra poco."],
  outcome_pending: ["Your request may have gone through: check before trying again.", "La richiesta potrebbe essere andata a buon fine: controlla prima di riprovare."],
  bad_response: ["The server did not answer properly: try again.", "Il server non ha risposto correttamente: riprova."],
};

/* Why a rebuy or an add-on is refused (the director's `reason`). */
const PURCHASE_REFUSALS = {
  not_offered: ["this tournament has none", "questo torneo non ne prevede"],
  limit_reached: ["you have bought as many as allowed", "hai già acquistato il massimo consentito"],
  period_over: ["the period for them is over", "il periodo è finito"],
  not_out_of_chips: ["only once you are out of chips", "solo quando hai finito le fiches"],
  not_an_addon_moment: ["only at the add-on break", "solo nella pausa add-on"],
  already_bought_at_this_moment: ["you already bought one at this break", "ne hai già acquistato uno in questa pausa"],
  no_chips: ["you are out of chips", "hai finito le fiches"],
};

const SOMETHING_WENT_WRONG = ["Something went wrong.", "La richiesta non è andata a buon fine."];

/* The fields of the sign-up form a player can get wrong past the browser's own checks, and what each must be
 * (the gateway's rules: domain/identity.py). The server's message for them is a developer's sentence. */
const FIELD_RULES = {
  nickname: ["Nickname: 3 to 20 characters, starting with a letter; only letters, digits, '_', '.' and '-'.",
    "Soprannome: da 3 a 20 caratteri, iniziando con una lettera; solo lettere, cifre, '_', '.' e '-'."],
  email: ["Email: not a valid address.", "Email: indirizzo non valido."],
  password: ["Password: 10 to 128 characters.", "Password: da 10 a 128 caratteri."],
  date_of_birth: ["Date of birth: not a valid date.", "Data di nascita: data non valida."],
};

/* A form's refused fields: the rule of each, or (a field without words here) the server's message beside a
 * general Italian one. */
function fieldErrorsText(errors) {
  const lines = errors.map((e) => {
    const field = String(e.field).split(".").pop();
    return FIELD_RULES[field] || [`${field}: ${e.message}.`, `${field}: valore non valido.`];
  });
  return say(lines.map((l) => l[0]).join(" "), lines.map((l) => l[1]).join(" "));
}

/* A refusal as players read it: the client's words for its code, both languages. */
function problemText(problem) {
  if (problem.errors) return fieldErrorsText(problem.errors);
  const words = PROBLEMS[problem.code];
  if (!words) return say(problem.title || problem.message || SOMETHING_WENT_WRONG[0], SOMETHING_WENT_WRONG[1]);
  const why = PURCHASE_REFUSALS[problem.reason];
  return why ? say(`${words[0].slice(0, -1)}: ${why[0]}.`, `${words[1].slice(0, -1)}: ${why[1]}.`) : say(...words);
}

/* Statement references the platform itself writes (the rest are the cashier's, shown as they are). */
const STATEMENT_REFERENCES = {
  "demo welcome credit": ["Welcome credit (play money)", "Credito di benvenuto (denaro di prova)"],
};

/* Operations whose reference is an internal number, not something a player reads. */
const UNREAD_REFERENCES = new Set(["hold_post"]);

function statementReferenceText(line) {
  if (UNREAD_REFERENCES.has(line.operation_kind) || !line.reference) return "";
  const words = STATEMENT_REFERENCES[line.reference];
  return words ? both(...words) : line.reference;
}

/* What a player sees of a table, kept from its public state (GET /tables/{id}) and its stream's messages.
 * No DOM here: `apply` changes the state and returns the hand log's line, in both languages ([en, it]), if any.
 *
 * The showdown stays as it ended (cards shown, the winners and their five cards, the result line) until the next
 * hand starts: the table engine pauses between hands so that it can be read. A player who busts or leaves in that
 * pause keeps the seat on screen until then too (`leaving`). */
"use strict";

const UNSEAT_REASONS = {
  busted: ["Out", "Eliminato"],
  moved: ["Moved", "Spostato"],
  left: ["Left", "Uscito"],
  disqualified: ["Disqualified", "Squalificato"],
  table_broken: ["Moved", "Spostato"],
};

/* What the table did for a disconnected player (`table.protection.applied`, P-13.2). */
const PROTECTION_OUTCOMES = {
  folded: ["hand folded", "mano lasciata"],
  checked: ["checked", "ha passato"],
  time_extended: ["more time to act", "più tempo per agire"],
  all_in_protected: ["all-in protection, the hand goes on for the chips already in", "protezione all-in, la mano continua per le fiches già puntate"],
};

class TableState {
  constructor(tableId) {
    this.tableId = tableId;
    this.seats = new Map(); // seat -> {seat, player_id, stack, bet, in_hand, sitting_out, connected, cards, last, leaving}
    this.maxSeats = 9;
    this.board = [];
    this.pot = 0;
    this.button = null;
    this.toAct = null;
    this.deadline = null;
    this.handId = null;
    this.handNo = null;
    this.level = null;
    this.tournamentId = null;
    this.status = "";
    this.myCards = [];
    this.request = null; // the action requested of this player, while it is their turn
    this.showdown = null; // {line: [en, it], winners: Set(seat), best: Set(card)} from the hand's end to the next
    this.notice = null; // [en, it]
    this.loaded = false; // the REST state arrived (else the stream alone tells what it can)
    this.nameOf = (playerId) => playerId; // the nickname lookup, set by the page
  }

  get mySeat() {
    return this.seatOf(session.playerId);
  }

  seatOf(playerId) {
    for (const seat of this.seats.values()) if (seat.player_id === playerId) return seat;
    return null;
  }

  /* A bet is already on this street (the big blind's included): the sizing button raises rather than bets. */
  get betFacing() {
    return [...this.seats.values()].some((s) => s.bet > 0);
  }

  /* The table's public state, as GET /tables/{id} answers it. */
  load(view) {
    this.loaded = true;
    this.maxSeats = view.max_seats;
    this.tournamentId = view.tournament_id;
    this.status = view.status;
    this.level = view.level;
    this.button = view.button_seat;
    this.seats = new Map(view.seats.map((s) => [s.seat, { ...s, cards: null, last: "" }]));
    const hand = view.hand;
    this.handId = hand?.hand_id || null;
    this.handNo = hand?.hand_no || null;
    this.board = hand?.board || [];
    this.pot = hand?.pot || 0;
    this.toAct = hand?.to_act ?? null;
    this.deadline = hand?.deadline || null;
    if (this.toAct !== this.mySeat?.seat) this.request = null;
  }

  /* One stream message; returns a line for the hand log ([en, it]), if any. */
  apply(event, p) {
    const handler = this[HANDLERS[event]];
    return handler ? handler.call(this, p, p.seat != null ? this.seats.get(p.seat) : null) || null : null;
  }

  opened(p) {
    this.maxSeats = p.max_seats;
    this.seats = new Map(p.seats.map((s) => [s.seat, { ...s, bet: 0, in_hand: false, sitting_out: false, connected: true, cards: null, last: "" }]));
    return ["Table opened.", "Tavolo aperto."];
  }

  handStarted(p) {
    if (p.tournament_id) this.tournamentId = p.tournament_id;
    if (!this.loaded) this.maxSeats = Math.max(2, ...p.seats.map((s) => s.seat));
    for (const [n, s] of this.seats) if (s.leaving) this.seats.delete(n);
    Object.assign(this, { handId: p.hand_id, handNo: p.hand_no, button: p.button_seat, level: p.level, board: [], pot: 0, myCards: [], request: null, toAct: null, showdown: null });
    for (const s of this.seats.values()) Object.assign(s, { in_hand: false, bet: 0, cards: null, last: "" });
    for (const dealt of p.seats) {
      const s = this.seats.get(dealt.seat) || { seat: dealt.seat, player_id: dealt.player_id, sitting_out: false, connected: true };
      this.seats.set(dealt.seat, { ...s, stack: dealt.stack, in_hand: true, bet: 0, cards: null, last: "" });
    }
    const { small_blind: sb, big_blind: bb, ante } = p.level;
    const blinds = (f) => `${f(sb)}/${f(bb)}${ante ? ` · ante ${f(ante)}` : ""}`;
    return [`Hand #${p.hand_no} — blinds ${blinds(numEn)}`, `Mano n. ${p.hand_no} — bui ${blinds(numIt)}`];
  }

  holeCards(p) {
    if (p.player_id === session.playerId) this.myCards = p.cards;
  }

  actionRequested(p) {
    this.toAct = p.seat;
    this.deadline = p.deadline;
    this.request = p.player_id === session.playerId ? p : null;
  }

  actionTaken(p, seat) {
    if (seat) {
      seat.stack = p.stack_after;
      seat.bet = (seat.bet || 0) + p.amount;
      seat.last = actionWords(p);
      if (p.action === "fold") seat.in_hand = false;
    }
    this.pot = p.pot_after;
    if (this.toAct === p.seat) this.toAct = null;
    if (p.player_id === session.playerId) this.request = null;
    if (!p.automatic) return null;
    const who = this.nameOf(p.player_id);
    const [en, it] = seat?.last || [p.action, p.action];
    const why = { timeout: ["time out", "tempo scaduto"], sitting_out: ["sitting out", "salta le mani"], disconnected: ["disconnected", "disconnesso"] }[p.automatic] || [p.automatic, p.automatic];
    return [`${who}: ${en} (${why[0]})`, `${who}: ${it} (${why[1]})`];
  }

  betReturned(p, seat) {
    if (seat) { seat.stack = p.stack_after; seat.bet = Math.max(0, (seat.bet || 0) - p.amount); }
    this.pot = p.pot_after;
  }

  streetDealt(p) {
    this.board = p.board;
    for (const s of this.seats.values()) { s.bet = 0; s.last = ""; }
  }

  revealed(p) {
    for (const shown of p.shown || []) {
      const s = this.seats.get(shown.seat);
      if (s) s.cards = shown.cards;
    }
  }

  /* The result line names each winner, the chips won and, when the cards were shown, the hand that won. */
  completed(p) {
    for (const result of p.results) {
      const s = this.seats.get(result.seat);
      if (s) Object.assign(s, { stack: result.end_stack, bet: 0, last: "" });
    }
    Object.assign(this, { pot: 0, toAct: null, request: null, board: p.board });
    this.revealed(p);
    for (const playerId of p.busted_player_ids || []) {
      const busted = this.seatOf(playerId);
      if (busted) busted.leaving = UNSEAT_REASONS.busted;
    }
    const won = new Map();
    for (const pot of p.pots) pot.winner_seats.forEach((seat, i) => won.set(seat, (won.get(seat) || 0) + pot.shares[i]));
    const showdown = { winners: new Set(won.keys()), best: new Set(), line: ["", ""] };
    const lines = [...won].map(([seatNo, chips]) => {
      const s = this.seats.get(seatNo);
      const who = this.nameOf(s?.player_id) || `#${seatNo}`;
      const hand = s?.cards ? readHand(s.cards, p.board) : null;
      for (const c of hand?.cards || []) showdown.best.add(c);
      return hand
        ? [`${who} wins ${numEn(chips)} with ${hand.en}`, `${who} vince ${numIt(chips)} con ${hand.it}`]
        : [`${who} wins ${numEn(chips)}`, `${who} vince ${numIt(chips)}`];
    });
    showdown.line = [lines.map((l) => l[0]).join("; "), lines.map((l) => l[1]).join("; ")];
    this.showdown = showdown;
    return showdown.line;
  }

  voided(p) {
    for (const restored of p.restored) {
      const s = this.seats.get(restored.seat);
      if (s) Object.assign(s, { stack: restored.stack, bet: 0, in_hand: false });
    }
    Object.assign(this, { pot: 0, toAct: null, request: null, board: [], myCards: [] });
    return [`Hand #${p.hand_no} voided: every stack is back to its start.`, `Mano n. ${p.hand_no} annullata: ogni stack torna com'era all'inizio.`];
  }

  sittingOut(p, seat) {
    if (seat) seat.sitting_out = p.sitting_out;
  }

  seated(p) {
    this.seats.set(p.player.seat, { ...p.player, bet: 0, in_hand: false, sitting_out: false, connected: true, cards: null, last: "" });
  }

  /* Between a hand's end and the next one the seat stays, marked, so the showdown can still be read. */
  unseated(p) {
    const gone = this.seatOf(p.player_id);
    if (gone && this.showdown) gone.leaving = gone.leaving || UNSEAT_REASONS[p.reason] || [p.reason, p.reason];
    else if (gone) this.seats.delete(gone.seat);
    if (p.player_id === session.playerId) {
      this.notice = p.reason === "moved" ? ["You were moved to another table.", "Sei stato spostato a un altro tavolo."] : ["You left this table.", "Hai lasciato questo tavolo."];
    }
  }

  closed() {
    this.status = "closed";
    this.notice = ["This table is closed.", "Questo tavolo è chiuso."];
  }

  protection(p) {
    const [en, it] = PROTECTION_OUTCOMES[p.outcome] || [p.outcome.replaceAll("_", " "), p.outcome.replaceAll("_", " ")];
    return [`Disconnection protection: ${en}.`, `Protezione per disconnessione: ${it}.`];
  }
}

const HANDLERS = {
  "table.table.opened": "opened",
  "table.hand.started": "handStarted",
  "table.hole_cards.dealt": "holeCards",
  "table.action.requested": "actionRequested",
  "table.action.taken": "actionTaken",
  "table.bet.returned": "betReturned",
  "table.street.dealt": "streetDealt",
  "table.showdown.revealed": "revealed",
  "table.hand.completed": "completed",
  "table.hand.voided": "voided",
  "table.sitting_out.changed": "sittingOut",
  "table.player.seated": "seated",
  "table.player.unseated": "unseated",
  "table.table.closed": "closed",
  "table.protection.applied": "protection",
};

const ACTION_WORDS = {
  fold: ["fold", "lascia"],
  check: ["check", "passa"],
  call: ["call", "vede"],
  bet: ["bet", "punta"],
  raise: ["raise to", "rilancia a"],
  post_small_blind: ["small blind", "piccolo buio"],
  post_big_blind: ["big blind", "grande buio"],
  post_ante: ["ante", "ante"],
};

/* A seat's last action as it reads under the name: ["raise to 300", "rilancia a 300"]. */
function actionWords(p) {
  const [en, it] = ACTION_WORDS[p.action] || [p.action.replaceAll("_", " "), p.action.replaceAll("_", " ")];
  const chips = p.raise_to || (p.action !== "fold" && p.action !== "check" ? p.amount : 0);
  const amount = (f) => (chips ? ` ${f(chips)}` : "");
  const allIn = p.all_in ? " (all-in)" : "";
  return [`${en}${amount(numEn)}${allIn}`, `${it}${amount(numIt)}${allIn}`];
}

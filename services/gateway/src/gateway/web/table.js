/* A playable table: seats, stacks, bets, cards (the player's own hole cards only, and those shown), pot, board,
 * the action bar with bet sizing between the offered minimum and maximum, the action timer, chat (the table's hand
 * histories are in hand-list.js). The table, the player's cards and the actions fit one screen
 * (desktop and phone portrait); the hand log and the chat come below.
 *
 * The table has its own socket (P-13.4): it retries with backoff and, if the connection cannot be restored,
 * closes the table and returns to the login screen (P-13.1). A page opened or reloaded mid-hand loads the
 * table's public state first, then subscribes asking for the channel's history: the hand so far, the player's
 * own hole cards and a pending turn come back with it (the server sends private messages to their player only). */
"use strict";

const TABLE_RETRIES = 6; // about 30 s of backoff before giving up (P-13.1)
/* A turn's time when the request's own is unknown (a state loaded over REST): the engine's default. */
const DEFAULT_TURN_SECONDS = 20;

/* "t-42" or the director's "<tournament>.<phase>.<n>": the name players read ("Table 3 · Tavolo 3"), with the
 * number the id ends in, if any (ids are for machines). */
function tableName(tableId) {
  const last = String(tableId).split(/[.\-_]/).pop();
  const n = /^\d+$/.test(last) ? ` ${Number(last)}` : "";
  return both(`Table${n}`, `Tavolo${n}`);
}

/* One open table page: its state, its elements and its socket. */
class TablePage {
  /* `root`: the element the table draws in, kept while the player looks at another table (tables.js). */
  constructor(root, id) {
    this.id = id;
    this.root = root;
    this.state = new TableState(id);
    this.ui = tableLayout(root, id);
    this.socket = null;
    this.contributed = false; // to the next hand, when the page opened
    this.online = false;
    this.closed = false;
    this.name = (playerId) => (playerId === session.playerId ? session.principal?.nickname : null) || "…";
    this.stopTournament = () => {};
    this.inbox = Promise.resolve();
    this.state.nameOf = (playerId) => this.name(playerId);
    this.ui.chatForm.addEventListener("submit", (e) => { e.preventDefault(); this.sendChat(); });
    this.clock = setInterval(() => this.tick(), 250);
    this.pre = new PreActions(() => this.renderBar());
    this.bankFull = 0; // the largest time bank seen: the bar's full width
    this.sent = null; // the request last acted on: its bar comes back if the action is refused
    this.turnSeconds = DEFAULT_TURN_SECONDS; // the acting player's time for this turn: the timer bar's full width
    // Only the table on screen takes the keys: the others play on out of sight (tables.js).
    this.onKey = (event) => { if (this.root.isConnected) pressShortcut(event, this.ui.bar); };
    document.addEventListener("keydown", this.onKey);
    // The public state first, then the stream with its history on top: the history's messages are the newer.
    this.load().then(() => { if (!this.closed) this.connect(); });
  }

  close() {
    this.closed = true;
    this.socket?.close();
    this.stopTournament();
    clearInterval(this.clock);
    document.removeEventListener("keydown", this.onKey);
  }

  addLine(list, node) {
    list.append(h("li", {}, node));
    while (list.children.length > 80) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  render() {
    const { state, ui } = this;
    const level = state.level;
    fill(ui.info,
      level ? h("span", {}, term("blinds"), ` ${num(level.small_blind)}/${num(level.big_blind)}${level.ante ? ` · ante ${num(level.ante)}` : ""}`) : null,
      state.handNo ? h("span", {}, " · ", both(`hand #${state.handNo}`, `mano n. ${state.handNo}`)) : null,
      state.notice ? h("strong", {}, " · ", both(...state.notice)) : null,
    );
    fill(ui.felt, ...seatNodes(state, this.name, this.online), tableCentre(state));
    const myBest = state.showdown?.winners.has(state.mySeat?.seat) ? state.showdown.best : new Set();
    fill(ui.mine, ...state.myCards.map((c) => card(c, myBest.has(c))));
    fill(ui.sit, this.sitButton());
    this.renderBar();
    this.tick();
    renderTableTabs();
  }

  sitButton() {
    const me = this.state.mySeat;
    if (!me || me.leaving) return null;
    return h("button", { class: "secondary", "data-sit": me.sitting_out ? "back" : "out", onclick: () => this.sitOut(!me.sitting_out) },
      me.sitting_out ? term("imBack") : term("sitOut"));
  }

  /* The action bar on the player's turn — or what a ticked pre-action box does at once; the boxes otherwise. */
  renderBar() {
    const r = this.state.request;
    if (!r || (this.state.handId && r.hand_id !== this.state.handId)) { fill(this.ui.bar, this.pre.boxes(this.state)); return; }
    const ready = this.pre.take(r);
    if (ready) { this.act(ready); return; }
    this.bankFull = Math.max(this.bankFull, r.time_bank_seconds || 0);
    fill(this.ui.bar, actionBar(r, this.state, (action, amount) => this.act(action, amount)));
  }

  /* The acting player's clock, named by nickname; the player's own turn, then their time bank. */
  tick() {
    const { state } = this;
    const deadline = state.deadline ? Date.parse(state.deadline) : null;
    const bar = this.ui.timer.querySelector(".fill");
    const label = this.ui.timer.querySelector(".label");
    const left = deadline ? (deadline - Date.now()) / 1000 : 0;
    this.tickBank(deadline && state.request ? left : null);
    if (!deadline || state.toAct == null) { bar.style.width = "0"; label.textContent = ""; return; }
    const mineTurn = Boolean(state.request);
    const who = this.name(state.seats.get(state.toAct)?.player_id);
    if (left > 0) {
      bar.style.width = `${Math.min(100, (left / this.turnSeconds) * 100)}%`;
      const seconds = Math.ceil(left);
      label.textContent = mineTurn ? say(`Your turn: ${seconds} s`, `Tocca a te: ${seconds} s`) : `${who}: ${seconds} s`;
    } else {
      const bank = state.request?.time_bank_seconds ?? 0;
      const extra = bank ? ` (${Math.max(0, Math.ceil(bank + left))} s)` : "";
      bar.style.width = "0";
      label.textContent = mineTurn ? say(`Your time bank${extra}`, `Tua riserva di tempo${extra}`) : `${who}: ${say("time bank", "riserva di tempo")}${extra}`;
    }
  }

  /* The player's time bank on their turn, as a bar of its own: full while the turn's own time runs, then
   * draining once the deadline passed. `left`: seconds to the deadline (negative past it); null: hidden. */
  tickBank(left) {
    const box = this.ui.bank;
    const bank = this.state.request?.time_bank_seconds ?? 0;
    box.hidden = left == null || !bank;
    if (box.hidden) return;
    const remaining = left > 0 ? bank : Math.max(0, bank + left);
    box.classList.toggle("running", left <= 0);
    box.dataset.seconds = Math.ceil(remaining);
    box.querySelector(".fill").style.width = `${Math.min(100, (remaining / (this.bankFull || bank)) * 100)}%`;
    box.querySelector(".label").textContent = say(`Time bank ${Math.ceil(remaining)} s`, `Riserva di tempo ${Math.ceil(remaining)} s`);
  }

  async act(action, amount) {
    const r = this.state.request;
    if (!r) return;
    const command = { hand_id: r.hand_id, action, ...(amount != null ? { amount } : {}) };
    this.state.request = null;
    this.sent = r;
    this.renderBar();
    // The table socket carries it; over REST when the socket is between reconnections.
    if (!this.socket?.send({ type: "act", table_id: this.id, ref: `${r.hand_id}:${action}`, ...command })) {
      await request("POST", `/tables/${encodeURIComponent(this.id)}/actions`, command)
        .catch((p) => this.refused(p, r.hand_id));
    }
  }

  /* An action refused — by the gateway (REST, or a socket frame naming the action's `ref`) or by the table engine
   * (`table.action.rejected`): said, and the bar comes back while the turn is still the player's, since no new
   * request will come for it (the table waits for an action until the clock runs out). */
  refused(problem, handId) {
    toast(problemText(problem), { kind: "error" });
    const asked = this.sent;
    const mine = this.state.mySeat;
    if (!asked || asked.hand_id !== handId || this.state.handId !== handId || this.state.request || !mine || this.state.toAct !== mine.seat) return;
    this.state.request = asked;
    this.renderBar();
  }

  async sendChat() {
    const text = this.ui.chatInput.value.trim();
    if (!text) return;
    this.ui.chatInput.value = "";
    if (!this.socket?.send({ type: "chat", table_id: this.id, text })) {
      await request("POST", `/tables/${encodeURIComponent(this.id)}/chat`, { text }).catch((p) => toast(problemText(p), { kind: "error" }));
    }
  }

  async sitOut(sittingOut) {
    await request("POST", `/tables/${encodeURIComponent(this.id)}/sitting-out`, { sitting_out: sittingOut }).catch((p) => toast(problemText(p), { kind: "error" }));
  }

  followTournament() {
    const tid = this.state.tournamentId;
    if (!tid || this.stopTournament.following === tid) return;
    this.stopTournament();
    this.stopTournament = followTableTournament(tid, this.ui, (line) => this.addLine(this.ui.log, line));
    this.stopTournament.following = tid;
  }

  /* A random value of ours for the deck of the table's next hand, whose seed the table committed to already
   * (docs/fair-deal.md): sent when the page opens and whenever a hand we are dealt in starts. */
  async contribute() {
    const command = { value: randomContribution() };
    if (!this.socket?.send({ type: "contribute", table_id: this.id, ...command })) {
      await request("POST", `/tables/${encodeURIComponent(this.id)}/contributions`, command).catch((p) => console.warn(problemText(p)));
    }
  }

  async load() {
    try {
      const view = await request("GET", `/tables/${encodeURIComponent(this.id)}`);
      this.state.load(view);
      if (view.hand) seenCommitments.remember(view.hand.hand_id, view.hand.deck_commitment);
      if (this.state.mySeat && view.next_deck_commitment && !this.contributed) { this.contributed = true; this.contribute(); }
      this.name = await nicknames([...this.state.seats.values()].map((s) => s.player_id));
      this.followTournament();
    } catch (problem) {
      this.state.notice = [problemText(problem), problemText(problem)];
    }
    this.render();
  }

  async receive(frame) {
    const { event, payload } = frame.data;
    if (event === "table.action.rejected") { this.refused({ title: payload.message, code: payload.code }, payload.hand_id); return; }
    if (event === "table.chat.posted") { this.addLine(this.ui.chatLines, `${this.name(payload.player_id)}: ${payload.text}`); return; }
    if (event === "table.hand.started") {
      seenCommitments.remember(payload.hand_id, payload.deck_commitment);
      if (payload.next_deck_commitment && payload.seats.some((s) => s.player_id === session.playerId)) this.contribute();
    }
    if (event === "table.player.seated" || event === "table.table.opened" || event === "table.hand.started") {
      const ids = event === "table.player.seated" ? [payload.player.player_id] : payload.seats.map((s) => s.player_id);
      this.name = await nicknames([...this.state.seats.values()].map((s) => s.player_id).concat(ids));
    }
    if (event === "table.action.requested") {
      // The turn's time is the table's setting: from the request to its deadline, both the server's clock.
      const seconds = (Date.parse(payload.deadline) - Date.parse(frame.data.occurred_at)) / 1000;
      this.turnSeconds = seconds > 0 ? seconds : DEFAULT_TURN_SECONDS;
    }
    const line = this.state.apply(event, payload);
    this.followTournament();
    if (line) this.addLine(this.ui.log, both(...line));
    this.render();
  }

  connect() {
    this.socket = new LiveSocket("table", [`table:${this.id}`], {
      history: true,
      maxAttempts: TABLE_RETRIES,
      onGiveUp: (why) => { this.close(); if (why === "lost") connectionLost(); },
      onStatus: (isOnline, text) => {
        this.online = isOnline;
        this.ui.status.textContent = text;
        this.ui.status.classList.toggle("online", isOnline);
        this.render();
      },
      onResync: () => this.load(),
      onFrame: (frame) => {
        if (frame.type !== "error") return;
        const problem = { title: frame.message, code: frame.code };
        if (frame.ref?.includes(":")) this.refused(problem, frame.ref.slice(0, frame.ref.lastIndexOf(":")));
        else toast(problemText(problem), { kind: "error" });
      },
      // One at a time, in order: a message waits for the nicknames its predecessor looked up.
      onMessage: (frame) => { this.inbox = this.inbox.then(() => this.receive(frame)).catch((error) => console.error(error)); },
    });
  }
}

/* The page's elements: the screen-filling part (head, felt, the player's cards and actions), then log and chat. */
function tableLayout(view, id) {
  const ui = {
    tabs: h("nav", { class: "table-tabs", "aria-label": say("Your tables", "I tuoi tavoli") }),
    status: h("span", { class: "status" }, say("connecting…", "connessione…")),
    title: h("h1", {}, tableName(id)),
    info: h("p", { class: "muted table-info" }),
    felt: h("div", { class: "felt", "aria-label": say("Table", "Tavolo") }),
    mine: h("div", { class: "my-cards", "aria-label": say("Your cards", "Le tue carte") }),
    bar: h("div", { class: "action-bar", "aria-live": "polite" }),
    sit: h("span", { class: "sit" }),
    timer: h("div", { class: "timer" }, h("div", { class: "fill" }), h("span", { class: "label" })),
    bank: h("div", { class: "bank-bar", hidden: true, title: say("Time bank", "Riserva di tempo") }, h("div", { class: "fill" }), h("span", { class: "label" })),
    result: h("div", { class: "result-box", hidden: true, role: "status" }),
    log: h("ol", { class: "hand-log", "aria-label": say("Hand log", "Cronaca della mano") }),
    chatLines: h("ol", { class: "chat-lines", "aria-label": "Chat" }),
    chatInput: h("input", { name: "text", maxlength: 300, placeholder: say("Say something…", "Scrivi qualcosa…"), autocomplete: "off" }),
  };
  ui.chatForm = h("form", { class: "chat-form" }, ui.chatInput, h("button", {}, both("Send", "Invia")));
  view.append(h("div", { class: "table-page" },
    h("div", { class: "table-main" },
      ui.tabs,
      h("header", { class: "table-head" }, ui.title, ui.status,
        h("nav", {}, h("a", { href: `#/table/${encodeURIComponent(id)}/hands` }, term("handHistory"))), ui.sit, ui.info),
      ui.felt,
      h("div", { class: "controls" }, ui.result, h("div", { class: "me-row" }, ui.mine, h("div", { class: "clocks" }, ui.timer, ui.bank)), ui.bar)),
    h("div", { class: "columns" },
      h("section", { class: "panel" }, h("h2", {}, both("Log", "Cronaca")), ui.log),
      h("section", { class: "panel" }, h("h2", {}, term("chat")), ui.chatLines, ui.chatForm)),
  ));
  return ui;
}

/* The seats around the felt, the player's own at the bottom. `online`: this page's own connection, which is the
 * player's true one (the public state may still say "disconnected" from the moment the page reloaded). */
function seatNodes(state, name, online) {
  const my = state.mySeat?.seat ?? 1;
  const nodes = [];
  for (let n = 1; n <= state.maxSeats; n++) {
    const angle = (2 * Math.PI * (n - my)) / state.maxSeats;
    const style = `left:${50 + 42 * Math.sin(angle)}%;top:${50 + 38 * Math.cos(angle)}%`;
    const s = state.seats.get(n);
    if (!s) { nodes.push(h("div", { class: "seat empty", style, "data-seat": n }, both("Empty", "Libero"))); continue; }
    const mine = s.player_id === session.playerId;
    const winner = state.showdown?.winners.has(n);
    const classes = ["seat", mine ? "me" : "", state.toAct === n ? "to-act" : "", s.in_hand ? "" : "out", s.sitting_out ? "away" : "", winner ? "winner" : "", s.leaving ? "leaving" : ""];
    const cards = s.cards ? s.cards.map((c) => card(c, winner && state.showdown.best.has(c))) : s.in_hand && !mine ? [card(null), card(null)] : [];
    const connected = mine ? online : s.connected !== false;
    const status = s.leaving ? both(...s.leaving) : s.sitting_out ? both("Sitting out", "Salta le mani") : connected ? null : both("Disconnected", "Disconnesso");
    nodes.push(h("div", { class: classes.filter(Boolean).join(" "), style, "data-seat": n },
      state.button === n ? h("span", { class: "dealer", title: say("Dealer button", "Bottone del mazziere") }, "D") : null,
      h("div", { class: "name", title: name(s.player_id) }, name(s.player_id)),
      h("div", { class: "stack" }, num(s.stack)),
      h("div", { class: "cards" }, cards),
      shownHand(s, state.board) || (s.last ? h("div", { class: "last" }, both(...s.last)) : null),
      status ? h("div", { class: "seat-status" }, status) : null,
      s.bet ? h("div", { class: "bet" }, num(s.bet)) : null,
    ));
  }
  return nodes;
}

/* Under a seat whose cards are shown, the hand they make with the board ("flush, ace high"). */
function shownHand(seat, board) {
  const hand = seat.cards && board.length >= 3 ? readHand(seat.cards, board) : null;
  return hand ? h("div", { class: "last hand-name" }, both(hand.en, hand.it)) : null;
}

/* The board (the winning five highlighted at a showdown), the pot, and the hand's result until the next hand. */
function tableCentre(state) {
  const best = state.showdown?.best || new Set();
  return h("div", { class: "center" },
    h("div", { class: "board" }, state.board.map((c) => card(c, best.has(c)))),
    state.showdown ? h("div", { class: "showdown-line", role: "status" }, both(...state.showdown.line)) : h("div", { class: "pot" }, term("pot"), `: ${num(state.pot)}`));
}

/* The tournament of the table, followed on the lobby socket while the table is shown: the player's result,
 * rebuy and add-on offers, level changes, a pause for a technical problem, and a move to another table. Returns the function that stops it. */
function followTableTournament(tid, ui, addLine) {
  return lobbyLink.listen((frame) => {
    // The lobby's news (start, pause, end) come on `lobby` too: one line each, from the tournament's channel.
    if (frame.channel !== `tournament:${tid}`) return;
    const { event, payload = {} } = frame.data || {};
    if (payload.tournament_id !== tid) return;
    if (event === "tournament.player.eliminated" && payload.player_id === session.playerId) showResult(ui, tid, payload.position, payload.prize_cents);
    if (event === "tournament.tournament.finished") {
      const me = payload.ranking.find((r) => r.player_id === session.playerId);
      if (me) showResult(ui, tid, me.position, me.prize_cents);
    }
    if ((event === "tournament.rebuy.offered" || event === "tournament.addon.offered") && payload.player_id === session.playerId) {
      offerPurchase(tid, event === "tournament.rebuy.offered" ? "rebuys" : "addons", payload);
    }
    if (event === "tournament.level.changed") {
      const blinds = `${num(payload.small_blind)}/${num(payload.big_blind)}`;
      addLine(payload.on_break ? both(`Level ${payload.level_no}: break`, `Livello ${payload.level_no}: pausa`)
        : both(`Level ${payload.level_no}: blinds ${blinds}`, `Livello ${payload.level_no}: bui ${blinds}`));
    }
    if (event === "tournament.player.moved" && payload.player_id === session.playerId) location.hash = `#/table/${encodeURIComponent(payload.to_table_id)}`;
    // A technical problem: the hand in progress finishes, then no hand is dealt until the director resumes.
    if (event === "tournament.tournament.paused") {
      addLine(h("span", { class: "paused-line" }, both(`Tournament paused: ${payload.reason}`, `Torneo in pausa: ${payload.reason}`)));
      toast(say("Tournament paused for a technical problem: no new hand until it resumes.", "Torneo in pausa per un problema tecnico: nessuna nuova mano fino alla ripresa."), { seconds: 15 });
    }
    if (event === "tournament.tournament.resumed") addLine(h("span", { class: "resumed-line" }, both("Play resumes", "Si riprende a giocare")));
  }, [`tournament:${tid}`]);
}

/* The player's result, with the way to their hands in the tournament — every table they sat at — each with its
 * replay (issue 15, item 11). */
function showResult(ui, tournamentId, position, prizeCents) {
  const box = ui.result;
  box.hidden = false;
  fill(box,
    h("h2", {}, position === 1 ? both("You won the tournament!", "Hai vinto il torneo!") : both(`You finished #${position}`, `Hai chiuso al ${position}º posto`)),
    h("p", {}, term("position"), `: ${position}`, prizeCents ? h("span", {}, " · ", term("prize"), ` ${money(prizeCents)}`) : ""),
    h("p", {}, h("a", { class: "button", href: "#/lobby" }, term("lobby")), " ", h("a", { href: "#/account" }, term("account")),
      " ", h("a", { class: "replay-hands", href: `#/tournament/${encodeURIComponent(tournamentId)}/hands/${encodeURIComponent(session.playerId)}` },
        both("Replay your hands", "Rivedi le tue mani"))),
  );
}

/* P-4.2, P-4.3: a rebuy (after busting in the rebuy period) or an add-on, bought with one click. */
function offerPurchase(tournamentId, kind, offer) {
  const [en, it] = kind === "rebuys" ? ["Rebuy", "Rebuy"] : ["Add-on", "Add-on"];
  const price = (language) => money(offer.price_cents, "EUR", 2, language);
  const buy = actionButton(both(`${en}: ${numEn(offer.chips)} chips for ${price("en")}`, `${it}: ${numIt(offer.chips)} fiches per ${price("it")}`), async () => {
    await request("POST", `/tournaments/${encodeURIComponent(tournamentId)}/${kind}`, undefined, { headers: { "Idempotency-Key": newIdempotencyKey() } });
    toast(say(`${en} bought.`, `${it} acquistato.`));
  });
  toast(kind === "rebuys" ? say("You are out of chips: rebuy?", "Hai finito le fiches: vuoi un rebuy?") : say("Add-on break: buy more chips?", "Pausa add-on: vuoi altre fiches?"), { action: buy, seconds: 60 });
}

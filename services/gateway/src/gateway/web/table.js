/* A playable table: seats, stacks, bets, cards (the player's own hole cards only, and those shown), pot, board,
 * the action bar with bet sizing between the offered minimum and maximum, the action timer, chat; and the
 * table's hand histories with PHH downloads.
 *
 * The table has its own socket (P-13.4): it retries with backoff and, if the connection cannot be restored,
 * closes the table and returns to the login screen (P-13.1). Its channel position is kept in sessionStorage,
 * so a reloaded page resumes the stream where it was (and gets its pending action request again). */
"use strict";

const TABLE_RETRIES = 6; // about 30 s of backoff before giving up (P-13.1)

class TableState {
  constructor(tableId) {
    this.tableId = tableId;
    this.seats = new Map(); // seat -> {seat, player_id, stack, bet, in_hand, sitting_out, connected, cards, last}
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
    this.notice = "";
    this.loaded = false; // the REST state arrived (else the stream alone tells what it can)
  }

  get mySeat() {
    for (const seat of this.seats.values()) if (seat.player_id === session.playerId) return seat;
    return null;
  }

  seatOf(playerId) {
    for (const seat of this.seats.values()) if (seat.player_id === playerId) return seat;
    return null;
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

  /* One stream message; returns a line for the hand log, if any. */
  apply(event, p) {
    const seat = p.seat != null ? this.seats.get(p.seat) : null;
    switch (event) {
      case "table.table.opened":
        this.maxSeats = p.max_seats;
        this.seats = new Map(p.seats.map((s) => [s.seat, { ...s, bet: 0, in_hand: false, sitting_out: false, connected: true, cards: null, last: "" }]));
        return "Table opened.";
      case "table.hand.started":
        if (p.tournament_id) this.tournamentId = p.tournament_id;
        if (!this.loaded) this.maxSeats = Math.max(2, ...p.seats.map((s) => s.seat));
        Object.assign(this, { handId: p.hand_id, handNo: p.hand_no, button: p.button_seat, level: p.level, board: [], pot: 0, myCards: [], request: null, toAct: null });
        for (const s of this.seats.values()) Object.assign(s, { in_hand: false, bet: 0, cards: null, last: "", category: null });
        for (const dealt of p.seats) {
          const s = this.seats.get(dealt.seat) || { seat: dealt.seat, player_id: dealt.player_id, sitting_out: false, connected: true };
          this.seats.set(dealt.seat, { ...s, stack: dealt.stack, in_hand: true, bet: 0, cards: null, last: "" });
        }
        return `Hand #${p.hand_no} — blinds ${p.level.small_blind}/${p.level.big_blind}${p.level.ante ? `, ante ${p.level.ante}` : ""}`;
      case "table.hole_cards.dealt":
        if (p.player_id === session.playerId) this.myCards = p.cards;
        return null;
      case "table.action.requested":
        this.toAct = p.seat;
        this.deadline = p.deadline;
        this.request = p.player_id === session.playerId ? p : null;
        return null;
      case "table.action.taken":
        if (seat) {
          seat.stack = p.stack_after;
          seat.bet = (seat.bet || 0) + p.amount;
          seat.last = p.action.replace(/^post_/, "").replace("_", " ") + (p.raise_to ? ` ${p.raise_to}` : p.amount && p.action === "call" ? ` ${p.amount}` : "") + (p.all_in ? " (all-in)" : "");
          if (p.action === "fold") seat.in_hand = false;
        }
        this.pot = p.pot_after;
        if (this.toAct === p.seat) this.toAct = null;
        if (p.player_id === session.playerId) this.request = null;
        return p.automatic ? `Seat ${p.seat}: ${p.action} (${p.automatic})` : null;
      case "table.bet.returned":
        if (seat) { seat.stack = p.stack_after; seat.bet = Math.max(0, (seat.bet || 0) - p.amount); }
        this.pot = p.pot_after;
        return null;
      case "table.street.dealt":
        this.board = p.board;
        for (const s of this.seats.values()) { s.bet = 0; s.last = ""; }
        return null;
      case "table.showdown.revealed":
        for (const shown of p.shown) {
          const s = this.seats.get(shown.seat);
          if (s) Object.assign(s, { cards: shown.cards, category: shown.category.replaceAll("_", " ") });
        }
        return null;
      case "table.hand.completed":
        for (const result of p.results) {
          const s = this.seats.get(result.seat);
          if (s) Object.assign(s, { stack: result.end_stack, bet: 0 });
        }
        Object.assign(this, { pot: 0, toAct: null, request: null, board: p.board });
        return p.pots.map((pot) => `${pot.winner_seats.map((w, i) => `seat ${w} wins ${pot.shares[i]}`).join(", ")} (pot ${pot.amount})`).join("; ");
      case "table.hand.voided":
        for (const restored of p.restored) {
          const s = this.seats.get(restored.seat);
          if (s) Object.assign(s, { stack: restored.stack, bet: 0, in_hand: false });
        }
        Object.assign(this, { pot: 0, toAct: null, request: null, board: [], myCards: [] });
        return `Hand #${p.hand_no} voided: every stack is back to its start (P-10).`;
      case "table.sitting_out.changed":
        if (seat) seat.sitting_out = p.sitting_out;
        return null;
      case "table.player.seated":
        this.seats.set(p.player.seat, { ...p.player, bet: 0, in_hand: false, sitting_out: false, connected: true, cards: null, last: "" });
        return null;
      case "table.player.unseated": {
        const gone = this.seatOf(p.player_id);
        if (gone) this.seats.delete(gone.seat);
        if (p.player_id === session.playerId) this.notice = p.reason === "moved" ? "You were moved to another table." : `You left this table (${p.reason}).`;
        return null;
      }
      case "table.table.closed":
        this.status = "closed";
        this.notice = `This table is closed (${p.reason}).`;
        return null;
      case "table.protection.applied":
        return `Disconnection protection: ${p.outcome.replaceAll("_", " ")}.`;
      default:
        return null;
    }
  }
}

page("#/table/:id", (view, { id }) => {
  const state = new TableState(id);
  const status = h("span", { class: "status" }, "connecting…");
  const title = h("h1", {}, term("table"), ` ${id}`);
  const info = h("p", { class: "muted" });
  const felt = h("div", { class: "felt", "aria-label": "Table" });
  const mine = h("div", { class: "my-cards", "aria-label": "Your cards" });
  const bar = h("div", { class: "action-bar", "aria-live": "polite" });
  const timer = h("div", { class: "timer" }, h("div", { class: "fill" }), h("span", { class: "label" }));
  const result = h("div", { class: "result-box", hidden: true, role: "status" });
  const log = h("ol", { class: "hand-log", "aria-label": "Hand log" });
  const chatLines = h("ol", { class: "chat-lines", "aria-label": "Chat" });
  const chatInput = h("input", { name: "text", maxlength: 300, placeholder: "Say something…", autocomplete: "off" });
  const chatForm = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); sendChat(); } }, chatInput, h("button", {}, "Send"));
  view.append(h("div", { class: "table-page" },
    h("header", { class: "table-head" }, title, status, info,
      h("nav", {}, h("a", { href: `#/table/${encodeURIComponent(id)}/hands` }, term("handHistory")))),
    result, felt, h("div", { class: "me-row" }, mine, timer), bar,
    h("div", { class: "columns" },
      h("section", { class: "panel" }, h("h2", {}, "Log"), log),
      h("section", { class: "panel" }, h("h2", {}, term("chat")), chatLines, chatForm)),
  ));

  let name = (playerId) => playerId;
  let stopTournament = () => {};

  function addLine(list, text) {
    list.append(h("li", {}, text));
    while (list.children.length > 80) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  async function refreshNames() {
    name = await nicknames([...state.seats.values()].map((s) => s.player_id));
  }

  function render() {
    fill(info, 
      state.level ? `${TERMS.blinds[0]} ${state.level.small_blind}/${state.level.big_blind}${state.level.ante ? ` · ante ${state.level.ante}` : ""}` : "",
      state.handNo ? ` · hand #${state.handNo}` : "",
      state.tournamentId ? h("span", {}, " · ", h("a", { href: `#/tournament/${encodeURIComponent(state.tournamentId)}` }, term("tournament"))) : "",
      state.notice ? h("strong", {}, ` · ${state.notice}`) : "",
    );
    const my = state.mySeat?.seat ?? 1;
    const seats = [];
    for (let n = 1; n <= state.maxSeats; n++) {
      const angle = (2 * Math.PI * (n - my)) / state.maxSeats;
      const style = `left:${50 + 44 * Math.sin(angle)}%;top:${50 + 40 * Math.cos(angle)}%`;
      const s = state.seats.get(n);
      if (!s) { seats.push(h("div", { class: "seat empty", style }, `Seat ${n}`)); continue; }
      const classes = ["seat", s.player_id === session.playerId ? "me" : "", state.toAct === n ? "to-act" : "", s.in_hand ? "" : "out", s.sitting_out ? "away" : ""];
      const cards = s.cards ? s.cards.map(card) : s.in_hand && s.player_id !== session.playerId ? [card(null), card(null)] : [];
      seats.push(h("div", { class: classes.join(" "), style, "data-seat": n },
        h("div", { class: "name" }, name(s.player_id), state.button === n ? h("span", { class: "dealer", title: "Dealer button" }, "D") : null),
        h("div", { class: "stack" }, s.stack),
        h("div", { class: "cards" }, cards),
        s.category ? h("div", { class: "last" }, s.category) : s.last ? h("div", { class: "last" }, s.last) : null,
        s.sitting_out ? h("div", { class: "last" }, "sitting out") : s.connected === false ? h("div", { class: "last" }, "disconnected") : null,
        s.bet ? h("div", { class: "bet" }, s.bet) : null,
      ));
    }
    fill(felt, ...seats, h("div", { class: "center" },
      h("div", { class: "board" }, state.board.map(card)),
      h("div", { class: "pot" }, term("pot"), `: ${state.pot}`)));
    fill(mine, ...state.myCards.map(card));
    renderBar();
    tick();
  }

  function renderBar() {
    const r = state.request;
    const me = state.mySeat;
    const sitButton = me ? h("button", { class: "secondary", onclick: () => sitOut(!me.sitting_out) }, me.sitting_out ? term("imBack") : term("sitOut")) : null;
    if (!r || r.hand_id !== state.handId && state.handId) { fill(bar, sitButton || ""); return; }
    const buttons = [];
    if (r.can_check) buttons.push(h("button", { class: "act", "data-action": "check", onclick: () => act("check") }, term("check")));
    else buttons.push(h("button", { class: "act fold", "data-action": "fold", onclick: () => act("fold") }, term("fold")),
      h("button", { class: "act", "data-action": "call", onclick: () => act("call") }, term("call"), ` ${r.call_amount}`));
    let sizing = null;
    if (r.min_raise_to != null && r.max_raise_to != null) {
      const low = r.min_raise_to;
      const high = r.max_raise_to;
      const amount = h("input", { type: "number", min: low, max: high, step: 1, value: low, inputmode: "numeric", "aria-label": "Amount" });
      const slider = h("input", { type: "range", min: low, max: high, step: 1, value: low, "aria-label": "Bet size" });
      const clamp = (v) => Math.min(high, Math.max(low, Math.round(Number(v) || low)));
      const set = (v) => { amount.value = slider.value = clamp(v); label.textContent = ` ${amount.value}`; };
      slider.addEventListener("input", () => set(slider.value));
      amount.addEventListener("change", () => set(amount.value));
      const label = h("span", {}, ` ${low}`);
      const myBet = me?.bet || 0;
      const quick = (text, v) => h("button", { type: "button", class: "chip", onclick: () => set(v) }, text);
      sizing = h("div", { class: "sizing" },
        h("div", { class: "quick" }, quick("Min", low), quick("½ pot", myBet + r.call_amount + Math.floor((state.pot + r.call_amount) / 2)),
          quick(TERMS.pot[0], myBet + r.call_amount + state.pot + r.call_amount), quick(TERMS.allIn[0], high)),
        slider, amount,
        h("button", { class: "act raise", "data-action": "raise", onclick: () => act(r.call_amount === 0 ? "bet" : "raise", clamp(amount.value)) },
          r.call_amount === 0 ? term("bet") : term("raise"), label));
    }
    fill(bar, h("div", { class: "buttons" }, buttons), sizing || "", sitButton || "");
  }

  function tick() {
    const deadline = state.deadline ? Date.parse(state.deadline) : null;
    const fill = timer.querySelector(".fill");
    const label = timer.querySelector(".label");
    if (!deadline || state.toAct == null) { fill.style.width = "0"; label.textContent = ""; return; }
    const left = (deadline - Date.now()) / 1000;
    const mineTurn = Boolean(state.request);
    if (left > 0) {
      fill.style.width = `${Math.min(100, (left / 20) * 100)}%`;
      label.textContent = `${mineTurn ? "Your turn" : `Seat ${state.toAct}`}: ${Math.ceil(left)} s`;
    } else {
      const bank = state.request?.time_bank_seconds ?? 0;
      fill.style.width = "0";
      label.textContent = `${mineTurn ? "Your time bank" : `Seat ${state.toAct}: time bank`}${bank ? ` (${Math.max(0, Math.ceil(bank + left))} s)` : ""}`;
    }
  }

  async function act(action, amount) {
    const r = state.request;
    if (!r) return;
    const command = { hand_id: r.hand_id, action, ...(amount != null ? { amount } : {}) };
    state.request = null;
    renderBar();
    // The table socket carries it; over REST when the socket is between reconnections.
    if (!socket.send({ type: "act", table_id: id, ref: `${r.hand_id}:${action}`, ...command })) {
      await request("POST", `/tables/${encodeURIComponent(id)}/actions`, command).catch((p) => { toast(problemText(p), { kind: "error" }); state.request = r; renderBar(); });
    }
  }

  async function sendChat() {
    const text = chatInput.value.trim();
    if (!text) return;
    chatInput.value = "";
    if (!socket.send({ type: "chat", table_id: id, text })) {
      await request("POST", `/tables/${encodeURIComponent(id)}/chat`, { text }).catch((p) => toast(problemText(p), { kind: "error" }));
    }
  }

  async function sitOut(sittingOut) {
    await request("POST", `/tables/${encodeURIComponent(id)}/sitting-out`, { sitting_out: sittingOut }).catch((p) => toast(problemText(p), { kind: "error" }));
  }

  function showResult(position, prizeCents) {
    result.hidden = false;
    fill(result, 
      h("h2", {}, position === 1 ? "You won the tournament!" : `You finished #${position}`),
      h("p", {}, term("position"), `: ${position}`, prizeCents ? h("span", {}, " · ", term("prize"), ` ${money(prizeCents)}`) : ""),
      h("p", {}, h("a", { class: "button", href: "#/lobby" }, term("lobby")), " ", h("a", { href: "#/account" }, term("account"))),
    );
  }

  /* P-4.2, P-4.3: a rebuy (after busting in the rebuy period) or an add-on, bought with one click. */
  function offerPurchase(tournamentId, kind, offer) {
    const label = kind === "rebuys" ? "Rebuy" : "Add-on";
    const buy = actionButton(`${label}: ${offer.chips} chips for ${money(offer.price_cents)}`, async () => {
      await request("POST", `/tournaments/${encodeURIComponent(tournamentId)}/${kind}`, undefined, { headers: { "Idempotency-Key": newIdempotencyKey() } });
      toast(`${label} bought.`);
    });
    toast(kind === "rebuys" ? "You are out of chips: rebuy?" : "Add-on break: buy more chips?", { action: buy, seconds: 60 });
  }

  function followTournament() {
    if (!state.tournamentId || stopTournament.following === state.tournamentId) return;
    stopTournament();
    const tid = state.tournamentId;
    stopTournament = lobbyLink.listen((frame) => {
      const { event, payload = {} } = frame.data || {};
      if (payload.tournament_id !== tid) return;
      if (event === "tournament.player.eliminated" && payload.player_id === session.playerId) showResult(payload.position, payload.prize_cents);
      if (event === "tournament.tournament.finished") {
        const me = payload.ranking.find((r) => r.player_id === session.playerId);
        if (me) showResult(me.position, me.prize_cents);
      }
      if ((event === "tournament.rebuy.offered" || event === "tournament.addon.offered") && payload.player_id === session.playerId) {
        offerPurchase(tid, event === "tournament.rebuy.offered" ? "rebuys" : "addons", payload);
      }
      if (event === "tournament.level.changed") addLine(log, `Level ${payload.level_no}: ${payload.small_blind}/${payload.big_blind}${payload.on_break ? " (break)" : ""}`);
      if (event === "tournament.player.moved" && payload.player_id === session.playerId) location.hash = `#/table/${encodeURIComponent(payload.to_table_id)}`;
    }, [`tournament:${tid}`]);
    stopTournament.following = tid;
  }

  async function load() {
    try {
      state.load(await request("GET", `/tables/${encodeURIComponent(id)}`));
      await refreshNames();
      followTournament();
      render();
    } catch (problem) {
      state.notice = problemText(problem);
      render();
    }
  }

  const socket = new LiveSocket("table", [`table:${id}`], {
    store: `table:${id}`,
    history: true,
    maxAttempts: TABLE_RETRIES,
    onGiveUp: (why) => { if (why === "lost") connectionLost(); },
    onStatus: (online, text) => { status.textContent = text; status.classList.toggle("online", online); },
    onResync: load,
    onFrame: (frame) => { if (frame.type === "error") toast(frame.message || frame.code, { kind: "error" }); },
    onMessage: async (frame) => {
      const { event, payload } = frame.data;
      if (event === "table.action.rejected") { toast(payload.message || payload.code, { kind: "error" }); return; }
      if (event === "table.chat.posted") { addLine(chatLines, `${name(payload.player_id)}: ${payload.text}`); return; }
      const line = state.apply(event, payload);
      followTournament();
      if (event === "table.player.seated" || event === "table.table.opened" || event === "table.hand.started") await refreshNames();
      if (line) addLine(log, line.replace(/seat (\d+)/g, (_, n) => name(state.seats.get(Number(n))?.player_id) || `seat ${n}`));
      render();
    },
  });

  load();
  const clock = setInterval(tick, 250);
  return () => { socket.close(); stopTournament(); clearInterval(clock); };
}, { auth: true });

/* ---- a table's hand histories ------------------------------------------------------------------------------ */
page("#/table/:id/hands", (view, { id }) => {
  const list = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const more = h("button", { class: "secondary", hidden: true }, "Older hands");
  view.append(h("section", { class: "panel" },
    h("h1", {}, term("handHistory"), ` — ${TERMS.table[0]} ${id}`),
    h("p", {}, h("a", { href: `#/table/${encodeURIComponent(id)}` }, "← ", term("table"))),
    h("p", { class: "muted" }, "Your copy of a hand shows your own hole cards and the cards shown at the table (PHH format)."),
    list, more));
  let before = null;
  let rows = [];

  async function show() {
    try {
      const page_ = await request("GET", `/tables/${encodeURIComponent(id)}/hands?limit=50${before ? `&before=${before}` : ""}`);
      const name = await nicknames(page_.hands.flatMap((hand) => hand.players.map((p) => p.player_id)));
      rows = rows.concat(page_.hands.map((hand) => h("article", { class: "card-row" },
        h("div", { class: "grow" },
          h("h3", {}, `Hand #${hand.hand_no}`, h("span", { class: "muted" }, ` · ${hand.status} · ${when(hand.started_at)}`)),
          h("p", { class: "muted" }, `${TERMS.blinds[0]} ${hand.level.small_blind}/${hand.level.big_blind} · `,
            hand.players.map((p) => `${name(p.player_id)} ${p.stack}${hand.end_stacks ? ` → ${hand.end_stacks[p.seat] ?? "?"}` : ""}`).join(", "))),
        h("div", { class: "actions" }, hand.status === "in_progress" ? null
          : actionButton(term("download"), () => download(`/hands/${encodeURIComponent(hand.hand_id)}/phh`, `${hand.hand_id}.phh`), { class: "secondary" })))));
      fill(list, ...(rows.length ? rows : [h("p", { class: "muted" }, "No hands yet.")]));
      before = page_.next_before;
      more.hidden = !before;
    } catch (problem) {
      fill(list, h("p", { class: "error" }, problemText(problem)));
    }
  }
  more.addEventListener("click", show);
  show();
}, { auth: true });

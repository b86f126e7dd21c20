/* The action bar and its conveniences (issue 15, item 12), as players of the big poker clients expect them:
 * - bet sizing between the request's minimum and maximum: Min, pre-flop 2×/2.5×/3× the big blind (of the bet
 *   faced, once raised), ½ pot and pot after the flop, All-in (always the last chip), a slider and a number box;
 * - pre-action boxes while another player acts: "Check/Fold" and "Call any", carried out when the turn comes;
 * - keyboard shortcuts: F fold, C check or call, R bet or raise, A all-in (never while typing in a field);
 * - the time bank as a bar of its own under the action timer (table.js draws it).
 * Every amount sent stays inside [min_raise_to, max_raise_to]: the server refuses anything else anyway. */
"use strict";

const PREFLOP_MULTIPLES = [2, 2.5, 3];
/* Key → the data-key of the bar's button it presses. */
const SHORTCUT_KEYS = new Set(["f", "c", "r", "a"]);

/* The buttons the request offers, and the bet sizing between its minimum and maximum. */
function actionBar(r, state, act) {
  const buttons = r.can_check
    ? [h("button", { class: "act", "data-action": "check", "data-key": "c", onclick: () => act("check") }, term("check"), kbd("C"))]
    : [h("button", { class: "act fold", "data-action": "fold", "data-key": "f", onclick: () => act("fold") }, term("fold"), kbd("F")),
      h("button", { class: "act", "data-action": "call", "data-key": "c", onclick: () => act("call") }, term("call"), ` ${num(r.call_amount)}`, kbd("C"))];
  if (r.min_raise_to == null || r.max_raise_to == null) return h("div", { class: "buttons" }, buttons);
  const low = r.min_raise_to;
  const high = r.max_raise_to;
  const amount = h("input", { type: "number", min: low, max: high, step: 1, value: low, inputmode: "numeric", "aria-label": say("Amount", "Importo") });
  const slider = h("input", { type: "range", min: low, max: high, step: 1, value: low, "aria-label": say("Bet size", "Importo della puntata") });
  const label = h("span", { class: "amount" }, ` ${num(low)}`);
  const clamp = (v) => Math.min(high, Math.max(low, Math.round(Number(v) || low)));
  const set = (v) => { amount.value = slider.value = clamp(v); label.textContent = ` ${num(Number(amount.value))}`; };
  slider.addEventListener("input", () => set(slider.value));
  amount.addEventListener("change", () => set(amount.value));
  const quick = (text, v, key) => h("button", { type: "button", class: "chip", "data-to": clamp(v), ...(key ? { "data-key": key } : {}), onclick: () => set(v) }, text);
  // With a bet already on the street (the big blind's preflop option included) the button raises.
  const raising = r.call_amount > 0 || state.betFacing;
  const raise = h("button", { class: "act raise", "data-action": "raise", "data-key": "r", onclick: () => act(raising ? "raise" : "bet", clamp(amount.value)) },
    raising ? term("raise") : term("bet"), label, kbd("R"));
  const presets = sizingPresets(r, state).map(([text, to]) => quick(text, to));
  return h("div", { class: "bar-inner" },
    h("div", { class: "buttons" }, buttons, raise),
    h("div", { class: "sizing" },
      h("div", { class: "quick" }, quick("Min", low), presets, quick("All-in", high, "a")),
      slider, amount));
}

/* The sizes between Min and All-in: before the flop, 2×, 2.5× and 3× the big blind — or the bet faced, once
 * someone raised; after it, half the pot and the pot (each "raise to" amounts, including what the player has
 * in front of them already). */
function sizingPresets(r, state) {
  const myBet = state.mySeat?.bet || 0;
  if (!state.board.length) {
    const bigBlind = state.level?.big_blind || 0;
    const faced = Math.max(bigBlind, myBet + r.call_amount);
    return bigBlind ? PREFLOP_MULTIPLES.map((k) => [`${num(k, k % 1 ? 1 : 0)}×`, Math.round(faced * k)]) : [];
  }
  const afterCall = state.pot + r.call_amount;
  return [[say("½ pot", "½ piatto"), myBet + r.call_amount + Math.floor(afterCall / 2)], [say("Pot", "Piatto"), myBet + r.call_amount + afterCall]];
}

function kbd(key) {
  return h("kbd", { class: "shortcut", title: say(`Shortcut: ${key}`, `Scorciatoia: ${key}`) }, key);
}

/* A key pressed on the table page: the bar's button for it, if the bar offers one. "A" moves the size to
 * all-in (the bet itself still takes R or a click). Ignored while the player types (chat, amount). */
function pressShortcut(event, bar) {
  const typing = event.target instanceof HTMLElement && event.target.closest("input, textarea, select, [contenteditable]");
  const key = event.key?.toLowerCase();
  if (typing || event.ctrlKey || event.metaKey || event.altKey || !SHORTCUT_KEYS.has(key)) return;
  const button = bar.querySelector(`[data-key='${key}']`);
  if (!button) return;
  event.preventDefault();
  button.click();
}

/* The pre-action boxes: ticked while another player acts, done as soon as the turn comes, for the hand they were
 * ticked in only. "Check/Fold" checks if free, else folds; "Call any" calls whatever the bet (or checks). */
class PreActions {
  constructor(onChange) {
    this.choice = null;
    this.handId = null;
    this.onChange = onChange;
  }

  /* The boxes, while the player holds cards in a hand and it is someone else's turn. */
  boxes(state) {
    const me = state.mySeat;
    if (!me || !me.in_hand || !state.handId || state.request || state.toAct == null || state.toAct === me.seat) return null;
    if (this.handId !== state.handId) this.choice = null;
    const box = (choice, en, it) => h("label", { class: "pre-action" },
      h("input", { type: "checkbox", "data-pre": choice, checked: this.choice === choice,
        onchange: (e) => { this.choose(e.target.checked ? choice : null, state.handId); } }),
      " ", both(en, it));
    return h("div", { class: "pre-actions" }, box("check_fold", "Check/Fold", "Passa/Lascia"), box("call_any", "Call any", "Vedi sempre"));
  }

  choose(choice, handId) {
    this.choice = choice;
    this.handId = handId;
    this.onChange();
  }

  /* The action a ticked box takes on request `r` (the box is then cleared), or null. */
  take(r) {
    if (!this.choice || r.hand_id !== this.handId) return null;
    const choice = this.choice;
    this.choice = null;
    if (choice === "check_fold") return r.can_check ? "check" : "fold";
    return r.can_check ? "check" : "call";
  }
}

/* The web client shell: sessions (sign-up, log-in, refresh, log-out), a hash router with parameters, the live
 * sockets, and the helpers every page uses. Pages live in their own files (lobby.js, table.js, totalizator.js,
 * account.js), loaded after this one; the app starts once they have all registered their pages.
 *
 * Add a page with `page("#/table/:id", renderTable, { auth: true })`: `render(view, params)` fills the <main>
 * element and may return a cleanup function, called when the user navigates away.
 * No build step, no framework: DOM nodes are built with `h()` (text is never parsed as HTML).
 */
"use strict";

const API = "/api/v1";

/* ---- terms: English with the Italian original beside it, where players see game terms ------------------- */
const TERMS = {
  lobby: ["Lobby", "Sala"],
  tournaments: ["Tournaments", "Tornei"],
  tournament: ["Tournament", "Torneo"],
  totalizator: ["Exact-score pool", "Totalizzatore"],
  chips: ["Chips", "Fiches"],
  buyIn: ["Buy-in", "Diritto di partecipazione"],
  prizePool: ["Prize pool", "Montepremi"],
  ranking: ["Ranking", "Classifica"],
  leaderboard: ["Leaderboard", "Classifica"],
  logIn: ["Log in", "Accedi"],
  signUp: ["Sign up", "Registrati"],
  logOut: ["Log out", "Esci"],
  nickname: ["Nickname", "Soprannome"],
  password: ["Password", "Password"],
  email: ["Email", "Email"],
  dateOfBirth: ["Date of birth", "Data di nascita"],
  concessionaire: ["Concessionaire", "Concessionario"],
  register: ["Register", "Iscriviti"],
  registerWithSeat: ["Register with your satellite seat", "Iscriviti con il posto vinto al satellite"],
  unregister: ["Unregister", "Annulla iscrizione"],
  openTable: ["Open table", "Apri tavolo"],
  table: ["Table", "Tavolo"],
  players: ["Players", "Giocatori"],
  structure: ["Structure", "Struttura"],
  payouts: ["Payouts", "Premi"],
  level: ["Level", "Livello"],
  blinds: ["Blinds", "Bui"],
  standings: ["Standings", "Classifica"],
  pot: ["Pot", "Piatto"],
  fold: ["Fold", "Lascia"],
  check: ["Check", "Passa"],
  call: ["Call", "Vedi"],
  bet: ["Bet", "Punta"],
  raise: ["Raise to", "Rilancia a"],
  chat: ["Chat", "Chat"],
  handHistory: ["Hand history", "Storico mani"],
  download: ["Download", "Scarica"],
  account: ["Account", "Conto"],
  statement: ["Statement", "Estratto conto"],
  balance: ["Balance", "Saldo"],
  bonusBalance: ["Bonus, not withdrawable", "Bonus, non prelevabile"],
  coupon: ["Coupon", "Schedina"],
  coupons: ["Coupons", "Schedine"],
  tickets: ["Tickets", "Biglietti"],
  satellite: ["Satellite", "Torneo satellite"],
  draw: ["Draw", "Concorso"],
  stakePerBet: ["Stake per bet", "Posta per colonna"],
  bets: ["Bets", "Colonne"],
  cost: ["Cost", "Costo"],
  placeCoupon: ["Place coupon", "Gioca la schedina"],
  statistics: ["Statistics", "Statistiche"],
  jackpot: ["Jackpot", "Jackpot"],
  closes: ["Closes", "Chiusura"],
  position: ["Position", "Posizione"],
  prize: ["Prize", "Premio"],
  tier: ["Tier", "Fascia"],
  rating: ["Rating", "Punteggio"],
  sitOut: ["Sit out", "Salta le mani"],
  imBack: ["I'm back", "Rientro"],
};

/* ---- language: the player's choice first, the other language beside it (P-11.5: both, wherever players read) */
const LANGUAGES = { en: "en-GB", it: "it-IT" };
let lang = localStorage.getItem("lang") || (navigator.language?.startsWith("it") ? "it" : "en");

function locale() { return LANGUAGES[lang]; }

function setLanguage(chosen) {
  lang = chosen in LANGUAGES ? chosen : "en";
  localStorage.setItem("lang", lang);
  document.documentElement.lang = lang;
}

/* Text in both languages: the chosen one first, the other beside it in the muted style. */
function both(en, it) {
  const [first, second] = lang === "it" ? [it, en] : [en, it];
  if (first === second) return h("span", { class: "term" }, first);
  return h("span", { class: "term", lang }, first, h("span", { class: "it", lang: lang === "it" ? "en" : "it" }, h("span", { class: "sep" }, " · "), second));
}

/* The same as plain text, where no markup can go (toasts, titles, placeholders). */
function say(en, it) {
  const [first, second] = lang === "it" ? [it, en] : [en, it];
  return first === second ? first : `${first} · ${second}`;
}

function term(key) {
  return both(...TERMS[key]);
}

/* Words the API sends as codes (statuses), as players read them. */
const STATUS_WORDS = {
  announced: ["Announced", "Annunciato"],
  registering: ["Registration open", "Iscrizioni aperte"],
  running: ["Running", "In corso"],
  in_progress: ["In progress", "In corso"],
  finished: ["Finished", "Concluso"],
  completed: ["Completed", "Conclusa"],
  cancelled: ["Cancelled", "Annullato"],
  voided: ["Voided", "Annullata"],
  open: ["Open", "Aperto"],
  closed: ["Closed", "Chiuso"],
  settling: ["Settling", "In liquidazione"],
  settled: ["Settled", "Liquidato"],
  accepted: ["Accepted", "Accettata"],
  won: ["Won", "Vincente"],
  lost: ["Lost", "Perdente"],
  refunded: ["Refunded", "Rimborsata"],
  waiting: ["Waiting for players", "In attesa di giocatori"],
  playing: ["Playing", "In gioco"],
  paused: ["Paused", "In pausa"],
  draft: ["Draft", "Bozza"],
  cancelling: ["Being cancelled", "In annullamento"],
  pending: ["Pending", "In attesa"],
  refused: ["Refused", "Rifiutata"],
};

function statusWord(code) {
  const words = STATUS_WORDS[code];
  return words ? both(...words) : h("span", {}, String(code || "").replaceAll("_", " "));
}

/* ---- DOM helper ------------------------------------------------------------------------------------------ */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value !== false && value != null) node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child != null) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/* Replace a node's children, leaving out the absent ones (null, undefined, false). */
function fill(node, ...children) {
  if (node) node.replaceChildren(...children.flat().filter((child) => child != null && child !== false));
}

/* ---- money and cards --------------------------------------------------------------------------------------- */
/* Integer minor units to text, with integer arithmetic only (money is never a float here either): the amount
 * reaches Intl as a decimal string, formatted for the chosen language ("€5.00", "5,00 €") or the text's. */
function money(minor, currency = "EUR", minorUnits = 2, language = lang) {
  const digits = String(Math.abs(minor)).padStart(minorUnits + 1, "0");
  const decimal = `${minor < 0 ? "-" : ""}${minorUnits ? `${digits.slice(0, -minorUnits)}.${digits.slice(-minorUnits)}` : digits}`;
  const text = new Intl.NumberFormat(LANGUAGES[language], { style: "currency", currency, currencyDisplay: "narrowSymbol", minimumFractionDigits: minorUnits, maximumFractionDigits: minorUnits }).format(decimal);
  return text.replace("-", "−"); // the typographic minus of a statement
}

/* A decimal text from the API ("3.2529" US dollars) as money to the cent. */
function decimalMoney(text, currency = "USD") {
  return new Intl.NumberFormat(locale(), { style: "currency", currency, currencyDisplay: "narrowSymbol", maximumFractionDigits: 2 }).format(String(text ?? 0));
}

/* Chips and counts with a language's grouping ("2,380", "2.380"): the chosen one, or the one of the text. */
function num(value, digits = 0, language = lang) {
  return value == null ? "—" : new Intl.NumberFormat(LANGUAGES[language], { maximumFractionDigits: digits, useGrouping: "always" }).format(value);
}

/* The Italian half of a text in both languages formats its numbers the Italian way. */
function numIt(value, digits = 0) {
  return num(value, digits, "it");
}

function numEn(value, digits = 0) {
  return num(value, digits, "en");
}

/* "0.10" in a currency with 2 minor units -> 10; null when it is not such an amount. */
function parseMinor(text, minorUnits = 2) {
  const match = /^\s*(\d{1,12})(?:[.,](\d*))?\s*$/.exec(text || "");
  if (!match || (match[2] || "").length > minorUnits) return null;
  return Number(match[1]) * 10 ** minorUnits + Number((match[2] || "").padEnd(minorUnits, "0") || "0");
}

const SUITS = { s: ["♠", "black"], h: ["♥", "red"], d: ["♦", "red"], c: ["♣", "black"] };

/* A card face ("As"), or its back; `best` marks one of the winning five at a showdown. */
function card(text, best = false) {
  if (!text) return h("span", { class: "card back", "aria-label": say("hidden card", "carta coperta") });
  const [symbol, colour] = SUITS[text[1]] || ["?", "black"];
  const rank = text[0] === "T" ? "10" : text[0];
  return h("span", { class: `card ${colour}${best ? " best" : ""}`, "aria-label": text }, rank, h("small", {}, symbol));
}

/* A moment, as the chosen language writes it ("02/12/2026, 14:30"). */
function when(iso, language = lang) {
  return iso ? new Date(iso).toLocaleString(LANGUAGES[language], { dateStyle: "short", timeStyle: "short" }) : "—";
}

/* A calendar day ("2026-12-02") in a language: "2 Dec 2026", "2 dic 2026". */
function dayOf(isoDay, language = lang) {
  return new Intl.DateTimeFormat(LANGUAGES[language], { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${isoDay}T00:00:00Z`));
}

/* ---- session: access token in memory, refresh token in localStorage ------------------------------------ */
const session = {
  accessToken: null,
  principal: JSON.parse(localStorage.getItem("principal") || "null"),
  refreshTimer: null,

  get refreshToken() { return localStorage.getItem("refreshToken"); },
  get loggedIn() { return Boolean(this.refreshToken); },
  get playerId() { return this.principal?.role === "player" ? this.principal.id : null; },

  start(answer) {
    this.accessToken = answer.access_token;
    this.principal = answer.principal;
    localStorage.setItem("refreshToken", answer.refresh_token);
    localStorage.setItem("principal", JSON.stringify(answer.principal));
    clearTimeout(this.refreshTimer);
    // Refresh a minute before the access token expires (at least 10 s ahead).
    const delay = Math.max(10, answer.expires_in - 60) * 1000;
    this.refreshTimer = setTimeout(() => this.refresh().catch(() => {}), delay);
    lobbyLink.start();
    realityCheck.schedule(); // protection.js
    renderNav();
  },

  end() {
    clearTimeout(this.refreshTimer);
    this.accessToken = null;
    this.principal = null;
    localStorage.removeItem("refreshToken");
    localStorage.removeItem("principal");
    lobbyLink.stop();
    realityCheck.stop();
    renderNav();
  },

  /* One refresh at a time: the refresh token works once, so two parallel refreshes would end the session. */
  refreshing: null,
  refresh() {
    if (!this.refreshing) {
      this.refreshing = request("POST", "/auth/refresh", { refresh_token: this.refreshToken }, { auth: false })
        .then((answer) => this.start(answer))
        .catch((problem) => { if (problem.status) this.end(); throw problem; })
        .finally(() => { this.refreshing = null; });
    }
    return this.refreshing;
  },

  async validAccessToken() {
    if (!this.accessToken && this.loggedIn) await this.refresh();
    return this.accessToken;
  },
};

/* ---- API calls: problem+json errors become thrown objects with `code` and `title` ----------------------- */
/* How long a request waits out the platform's refusals for overload before the player sees the refusal. */
const BUSY_PATIENCE_MS = 30000;

/* The wait before sending a request again that the platform refused for overload (a 429, or a 503 with
 * Retry-After: `director_busy` in a registration rush, `outcome_pending` when a payment is slow), or null.
 * Only a request that is safe to repeat is repeated: a read, or a write under its Idempotency-Key, which the
 * platform never carries out twice and answers with the first outcome. The wait is what Retry-After asks, plus
 * up to half again at random, so that players refused in the same second do not all come back in the same
 * second. */
function busyPause(response, method, headers) {
  if (response.status !== 429 && response.status !== 503) return null;
  if (method !== "GET" && !headers["Idempotency-Key"]) return null;
  const seconds = Number(response.headers.get("Retry-After") ?? NaN);
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  return seconds * 1000 * (1 + Math.random() / 2);
}

async function request(method, path, body, { auth = true, retried = false, headers = {}, waited = 0 } = {}) {
  const sent = { Accept: "application/json", ...headers };
  if (body !== undefined) sent["Content-Type"] = "application/json";
  if (auth) sent.Authorization = `Bearer ${await session.validAccessToken()}`;
  const response = await fetch(API + path, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({ code: "bad_response", title: response.statusText }));
  if (response.ok) return data;
  if (auth && !retried && response.status === 401 && data.code === "token_expired") {
    await session.refresh();
    return request(method, path, body, { auth, retried: true, headers, waited });
  }
  const pause = busyPause(response, method, headers);
  if (pause !== null && waited + pause <= BUSY_PATIENCE_MS) {
    if (waited === 0 && method !== "GET") {
      toast(say("The platform is busy: your request is being sent again…", "La piattaforma è occupata: la richiesta viene ripetuta…"));
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    return request(method, path, body, { auth, retried, headers, waited: waited + pause });
  }
  throw { status: response.status, ...data };
}

/* A GET of something other than JSON behind authentication (a hand history): the response when it succeeded,
 * else the problem thrown. An expired access token is refreshed and the request made once more, as `request`
 * does (a page left open past the token's life would otherwise fail its first download). */
async function authorizedFetch(path, retried = false) {
  const response = await fetch(API + path, { headers: { Authorization: `Bearer ${await session.validAccessToken()}` } });
  if (response.ok) return response;
  const problem = await response.json().catch(() => ({ title: response.statusText }));
  if (!retried && response.status === 401 && problem.code === "token_expired") {
    await session.refresh();
    return authorizedFetch(path, true);
  }
  throw { status: response.status, ...problem };
}

/* A file the API serves behind authentication (a hand history): fetched, then saved by the browser; `edit`
 * may rewrite its text first. */
async function download(path, filename, edit = null) {
  const response = await authorizedFetch(path);
  const blob = edit ? new Blob([edit(await response.text())], { type: response.headers.get("content-type") || "text/plain" }) : await response.blob();
  const link = h("a", { href: URL.createObjectURL(blob), download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/* A unique key per intended money move; the same key is sent again when the same move is retried. */
function newIdempotencyKey() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

/* P-11.5: players are shown by nickname; ids are looked up once and remembered. */
const nicknameCache = new Map();

async function nicknames(ids) {
  const missing = [...new Set(ids)].filter((id) => id && !nicknameCache.has(id));
  for (let i = 0; i < missing.length; i += 100) {
    const query = missing.slice(i, i + 100).map((id) => `player_id=${encodeURIComponent(id)}`).join("&");
    const found = await request("GET", `/players/public?${query}`).catch(() => []);
    for (const { player_id: id, nickname } of found) nicknameCache.set(id, nickname);
  }
  return (id) => nicknameCache.get(id) || (id === session.playerId ? session.principal.nickname : `#${String(id).slice(0, 6)}`);
}

/* Phones: a wide table's rows become small cards, each cell named by its column (no sideways scrolling).
 * Called again after rows are added; cells keep the label of their column. */
function stackable(table) {
  table.classList.add("stackable");
  const labels = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of table.querySelectorAll("tbody tr")) [...row.children].forEach((cell, i) => { if (labels[i]) cell.dataset.label = labels[i]; });
  return table;
}

/* "1 coupon", "3 coupons": [en, it] with the count, in each language's plural. */
function counted(n, [enOne, enMany], [itOne, itMany]) {
  return [`${numEn(n)} ${n === 1 ? enOne : enMany}`, `${numIt(n)} ${n === 1 ? itOne : itMany}`];
}

/* ---- notices ------------------------------------------------------------------------------------------------ */
function toast(text, { action = null, kind = "info", seconds = 6 } = {}) {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text, action);
  box.append(item);
  setTimeout(() => item.remove(), seconds * 1000);
}

/* ---- router ---------------------------------------------------------------------------------------------- */
const pages = [];
let leavePage = null;

function page(pattern, render, { auth = false } = {}) {
  const keys = [];
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:(\w+)/g, (_, key) => {
    keys.push(key);
    return "([^/]+)";
  });
  pages.push({ regex: new RegExp(`^${source}$`), keys, render, auth, pattern });
}

function route(hash) {
  for (const target of pages) {
    const match = target.regex.exec(hash);
    if (match) {
      const params = Object.fromEntries(target.keys.map((key, i) => [key, decodeURIComponent(match[i + 1])]));
      return { target, params };
    }
  }
  return { target: pages.find((p) => p.pattern === "#/"), params: {} };
}

function navigate() {
  const { target, params } = route(location.hash || "#/");
  if (target.auth && !session.loggedIn) {
    location.hash = "#/login";
    return;
  }
  if (leavePage) leavePage();
  leavePage = null;
  const view = document.getElementById("view");
  view.replaceChildren();
  view.dataset.page = target.pattern;
  leavePage = target.render(view, params) || null;
  view.focus();
}

/* EN / IT: the page is drawn again in the chosen language. */
function languageSwitch() {
  return h("span", { class: "languages", role: "group", "aria-label": "Language · Lingua" },
    ...Object.keys(LANGUAGES).map((code) => h("button", {
      type: "button", class: "link", lang: code, "aria-pressed": String(code === lang), "data-lang": code,
      onclick: () => { setLanguage(code); renderNav(); navigate(); },
    }, code.toUpperCase())));
}

function renderNav() {
  const nav = document.getElementById("nav");
  if (session.loggedIn) {
    const who = session.principal?.nickname || session.principal?.role || "";
    fill(nav, 
      h("span", { id: "lobby-status", class: `status ${lobbyLink.online ? "online" : ""}`, title: say("Lobby connection", "Connessione alla sala") }),
      h("a", { href: "#/lobby" }, term("lobby")),
      h("a", { href: "#/leaderboard" }, term("leaderboard")),
      session.playerId ? h("a", { href: "#/account" }, term("account")) : null,
      session.playerId ? null : h("a", { href: "#/staff", class: "console-link" }, both("Console", "Console")),
      h("span", { class: "who" }, who),
      h("button", { class: "link", onclick: logOut }, term("logOut")),
      languageSwitch(),
    );
  } else {
    fill(nav, 
      h("a", { href: "#/leaderboard" }, term("leaderboard")),
      h("a", { href: "#/login" }, term("logIn")),
      h("a", { href: "#/signup" }, term("signUp")),
      languageSwitch(),
    );
  }
}

/* ---- forms ----------------------------------------------------------------------------------------------- */
function form(fields, submitLabel, onSubmit) {
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit" }, submitLabel);
  const element = h("form", {
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      button.disabled = true;
      try {
        await onSubmit(Object.fromEntries(new FormData(element)));
      } catch (problem) {
        error.textContent = problemText(problem);
      } finally {
        button.disabled = false;
      }
    },
  }, fields, button, error);
  return element;
}

function field(label, name, attrs = {}) {
  return h("label", {}, label, h("input", { name, required: true, ...attrs }));
}

/* A button whose click runs an API call; it is disabled meanwhile and shows the refusal next to itself. */
function actionButton(label, run, attrs = {}) {
  const button = h("button", { type: "button", ...attrs }, label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await run();
    } catch (problem) {
      toast(problemText(problem), { kind: "error" });
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/* ---- live sockets: authenticate, resubscribe with epoch and last_seq, answer pings, reconnect -------------- */
class LiveSocket {
  /* `maxAttempts`: reconnections tried before `onGiveUp` (P-13.1); Infinity keeps trying (P-13.4).
   * `history`: a first subscription asks for the channel's recent messages, the private ones for this player
   * included: a page opened (or reloaded) mid-hand gets the hand so far, its own hole cards and pending turn. */
  constructor(kind, channels, { onStatus, onMessage, onResync = () => {}, onFrame = () => {}, maxAttempts = Infinity, onGiveUp = () => {}, history = false }) {
    this.kind = kind;
    this.positions = new Map(channels.map((name) => [name, { epoch: null, seq: null }]));
    Object.assign(this, { onStatus, onMessage, onResync, onFrame, maxAttempts, onGiveUp, history });
    this.attempt = 0;
    this.closed = false;
    this.open();
  }

  async open() {
    const token = await session.validAccessToken().catch(() => null);
    if (!token) { this.onStatus(false, say("logged out", "disconnesso")); return; }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}${API}/ws?socket=${this.kind}`);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token }));
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => { if (this.ws === ws) this.reconnect(event.code); };
  }

  subscribe(channel) {
    if (this.positions.has(channel)) return;
    this.positions.set(channel, { epoch: null, seq: null });
    this.send({ type: "subscribe", channel });
  }

  unsubscribe(channel) {
    if (this.positions.delete(channel)) this.send({ type: "unsubscribe", channel });
  }

  receive(frame) {
    switch (frame.type) {
      case "welcome":
        this.attempt = 0;
        this.onStatus(true, say("online", "connesso"));
        for (const [channel, at] of this.positions) {
          this.send({ type: "subscribe", channel, ...(at.epoch ? { epoch: at.epoch, last_seq: at.seq } : { history: this.history }) });
        }
        break;
      case "subscribed": {
        const before = this.positions.get(frame.channel);
        this.positions.set(frame.channel, { epoch: frame.epoch, seq: frame.seq });
        // Positions from another gateway instance, or too old: the page reloads its state over REST.
        if (frame.resync || (before && before.epoch && before.epoch !== frame.epoch)) this.onResync(frame.channel);
        break;
      }
      case "message": {
        const at = this.positions.get(frame.channel);
        if (at) at.seq = frame.seq;
        this.onMessage(frame);
        break;
      }
      case "ping":
        this.send({ type: "pong" });
        break;
      default:
        this.onFrame(frame);
    }
  }

  send(frame) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  reconnect(code) {
    if (this.closed) return;
    if (code === 4401) session.accessToken = null; // expired: the next open() refreshes first
    if (code === 4403) { this.onStatus(false, say("access refused", "accesso negato")); this.onGiveUp("refused"); return; }
    if (this.attempt >= this.maxAttempts) { this.onStatus(false, say("connection lost", "connessione persa")); this.onGiveUp("lost"); return; }
    // P-13.1: retry automatically, backing off up to 30 s.
    const delay = Math.min(30000, 500 * 2 ** this.attempt++);
    const seconds = Math.round(delay / 1000);
    this.onStatus(false, say(`reconnecting in ${seconds} s…`, `riconnessione tra ${seconds} s…`));
    this.timer = setTimeout(() => this.open(), delay);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }
}

/* Several pieces of the lobby's public news come in one `lobby.news` message (issue 14): each is heard as if it
 * came alone. */
function unpacked(frame) {
  return frame.data?.event === "lobby.news" ? frame.data.payload.news.map((data) => ({ ...frame, data })) : [frame];
}

/* The lobby socket lives as long as the session, across pages: pages listen to its channels while shown.
 * Losing it leaves the tables alone (they have their own sockets) but new tables cannot be opened (P-13.4). */
const lobbyLink = {
  socket: null,
  online: false,
  listeners: new Set(),

  start() {
    if (this.socket || !session.loggedIn) return;
    this.socket = new LiveSocket("lobby", ["lobby"], {
      onStatus: (online) => {
        this.online = online;
        document.body.classList.toggle("lobby-offline", !online);
        document.getElementById("lobby-status")?.classList.toggle("online", online);
      },
      onMessage: (frame) => {
        for (const one of unpacked(frame)) for (const listener of this.listeners) listener(one);
      },
      onResync: (channel) => { for (const listener of this.listeners) listener({ type: "resync", channel }); },
    });
  },

  stop() {
    this.socket?.close();
    this.socket = null;
    this.online = false;
  },

  /* Follow `channels` (besides `lobby`) while the page is shown; returns the function that stops it. */
  listen(listener, channels = []) {
    this.start();
    this.listeners.add(listener);
    for (const channel of channels) this.socket?.subscribe(channel);
    return () => {
      this.listeners.delete(listener);
      for (const channel of channels) this.socket?.unsubscribe(channel);
    };
  },
};

/* A private "you are seated" message: the player's client goes to the table (from the lobby or the tournament's
 * page), or offers to when they are elsewhere. */
function seatingOf(data) {
  const me = session.playerId;
  const payload = data.payload || {};
  if (!me) return null;
  if (data.event === "table.table.opened" && payload.seats?.some((seat) => seat.player_id === me)) return payload.table_id;
  if (data.event === "table.player.seated" && payload.player?.player_id === me) return payload.table_id;
  return null;
}

/* ---- shell pages ------------------------------------------------------------------------------------------- */
page("#/", (view) => {
  view.append(h("section", { class: "panel hero" },
    h("h1", {}, both("Texas Hold'em & exact-score football", "Texas Hold'em e totalizzatore del calcio")),
    h("p", {}, term("tournaments"), " — ", term("totalizator"), " — ", term("ranking")),
    session.loggedIn
      ? h("p", {}, h("a", { class: "button", href: "#/lobby" }, term("lobby")))
      : h("p", {}, h("a", { class: "button", href: "#/signup" }, term("signUp")), " ", h("a", { href: "#/login" }, term("logIn"))),
  ));
});

page("#/login", (view) => {
  const notice = sessionStorage.getItem("notice");
  sessionStorage.removeItem("notice");
  view.append(h("section", { class: "panel" }, h("h1", {}, term("logIn")),
    notice ? h("p", { class: "error", role: "alert" }, notice) : null,
    form(
      [
        field([term("nickname"), " / ", term("email")], "login", { autocomplete: "username" }),
        field(term("password"), "password", { type: "password", autocomplete: "current-password" }),
      ],
      term("logIn"),
      async (values) => {
        session.start(await logInAnyone(values));
        location.hash = session.playerId ? "#/lobby" : "#/staff";
      },
    ),
  ));
});

page("#/signup", (view) => {
  const concessionaires = h("select", { name: "concessionaire", required: true });
  request("GET", "/concessionaires", undefined, { auth: false })
    .then((list) => fill(concessionaires, ...list.map((c) => h("option", { value: c.code }, c.name))))
    .catch(() => fill(concessionaires, h("option", { value: "demo" }, "demo")));
  view.append(h("section", { class: "panel" }, h("h1", {}, term("signUp")),
    form(
      [
        h("label", {}, term("concessionaire"), concessionaires),
        field(term("nickname"), "nickname", { minlength: 3, maxlength: 20, autocomplete: "nickname" }),
        field(term("email"), "email", { type: "email", autocomplete: "email" }),
        field(term("dateOfBirth"), "date_of_birth", { type: "date" }),
        field(term("password"), "password", { type: "password", minlength: 10, autocomplete: "new-password" }),
      ],
      term("signUp"),
      async (values) => {
        session.start(await request("POST", "/auth/signup", values, { auth: false }));
        location.hash = "#/lobby";
      },
    ),
    h("p", { class: "muted" }, both("18+ only. Players of the demo concessionaire get play money to try the games.",
      "Solo maggiorenni. I giocatori del concessionario demo ricevono denaro di prova per provare i giochi.")),
  ));
});

/* Players log in at /auth/login, staff at /auth/staff/login: an email the player log-in does not know is tried as
 * a staff member's, so the bootstrap admin signing in here reaches the console (issue 17) instead of "Wrong login". */
async function logInAnyone({ login, password }) {
  try {
    return await request("POST", "/auth/login", { login, password }, { auth: false });
  } catch (problem) {
    if (problem.code !== "invalid_credentials" || !login.includes("@")) throw problem;
    return request("POST", "/auth/staff/login", { email: login, password }, { auth: false }).catch(() => { throw problem; });
  }
}

/* P-13.1: a table whose connection cannot be restored closes, and the client returns to the login screen. */
function connectionLost() {
  sessionStorage.setItem("notice", say("The connection to the game server was lost. Log in again to return to your tables.",
    "La connessione al server di gioco si è interrotta. Accedi di nuovo per tornare ai tuoi tavoli."));
  session.end();
  location.hash = "#/login";
  navigate();
}

async function logOut() {
  const refreshToken = session.refreshToken;
  closeAllTables(); // tables.js: the open tables' sockets end with the session
  session.end();
  if (refreshToken) await request("POST", "/auth/logout", { refresh_token: refreshToken }, { auth: false }).catch(() => {});
  location.hash = "#/login";
}

/* The table page fills the screen below the top bar: its height, kept in a CSS variable. */
function measureTopbar() {
  const bar = document.querySelector(".topbar");
  if (bar) document.documentElement.style.setProperty("--topbar-h", `${bar.offsetHeight}px`);
}

function start() {
  setLanguage(lang);
  window.addEventListener("hashchange", navigate);
  window.addEventListener("resize", measureTopbar);
  new ResizeObserver(measureTopbar).observe(document.querySelector(".topbar"));
  if (session.loggedIn) {
    lobbyLink.start();
    realityCheck.schedule();
  }
  renderNav();
  navigate();
}

document.addEventListener("DOMContentLoaded", start);

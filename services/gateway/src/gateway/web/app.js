/* The web client shell: sessions (sign-up, log-in, refresh, log-out), a hash router, and the lobby socket.
 *
 * Add a page with `page("#/tournaments", renderTournaments, { auth: true })`: `render(view)` fills the <main>
 * element and may return a cleanup function, called when the user navigates away.
 * No build step, no framework: DOM nodes are built with `h()` (text is never parsed as HTML).
 */
"use strict";

const API = "/api/v1";

/* ---- terms: English with the Italian original beside it, where players see game terms ------------------- */
const TERMS = {
  lobby: ["Lobby", "Sala"],
  tournaments: ["Tournaments", "Tornei"],
  totalizator: ["Exact-score pool", "Totalizzatore"],
  chips: ["Chips", "Fiches"],
  buyIn: ["Buy-in", "Diritto di partecipazione"],
  prizePool: ["Prize pool", "Montepremi"],
  ranking: ["Ranking", "Classifica"],
  logIn: ["Log in", "Accedi"],
  signUp: ["Sign up", "Registrati"],
  logOut: ["Log out", "Esci"],
  nickname: ["Nickname", "Soprannome"],
  password: ["Password", "Password"],
  email: ["Email", "Email"],
  dateOfBirth: ["Date of birth", "Data di nascita"],
  concessionaire: ["Concessionaire", "Concessionario"],
};

function term(key) {
  const [en, it] = TERMS[key];
  return en === it ? h("span", { class: "term" }, en) : h("span", { class: "term" }, en, h("span", { class: "it" }, it));
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

/* ---- session: access token in memory, refresh token in localStorage ------------------------------------ */
const session = {
  accessToken: null,
  principal: JSON.parse(localStorage.getItem("principal") || "null"),
  refreshTimer: null,

  get refreshToken() { return localStorage.getItem("refreshToken"); },
  get loggedIn() { return Boolean(this.refreshToken); },

  start(answer) {
    this.accessToken = answer.access_token;
    this.principal = answer.principal;
    localStorage.setItem("refreshToken", answer.refresh_token);
    localStorage.setItem("principal", JSON.stringify(answer.principal));
    clearTimeout(this.refreshTimer);
    // Refresh a minute before the access token expires (at least 10 s ahead).
    const delay = Math.max(10, answer.expires_in - 60) * 1000;
    this.refreshTimer = setTimeout(() => this.refresh().catch(() => {}), delay);
    renderNav();
  },

  end() {
    clearTimeout(this.refreshTimer);
    this.accessToken = null;
    this.principal = null;
    localStorage.removeItem("refreshToken");
    localStorage.removeItem("principal");
    renderNav();
  },

  /* One refresh at a time: the refresh token works once, so two parallel refreshes would end the session. */
  refreshing: null,
  refresh() {
    if (!this.refreshing) {
      this.refreshing = request("POST", "/auth/refresh", { refresh_token: this.refreshToken }, { auth: false })
        .then((answer) => this.start(answer))
        .catch((problem) => { this.end(); throw problem; })
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
async function request(method, path, body, { auth = true, retried = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth) headers.Authorization = `Bearer ${await session.validAccessToken()}`;
  const response = await fetch(API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({ code: "bad_response", title: response.statusText }));
  if (response.ok) return data;
  if (auth && !retried && response.status === 401 && data.code === "token_expired") {
    await session.refresh();
    return request(method, path, body, { auth, retried: true });
  }
  throw data;
}

function problemText(problem) {
  if (problem.errors) return problem.errors.map((e) => `${e.field.replace(/^body\./, "")}: ${e.message}`).join("; ");
  return problem.title || problem.message || "Something went wrong.";
}

/* ---- router ---------------------------------------------------------------------------------------------- */
const pages = new Map();
let leavePage = null;

function page(hash, render, { auth = false } = {}) {
  pages.set(hash, { render, auth });
}

function navigate() {
  const hash = location.hash || "#/";
  const target = pages.get(hash) || pages.get("#/");
  if (target.auth && !session.loggedIn) {
    location.hash = "#/login";
    return;
  }
  if (leavePage) leavePage();
  const view = document.getElementById("view");
  view.replaceChildren();
  leavePage = target.render(view) || null;
  view.focus();
}

function renderNav() {
  const nav = document.getElementById("nav");
  if (session.loggedIn) {
    const who = session.principal?.nickname || session.principal?.role || "";
    nav.replaceChildren(
      h("a", { href: "#/lobby" }, term("lobby")),
      h("span", { class: "who" }, who),
      h("button", { class: "link", onclick: logOut }, term("logOut")),
    );
  } else {
    nav.replaceChildren(h("a", { href: "#/login" }, term("logIn")), h("a", { href: "#/signup" }, term("signUp")));
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

/* ---- pages ----------------------------------------------------------------------------------------------- */
page("#/", (view) => {
  view.append(h("section", { class: "panel" },
    h("h1", {}, "Texas Hold'em & exact-score football"),
    h("p", {}, term("tournaments"), " — ", term("totalizator"), " — ", term("ranking")),
    session.loggedIn
      ? h("p", {}, h("a", { href: "#/lobby" }, "Go to the ", term("lobby")))
      : h("p", {}, h("a", { href: "#/login" }, term("logIn")), " or ", h("a", { href: "#/signup" }, term("signUp"))),
  ));
});

page("#/login", (view) => {
  view.append(h("section", { class: "panel" }, h("h1", {}, term("logIn")),
    form(
      [
        field([term("nickname"), " / ", term("email")], "login", { autocomplete: "username" }),
        field(term("password"), "password", { type: "password", autocomplete: "current-password" }),
      ],
      term("logIn"),
      async (values) => {
        session.start(await request("POST", "/auth/login", values, { auth: false }));
        location.hash = "#/lobby";
      },
    ),
  ));
});

page("#/signup", (view) => {
  const concessionaires = h("select", { name: "concessionaire", required: true });
  request("GET", "/concessionaires", undefined, { auth: false })
    .then((list) => concessionaires.replaceChildren(...list.map((c) => h("option", { value: c.code }, c.name))))
    .catch(() => concessionaires.replaceChildren(h("option", { value: "demo" }, "demo")));
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
  ));
});

page("#/lobby", (view) => {
  const status = h("span", { class: "status" }, "connecting…");
  const feed = h("ul", { class: "feed", "aria-label": "Lobby messages" });
  view.append(h("div", { class: "lobby" },
    h("section", { class: "panel" }, h("h1", {}, term("lobby")), status,
      h("p", { class: "placeholder" }, term("tournaments"), " and ", term("totalizator"), " will be listed here."),
    ),
    h("section", { class: "panel" }, h("h2", {}, "Live"), feed),
  ));
  const socket = new LiveSocket("lobby", ["lobby"], {
    onStatus: (online, text) => { status.textContent = text; status.classList.toggle("online", online); },
    onMessage: (frame) => {
      feed.prepend(h("li", {}, `#${frame.seq} ${JSON.stringify(frame.data)}`));
      while (feed.children.length > 100) feed.lastChild.remove();
    },
  });
  return () => socket.close();
});

/* ---- live socket: authenticates, resubscribes with epoch and last_seq, answers pings, reconnects --------- */
class LiveSocket {
  constructor(kind, channels, { onStatus, onMessage }) {
    this.kind = kind;
    this.positions = new Map(channels.map((name) => [name, { epoch: null, seq: null }]));
    this.onStatus = onStatus;
    this.onMessage = onMessage;
    this.attempt = 0;
    this.closed = false;
    this.open();
  }

  async open() {
    const token = await session.validAccessToken().catch(() => null);
    if (!token) { this.onStatus(false, "logged out"); return; }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}${API}/ws?socket=${this.kind}`);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token }));
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => this.reconnect(event.code);
  }

  receive(frame) {
    switch (frame.type) {
      case "welcome":
        this.attempt = 0;
        this.onStatus(true, "online");
        for (const [channel, at] of this.positions) {
          this.send({ type: "subscribe", channel, ...(at.epoch ? { epoch: at.epoch, last_seq: at.seq } : {}) });
        }
        break;
      case "subscribed":
        // On resync the client would fetch the channel's state over REST; the placeholder lobby has none yet.
        this.positions.set(frame.channel, { epoch: frame.epoch, seq: frame.seq });
        break;
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
        break;
    }
  }

  send(frame) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  reconnect(code) {
    if (this.closed) return;
    if (code === 4401) session.accessToken = null; // expired: the next open() refreshes first
    if (code === 4403) { this.onStatus(false, "access refused"); return; }
    // P-13.1: retry automatically, backing off up to 30 s.
    const delay = Math.min(30000, 500 * 2 ** this.attempt++);
    this.onStatus(false, `reconnecting in ${Math.round(delay / 1000)} s…`);
    this.timer = setTimeout(() => this.open(), delay);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }
}

async function logOut() {
  const refreshToken = session.refreshToken;
  session.end();
  if (refreshToken) await request("POST", "/auth/logout", { refresh_token: refreshToken }, { auth: false }).catch(() => {});
  location.hash = "#/login";
}

window.addEventListener("hashchange", navigate);
renderNav();
navigate();

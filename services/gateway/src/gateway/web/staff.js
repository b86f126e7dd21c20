/* The staff console (issue 17), for network administrators and concessionaire operators, at #/staff.
 *
 * Staff sign in at POST /auth/staff/login (players log in at /auth/login: the player form alone answered the
 * bootstrap admin "Wrong login or password"). Every screen then calls the public API with the staff member's own
 * token, so the console shows and does exactly what the API lets that person do: an operator's lists keep to
 * its concessionaire (what the API answers 403 to shows as refused, never as an empty success); the
 * totalizator's decisions are the administrators'. The console's pages live in staff-tournaments.js,
 * staff-lobby.js, staff-players.js, staff-draws.js and staff-money.js; this file holds their shell and shared pieces.
 */
"use strict";

const STAFF_TERMS = {
  console: ["Staff console", "Console operatori"],
  staffSignIn: ["Staff sign-in", "Accesso operatori"],
  tournaments: ["Tournaments", "Tornei"],
  players: ["Players", "Giocatori"],
  reports: ["Reports", "Segnalazioni"],
  draws: ["Totalizator", "Totalizzatore"],
  money: ["Money", "Denaro"],
  lobbySchedule: ["Lobby schedule", "Programma della sala"],
  operators: ["Operators", "Operatori"],
  admin: ["Network administrator", "Amministratore di rete"],
  operator: ["Operator", "Operatore"],
  refused: ["Not available to you", "Non disponibile per te"],
  adminsOnly: ["For network administrators only", "Solo per gli amministratori di rete"],
  loading: ["Loading…", "Caricamento…"],
  none: ["None", "Nessuno"],
  open: ["Open", "Apri"],
  reason: ["Reason", "Motivo"],
  status: ["Status", "Stato"],
  name: ["Name", "Nome"],
  when: ["When", "Quando"],
  amount: ["Amount", "Importo"],
  save: ["Save", "Salva"],
};

function staffTerm(key) {
  return both(...STAFF_TERMS[key]);
}

/* Who is signed in to the console, and the scope the API gives them. */
const staff = {
  get member() {
    const principal = session.loggedIn ? session.principal : null;
    return principal && (principal.role === "admin" || principal.role === "operator") ? principal : null;
  },
  get isAdmin() { return this.member?.role === "admin"; },
  /* An operator's scope is its concessionaire; an administrator's the network. */
  inScope(concessionaireId) { return this.isAdmin || concessionaireId === this.member?.concessionaire_id; },
};

const STAFF_TABS = [
  ["#/staff/tournaments", "tournaments", false],
  ["#/staff/lobby-schedule", "lobbySchedule", false],
  ["#/staff/players", "players", false],
  ["#/staff/reports", "reports", false],
  ["#/staff/draws", "draws", true],
  ["#/staff/money", "money", false],
  ["#/staff/operators", "operators", true],
];

/* A console page: the sign-in form for whoever is not staff, the tabs, then `render(body, params)`. */
function staffPage(pattern, render, { adminOnly = false } = {}) {
  page(pattern, (view, params) => {
    view.classList.add("staff");
    if (!staff.member) return renderStaffSignIn(view);
    view.append(staffHeader(pattern));
    const body = h("div", { class: "staff-body" });
    view.append(body);
    if (adminOnly && !staff.isAdmin) {
      body.append(h("p", { class: "error refused", role: "alert" }, staffTerm("adminsOnly")));
      return null;
    }
    return render(body, params);
  });
}

function staffHeader(pattern) {
  const member = staff.member;
  const scope = h("span", { class: "scope", "data-role": member.role }, staffTerm(member.role === "admin" ? "admin" : "operator"));
  if (member.concessionaire_id) {
    request("GET", `/concessionaires/${encodeURIComponent(member.concessionaire_id)}`)
      .then((c) => scope.append(" · ", h("span", { class: "concessionaire", "data-code": c.code }, c.name)))
      .catch(() => {});
  }
  const tabs = STAFF_TABS.filter(([, , adminOnly]) => !adminOnly || staff.isAdmin).map(([href, key]) =>
    h("a", { href, class: pattern.startsWith(href.replace(/s$/, "")) ? "tab current" : "tab", "data-tab": key }, staffTerm(key)));
  return h("header", { class: "staff-head panel" },
    h("h1", {}, staffTerm("console")), scope, h("nav", { class: "staff-tabs", "aria-label": say("Console", "Console") }, tabs));
}

function renderStaffSignIn(view) {
  view.append(h("section", { class: "panel staff-sign-in" }, h("h1", {}, staffTerm("staffSignIn")),
    form(
      [
        field(term("email"), "email", { type: "email", autocomplete: "username" }),
        field(term("password"), "password", { type: "password", autocomplete: "current-password" }),
      ],
      term("logIn"),
      async (values) => {
        session.start(await request("POST", "/auth/staff/login", values, { auth: false }));
        location.hash = "#/staff/tournaments";
      },
    ),
    h("p", { class: "muted" }, both("Players log in from the home page.", "I giocatori accedono dalla pagina iniziale."))));
  return null;
}

page("#/staff", (view) => {
  if (staff.member) location.hash = "#/staff/tournaments";
  else renderStaffSignIn(view);
});

/* ---- shared pieces -------------------------------------------------------------------------------------- */

/* A section filled once its data arrives; a refusal (403 out of scope, 404) shows where the data would be. */
function staffSection(title, load, render, attrs = {}) {
  const body = h("div", { class: "section-body" }, h("p", { class: "muted" }, staffTerm("loading")));
  const section = h("section", { class: "panel", ...attrs }, h("h2", {}, title), body);
  const reload = () => load()
    .then((data) => fill(body, render(data, reload)))
    .catch((problem) => fill(body, h("p", { class: "error refused", role: "alert", "data-status": problem.status || "" }, problemText(problem))));
  reload();
  return section;
}

/* A table.grid: `columns` are [en, it] pairs, each row an array of cells (or `{ attrs, cells }`). */
function staffGrid(columns, rows, empty = staffTerm("none")) {
  if (!rows.length) return h("p", { class: "muted empty" }, empty);
  const body = rows.map((row) => {
    const { attrs = {}, cells = row } = Array.isArray(row) ? {} : row;
    return h("tr", attrs, cells.map((cell) => h("td", {}, cell)));
  });
  return stackable(h("table", { class: "grid" }, h("thead", {}, h("tr", {}, columns.map((c) => h("th", {}, both(...c))))), h("tbody", {}, body)));
}

/* An input for a concessionaire's id, suggesting those the administrator's players belong to (the public list of
 * concessionaires gives codes, not ids). */
function concessionaireIdInput(listId) {
  const known = h("datalist", { id: listId });
  request("GET", "/players?limit=500").then((players) =>
    fill(known, [...new Set(players.map((p) => p.concessionaire_id))].map((id) => h("option", { value: id })))).catch(() => {});
  const input = h("input", { name: "concessionaire_id", list: listId, required: true, placeholder: say("Concessionaire id", "Id del concessionario") });
  return { input, known };
}

/* Cents of a currency (the tournament's are EUR unless it says otherwise). */
function cents(amount, currency = "EUR") {
  return amount == null ? "—" : money(amount, currency);
}

/* A form's field that is optional (the shell's `field` makes them required). */
function optionalField(label, name, attrs = {}) {
  return field(label, name, { required: false, ...attrs });
}

/* `datetime-local` text (the staff member's clock) to an ISO instant; "" stays absent. */
function isoFromLocal(text) {
  return text ? new Date(text).toISOString() : undefined;
}

/* Poll while shown: `tick` runs now and every `seconds`; the returned function stops it (a page's cleanup). */
function every(seconds, tick) {
  tick();
  const timer = setInterval(tick, seconds * 1000);
  return () => clearInterval(timer);
}

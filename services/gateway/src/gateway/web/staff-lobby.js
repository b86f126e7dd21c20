/* The console's lobby schedule (issue 17): what the lobby keeps open — sit'n'gos re-opened each time they fill and
 * scheduled tournaments, the next one always registering. Administrators see the settings' entries (changed by
 * deployment, shown read-only) and every entry staff added; an operator adds and disables its concessionaire's,
 * whose tournaments they are. An entry is checked as the tournament it opens would be: the director's messages. */
"use strict";

staffPage("#/staff/lobby-schedule", (body) => {
  const list = h("div", { class: "lobby-entries" });
  const refresh = async () => {
    const entries = await request("GET", "/lobby-schedule").catch((problem) => { fill(list, h("p", { class: "error refused" }, problemText(problem))); return null; });
    if (entries) fill(list, lobbyEntryGrid(entries, refresh));
  };
  body.append(newLobbyEntryForm(refresh), h("section", { class: "panel" }, h("h2", {}, staffTerm("lobbySchedule")), list));
  return every(10, refresh);
});

function lobbyEntryGrid(entries, refresh) {
  const rows = entries.map((e) => ({
    attrs: { "data-entry": e.key, "data-enabled": String(e.enabled), "data-source": e.source },
    cells: [
      e.key,
      e.body.name || "—",
      e.every_minutes ? both(`Scheduled, every ${e.every_minutes} min`, `Programmato, ogni ${e.every_minutes} min`) : both("Sit'n'go, re-opened when full", "Sit'n'go, riaperto quando è pieno"),
      e.body.buy_in ? `${cents(e.body.buy_in.prize_part_cents, e.body.currency)} + ${cents(e.body.buy_in.fee_cents, e.body.currency)}` : "—",
      e.concessionaire_id || both("Network", "Rete"),
      e.source === "settings" ? both("Settings (deployment)", "Configurazione (installazione)") : when(e.created_at),
      e.enabled ? both("Active", "Attiva") : both(`Disabled ${when(e.disabled_at, "en")}`, `Disattivata ${when(e.disabled_at, "it")}`),
      e.enabled && e.source === "console" ? actionButton(both("Disable", "Disattiva"), async () => {
        await request("DELETE", `/lobby-schedule/${encodeURIComponent(e.key)}`);
        toast(say(`${e.key}: opens nothing more`, `${e.key}: non apre più tornei`));
        await refresh();
      }, { class: "secondary disable-entry" }) : "—",
    ],
  }));
  return staffGrid([["Key", "Codice"], STAFF_TERMS.name, ["Kind", "Tipo"], TERMS.buyIn, ["Concessionaire", "Concessionario"],
    ["Added", "Aggiunta"], STAFF_TERMS.status, ["", ""]], rows);
}

function newLobbyEntryForm(refresh) {
  const templates = h("select", { name: "template" });
  loadTemplates(templates); // staff-tournaments.js
  return h("section", { class: "panel new-lobby-entry" }, h("h2", {}, both("New entry", "Nuova voce")),
    form(
      [
        field(both("Key (a-z, 0-9, -)", "Codice (a-z, 0-9, -)"), "key", { maxlength: 24, pattern: "[a-z0-9-]+" }),
        h("label", {}, both("Template", "Modello"), templates),
        field(staffTerm("name"), "name", { maxlength: 120 }),
        field(both("Buy-in: prize part (€)", "Iscrizione: quota montepremi (€)"), "prize_part", { inputmode: "decimal", value: "9.00" }),
        field(both("Buy-in: fee (€)", "Iscrizione: commissione (€)"), "fee", { inputmode: "decimal", value: "1.00" }),
        optionalField(both("Every (minutes, 5–1440; empty: a sit'n'go kept open)", "Ogni (minuti, 5–1440; vuoto: un sit'n'go sempre aperto)"),
          "every_minutes", { type: "number", min: 5, max: 1440, step: 1 }),
      ],
      both("Add to the schedule", "Aggiungi al programma"),
      async (values) => {
        const minutes = values.every_minutes.trim();
        const entry = { key: values.key, body: tournamentBody(values), ...(minutes ? { every_minutes: Number(minutes) } : {}) };
        await request("POST", "/lobby-schedule", entry);
        toast(say(`${values.key}: added to the lobby's schedule`, `${values.key}: aggiunta al programma della sala`));
        await refresh();
      },
    ));
}

/* Several tables at once (issue 15, item 14): a tournament and a sit'n'go side by side in one client. Each table
 * the player opens stays alive — its socket, its state, its elements — when they switch to another page, and comes
 * back as they left it; the tabs above the table list every open table, marked when it is the player's turn
 * there. A table closes when the player closes its tab, or at log-out. */
"use strict";

const openTables = new Map(); // table id → TablePage, in the order they were opened

function tableOf(id) {
  if (!openTables.get(id) || openTables.get(id).closed) openTables.set(id, new TablePage(h("div", { class: "table-root" }), id));
  return openTables.get(id);
}

function closeTable(id) {
  openTables.get(id)?.close();
  openTables.delete(id);
  renderTableTabs();
}

function closeAllTables() {
  for (const id of [...openTables.keys()]) closeTable(id);
}

/* The tabs of the table on screen (the others' are drawn when shown): one per open table, the current one marked,
 * "your turn" on any other table waiting for the player. Nothing with a single table. */
function renderTableTabs() {
  const shown = [...openTables.values()].find((table) => table.root.isConnected);
  if (!shown) return;
  if (openTables.size < 2) { fill(shown.ui.tabs); return; }
  fill(shown.ui.tabs, ...[...openTables.values()].map((table) => {
    const waiting = Boolean(table.state.request) && table !== shown;
    return h("span", { class: `table-tab${table === shown ? " current" : ""}${waiting ? " my-turn" : ""}`, "data-table": table.id },
      h("a", { href: `#/table/${encodeURIComponent(table.id)}`, "aria-current": table === shown ? "page" : null }, tableName(table.id),
        waiting ? h("strong", {}, " · ", both("your turn", "tocca a te")) : null),
      h("button", { type: "button", class: "link close-tab", "aria-label": say("Close this table", "Chiudi questo tavolo"),
        onclick: () => { closeTable(table.id); if (table === shown) location.hash = "#/lobby"; } }, "×"));
  }));
}

page("#/table/:id", (view, { id }) => {
  const table = tableOf(id);
  view.append(table.root);
  table.render();
  // Leaving keeps the table playing out of sight: it is closed from its tab or at log-out.
  return () => {};
}, { auth: true });

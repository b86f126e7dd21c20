/* The console's money and integration: the ledger's reconciliation (the network's for administrators, the
 * concessionaire's for its staff), a concessionaire's own accounts and statement, sponsorship and jackpot
 * funding, partner API keys and webhook endpoints with their delivery logs. An operator sees its own
 * concessionaire; an administrator picks one (by id, among those their players belong to). Funding is a money move:
 * one Idempotency-Key per intended movement, sent again when the same click is retried. */
"use strict";

staffPage("#/staff/money", (body) => {
  const own = staff.member.concessionaire_id;
  const pane = h("div", { class: "money-pane" });
  if (own) {
    body.append(pane);
    showMoney(pane, own);
    return;
  }
  const { input: chosen, known } = concessionaireIdInput("concessionaire-ids");
  body.append(reconciliationSection("/reconciliation", both("Reconciliation of the network's ledger", "Quadratura del registro della rete")));
  body.append(h("section", { class: "panel" }, h("label", {}, term("concessionaire"), chosen, known),
    h("button", { type: "button", class: "show-money", onclick: () => showMoney(pane, chosen.value.trim()) }, staffTerm("open"))), pane);
});

function showMoney(pane, concessionaireId) {
  const base = `/concessionaires/${encodeURIComponent(concessionaireId)}`;
  fill(pane,
    reconciliationSection(`${base}/reconciliation`, both("Reconciliation", "Quadratura")),
    staffSection(both("Accounts", "Conti"), () => request("GET", `${base}/accounts`), (found) => staffGrid(
      [["Account", "Conto"], ["Currency", "Valuta"], TERMS.balance],
      (found.accounts || found).map((a) => ({ attrs: { "data-account": a.kind }, cells: [a.kind.replaceAll("_", " "), a.currency, money(a.balance, a.currency, a.minor_units ?? 2)] }))),
    { class: "panel accounts" }),
    fundingForm(base),
    staffSection(term("statement"), () => request("GET", `${base}/statement?limit=30`), (found) => staffGrid(
      [STAFF_TERMS.when, ["Operation", "Operazione"], ["Account", "Conto"], STAFF_TERMS.amount],
      found.items.map((line) => [when(line.created_at), String(line.operation_kind || "").replaceAll("_", " "), line.account?.kind || "", money(line.amount, line.account?.currency || "EUR")])),
    { class: "panel concessionaire-statement" }),
    staffSection(both("Partner API keys", "Chiavi API dei partner"), () => request("GET", `${base}/api-keys`), (keys, reload) => apiKeys(base, keys, reload), { class: "panel api-keys" }),
    staffSection(both("Webhooks", "Webhook"), () => request("GET", `${base}/webhooks`), (endpoints) => webhooks(base, endpoints), { class: "panel webhooks" }),
  );
}

/* The ledger's imbalance gauge per currency, which must read zero, and any account that drifted from its entries
 * or holds (an operator's: its concessionaire's and its players' only). */
function reconciliationSection(path, title) {
  return staffSection(title, () => request("GET", path), (report) => [
    h("p", { class: `reconciliation-verdict ${report.ok ? "ok" : "error"}`, "data-ok": String(report.ok) }, report.ok
      ? both("The ledger balances: every currency sums to zero.", "Il registro quadra: ogni valuta somma a zero.")
      : both("The ledger does NOT balance: tell the network's administrators now.", "Il registro NON quadra: avvisa subito gli amministratori di rete."),
    " ", h("span", { class: "muted" }, both(`checked ${when(report.checked_at, "en")}`, `verificato ${when(report.checked_at, "it")}`))),
    staffGrid([["Currency", "Valuta"], ["Imbalance (must be 0)", "Squilibrio (deve essere 0)"], ["Accounts", "Conti"], ["Drifted accounts", "Conti non allineati"]],
      report.currencies.map((c) => ({ attrs: { "data-currency": c.currency, "data-ok": String(c.ok) }, cells: [c.currency,
        h("span", { class: "imbalance", "data-imbalance": String(c.sum_of_balances) }, money(c.sum_of_balances, c.currency)), num(c.accounts),
        c.drifts.length ? c.drifts.map((d) => h("div", { class: "drift" }, h("code", {}, d.account), ` ${money(d.balance, c.currency)} ≠ ${money(d.balance_from_entries, c.currency)}`)) : "0"] })),
      both("No accounts yet.", "Ancora nessun conto.")),
  ], { class: "panel reconciliation" });
}

function fundingForm(base) {
  let key = newIdempotencyKey();
  let sent = null;
  return h("section", { class: "panel funding" }, h("h2", {}, both("Funding", "Finanziamento")),
    form(
      [
        h("label", {}, both("Account", "Conto"), h("select", { name: "account_kind" },
          h("option", { value: "sponsorship" }, say("Sponsorship (overlays, sponsored entries)", "Sponsorizzazioni (overlay, iscrizioni offerte)")),
          h("option", { value: "jackpot_fund" }, say("Jackpot fund", "Fondo jackpot")))),
        field(both("Currency", "Valuta"), "currency", { value: "EUR", pattern: "[A-Z]{3}" }),
        field(staffTerm("amount"), "amount", { inputmode: "decimal" }),
        optionalField(both("Your reference", "Vostro riferimento"), "reference"),
      ],
      both("Fund", "Finanzia"),
      async (values) => {
        const body = { account_kind: values.account_kind, currency: values.currency, amount: parseMinor(values.amount) ?? values.amount, reference: values.reference || null };
        const same = JSON.stringify(body);
        if (sent !== same) { key = newIdempotencyKey(); sent = same; } // a retry of the same movement keeps its key
        await request("POST", `${base}/funding`, body, { headers: { "Idempotency-Key": key } });
        sent = null;
        toast(say("Funded", "Finanziato"));
      },
    ));
}

function apiKeys(base, keys, reload) {
  const secret = h("p", { class: "secret", role: "status" });
  return [
    staffGrid([["Label", "Etichetta"], ["Prefix", "Prefisso"], ["Created", "Creata"], STAFF_TERMS.status],
      keys.map((k) => ({ attrs: { "data-key": k.id }, cells: [k.label, h("code", {}, k.prefix), when(k.created_at), k.revoked_at
        ? both("Revoked", "Revocata")
        : actionButton(both("Revoke", "Revoca"), async () => { await request("DELETE", `${base}/api-keys/${encodeURIComponent(k.id)}`); reload(); })] }))),
    form([field(both("Label", "Etichetta"), "label", { maxlength: 120 })], both("Create a key", "Crea una chiave"), async (values) => {
      const created = await request("POST", `${base}/api-keys`, values);
      fill(secret, both("Shown once, copy it now:", "Mostrata una sola volta, copiala ora:"), " ", h("code", {}, created.key));
    }),
    secret,
  ];
}

function webhooks(base, endpoints) {
  const secret = h("p", { class: "secret", role: "status" });
  const deliveries = h("div", { class: "deliveries" });
  const showDeliveries = (endpoint) => request("GET", `${base}/webhooks/${encodeURIComponent(endpoint.id)}/deliveries`).then((list) =>
    fill(deliveries, h("h3", {}, endpoint.url), staffGrid([STAFF_TERMS.when, ["Event", "Evento"], STAFF_TERMS.status, ["Attempts", "Tentativi"], ["Last error", "Ultimo errore"]],
      list.map((d) => [when(d.created_at), d.event_type, d.status, num(d.attempts), d.last_error || (d.last_status_code ? String(d.last_status_code) : "—")]))))
    .catch((problem) => toast(problemText(problem), { kind: "error" }));
  return [
    staffGrid([["URL", "URL"], ["Events", "Eventi"], STAFF_TERMS.status, ["Deliveries", "Consegne"]],
      endpoints.map((e) => ({ attrs: { "data-endpoint": e.id }, cells: [e.url, e.event_types.join(", "),
        e.enabled ? both("Enabled", "Attivo") : both(`Disabled (${e.disabled_reason || ""})`, `Disattivato (${e.disabled_reason || ""})`),
        h("button", { type: "button", class: "link", onclick: () => showDeliveries(e) }, staffTerm("open"))] }))),
    deliveries,
    form([
      field("URL", "url", { type: "url" }),
      field(both("Events (comma-separated)", "Eventi (separati da virgole)"), "event_types"),
      optionalField(both("Description", "Descrizione"), "description"),
    ], both("Register an endpoint", "Registra un endpoint"), async (values) => {
      const events = values.event_types.split(",").map((e) => e.trim()).filter(Boolean);
      const created = await request("POST", `${base}/webhooks`, { url: values.url, event_types: events, description: values.description || "" });
      // Not reloaded: that would redraw the list and take the secret away before it is copied.
      fill(secret, both("Signing secret, shown once:", "Segreto di firma, mostrato una sola volta:"), " ", h("code", {}, created.secret));
    }),
    secret,
  ];
}

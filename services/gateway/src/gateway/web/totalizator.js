/* A draw's page: the coupon (several results per match make a system bet: T-2.4), its number of bets and cost,
 * the live statistics of the bets so far (T-2.6, on the draw's channel), the player's coupons on this draw, and
 * the published files once bets are closed (T-8). The running cost and the button stay in view while picking
 * (the summary sticks to the bottom of the screen). Rule codes are for the code, never shown to players. */
"use strict";

/* A coupon's cost as money, written the chosen language's way ("€0.40", "0,40 €"); the currency's minor units
 * are read off the API's decimal text of it ("0.40": 2). */
function couponCost(c) {
  return money(c.amount, c.currency, (String(c.amount_text).split(".")[1] || "").length);
}

/* T-2.4: a coupon holds the product over the matches of the results picked on each. */
function betCount(picks) {
  return picks.reduce((product, chosen) => product * chosen.size, 1);
}

page("#/draw/:id", (view, { id }) => {
  const header = h("section", { class: "panel" }, h("p", { class: "muted" }, both("Loading…", "Caricamento…")));
  const matches = h("div", { class: "matches" });
  const summary = h("div", { class: "coupon-summary", "aria-live": "polite" });
  const couponError = h("p", { class: "error", role: "alert" });
  const mine = h("section", { class: "panel" }, h("h2", {}, term("coupons")));
  const files = h("p", {});
  view.append(h("div", { class: "draw" }, header,
    h("section", { class: "panel coupon" }, h("h2", {}, term("coupon"), " — ", term("statistics")), matches, summary, couponError),
    mine, files));

  let draw = null;
  let picks = [];
  let stats = new Map(); // "match:option" -> bets
  let key = newIdempotencyKey(); // one per intended coupon: kept when a placement is retried
  const currency = h("select", { name: "currency", "aria-label": say("Currency", "Valuta") });
  const stake = h("input", { name: "stake", inputmode: "decimal", size: 6, "aria-label": say("Stake per bet", "Posta per colonna") });
  const place = h("button", { class: "place", type: "button" }, term("placeCoupon"));
  currency.addEventListener("change", () => { stake.value = terms()?.min_stake || ""; renderSummary(); });
  stake.addEventListener("input", renderSummary);
  place.addEventListener("click", placeCoupon);

  function terms() {
    return draw?.currencies.find((c) => c.currency === currency.value);
  }

  /* Amounts in minor units; the currency's minor units come from its minimum stake's text ("0.10" -> 2). */
  function minorUnits() {
    const text = terms()?.min_stake || "0.00";
    return text.includes(".") ? text.split(".")[1].length : 0;
  }

  function cost() {
    const perBet = parseMinor(stake.value, minorUnits());
    const bets = betCount(picks);
    return { perBet, bets, amount: perBet == null ? null : perBet * bets };
  }

  function renderSummary() {
    if (!draw) return;
    const { perBet, bets, amount } = cost();
    const t = terms();
    const complete = picks.every((chosen) => chosen.size > 0);
    const belowMinimum = perBet != null && t && perBet < t.min_stake_minor;
    fill(summary, 
      h("label", { class: "inline" }, term("stakePerBet"), stake, currency),
      h("p", { class: "cost" }, term("bets"), `: ${complete ? bets : "—"} · `, term("cost"), `: `,
        h("strong", { "data-cost": amount ?? "" }, complete && amount != null ? money(amount, currency.value, minorUnits()) : "—")),
      belowMinimum ? h("p", { class: "error" }, both(`At least ${money(t.min_stake_minor, t.currency, minorUnits(), "en")} per bet.`,
        `Almeno ${money(t.min_stake_minor, t.currency, minorUnits(), "it")} per colonna.`)) : null,
      draw.status === "open" ? place : h("p", { class: "muted" }, both("Bets are closed for this draw.", "Le giocate per questo concorso sono chiuse.")),
    );
    place.disabled = !complete || amount == null || belowMinimum || draw.status !== "open";
  }

  function renderMatches() {
    fill(matches, ...draw.matches.map((match, i) => h("fieldset", { class: `match ${match.void ? "void" : ""}`, "data-match": match.no },
      h("legend", {}, `${match.no}. ${match.home} – ${match.away}`, h("span", { class: "muted" }, match.competition ? ` ${match.competition} ·` : "", ` ${when(match.kickoff)}`,
        match.void ? h("span", {}, " · ", both("void", "annullata")) : "", match.score ? ` · ${match.score}` : "")),
      h("div", { class: "options" }, match.options.map((option) => {
        const chosen = picks[i].has(option);
        const count = stats.get(`${match.no}:${option}`) || 0;
        return h("button", {
          type: "button",
          class: `option ${chosen ? "chosen" : ""}`,
          "aria-pressed": String(chosen),
          "data-option": option,
          disabled: draw.status !== "open",
          onclick: () => { chosen ? picks[i].delete(option) : picks[i].add(option); renderMatches(); renderSummary(); },
        }, option, count ? h("small", { title: say("bets so far", "colonne finora") }, num(count)) : null);
      })),
    )));
  }

  function applyStatistics(statistics) {
    stats = new Map();
    if (statistics.matches) {
      for (const match of statistics.matches) for (const o of match.options) stats.set(`${match.no}:${o.option}`, o.bets);
    } else {
      for (const o of statistics.options || []) stats.set(`${o.match_no}:${o.option}`, o.bets);
    }
    const [coupons, bets] = [counted(statistics.coupons, ["coupon", "coupons"], ["schedina", "schedine"]), counted(statistics.bets, ["bet", "bets"], ["colonna", "colonne"])];
    header.querySelector(".live")?.replaceChildren(both(`${coupons[0]} · ${bets[0]} · pool ${decimalMoney(statistics.pool_usd)}`,
      `${coupons[1]} · ${bets[1]} · montepremi ${decimalMoney(statistics.pool_usd)}`));
    if (draw) renderMatches();
  }

  async function placeCoupon() {
    const { amount } = cost();
    couponError.textContent = "";
    place.disabled = true;
    try {
      const coupon = await request("POST", `/draws/${encodeURIComponent(id)}/coupons`, {
        currency: currency.value,
        amount,
        picks: picks.map((chosen, i) => draw.matches[i].options.filter((option) => chosen.has(option))),
      }, { headers: { "Idempotency-Key": key } });
      key = newIdempotencyKey();
      const cost = (language) => money(coupon.amount, coupon.currency, minorUnits(), language);
      const bets = counted(coupon.bets, ["bet", "bets"], ["colonna", "colonne"]);
      toast(say(`Coupon ${coupon.coupon_id} placed: ${bets[0]}, ${cost("en")}.`, `Schedina ${coupon.coupon_id} giocata: ${bets[1]}, ${cost("it")}.`));
      picks = draw.matches.map(() => new Set());
      renderMatches();
      renderSummary();
      showMine();
    } catch (problem) {
      // A network failure keeps the key: placing again cannot take the stake twice.
      if (problem.status) key = newIdempotencyKey();
      couponError.textContent = problemText(problem);
      renderSummary();
    }
  }

  async function showMine() {
    if (!session.playerId) return;
    const coupons = await request("GET", `/players/${session.playerId}/coupons?draw_id=${encodeURIComponent(id)}`).catch(() => []);
    fill(mine, h("h2", {}, term("coupons")), coupons.length
      ? stackable(h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, term("bets")), h("th", {}, term("cost")), h("th", {}, both("Picks", "Pronostici")), h("th", {}, both("Status", "Stato")))),
        h("tbody", {}, coupons.map((c) => h("tr", { "data-coupon": c.coupon_id },
          h("td", {}, c.coupon_id), h("td", {}, num(c.bets)), h("td", {}, couponCost(c)),
          h("td", { class: "picks" }, c.picks.map((p) => p.join("/")).join(" · ")), h("td", {}, statusWord(c.status)))))))
      : h("p", { class: "muted" }, both("No coupon on this draw yet.", "Ancora nessuna schedina su questo concorso.")));
  }

  async function load() {
    try {
      const [loaded, statistics] = await Promise.all([
        request("GET", `/draws/${encodeURIComponent(id)}`, undefined, { auth: false }),
        request("GET", `/draws/${encodeURIComponent(id)}/statistics`, undefined, { auth: false }).catch(() => null),
      ]);
      draw = loaded;
      if (picks.length !== draw.matches.length) picks = draw.matches.map(() => new Set());
      fill(header, 
        h("h1", {}, term("draw"), ` ${draw.draw_id}`),
        h("p", { class: "muted" }, statusWord(draw.status), " · ", term("closes"), `: ${when(draw.close_at)} · `, term("jackpot"), ` ${decimalMoney(draw.jackpot_usd)}`),
        h("p", { class: "live" }),
        draw.playable ? null : h("p", { class: "error" }, both("Three or more matches are void: every stake is refunded.", "Tre o più partite sono annullate: ogni posta viene rimborsata.")),
      );
      if (!currency.options.length) {
        fill(currency, ...draw.currencies.map((c) => h("option", { value: c.currency }, c.currency)));
        stake.value = draw.currencies[0]?.min_stake || "";
      }
      renderMatches();
      renderSummary();
      if (statistics) applyStatistics(statistics);
      fill(files, draw.status === "open" ? "" : h("span", {}, both("Published files", "File pubblicati"), ": ",
        h("a", { href: `${API}/draws/${encodeURIComponent(id)}/files/draw.json`, download: `draw-${id}.json` }, "draw.json"), " · ",
        h("a", { href: `${API}/draws/${encodeURIComponent(id)}/files/bets.csv`, download: `bets-${id}.csv` }, "bets.csv")));
    } catch (problem) {
      fill(header, h("p", { class: "error" }, problemText(problem)));
    }
  }

  load();
  showMine();
  const stop = lobbyLink.listen((frame) => {
    if (frame.type === "resync") { load(); return; }
    if (frame.channel !== `draw:${id}`) return;
    const { event, payload } = frame.data;
    if (event === "totalizator.statistics.updated") applyStatistics(payload);
    // One per coupon of the player's (they may have many): the draw's own event, which follows, reloads once.
    else if (event !== "totalizator.coupon.settled") load();
  }, [`draw:${id}`]);
  return stop;
}, { auth: true });

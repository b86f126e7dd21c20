/* Showdown reading for players: the best five of a player's cards and the board, and its name in both languages
 * ("a flush, ace high" · "colore all'asso"). Pure functions, no DOM: the table engine decides who wins (its
 * `category` is authoritative); this only finds which five cards make the hand, to highlight and name them. */
"use strict";

const RANKS = "23456789TJQKA";
const RANK_NAMES = {
  en: ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"],
  it: ["due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "fante", "donna", "re", "asso"],
};
const RANK_PLURALS = {
  en: ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces"],
  it: ["due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "fanti", "donne", "re", "assi"],
};
const IT_TO = { asso: "all'asso", otto: "all'otto", donna: "alla donna" }; // "colore all'asso", "scala al re"
const CATEGORIES = ["high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush"];

/* One five-card hand's strength: [category, ...ranks that break ties], comparable element by element. */
function strength(five) {
  const ranks = five.map((c) => RANKS.indexOf(c[0])).sort((a, b) => b - a);
  const flush = five.every((c) => c[1] === five[0][1]);
  const distinct = [...new Set(ranks)];
  let high = null;
  if (distinct.length === 5 && ranks[0] - ranks[4] === 4) high = ranks[0];
  if (distinct.length === 5 && ranks[0] === 12 && ranks[1] === 3) high = 3; // the wheel, A-2-3-4-5: five high
  const counts = distinct.map((r) => [ranks.filter((x) => x === r).length, r]).sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  const grouped = counts.map(([, r]) => r);
  const shape = counts.map(([n]) => n).join("");
  if (high != null && flush) return [8, high];
  if (shape === "41") return [7, ...grouped];
  if (shape === "32") return [6, ...grouped];
  if (flush) return [5, ...ranks];
  if (high != null) return [4, high];
  if (shape === "311") return [3, ...grouped];
  if (shape === "221") return [2, ...grouped];
  if (shape === "2111") return [1, ...grouped];
  return [0, ...ranks];
}

function stronger(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) > (b[i] ?? -1);
  return false;
}

/* The best five of five to seven cards: {cards, category, ranks}; null with fewer than five. */
function bestFive(cards) {
  if (cards.length < 5) return null;
  let best = null;
  const pick = (start, chosen) => {
    if (chosen.length === 5) {
      const value = strength(chosen);
      if (!best || stronger(value, best.value)) best = { cards: [...chosen], value };
      return;
    }
    for (let i = start; i <= cards.length - (5 - chosen.length); i++) pick(i + 1, [...chosen, cards[i]]);
  };
  pick(0, []);
  return { cards: best.cards, category: CATEGORIES[best.value[0]], ranks: best.value.slice(1) };
}

/* "a flush, ace high" / "colore all'asso", from a category and the ranks that make it. */
function handName(category, ranks, language) {
  const one = (i) => RANK_NAMES[language][ranks[i]];
  const many = (i) => RANK_PLURALS[language][ranks[i]];
  const at = (i) => (language === "it" ? IT_TO[one(i)] || `al ${one(i)}` : `${one(i)} high`);
  const en = {
    high_card: () => `${one(0)} high`,
    one_pair: () => `a pair of ${many(0)}`,
    two_pair: () => `two pair, ${many(0)} and ${many(1)}`,
    three_of_a_kind: () => `three of a kind, ${many(0)}`,
    straight: () => `a straight, ${at(0)}`,
    flush: () => `a flush, ${at(0)}`,
    full_house: () => `a full house, ${many(0)} full of ${many(1)}`,
    four_of_a_kind: () => `four of a kind, ${many(0)}`,
    straight_flush: () => (ranks[0] === 12 ? "a royal flush" : `a straight flush, ${at(0)}`),
  };
  const it = {
    high_card: () => `carta alta ${at(0)}`,
    one_pair: () => `coppia di ${many(0)}`,
    two_pair: () => `doppia coppia, ${many(0)} e ${many(1)}`,
    three_of_a_kind: () => `tris di ${many(0)}`,
    straight: () => `scala ${at(0)}`,
    flush: () => `colore ${at(0)}`,
    full_house: () => `full di ${many(0)} su ${many(1)}`,
    four_of_a_kind: () => `poker di ${many(0)}`,
    straight_flush: () => (ranks[0] === 12 ? "scala reale" : `scala colore ${at(0)}`),
  };
  return (language === "it" ? it : en)[category]();
}

/* What a shown hand is, in both languages: {en, it, cards} (cards: the five to highlight), or null. */
function readHand(hole, board) {
  const best = bestFive([...(hole || []), ...(board || [])]);
  return best && { en: handName(best.category, best.ranks, "en"), it: handName(best.category, best.ranks, "it"), cards: best.cards, category: best.category };
}

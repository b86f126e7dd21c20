"""Tournament money and rankings: every prize pool paid exactly once and exactly as the schedule says
(P-8.2, P-8.4, P-8.5, P-2.4), every entry paid at its price (P-4, P-8.1), every player ranked once (P-2.1).

The facts are the tournament escrow's ledger lines in the wallet (the money as it really moved), the director's
final standings (who finished where) and the purchases it applied (its `tournament.entry.purchased` events); the
expected prizes come from the director's own domain functions, so the check is the rule applied to what
happened, not a second implementation of it.

A rebuy or add-on whose payment the wallet confirms only after the director can no longer apply it (the offer
lapsed or the break ended while the wallet was down) is refunded in full: such a refund cancels an entry, so
the pool is what the escrow kept — entries less refunds — and exactly the unapplied purchases are refunded.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from tournament_director.domain.definition import TournamentDefinition
from tournament_director.domain.entries import Price
from tournament_director.domain.payouts import payout_amounts

#: Wallet operation kinds that put a player's money into the escrow, and the definition price each pays.
ENTRY_KINDS = ("buy_in", "rebuy", "add_on")
PURCHASE_KINDS = ("rebuy", "add_on")
PRIZE_PAYOUT = "prize_payout"
REFUND = "refund"


@dataclass(frozen=True)
class EscrowLine:
    operation_id: int
    kind: str
    player_id: str | None
    amount: int  # signed, as the escrow sees it: entries credit it, payouts and refunds debit it


@dataclass(frozen=True)
class TournamentMoney:
    tournament_id: str
    definition: TournamentDefinition
    status: str
    escrow_balance: int
    lines: tuple[EscrowLine, ...]
    positions: Mapping[str, int]  # the director's final standings
    reported_prizes: Mapping[str, int]  # the prizes the director's standings show
    applied_purchases: int  # rebuys and add-ons the director applied (chips credited)
    purchased_chips: int  # the chips those purchases credited
    tax_base_cents: int  # the wallet's tax base of the tournament, every concessionaire together (P-8.7)
    tax_base_entries: int

    def entries(self, kind: str) -> Counter[str]:
        """Per player, how many entries of `kind` (a wallet operation kind) they paid."""
        return Counter(line.player_id for line in self.lines if line.kind == kind and line.player_id)

    @property
    def entrants(self) -> int:
        return len(self.entries("buy_in"))

    @property
    def pool(self) -> int:
        """The prize pool: what the escrow kept of the entries (P-8.2), before the prizes left it."""
        return sum(line.amount for line in self.lines if line.kind != PRIZE_PAYOUT)

    def payouts(self) -> dict[str, int]:
        paid: dict[str, int] = defaultdict(int)
        for line in self.lines:
            if line.kind == PRIZE_PAYOUT and line.player_id:
                paid[line.player_id] -= line.amount
        return dict(paid)


def price_of(definition: TournamentDefinition, kind: str) -> Price | None:
    if kind == "buy_in":
        return definition.buy_in
    if kind == "rebuy":
        return definition.rebuy.price if definition.rebuy else None
    return definition.addon.price if definition.addon else None


def prize_problems(money: TournamentMoney) -> list[str]:
    """P-8: entries at their price, pool = prize parts kept, one payout operation, prizes as the schedule says."""
    t = money.tournament_id
    problems: list[str] = []
    if money.status != "finished":
        problems.append(f"{t}: status {money.status!r}, not finished")
    if money.escrow_balance != 0:
        problems.append(f"{t}: escrow holds {money.escrow_balance} cents after the payouts (must be empty)")
    problems += _entry_problems(money)
    problems += _refund_problems(money)
    payout_operations = {line.operation_id for line in money.lines if line.kind == PRIZE_PAYOUT}
    if len(payout_operations) != 1:
        problems.append(f"{t}: {len(payout_operations)} prize payout operations (must be exactly one)")
    unexpected = {line.kind for line in money.lines} - {*ENTRY_KINDS, PRIZE_PAYOUT, REFUND}
    if unexpected:
        problems.append(f"{t}: unexpected escrow movements {sorted(unexpected)}")
    problems += _tax_base_problems(money)
    if money.entrants:
        problems += _payout_problems(money)
    return problems


def _tax_base_problems(money: TournamentMoney) -> list[str]:
    """P-8.7: every entry's full price is in the tax base. Whether a refunded purchase leaves it again is not
    settled by the rules: the base may count the entries paid, or those kept."""
    entries = [line for line in money.lines if line.kind in ENTRY_KINDS]
    paid = sum(p.total_cents for line in entries if (p := price_of(money.definition, line.kind)))
    refund_lines = [line for line in money.lines if line.kind == REFUND]
    refunds = len(refund_lines)
    refunded = sum(_full_price_refunded(money.definition, line) for line in refund_lines)
    accepted = {(paid, len(entries)), (paid - refunded, len(entries) - refunds)}
    if (money.tax_base_cents, money.tax_base_entries) not in accepted:
        return [
            f"{money.tournament_id}: tax base {money.tax_base_cents} cents over {money.tax_base_entries} entries; "
            f"{len(entries)} entries were paid at {paid} cents in full, {refunds} refunded (P-8.7)"
        ]
    return []


def _full_price_refunded(definition: TournamentDefinition, line: EscrowLine) -> int:
    """A refund line moves the prize part out of the escrow; the fee came back from the margin with it."""
    for kind in PURCHASE_KINDS:
        price = price_of(definition, kind)
        if price is not None and price.prize_part_cents == -line.amount:
            return price.total_cents
    return -line.amount


def _entry_problems(money: TournamentMoney) -> list[str]:
    t, definition = money.tournament_id, money.definition
    problems = []
    for line in money.lines:
        if line.kind in ENTRY_KINDS:
            price = price_of(definition, line.kind)
            if price is None or line.amount != price.prize_part_cents:
                problems.append(f"{t}: {line.kind} of {line.player_id} put {line.amount} cents in the pool")
    for player, count in money.entries("buy_in").items():
        if count != 1:
            problems.append(f"{t}: {player} bought in {count} times")
    allowed = (definition.rebuy.max_rebuys if definition.rebuy else 0) + (
        definition.addon.max_addons if definition.addon else 0
    )
    kept = _kept_purchases(money)
    problems += [
        f"{t}: {player} kept {count} rebuys and add-ons, more than the {allowed} allowed (P-4)"
        for player, count in kept.items()
        if count > allowed
    ]
    return problems


def _kept_purchases(money: TournamentMoney) -> Counter[str]:
    """Per player, rebuys and add-ons paid and not refunded."""
    kept = money.entries("rebuy") + money.entries("add_on")
    kept.subtract(money.entries(REFUND))
    return kept


def _refund_problems(money: TournamentMoney) -> list[str]:
    """Refunds in a finished tournament only give back purchases the director could not apply."""
    t = money.tournament_id
    problems = []
    prices = {p.prize_part_cents for kind in PURCHASE_KINDS if (p := price_of(money.definition, kind))}
    for line in money.lines:
        if line.kind == REFUND and -line.amount not in prices:
            problems.append(f"{t}: refund of {-line.amount} cents to {line.player_id} is no purchase's prize part")
    problems += [
        f"{t}: {player} refunded more purchases than paid" for player, n in _kept_purchases(money).items() if n < 0
    ]
    kept = sum(_kept_purchases(money).values())
    if kept != money.applied_purchases:
        problems.append(
            f"{t}: {kept} rebuys and add-ons paid and not refunded, but the director applied {money.applied_purchases}"
        )
    return problems


def _payout_problems(money: TournamentMoney) -> list[str]:
    t = money.tournament_id
    amounts = payout_amounts(money.pool, money.definition.payout_schedule(money.entrants))
    paid = money.payouts()
    problems = []
    if sum(paid.values()) != money.pool:
        problems.append(f"{t}: paid {sum(paid.values())} cents of a {money.pool}-cent pool")
    by_position: dict[int, list[str]] = defaultdict(list)
    for player, position in money.positions.items():
        by_position[position].append(player)
    for position, players in sorted(by_position.items()):
        # P-2.4: players tied over k positions share those positions' prizes, cent remainders one each.
        group_total = sum(amounts[p - 1] for p in range(position, position + len(players)) if p <= len(amounts))
        got = [paid.get(player, 0) for player in players]
        fair = {group_total // len(players), -(-group_total // len(players))}
        if sum(got) != group_total or not set(got) <= fair:
            problems.append(
                f"{t}: position {position} ({len(players)} player(s)) paid {got}, schedule says {group_total}"
            )
    shown = {player: prize for player, prize in money.reported_prizes.items() if prize}
    if shown != {player: prize for player, prize in paid.items() if prize}:
        problems.append(f"{t}: the director shows prizes {shown}, the wallet paid {paid}")
    strangers = set(paid) - set(money.positions)
    if strangers:
        problems.append(f"{t}: prizes paid to players without a position: {sorted(strangers)}")
    return problems


def ranking_problems(tournament_id: str, entrants: set[str], positions: Mapping[str, int]) -> list[str]:
    """P-2.1, P-2.4: every entrant ranked exactly once; positions run 1..N, k tied players filling k places."""
    problems = []
    if set(positions) != entrants:
        missing, extra = sorted(entrants - set(positions)), sorted(set(positions) - entrants)
        problems.append(f"{tournament_id}: ranking misses {missing} and has non-entrants {extra}")
    groups = Counter(positions.values())
    expected = 1
    for position, size in sorted(groups.items()):
        if position != expected:
            problems.append(f"{tournament_id}: positions jump to {position} where {expected} was due")
            break
        expected += size
    if groups.get(1) != 1:
        problems.append(f"{tournament_id}: {groups.get(1, 0)} winners")
    return problems

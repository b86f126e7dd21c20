"""Refunds when a tournament is cancelled for technical reasons (P-10.1–P-10.12), as a pure calculator.

The state that counts is the one after the last completed hand: who was eliminated (with their positions)
and who was still in (with their chips). Build a `CancellationCase` and call `settle_cancellation`.

Vocabulary. *Returned* entries: what a player still in paid (every buy-in, rebuy and add-on, in full) comes
back in the form it was paid (P-10.12): cash prize parts as cash, fees as a reversal from the concessionaire's
margin (P-10.10), each ticket or satellite entry as a fresh ticket of the same value. *Prizes* are the
schedule's amounts (P-8.5) on the prize pool as it stands — the collected prize parts, or the guarantee if
larger (P-8.3). L is the number of players still in, P the number of prizes; "as many players left as prizes"
follows the "fewer" rule (P-10.10).

Residual prize pool R. Freerolls: the whole prize pool (P-10.9). Otherwise: the prize parts of the eliminated
players' entries (P-10.2, and P-10.4 when there is no guarantee) — or, with a guarantee and rebuys/add-ons
over, the larger of all prize parts and the guarantee, less the prize parts of the players still in (P-10.3).

Rounding (P-8.5): every split floors each share and hands the leftover cents one each in order — tied
eliminated players in their group's order; players still in by chips (most first), then player id. A "50%
equally, 50% by chips" split gives the equal half floor(amount / 2) and the chips half the rest.

P-10.11: when the next-elimination amounts and the equal/chips parts would exceed what R leaves after the
eliminated players' prizes, the equal/chips parts are zero and the next-elimination amounts share equally
what is left; if even the eliminated players' prizes exceed R, the concessionaire pays the difference as a
cancellation overlay. (The spec says this happens only when players still in made rebuys or add-ons; it can
also happen with a flat schedule, e.g. four equal prizes and four players left, and the same rule applies.)

Invariant (P-10.10), checked on every settlement: the prize money paid out equals the returned prize parts
plus R plus the cancellation overlay, and also the collected prize parts plus the guarantee overlay actually
paid plus the cancellation overlay. Not a cent created or lost.

Worked examples (each is a test in tests/domain/test_cancellation.py; buy-in 1000+100 means a prize part of
€10.00 and a fee of €1.00; amounts in cents):

1. Heads-up (P-10.1). A paid 1000+100 in cash, B 1000+100 by ticket. A gets 1000 cash + 100 fee reversal, B a
   fresh ticket worth 1000+100. Nothing else: R = 0.

2. Sit'n'go, no guarantee, more players left than prizes (P-10.4, P-10.5). Six players at 1000+100, prizes
   65/35 (P = 2). D, E, F are out; A, B, C are in (L = 3 > 2). R = 3 × 1000 = 3000. Each of A, B, C gets 1000 +
   100 back and 3000 / 3 = 1000: 2100 each. D, E, F get nothing. Paid out: 3000 + 3000 = 6000 prize money.

3. Sit'n'go, no guarantee, as many players left as prizes (P-10.6 via P-10.10). Same tournament with C out in
   3rd place (unpaid): L = 2 = P. R = 4 × 1000 = 4000, no eliminated prize; A and B each get 1100 back and
   4000 / 2 = 2000: 3100 each.

4. Sit'n'go with guarantee, fewer players left than prizes (P-10.3, P-10.6). Nine players at 500+50, a
   guarantee of 10000, prizes 50/30/20 (P = 3). Collected 4500 → pool 10000 (guarantee overlay 5500), prizes
   5000 / 3000 / 2000. C went out 3rd; A and B are in (L = 2 < 3). R = 10000 − 2 × 500 = 9000. C gets 2000;
   A and B each get 550 back and (9000 − 2000) / 2 = 3500: 4050 each. Paid out: 1000 + 9000 = 10000.

5. Scheduled, no guarantee, more players left than prizes (P-10.4, P-10.7). Twenty players at 1000+100,
   prizes 50/30/20. A, B, C, D are in with 30000, 20000, 6000 and 4000 chips. R = 16 × 1000 = 16000: 8000
   equally (2000 each) and 8000 by chips: 4000, 2666, 800, 533 (floors, 7999) + the leftover cent to A (most
   chips): 4001. A gets 1100 + 2000 + 4001 = 7101, B 5766, C 3900, D 3633.

6. Scheduled with guarantee, fewer players left than prizes (P-10.3, P-10.8). Thirty players at 1000+100, a
   guarantee of 50000, prizes 50/30/20 → 25000 / 15000 / 10000 (guarantee overlay 20000). C went out 3rd; A
   (50000 chips) and B (40000) are in. R = 50000 − 2000 = 48000. C gets 10000; A and B each get 1100 back and
   the next eliminated player's prize, 15000. What is left, 48000 − 10000 − 30000 = 8000: 4000 equally (2000
   each) and 4000 by chips: 2222 and 1777, leftover cent to A. A gets 1100 + 15000 + 2000 + 2223 = 20323, B
   1100 + 15000 + 2000 + 1777 = 19877.

7. Scheduled, rebuys still open (P-10.2, P-10.8, P-10.11). Ten players at 1000+100; A and B are in, each
   after four rebuys at 1000+100 (five entries each); the eight others are out with one entry each, C 3rd.
   Collected 18000 → prizes 9000 / 5400 / 3600. R = 8 × 1000 = 8000 (the eliminated players' prize parts).
   C gets 3600; the next-elimination prize (5400 each, 10800) does not fit in what is left, 8000 − 3600 = 4400,
   so A and B get 2200 each instead, and nothing equally or by chips (P-10.11). A and B each get their 5500
   back: 7700 each.

8. Cancellation overlay (P-10.11). As 7 but at 500+50 with sixteen rebuys each (seventeen entries each):
   collected 17000 + 8 × 500 = 21000 → prizes 10500 / 6300 / 4200. R = 4000 < C's 4200: C gets 4200, the
   concessionaire adds a 200 cancellation overlay, A and B get only their 17 × 550 = 9350 back.

9. Freeroll, more players left than prizes (P-10.9). Twenty players on 40+10 sponsored entries (800
   collected), a guarantee of 10000 (overlay 9200), prizes 50/30/20. A, B, C, D in with 30000, 20000, 6000,
   4000 chips. The whole 10000: 5000 equally (1250 each), 5000 by chips: 2500, 1666, 500, 333 + 1 to A. A
   gets 3751, B 2916, C 1750, D 1583; nobody gets an entry back (they paid nothing).

10. Freeroll, fewer players left than prizes (P-10.9). As 9, but C went out 3rd and A (40000) and B (20000)
   are in. C gets 2000; A and B each get the 2nd prize, 3000; the rest, 10000 − 2000 − 6000 = 2000, goes 1000
   equally (500 each) and 1000 by chips: 666 and 333, leftover cent to A. A gets 4167, B 3833.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournament_director.domain.entries import Entry, EntryKind, PaymentForm
from tournament_director.domain.kinds import TournamentKind
from tournament_director.domain.money import allocate, split_equally
from tournament_director.domain.payouts import PayoutSchedule, payout_amounts, tied_prize_shares
from tournament_director.domain.ranking import PlayerId, RankGroup


class CancellationError(ValueError):
    """The case does not describe a consistent tournament (a player both in and out, unknown player, …)."""


class ConservationError(AssertionError):
    """The P-10.10 invariant failed: a bug, never an input problem."""


@dataclass(frozen=True)
class CancellationCase:
    """Everything P-10 needs, as of the last completed hand."""

    kind: TournamentKind
    guarantee_cents: int
    freeroll: bool
    #: Whether a rebuy or add-on could still happen at the cancellation (P-10.2 vs P-10.3).
    rebuys_or_addons_open: bool
    #: The schedule shown at registration for this field (P-8.4).
    schedule: PayoutSchedule
    #: Every entry each player paid (sponsored ones for a freeroll); players without entries may be absent.
    entries: Mapping[PlayerId, Sequence[Entry]]
    #: Eliminated (busted or disqualified) players with their positions, e.g. `standing_of_eliminated()`.
    eliminated: Sequence[RankGroup]
    #: Players still in → their chips after the last completed hand.
    chips: Mapping[PlayerId, int]


class RefundReason(StrEnum):
    ENTRY_PRIZE_PART = "entry_prize_part"  # cash prize parts returned
    ENTRY_FEE = "entry_fee"  # fees reversed from the concessionaire's margin (P-10.10)
    ENTRY_TICKET = "entry_ticket"  # a fresh ticket for a ticket or satellite entry (P-10.12)
    ELIMINATED_PRIZE = "eliminated_prize"  # P-10.6, P-10.8, P-10.9
    NEXT_ELIMINATION_PRIZE = "next_elimination_prize"  # P-10.8, P-10.9, P-10.11
    EQUAL_SHARE = "equal_share"  # P-10.5–P-10.9
    CHIP_SHARE = "chip_share"  # P-10.7–P-10.9


@dataclass(frozen=True)
class RefundLine:
    """One amount owed to one player, split by where the money comes from."""

    player_id: PlayerId
    reason: RefundReason
    #: How it is paid. Prize lines say cash; a freeroll whose prizes are bonus (P-9.3) pays them as bonus.
    form: PaymentForm
    #: Paid from the prize money (prize parts, guarantee overlay, cancellation overlay).
    prize_money_cents: int
    #: Paid back from the concessionaire's margin (fees, P-10.10).
    margin_cents: int = 0
    #: For a returned ticket: the kind of entry it replaces.
    entry_kind: EntryKind | None = None

    @property
    def amount_cents(self) -> int:
        return self.prize_money_cents + self.margin_cents


class OverlayKind(StrEnum):
    GUARANTEE = "guarantee"  # P-8.3: the guarantee topped up the collected prize parts
    CANCELLATION = "cancellation"  # P-10.11: eliminated players' prizes beyond the residual prize pool


@dataclass(frozen=True)
class OverlayLine:
    """Money the concessionaire adds from its own account."""

    kind: OverlayKind
    amount_cents: int


@dataclass(frozen=True)
class CancellationSettlement:
    #: The branch applied: "P-10.1", "P-10.5" … "P-10.9".
    rule: str
    residual_prize_pool_cents: int
    #: Whether P-10.11 cut the amounts down to the residual prize pool.
    capped_by_residual: bool
    lines: tuple[RefundLine, ...]
    overlays: tuple[OverlayLine, ...]

    @property
    def prize_money_paid_cents(self) -> int:
        return sum(line.prize_money_cents for line in self.lines)

    @property
    def margin_returned_cents(self) -> int:
        return sum(line.margin_cents for line in self.lines)

    def overlay_cents(self, kind: OverlayKind) -> int:
        return sum(overlay.amount_cents for overlay in self.overlays if overlay.kind is kind)

    def total_for(self, player_id: PlayerId) -> int:
        """Everything `player_id` receives, cash and tickets, prize money and fees."""
        return sum(line.amount_cents for line in self.lines if line.player_id == player_id)

    def lines_for(self, player_id: PlayerId) -> tuple[RefundLine, ...]:
        return tuple(line for line in self.lines if line.player_id == player_id)


def settle_cancellation(case: CancellationCase) -> CancellationSettlement:
    """Who gets what when `case`'s tournament is cancelled (P-10; branches in the module docstring)."""
    _check_case(case)
    if case.freeroll:
        settlement = _settle_freeroll(case)
    elif len(_entrants(case)) == 2:
        settlement = _settle_heads_up(case)
    else:
        settlement = _settle_paid(case)
    _check_conservation(case, settlement)
    return settlement


def _entrants(case: CancellationCase) -> set[PlayerId]:
    return {*case.chips, *(player for group in case.eliminated for player in group.players)}


def _check_case(case: CancellationCase) -> None:
    eliminated = [player for group in case.eliminated for player in group.players]
    if len(set(eliminated)) != len(eliminated) or set(eliminated) & set(case.chips):
        raise CancellationError("a player is listed twice among the eliminated and the players still in")
    if not case.chips:
        raise CancellationError("a cancelled tournament has players still in")
    if any(chips < 0 for chips in case.chips.values()) or sum(case.chips.values()) == 0:
        raise CancellationError("chips cannot be negative, and the players still in hold some")
    if unknown := set(case.entries) - _entrants(case):
        raise CancellationError(f"entries of players neither in nor out: {sorted(unknown)}")
    if any(group.first_position <= len(case.chips) for group in case.eliminated):
        raise CancellationError("an eliminated player cannot rank above a player still in")
    sponsored = any(entry.kind is EntryKind.SPONSORED for entries in case.entries.values() for entry in entries)
    if sponsored and not case.freeroll:
        raise CancellationError("sponsored entries belong to freerolls")
    if case.guarantee_cents < 0:
        raise CancellationError("a guarantee cannot be negative")


class _Settlement:
    """Collects the lines of one settlement."""

    def __init__(self, case: CancellationCase) -> None:
        self.case = case
        # Players still in, in the order leftover cents are handed out: most chips first, then player id.
        self.still_in = sorted(case.chips, key=lambda player: (-case.chips[player], player))
        self.prize_parts = {
            player: sum(entry.price.prize_part_cents for entry in entries) for player, entries in case.entries.items()
        }
        self.collected = sum(self.prize_parts.values())
        self.pool = max(self.collected, case.guarantee_cents)
        self.prizes = payout_amounts(self.pool, case.schedule)
        self.lines: list[RefundLine] = []
        self.cancellation_overlay = 0
        self.capped = False

    @property
    def fewer_left_than_prizes(self) -> bool:
        """P-10.10: "as many players left as prizes" follows the "fewer" rule."""
        return len(self.still_in) <= self.case.schedule.paid_places

    def prize_parts_of(self, players: Sequence[PlayerId]) -> int:
        return sum(self.prize_parts.get(player, 0) for player in players)

    def return_entries(self, players: Sequence[PlayerId]) -> None:
        """Everything each player paid, in the form it was paid (P-10.10, P-10.12)."""
        for player in players:
            self.lines.extend(_entry_returns(player, self.case.entries.get(player, ())))

    def add(self, player: PlayerId, reason: RefundReason, prize_money_cents: int) -> None:
        if prize_money_cents:
            self.lines.append(RefundLine(player, reason, PaymentForm.CASH, prize_money_cents))

    def pay_eliminated_prizes(self) -> int:
        """Eliminated players in paid positions get that prize, ties shared (P-10.6, P-10.8, P-10.9)."""
        paid = 0
        for group in self.case.eliminated:
            for player, prize in zip(group.players, tied_prize_shares(self.prizes, group), strict=True):
                self.add(player, RefundReason.ELIMINATED_PRIZE, prize)
                paid += prize
        return paid

    def share_equally(self, amount: int) -> None:
        for player, share in zip(self.still_in, split_equally(amount, len(self.still_in)), strict=True):
            self.add(player, RefundReason.EQUAL_SHARE, share)

    def share_half_equally_half_by_chips(self, amount: int) -> None:
        equal_half = amount // 2
        self.share_equally(equal_half)
        chips = [self.case.chips[player] for player in self.still_in]
        for player, share in zip(self.still_in, allocate(amount - equal_half, chips), strict=True):
            self.add(player, RefundReason.CHIP_SHARE, share)

    def pay_next_elimination_prizes(self, available: int) -> None:
        """Players left each get the next eliminated player's prize, then share the rest 50/50; when that
        does not fit in `available`, P-10.11 applies."""
        next_prize = self.prizes[len(self.still_in) - 1]
        rest = available - next_prize * len(self.still_in)
        if rest >= 0:
            for player in self.still_in:
                self.add(player, RefundReason.NEXT_ELIMINATION_PRIZE, next_prize)
            self.share_half_equally_half_by_chips(rest)
            return
        self.capped = True
        if available < 0:
            self.cancellation_overlay = -available
            return
        for player, share in zip(self.still_in, split_equally(available, len(self.still_in)), strict=True):
            self.add(player, RefundReason.NEXT_ELIMINATION_PRIZE, share)

    def pay_equal_rest(self, available: int) -> None:
        """Sit'n'go: players left share equally what the eliminated prizes leave (P-10.6, P-10.11)."""
        if available < 0:
            self.capped = True
            self.cancellation_overlay = -available
            return
        self.share_equally(available)

    def result(self, rule: str, residual: int, guarantee_overlay: int) -> CancellationSettlement:
        overlays = [
            OverlayLine(kind, amount)
            for kind, amount in (
                (OverlayKind.GUARANTEE, guarantee_overlay),
                (OverlayKind.CANCELLATION, self.cancellation_overlay),
            )
            if amount
        ]
        return CancellationSettlement(rule, residual, self.capped, tuple(self.lines), tuple(overlays))


def _entry_returns(player: PlayerId, entries: Sequence[Entry]) -> list[RefundLine]:
    """A player's entries back in full, in the form paid: cash prize parts, fee reversal, one fresh ticket per
    ticket or satellite entry (P-10.10, P-10.12)."""
    cash = [entry for entry in entries if entry.form is PaymentForm.CASH]
    prize_parts = sum(entry.price.prize_part_cents for entry in cash)
    fees = sum(entry.price.fee_cents for entry in cash)
    lines = [
        *([RefundLine(player, RefundReason.ENTRY_PRIZE_PART, PaymentForm.CASH, prize_parts)] if prize_parts else []),
        *([RefundLine(player, RefundReason.ENTRY_FEE, PaymentForm.CASH, 0, fees)] if fees else []),
    ]
    lines.extend(
        RefundLine(
            player,
            RefundReason.ENTRY_TICKET,
            PaymentForm.TICKET,
            entry.price.prize_part_cents,
            entry.price.fee_cents,
            entry.kind,
        )
        for entry in entries
        if entry.form is PaymentForm.TICKET
    )
    return lines


def refund_all_entries(entries: Mapping[PlayerId, Sequence[Entry]]) -> tuple[RefundLine, ...]:
    """Every entry back in full to every player: a scheduled tournament cancelled at its start for want of
    players (P-3.2), and the heads-up rule (P-10.1)."""
    return tuple(line for player in sorted(entries) for line in _entry_returns(player, entries[player]))


def _settle_heads_up(case: CancellationCase) -> CancellationSettlement:
    """P-10.1: both players get back everything they paid."""
    settlement = _Settlement(case)
    settlement.lines.extend(refund_all_entries(case.entries))
    return settlement.result("P-10.1", residual=0, guarantee_overlay=0)


def _settle_paid(case: CancellationCase) -> CancellationSettlement:
    """Sit'n'go and scheduled tournaments with paid entries (P-10.2–P-10.8, P-10.11)."""
    settlement = _Settlement(case)
    eliminated = [player for group in case.eliminated for player in group.players]
    kept_in = settlement.prize_parts_of(settlement.still_in)
    if case.guarantee_cents and not case.rebuys_or_addons_open:
        residual = settlement.pool - kept_in  # P-10.3
        guarantee_overlay = settlement.pool - settlement.collected
    else:
        residual = settlement.prize_parts_of(eliminated)  # P-10.2, P-10.4
        guarantee_overlay = 0
    settlement.return_entries(settlement.still_in)
    sit_and_go = case.kind is TournamentKind.SIT_AND_GO
    if not settlement.fewer_left_than_prizes:
        if sit_and_go:
            settlement.share_equally(residual)
        else:
            settlement.share_half_equally_half_by_chips(residual)
        return settlement.result("P-10.5" if sit_and_go else "P-10.7", residual, guarantee_overlay)
    available = residual - settlement.pay_eliminated_prizes()
    if sit_and_go:
        settlement.pay_equal_rest(available)
    else:
        settlement.pay_next_elimination_prizes(available)
    return settlement.result("P-10.6" if sit_and_go else "P-10.8", residual, guarantee_overlay)


def _settle_freeroll(case: CancellationCase) -> CancellationSettlement:
    """P-10.9: the prize pool (sponsored prize parts, or the guarantee if larger) goes to the players."""
    settlement = _Settlement(case)
    residual = settlement.pool
    guarantee_overlay = settlement.pool - settlement.collected
    if settlement.fewer_left_than_prizes:
        settlement.pay_next_elimination_prizes(residual - settlement.pay_eliminated_prizes())
    else:
        settlement.share_half_equally_half_by_chips(residual)
    return settlement.result("P-10.9", residual, guarantee_overlay)


def _check_conservation(case: CancellationCase, settlement: CancellationSettlement) -> None:
    """P-10.10: not a cent created or lost."""
    returned = sum(
        line.prize_money_cents
        for line in settlement.lines
        if line.reason in (RefundReason.ENTRY_PRIZE_PART, RefundReason.ENTRY_TICKET)
    )
    cancellation_overlay = settlement.overlay_cents(OverlayKind.CANCELLATION)
    collected = sum(entry.price.prize_part_cents for entries in case.entries.values() for entry in entries)
    paid = settlement.prize_money_paid_cents
    if paid != returned + settlement.residual_prize_pool_cents + cancellation_overlay:
        raise ConservationError(
            f"P-10.10: paid {paid} ≠ returned {returned} + residual {settlement.residual_prize_pool_cents} "
            f"+ overlay {cancellation_overlay}"
        )
    if paid != collected + settlement.overlay_cents(OverlayKind.GUARANTEE) + cancellation_overlay:
        raise ConservationError(f"P-10.10: paid {paid} does not match the prize parts collected {collected}")
    if any(line.prize_money_cents < 0 or line.margin_cents < 0 for line in settlement.lines):
        raise ConservationError("a refund line is negative")

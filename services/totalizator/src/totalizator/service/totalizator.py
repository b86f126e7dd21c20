"""The service's use cases wired together, for the API and the app factory."""

from __future__ import annotations

from dataclasses import dataclass

from totalizator.service.clock import DrawClock
from totalizator.service.context import Context
from totalizator.service.coupons import CouponIntake
from totalizator.service.draws import DrawAdmin
from totalizator.service.publication import Publication
from totalizator.service.queries import Queries
from totalizator.service.settlement import Settlements
from totalizator.service.statistics import Statistics
from totalizator.service.transfers import TransferRunner


@dataclass(frozen=True)
class Totalizator:
    context: Context
    admin: DrawAdmin
    intake: CouponIntake
    statistics: Statistics
    settlements: Settlements
    clock: DrawClock
    publication: Publication
    queries: Queries

    @classmethod
    def build(cls, context: Context) -> Totalizator:
        runner = TransferRunner(context)
        statistics = Statistics(context)
        intake = CouponIntake(context)
        settlements = Settlements(context, runner)
        return cls(
            context=context,
            admin=DrawAdmin(context, runner),
            intake=intake,
            statistics=statistics,
            settlements=settlements,
            clock=DrawClock(context, statistics, intake, settlements),
            publication=Publication(context),
            queries=Queries(context),
        )

"""Creating tournaments: a whole definition (P-3.3), or a template with the fields to change.

The body is `{template?, name, ...definition fields}` plus the service's own fields (`TournamentSetup`):
currency, when registration opens and play starts, the sponsoring concessionaire, jackpot programmes (P-8.6)
and the invitation list (P-11.7). Every problem comes back at once as `[{field, code, message}]`.

A template is built with its own parameters (`name`, `buy_in`, and e.g. `guarantee_cents`, `max_rebuys`),
then any other definition field in the body is applied on top (`revise`), and the result validated like any
definition. A satellite is checked against its target too (P-3.4): it exists, still registers, and a seat costs
its buy-in.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from platform_kit.errors import Conflict, ProblemError
from platform_kit.events import tournament as events
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from tournament_director.adapters import tournaments
from tournament_director.adapters.tournaments import Status, TournamentRecord
from tournament_director.domain import templates
from tournament_director.domain.definition import TournamentDefinition, create_definition, revise
from tournament_director.domain.entries import Price
from tournament_director.domain.issues import DefinitionError, Issue
from tournament_director.domain.jackpots import JackpotProgramme
from tournament_director.domain.kinds import TournamentKind
from tournament_director.service.commands import CreateTournament
from tournament_director.service.context import Director
from tournament_director.service.principals import Principal, Role

TEMPLATES: dict[str, Callable[..., TournamentDefinition]] = {
    "heads_up_sit_and_go": templates.heads_up_sit_and_go,
    "six_max_sit_and_go": templates.six_max_sit_and_go,
    "nine_max_sit_and_go": templates.nine_max_sit_and_go,
    "shootout_sit_and_go": templates.shootout_sit_and_go,
    "scheduled_mtt": templates.scheduled_mtt,
    "rebuy_mtt": templates.rebuy_mtt,
    "freeroll": templates.freeroll,
    "satellite": templates.satellite,
}
#: Template parameters that are prices.
PRICE_PARAMETERS = frozenset({"buy_in", "sponsored_entry", "seat_price"})
#: What the catalogue shows each template with.
EXAMPLE_PRICE = Price(prize_part_cents=900, fee_cents=100)
#: What the catalogue's examples pass for the parameters a template requires.
EXAMPLE_ARGUMENTS: dict[str, Any] = {
    "buy_in": EXAMPLE_PRICE,
    "seat_price": Price(prize_part_cents=9_000, fee_cents=1_000),
    "target_tournament_id": "t-target",
}


class TournamentSetup(BaseModel):
    """The service's fields of a creation body (the rest is the definition)."""

    model_config = ConfigDict(extra="ignore")

    template: str | None = None
    tournament_id: str | None = Field(None, pattern=r"^[A-Za-z0-9_-]{1,64}$")
    currency: str = Field("EUR", pattern=r"^[A-Z]{3}$")
    starts_at: datetime | None = Field(None, description="Scheduled tournaments: when play starts (P-3.2).")
    registration_opens_at: datetime | None = Field(None, description="Default: registration opens at once.")
    concessionaire_id: str | None = Field(None, max_length=64, description="Administrators: the sponsor.")
    jackpots: list[JackpotProgramme] = Field(default_factory=list)
    invited_player_ids: list[str] = Field(default_factory=list)
    recurring: bool = Field(
        False, description="Sit'n'gos: when it fills, an identical one opens at once, so the lobby always has one."
    )


SETUP_FIELDS = frozenset(TournamentSetup.model_fields)


def invalid(issues: Sequence[Issue | dict[str, str]]) -> ProblemError:
    errors = [
        issue if isinstance(issue, dict) else {"field": issue.field, "code": issue.code, "message": issue.message}
        for issue in issues
    ]
    return ProblemError("validation_failed", "The tournament is not valid.", status=422, errors=errors)


def catalogue() -> list[dict[str, Any]]:
    """Every template with what it takes and an example definition (priced 9+1)."""
    entries = []
    for name, builder in TEMPLATES.items():
        signature = inspect.signature(builder).parameters
        parameters = [p for p in signature if p != "name"]
        required = [p for p in parameters if signature[p].default is inspect.Parameter.empty]
        example = builder("Example", **{p: EXAMPLE_ARGUMENTS[p] for p in required})
        entries.append(
            {
                "template": name,
                "description": (builder.__doc__ or name).strip().split("\n")[0],
                "parameters": parameters,
                "definition": example.model_dump(mode="json"),
            }
        )
    return entries


def build_definition(body: dict[str, Any]) -> tuple[TournamentSetup, TournamentDefinition]:
    """The setup and the validated definition of a creation body (raises the 422 `validation_failed`)."""
    try:
        setup = TournamentSetup.model_validate(body)
    except ValidationError as error:
        raise invalid(
            [Issue(".".join(str(p) for p in detail["loc"]), detail["type"], detail["msg"]) for detail in error.errors()]
        ) from None
    fields = {key: value for key, value in body.items() if key not in SETUP_FIELDS}
    try:
        definition = _from_template(setup.template, fields) if setup.template else create_definition(fields)
    except DefinitionError as error:
        raise invalid(error.issues) from None
    issues = _setup_issues(setup, definition)
    if issues:
        raise invalid(issues)
    return setup, definition


def _from_template(name: str, fields: dict[str, Any]) -> TournamentDefinition:
    builder = TEMPLATES.get(name)
    if builder is None:
        raise DefinitionError([Issue("template", "unknown_template", f"No template {name!r}; see GET /v1/templates.")])
    parameters = inspect.signature(builder).parameters
    options = {key: fields.pop(key) for key in list(fields) if key in parameters}
    if "name" not in options:
        raise DefinitionError([Issue("name", "missing", "A tournament has a name.")])
    try:
        for key in PRICE_PARAMETERS & options.keys():
            options[key] = Price.model_validate(options[key])
        definition = builder(**options)
    except ValidationError as error:
        raise DefinitionError(
            [Issue(".".join(str(p) for p in d["loc"]) or "definition", d["type"], d["msg"]) for d in error.errors()]
        ) from None
    except TypeError as error:
        raise DefinitionError([Issue("template", "missing_parameter", str(error))]) from None
    except DefinitionError as error:
        raise _every_issue(builder, options, fields) or error from None
    return revise(definition, **fields) if fields else definition


def _every_issue(
    builder: Callable[..., TournamentDefinition], options: dict[str, Any], fields: dict[str, Any]
) -> DefinitionError | None:
    """A template refused its own parameters (say, the price): build it at an acceptable price and apply the
    body on top, so that the caller hears of every problem at once, not one round at a time."""
    prices = {key: options[key] for key in PRICE_PARAMETERS & options.keys()}
    try:
        definition = builder(**{**options, **dict.fromkeys(prices, EXAMPLE_PRICE)})
        revise(definition, **prices, **fields)
    except (DefinitionError, ValueError, TypeError) as error:
        return error if isinstance(error, DefinitionError) else None
    return None


def _setup_issues(setup: TournamentSetup, definition: TournamentDefinition) -> list[Issue]:
    issues = []
    if definition.kind is TournamentKind.SCHEDULED and setup.starts_at is None:
        issues.append(Issue("starts_at", "missing", "A scheduled tournament starts at a set time (P-3.2)."))
    if definition.kind is TournamentKind.SIT_AND_GO and setup.starts_at is not None:
        issues.append(Issue("starts_at", "not_allowed", "A sit'n'go starts when full (P-3.1), not at a time."))
    for field, value in (("starts_at", setup.starts_at), ("registration_opens_at", setup.registration_opens_at)):
        if value is not None and value.tzinfo is None:
            issues.append(
                Issue(field, "timezone_missing", "Give instants with their offset, e.g. 2025-05-01T20:00:00Z.")
            )
    opens, starts = setup.registration_opens_at, setup.starts_at
    if opens is not None and starts is not None and opens.tzinfo and starts.tzinfo and opens >= starts:
        issues.append(Issue("registration_opens_at", "after_start", "Registration opens before the start."))
    sponsored = definition.freeroll is not None and definition.freeroll.sponsored_entry is not None
    if (definition.guarantee_cents or sponsored) and setup.concessionaire_id is None:
        issues.append(
            Issue("concessionaire_id", "missing", "A guarantee or a sponsored freeroll is paid by a concessionaire.")
        )
    if setup.recurring and definition.kind is not TournamentKind.SIT_AND_GO:
        issues.append(Issue("recurring", "not_allowed", "Only a sit'n'go recurs; schedule tournaments in the lobby."))
    if len({programme.programme_id for programme in setup.jackpots}) != len(setup.jackpots):
        issues.append(Issue("jackpots", "duplicate_programme", "A programme is listed once."))
    return issues


async def create(director: Director, command: CreateTournament) -> tuple[TournamentRecord, bool]:
    """Create a tournament (status `registering`, or `announced` until registration opens). Returns it and
    whether it is new: the same Idempotency-Key (or tournament_id) gives back the tournament it created."""
    principal, body, client_key = command.principal, command.body, command.client_key
    principal.require_staff()
    if principal.role is Role.OPERATOR:
        body = {**body, "concessionaire_id": principal.concessionaire_id}
    setup, definition = build_definition(body)
    tournament_id = setup.tournament_id or _new_id(director, principal, client_key)
    now = director.now()
    opens = setup.registration_opens_at
    record = TournamentRecord(
        tournament_id=tournament_id,
        name=definition.name,
        status=Status.ANNOUNCED if opens is not None and opens > now else Status.REGISTERING,
        currency=setup.currency,
        concessionaire_id=setup.concessionaire_id,
        created_by=principal.subject_id,
        template=setup.template,
        definition=definition,
        jackpots=tuple(setup.jackpots),
        invited_player_ids=frozenset(setup.invited_player_ids),
        registration_opens_at=opens,
        starts_at=setup.starts_at,
        created_at=now,
        recurring=setup.recurring,
    )
    async with director.unit() as uow:
        if issues := await _target_issues(uow.session, record):
            raise invalid(issues)
        existing = await tournaments.get(uow.session, tournament_id)
        if existing is not None:
            if existing.created_by != principal.subject_id or existing.definition != definition:
                raise Conflict("tournament_exists", f"A different tournament {tournament_id} exists.")
            return existing, False
        await open_in_lobby(director, uow.session, record)
    return record, True


async def open_in_lobby(director: Director, session: AsyncSession, record: TournamentRecord) -> None:
    """Insert a new tournament with its announcement (and its registration's opening) in the same transaction."""
    await tournaments.insert(session, record)
    await director.runtime.outbox.add(session, _announced(record))
    if record.status is Status.REGISTERING:
        await director.runtime.outbox.add(session, events.RegistrationOpened(tournament_id=record.tournament_id))


async def _target_issues(session: AsyncSession, satellite: TournamentRecord) -> list[Issue]:
    """P-3.4: a satellite's target exists, still takes registrations, and a seat costs exactly its buy-in in
    its currency (a qualified player counts as a paid buy-in)."""
    settings = satellite.definition.satellite
    if settings is None:
        return []
    field = "satellite.target_tournament_id"
    target = await tournaments.get(session, settings.target_tournament_id)
    if target is None:
        return [Issue(field, "target_not_found", f"No tournament {settings.target_tournament_id}.")]
    issues = []
    if target.status not in (Status.ANNOUNCED, Status.REGISTERING):
        issues.append(Issue(field, "target_closed", f"The target is {target.status.value}: it takes no new players."))
    if target.currency != satellite.currency:
        issues.append(Issue("currency", "target_currency", f"The target is played in {target.currency}."))
    if settings.seat_price != target.definition.buy_in:
        price = target.definition.buy_in
        issues.append(
            Issue(
                "satellite.seat_price",
                "seat_price_not_target_buy_in",
                f"A seat costs the target's buy-in: {price.prize_part_cents}+{price.fee_cents} cents.",
            )
        )
    return issues


def _new_id(director: Director, principal: Principal, client_key: str | None) -> str:
    if client_key is None:
        return f"t-{director.rng.getrandbits(64):016x}"
    digest = hashlib.sha256(f"{principal.role}:{principal.subject_id}:{client_key}".encode()).hexdigest()
    return f"t-{digest[:16]}"


def _announced(record: TournamentRecord) -> events.TournamentAnnounced:
    definition = record.definition
    return events.TournamentAnnounced(
        tournament_id=record.tournament_id,
        name=record.name,
        kind=definition.kind.value,
        concessionaire_id=record.concessionaire_id,
        currency=record.currency,
        buy_in_prize_cents=definition.buy_in.prize_part_cents,
        buy_in_fee_cents=definition.buy_in.fee_cents,
        starts_at=None if record.starts_at is None else record.starts_at.isoformat(),
        max_players=definition.max_players,
    )

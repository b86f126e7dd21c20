"""Log-in throttling: failed log-ins per account (shared by every gateway instance through the database) and per
address. A guesser who rotates addresses still meets the account's exponential delay; the owner waits at most
15 minutes after the last failure and is let in by the first correct password after it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from itertools import count

import httpx
import pytest
from gateway.domain.login_throttle import LoginThrottlePolicy
from gateway.domain.rate_limit import BucketPolicy, TokenBucket
from gateway_test_support import ADMIN_EMAIL, ADMIN_PASSWORD, PASSWORD, Driver, fast_settings, running
from platform_kit.clock import FrozenClock

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
WRONG = "not the password at all"
_addresses = count(1)


def new_address() -> str:
    """A different client address for each request: what a rotating X-Forwarded-For used to buy."""
    n = next(_addresses)
    return f"203.0.{n // 250}.{n % 250 + 1}"


@asynccontextmanager
async def client_at(driver: Driver, address: str) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=driver.app, client=(address, 40_000))
    async with httpx.AsyncClient(transport=transport, base_url="http://gateway.test") as http:
        yield http


async def log_in(driver: Driver, password: str, *, login: str = "Victim", address: str | None = None) -> httpx.Response:
    async with client_at(driver, address or new_address()) as http:
        return await http.post("/api/v1/auth/login", json={"login": login, "password": password})


async def staff_log_in(driver: Driver, password: str, address: str | None = None) -> httpx.Response:
    async with client_at(driver, address or new_address()) as http:
        return await http.post("/api/v1/auth/staff/login", json={"email": ADMIN_EMAIL, "password": password})


def throttled(answer: httpx.Response) -> int:
    """The Retry-After of a 429 `too_many_failed_logins` answer."""
    assert answer.status_code == 429, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == "too_many_failed_logins"
    assert answer.json()["retry_after"] == int(answer.headers["Retry-After"])
    return int(answer.headers["Retry-After"])


def test_the_delay_doubles_after_the_free_attempts_and_is_capped() -> None:
    policy = LoginThrottlePolicy()
    assert [policy.delay_after(n).total_seconds() for n in range(4, 12)] == [0, 1, 2, 4, 8, 16, 32, 64]
    assert policy.delay_after(15) == timedelta(minutes=15)
    assert policy.delay_after(10_000) == timedelta(minutes=15)
    assert policy.wait(7, T0, T0 + timedelta(seconds=3)) == timedelta(seconds=1)
    assert policy.wait(7, T0, T0 + timedelta(seconds=4)) == timedelta(0)
    assert policy.wait(7, T0, T0 - timedelta(hours=1)) == timedelta(seconds=4)  # a clock stepped back
    assert policy.failures(40, T0, T0 + timedelta(days=1)) == 0  # forgotten after a quiet day


def test_failures_checked_together_are_all_charged_to_the_address() -> None:
    bucket = TokenBucket.full(BucketPolicy(rate=1 / 30, burst=2), 0.0)
    assert bucket.wait(0.0) == 0
    for _ in range(3):  # three wrong passwords that were let through at once, charged as each failed
        bucket.charge(0.0)
    assert bucket.wait(0.0) == 60  # one token in debt: two refills before the next attempt
    assert bucket.wait(60.0) == 0


async def test_rotating_addresses_meet_the_accounts_delay_and_the_right_password_waits_too(
    driver: Driver, clock: FrozenClock
) -> None:
    await driver.sign_up("Victim")
    for _ in range(5):
        assert (await log_in(driver, WRONG)).status_code == 401
    assert throttled(await log_in(driver, WRONG)) == 1
    # While the account must wait the right password is refused the same way: a guesser learns nothing.
    assert throttled(await log_in(driver, PASSWORD)) == 1
    clock.advance(timedelta(seconds=1))
    assert (await log_in(driver, WRONG, login="victim@example.com")).status_code == 401  # same account by email
    assert throttled(await log_in(driver, PASSWORD)) == 2
    clock.advance(timedelta(seconds=1))
    assert throttled(await log_in(driver, PASSWORD)) == 1  # counted from the last failure, not extended by waits
    clock.advance(timedelta(seconds=1))
    assert (await log_in(driver, PASSWORD)).status_code == 200

    # Success forgets the failures: the owner has the free attempts again.
    for _ in range(5):
        assert (await log_in(driver, WRONG)).status_code == 401
    assert throttled(await log_in(driver, WRONG)) == 1


async def test_the_owner_is_never_kept_out_longer_than_15_minutes(driver: Driver, clock: FrozenClock) -> None:
    """However long a guesser keeps at it, the wait after a failure is at most 15 minutes."""
    await driver.sign_up("Victim")
    waits = []
    for _ in range(45):  # 5 free failures, then pairs of a 429 and, after its wait, a failure
        answer = await log_in(driver, WRONG)
        if answer.status_code == 429:
            waits.append(throttled(answer))
            clock.advance(timedelta(seconds=waits[-1]))
    assert waits[:10] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    assert set(waits[10:]) == {900}
    assert throttled(await log_in(driver, PASSWORD)) == 900
    clock.advance(timedelta(minutes=15))
    assert (await log_in(driver, PASSWORD)).status_code == 200


async def test_staff_log_ins_are_throttled_per_account(driver: Driver, clock: FrozenClock) -> None:
    """The report: 300 wrong administrator passwords from rotating addresses, all tried, none refused."""
    answers = [await staff_log_in(driver, WRONG) for _ in range(300)]
    assert [a.status_code for a in answers].count(401) == 5
    assert throttled(await staff_log_in(driver, ADMIN_PASSWORD)) == 1
    clock.advance(timedelta(seconds=1))
    assert (await staff_log_in(driver, ADMIN_PASSWORD)).status_code == 200


async def test_one_address_gets_20_failures_at_once_across_accounts(driver: Driver, clock: FrozenClock) -> None:
    """Spraying one password over many accounts from one address: the address's bucket, not the accounts'."""
    attacker, neighbour = "198.51.100.7", "198.51.100.8"
    await driver.sign_up("Victim")
    for n in range(20):
        assert (await log_in(driver, WRONG, login=f"someone{n}", address=attacker)).status_code == 401
    assert throttled(await log_in(driver, WRONG, login="someone-else", address=attacker)) == 30
    assert throttled(await log_in(driver, PASSWORD, address=attacker)) == 30
    assert (await log_in(driver, PASSWORD, address=neighbour)).status_code == 200
    clock.advance(timedelta(seconds=30))
    assert (await log_in(driver, WRONG, login="someone-else", address=attacker)).status_code == 401


async def test_right_passwords_from_one_address_are_never_refused_however_many_at_once(driver: Driver) -> None:
    """Players behind one carrier NAT (or a harness's bots on 127.0.0.1) log in together: only failures count."""
    players = [f"Player{n}" for n in range(30)]
    for nickname in players:
        await driver.sign_up(nickname)
    answers = await asyncio.gather(*(log_in(driver, PASSWORD, login=n, address="192.0.2.1") for n in players))
    assert {a.status_code for a in answers} == {200}


@pytest.mark.postgres
async def test_failures_are_shared_by_gateway_instances_and_concurrent_guesses_cannot_pass_together(
    postgres_url: str, clock: FrozenClock
) -> None:
    """Two instances on one database: 40 guesses at once, spread over both, get at most the 5 free attempts."""
    settings = fast_settings(postgres_url)
    async with running(settings, clock) as first, running(settings, clock) as second:
        await first.sign_up("Victim")
        answers = await asyncio.gather(*(log_in((first, second)[n % 2], WRONG) for n in range(40)))
        statuses = [a.status_code for a in answers]
        assert set(statuses) == {401, 429}
        assert 1 <= statuses.count(401) <= 5
        for instance in (first, second):
            throttled(await log_in(instance, PASSWORD))
        clock.advance(timedelta(minutes=15))
        assert (await log_in(second, PASSWORD)).status_code == 200
        assert (await log_in(first, WRONG)).status_code == 401  # the success on one instance reset both

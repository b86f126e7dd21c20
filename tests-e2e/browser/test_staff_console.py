"""The staff console (issue 17, part 1) in real Chromium on a desktop viewport, against the whole platform.

- The bootstrap admin signs in on the web client's own log-in form and reaches the console (it answered "Wrong
  login or password": that form only knew the player log-in).
- An operator creates a heads-up sit'n'go from the console (the director's validation message shown first), a
  newcomer plays it against a house bot, and the operator's tournament page shows the result.
- An admin creates, announces, results and settles a draw from the console, after the settlement preview; the
  player who won sees the payout in their statement.
- An operator of another concessionaire sees none of it: not the tournament, not the player, not the totalizator.
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from browser_support import ADMIN, DESKTOP, PASSWORD, PHONE, Api, sign_up_in_browser
from test_sit_and_go import PLAY_SECONDS, play_to_the_end, wait_for_welcome_credit

pytestmark = pytest.mark.e2e


def new_operator(api: Api, concessionaire_id: str) -> dict[str, str]:
    login = {"email": f"op-{uuid.uuid4().hex[:8]}@example.com", "password": PASSWORD}
    api.call("POST", f"/concessionaires/{concessionaire_id}/operators", json=login)
    return login


def concessionaire_of(api: Api, nickname: str) -> tuple[str, str]:
    """(player id, concessionaire id) of a player, as the admin finds them."""
    [player] = [p for p in api.call("GET", "/players", params={"limit": 500}) if p["nickname"] == nickname]
    return player["id"], player["concessionaire_id"]


def console_sign_in(page: Any, base_url: str, login: dict[str, str]) -> None:
    """At /staff: the console's own sign-in form (POST /auth/staff/login)."""
    page.goto(f"{base_url}/staff")
    page.fill(".staff-sign-in input[name=email]", login["email"])
    page.fill(".staff-sign-in input[name=password]", login["password"])
    page.click(".staff-sign-in button[type=submit]")
    page.wait_for_url("**/#/staff/tournaments")


def test_the_bootstrap_admin_signs_in_on_the_web_clients_log_in_form(platform_url: str, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(f"{platform_url}/#/login")
        page.fill("input[name=login]", ADMIN["email"])
        page.fill("input[name=password]", ADMIN["password"])
        page.click("form button[type=submit]")
        page.wait_for_url("**/#/staff/tournaments")
        assert page.locator(".staff-head .scope[data-role='admin']").count() == 1
        assert page.locator("a[data-tab='draws']").count() == 1  # the totalizator is the administrators'
    finally:
        page.close()


@pytest.mark.timeout(PLAY_SECONDS + 240)
def test_an_operator_runs_a_sit_and_go_from_the_console_and_sees_the_result(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    nickname = f"Console{uuid.uuid4().hex[:6]}"
    player = browser.new_page(viewport=DESKTOP)
    console = browser.new_page(viewport=DESKTOP)
    try:
        sign_up_in_browser(player, platform_url, nickname)
        wait_for_welcome_credit(player, platform_url)
        _, concessionaire_id = concessionaire_of(api, nickname)
        console_sign_in(console, platform_url, new_operator(api, concessionaire_id))
        # The director's own validation message, shown on the form.
        console.select_option(".new-tournament select[name=template]", "heads_up_sit_and_go")
        console.fill(".new-tournament input[name=name]", f"Console SNG {nickname}")
        console.fill(".new-tournament input[name=prize_part]", "four euros")
        console.click(".new-tournament button[type=submit]")
        console.wait_for_selector(".new-tournament .error:has-text('prize_part_cents')")
        console.fill(".new-tournament input[name=prize_part]", "4.00")
        console.click(".new-tournament button[type=submit]")
        console.wait_for_url("**/#/staff/tournament/*")
        tournament_id = console.url.rsplit("/", 1)[-1]
        console.wait_for_selector(".tournament-summary h2[data-status='registering']")
        screenshot(console, "created")

        player.goto(f"{platform_url}/#/lobby")
        player.locator(f"article[data-tournament='{tournament_id}'] button[data-tournament]").click()
        player.wait_for_url("**/#/table/*", timeout=90000)  # a house bot takes the other seat
        console.wait_for_selector(".tournament-live .staff-table", timeout=60000)  # tables, players, chips, clock
        assert console.locator(".tournament-live .clock").count() == 1
        screenshot(console, "running")
        play_to_the_end(player, time.monotonic() + PLAY_SECONDS)

        console.wait_for_selector(".tournament-summary h2[data-status='finished']", timeout=30000)
        row = console.locator(".standings tr", has_text=nickname)
        row.wait_for()
        assert row.get_attribute("data-position") in ("1", "2")
        winner = console.locator(".standings tr[data-position='1']").inner_text()
        assert "€8.00" in winner  # the whole prize pool: two prize parts of €4.00
        screenshot(console, "result")

        # The player's record, found within the operator's scope: statement, tournaments, protection settings.
        console.click("a[data-tab='players']")
        console.fill("input.player-search", nickname.lower())
        console.locator(".player-results a", has_text=nickname).click()
        console.wait_for_selector(".player-statement tr[data-kind='buy_in']")
        console.wait_for_selector(f".panel a[href='#/staff/tournament/{tournament_id}']")
        console.wait_for_selector(".player-protection dl")
        console.wait_for_selector(".player-conduct .empty, .player-conduct table")
        screenshot(console, "player")
    finally:
        player.close()
        console.close()


def local_text(moment: datetime) -> str:
    """A `datetime-local` value in UTC (the pages below run in the UTC time zone)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")


def player_over_the_api(platform_url: str, nickname: str) -> tuple[Api, str]:
    """A newcomer of the demo concessionaire signed up over the API, once the welcome credit is in."""
    player = Api(platform_url)
    signup = {
        "concessionaire": "demo",
        "nickname": nickname,
        "email": f"{nickname.lower()}@example.com",
        "date_of_birth": "1990-05-17",
        "password": PASSWORD,
    }
    player.token = player.call("POST", "/auth/signup", json=signup)["access_token"]
    me = str(player.call("GET", "/players/me")["id"])
    for _ in range(60):
        if any(a["currency"] == "EUR" for a in player.call("GET", f"/players/{me}/accounts")["accounts"]):
            return player, me
        time.sleep(0.5)  # polls for the welcome credit's arrival (an event), not for time to pass
    pytest.fail("the welcome credit never arrived")


def player_and_operator(platform_url: str, api: Api, nickname: str) -> tuple[Api, str, dict[str, str], Api]:
    """A demo newcomer over the API (client, id), and a new operator of the demo concessionaire (login, client)."""
    player, player_id = player_over_the_api(platform_url, nickname)
    _, demo_id = concessionaire_of(api, nickname)
    login = new_operator(api, demo_id)
    operator = Api(platform_url)
    operator.token = operator.call("POST", "/auth/staff/login", json=login)["access_token"]
    return player, player_id, login, operator


def registered(operator: Api, player: Api, body: dict[str, Any]) -> str:
    """A tournament the operator creates and the player registers for (buy-in paid); its id."""
    tournament_id = str(operator.call("POST", "/tournaments", json=body)["tournament_id"])
    pay_once(player, f"/tournaments/{tournament_id}/registrations", {"entry": "buy_in"})
    return tournament_id


def heads_up_for(platform_url: str, api: Api, nickname: str) -> tuple[str, dict[str, str], str]:
    """A newcomer registered for a €4 + €1 heads-up sit'n'go a new operator created (a house bot takes the other
    seat): the player's id, the operator's login, the tournament's id."""
    player, player_id, login, operator = player_and_operator(platform_url, api, nickname)
    body = {"template": "heads_up_sit_and_go", "name": nickname, "buy_in": {"prize_part_cents": 400, "fee_cents": 100}}
    return player_id, login, registered(operator, player, body)


def pay_once(player: Api, path: str, body: dict[str, Any]) -> None:
    """A money move of the player's, with its Idempotency-Key."""
    headers = {"Authorization": f"Bearer {player.token}", "Idempotency-Key": uuid.uuid4().hex}
    answer = player.http.post(path, json=body, headers=headers)
    assert answer.status_code in (200, 201), answer.text


@pytest.mark.timeout(300)
def test_an_admin_settles_a_draw_from_the_console_and_the_player_sees_the_payout(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    draw_id = f"console-{uuid.uuid4().hex[:8]}"
    close_at = datetime.now(UTC) + timedelta(seconds=40)
    admin = browser.new_page(viewport=DESKTOP, timezone_id="UTC")
    try:
        console_sign_in(admin, platform_url, ADMIN)
        admin.click("a[data-tab='draws']")
        admin.fill(".new-draw input[name=draw_id]", draw_id)
        admin.fill(".new-draw input[name=close_at]", local_text(close_at))
        for no in range(1, 9):
            admin.fill(f".new-draw input[name=home_{no}]", f"Home {no}")
            admin.fill(f".new-draw input[name=away_{no}]", f"Away {no}")
        admin.click(".new-draw button[type=submit]")
        admin.wait_for_url(f"**/#/staff/draw/{draw_id}")
        admin.click("button.announce")
        admin.wait_for_selector(".draw-head h2[data-status='open']")

        nickname = f"Punter{uuid.uuid4().hex[:6]}"
        punter, _ = player_over_the_api(platform_url, nickname)
        pay_once(punter, f"/draws/{draw_id}/coupons", {"amount": 10, "currency": "EUR", "picks": [["1:0"]] * 8})

        admin.wait_for_selector(".draw-head h2[data-status='closed']", timeout=90000)  # the draw clock closes it
        for no in range(1, 9):
            match = admin.locator(f".draw-results .draw-match[data-match='{no}']")
            match.locator("input[name=score]").fill("1:0")
            match.locator("button.save-result").click()
            admin.wait_for_selector(f".draw-results .draw-match[data-match='{no}'] input[name=score][value='1:0']")
        admin.click("button.preview-settlement")
        preview = admin.locator(".settlement-preview .report")
        preview.wait_for()
        assert "Next jackpot" in preview.inner_text()
        assert admin.locator(".settlement-preview tr[data-coupon]").count() == 1  # the one winning coupon
        screenshot(admin, "preview")
        admin.locator("button.settle").wait_for()
        admin.click("button.settle")
        admin.wait_for_selector(".draw-head h2[data-status='settled']", timeout=60000)
        screenshot(admin, "settled")
    finally:
        admin.close()

    player = browser.new_page(viewport=DESKTOP)
    try:
        player.goto(f"{platform_url}/#/login")
        player.fill("input[name=login]", nickname)
        player.fill("input[name=password]", PASSWORD)
        player.click("form button[type=submit]")
        player.wait_for_url("**/#/lobby")
        player.goto(f"{platform_url}/#/account")
        payout = player.locator("tr[data-kind='draw_payout']")
        payout.first.wait_for(timeout=30000)
        assert draw_id in payout.first.inner_text()
        screenshot(player, "payout")
    finally:
        player.close()


def test_an_operator_of_another_concessionaire_sees_none_of_it(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    nickname = f"Scoped{uuid.uuid4().hex[:6]}"
    page = browser.new_page(viewport=DESKTOP)
    try:
        sign_up_in_browser(page, platform_url, nickname)
    finally:
        page.close()
    player_id, demo_id = concessionaire_of(api, nickname)
    demo_operator = Api(platform_url)
    demo_operator.token = demo_operator.call("POST", "/auth/staff/login", json=new_operator(api, demo_id))[
        "access_token"
    ]
    tournament = demo_operator.call(
        "POST",
        "/tournaments",
        json={
            "template": "heads_up_sit_and_go",
            "name": "Demo's own",
            "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
        },
    )
    code = f"other{uuid.uuid4().hex[:6]}"
    other = api.call("POST", "/concessionaires", json={"code": code, "name": f"Other {code}"})

    console = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(console, platform_url, new_operator(api, other["id"]))
        console.wait_for_selector(".tournament-list table, .tournament-list .empty")
        assert console.locator(f".tournament-list tr[data-tournament='{tournament['tournament_id']}']").count() == 0
        console.goto(f"{platform_url}/#/staff/tournament/{tournament['tournament_id']}")
        console.wait_for_selector(".tournament-summary .refused")
        assert console.locator("button.start, button.preview-cancel").count() == 0

        console.goto(f"{platform_url}/#/staff/players")
        console.wait_for_selector(".player-results table, .player-results .empty")
        assert console.locator(f".player-results tr[data-player='{player_id}']").count() == 0
        console.goto(f"{platform_url}/#/staff/player/{player_id}")
        console.wait_for_selector(".player-facts .refused[data-status='404']")
        console.wait_for_selector(".player-protection .refused")  # the protection settings too

        assert console.locator("a[data-tab='draws']").count() == 0
        console.goto(f"{platform_url}/#/staff/draws")
        console.wait_for_selector(".staff-body .refused")
        assert console.locator(".new-draw").count() == 0
        screenshot(console, "out-of-scope")
    finally:
        console.close()


def test_p10_an_operator_cancels_with_a_reason_after_the_refund_preview(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    """Before the start every entry comes back whole (P-10): the preview names each entrant's refund, and the
    cancellation, once confirmed, answers the rule and the refunds the wallet then pays."""
    nickname = f"Refund{uuid.uuid4().hex[:6]}"
    player, player_id, login, operator = player_and_operator(platform_url, api, nickname)
    # Scheduled two hours ahead: the house bots that fill sit'n'gos cannot start it under the test.
    body = {
        "template": "scheduled_mtt",
        "name": f"To cancel {nickname}",
        "buy_in": {"prize_part_cents": 400, "fee_cents": 100},
        "starts_at": (datetime.now(UTC) + timedelta(hours=2)).isoformat(),
    }
    tournament_id = registered(operator, player, body)
    console = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(console, platform_url, login)
        console.goto(f"{platform_url}/#/staff/tournament/{tournament_id}")
        console.click("button.preview-cancel")
        console.wait_for_selector(".refund-preview .error")  # no reason, no cancellation
        assert console.locator("button.confirm-cancel").is_hidden()
        console.fill("textarea.cancel-reason", "Server maintenance")
        console.click("button.preview-cancel")
        row = console.locator(f".refund-preview tr[data-player='{player_id}']")
        row.wait_for()
        assert nickname in row.inner_text() and "€5.00" in row.inner_text()  # the full price, fee included
        screenshot(console, "preview")
        console.click("button.confirm-cancel")
        outcome = console.locator(f".cancel-outcome tr[data-player='{player_id}']")
        outcome.wait_for()
        assert "€5.00" in outcome.inner_text()
        assert console.locator(".cancel-outcome .cancelled").get_attribute("data-rule") == "P-10"
        console.wait_for_selector(".tournament-summary h2[data-status='cancelled']")
        assert "Server maintenance" in console.locator(".end-reason").inner_text()
    finally:
        console.close()


def test_p12_an_operator_decides_a_report_from_the_queue_with_the_suggested_sanction(
    platform_url: str, api: Api, browser: Any
) -> None:
    """P-12.2: the suggested sanction is pre-selected (advisory); the decision closes the report and shows in the
    offender's conduct record."""
    reporter, _ = player_over_the_api(platform_url, f"Reporter{uuid.uuid4().hex[:6]}")
    offender_nickname = f"Offender{uuid.uuid4().hex[:6]}"
    _, offender_id = player_over_the_api(platform_url, offender_nickname)
    _, demo_id = concessionaire_of(api, offender_nickname)
    report = {"offender_id": offender_id, "offence": "offensive_language", "description": "Insults at the table"}
    report_id = reporter.call("POST", "/reports", json=report)["report_id"]

    console = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(console, platform_url, new_operator(api, demo_id))
        console.click("a[data-tab='reports']")
        row = console.locator(f".reports tr[data-report='{report_id}']")
        row.wait_for()
        assert "Insults at the table" in row.inner_text()
        console.wait_for_function(
            f"document.querySelector(\"tr[data-report='{report_id}'] select[name=kind]\").value === 'written_warning'"
        )  # a first minor offence: the suggestion is a written warning
        row.locator("input[name=reason]").fill("Insults in the chat")
        row.locator("button.sanction").click()
        console.wait_for_selector(f".reports tr[data-report='{report_id}']", state="detached")
        console.goto(f"{platform_url}/#/staff/player/{offender_id}")
        sanction = console.locator(".player-conduct tr[data-sanction]")
        sanction.wait_for()
        assert "Written warning" in sanction.inner_text()
    finally:
        console.close()


def test_the_money_screen_shows_the_ledger_reconciled_to_zero_network_and_concessionaire(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    """The imbalance gauge must read zero: the admin sees the network's ledger, an operator its concessionaire's
    (and no network-wide panel)."""
    nickname = f"Ledger{uuid.uuid4().hex[:6]}"
    player_over_the_api(platform_url, nickname)  # money in the ledger: the welcome credit
    _, demo_id = concessionaire_of(api, nickname)
    admin = browser.new_page(viewport=DESKTOP)
    operator = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(admin, platform_url, ADMIN)
        admin.click("a[data-tab='money']")
        network = admin.locator(".staff-body > .reconciliation")
        network.locator(".reconciliation-verdict[data-ok='true']").wait_for()
        assert network.locator("tr[data-currency='EUR'] .imbalance").get_attribute("data-imbalance") == "0"
        screenshot(admin, "network")

        console_sign_in(operator, platform_url, new_operator(api, demo_id))
        operator.click("a[data-tab='money']")
        own = operator.locator(".money-pane .reconciliation")
        own.locator(".reconciliation-verdict[data-ok='true']").wait_for()
        assert own.locator("tr[data-currency='EUR'] .imbalance").get_attribute("data-imbalance") == "0"
        assert operator.locator(".staff-body > .reconciliation").count() == 0  # the network's is the admins'
        screenshot(operator, "concessionaire")
    finally:
        admin.close()
        operator.close()


def test_p10_the_refund_preview_of_a_running_tournament_shows_the_amounts(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    """While running, the preview is the director's own P-10 calculation with each player's amount (heads-up:
    both get back everything they paid, P-10.1), and the cancellation then refunds exactly that."""
    nickname = f"Running{uuid.uuid4().hex[:6]}"
    player_id, login, tournament_id = heads_up_for(platform_url, api, nickname)
    console = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(console, platform_url, login)
        console.goto(f"{platform_url}/#/staff/tournament/{tournament_id}")
        # A house bot takes the other seat and the tournament starts.
        console.wait_for_selector(".tournament-summary h2[data-status='running']", timeout=90_000)
        console.fill("textarea.cancel-reason", "Table server fault")
        console.click("button.preview-cancel")
        row = console.locator(f".refund-preview tr[data-player='{player_id}']")
        row.wait_for()
        assert "€5.00" in row.inner_text()  # an amount, not only the rule and the chips
        assert console.locator(".refund-preview .preview-rule").get_attribute("data-rule") == "P-10.1"
        assert "€10.00" in console.locator(".refund-preview .preview-total").inner_text()  # both players
        screenshot(console, "running-preview")
        console.click("button.confirm-cancel")
        outcome = console.locator(f".cancel-outcome tr[data-player='{player_id}']")
        outcome.wait_for()
        assert "€5.00" in outcome.inner_text()
        assert console.locator(".cancel-outcome .cancelled").get_attribute("data-rule") == "P-10.1"
    finally:
        console.close()


def log_in_player(page: Any, base_url: str, nickname: str) -> None:
    page.goto(f"{base_url}/#/login")
    page.fill("input[name=login]", nickname)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url("**/#/lobby", timeout=90_000)


def test_a_director_pauses_a_running_tournament_and_players_see_it_paused(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    """A technical problem: the operator pauses from the console with the problem named; the players' tournament
    page says "Paused · In pausa" at once (desktop and phone), and so do the player's table and the tournament's card
    in the lobby; no longer after the resumption."""
    nickname = f"Paused{uuid.uuid4().hex[:6]}"
    _, login, tournament_id = heads_up_for(platform_url, api, nickname)
    console = browser.new_page(viewport=DESKTOP)
    phone = browser.new_page(viewport=PHONE)
    desktop = browser.new_page(viewport=DESKTOP)
    seated = browser.new_page(viewport=DESKTOP)
    lobby = browser.new_page(viewport=PHONE)
    try:
        for page in (phone, desktop, seated, lobby):
            log_in_player(page, platform_url, nickname)
            page.goto(f"{platform_url}/#/tournament/{tournament_id}")
        lobby.goto(f"{platform_url}/#/lobby")
        card = lobby.locator(f"article[data-tournament='{tournament_id}']")
        card.wait_for(timeout=90_000)
        console_sign_in(console, platform_url, login)
        console.goto(f"{platform_url}/#/staff/tournament/{tournament_id}")
        console.wait_for_selector(".tournament-summary h2[data-status='running']", timeout=90_000)
        [table] = api.call("GET", f"/tournaments/{tournament_id}")["tables"]
        seated.goto(f"{platform_url}/#/table/{table['table_id']}")
        seated.wait_for_selector(".seat:not(.empty)")
        console.click("button.pause")  # no problem named: the API's validation, shown
        console.wait_for_selector("#toasts .toast.error")
        console.fill("input.pause-reason", "Database failover")
        console.click("button.pause")
        console.wait_for_selector(".tournament-live .paused-notice")
        console.wait_for_selector("button.resume")
        screenshot(console, "paused")
        for page, name in ((phone, "phone"), (desktop, "desktop")):
            notice = page.locator(".live .paused-notice")
            notice.wait_for()
            assert "Paused" in notice.inner_text() and "In pausa" in notice.inner_text()
            screenshot(page, f"player-{name}")
        paused_card = lobby.locator(f"article[data-tournament='{tournament_id}'][data-paused='true']")
        paused_card.wait_for()  # the lobby hears of the pause as it happens
        status = paused_card.locator(".tournament-status").inner_text()
        assert "Paused" in status and "In pausa" in status and "Running" not in status
        screenshot(lobby, "lobby-card")
        line = seated.locator(".hand-log .paused-line")
        line.wait_for(state="attached")  # the hand log may sit in a folded panel
        assert "Database failover" in (line.text_content() or "") and "in pausa" in (line.text_content() or "")

        console.click("button.resume")
        console.wait_for_selector("input.pause-reason")
        console.wait_for_selector(".tournament-live .paused-notice", state="detached")
        for page in (phone, desktop):
            page.locator(".live .paused-notice").wait_for(state="detached")
        seated.locator(".hand-log .resumed-line").wait_for(state="attached")
        paused_card.wait_for(state="detached")
        assert "Paused" not in card.locator(".tournament-status").inner_text()
    finally:
        for page in (console, phone, desktop, seated, lobby):
            page.close()


def test_an_admin_creates_a_concessionaire_and_its_operator_who_then_runs_only_it(
    platform_url: str, browser: Any, screenshot: Any
) -> None:
    """The operator's account made from the console (admins only): the new operator signs in and the console
    keeps to that concessionaire; an operator has no such screen; an unknown concessionaire is refused."""
    code = f"sala-{uuid.uuid4().hex[:6]}"
    operator_login = {"email": f"op-{code}@example.com", "password": PASSWORD}
    admin = browser.new_page(viewport=DESKTOP)
    operator = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(admin, platform_url, ADMIN)
        admin.click("a[data-tab='operators']")
        admin.fill(".new-operator input[name=concessionaire_id]", "no-such-concessionaire")
        admin.fill(".new-operator input[name=email]", operator_login["email"])
        admin.fill(".new-operator input[name=password]", PASSWORD)
        admin.click(".new-operator button[type=submit]")
        # The client's own words for `concessionaire_not_found` (web/server-words.js), not the server's.
        admin.wait_for_selector(".new-operator .error:has-text('Unknown concessionaire')")

        admin.fill(".new-concessionaire input[name=code]", code)
        admin.fill(".new-concessionaire input[name=name]", f"Sala {code}")
        admin.click(".new-concessionaire button[type=submit]")
        admin.wait_for_selector(".created-concessionaire code")
        concessionaire_id = admin.locator(".created-concessionaire code").inner_text()
        assert admin.locator(".new-operator input[name=concessionaire_id]").input_value() == concessionaire_id
        admin.click(".new-operator button[type=submit]")
        admin.wait_for_selector(".created-operator [data-operator]")
        screenshot(admin, "operator-created")

        console_sign_in(operator, platform_url, operator_login)
        operator.wait_for_selector(f".staff-head .concessionaire[data-code='{code}']")
        assert operator.locator("a[data-tab='operators']").count() == 0
        operator.goto(f"{platform_url}/#/staff/operators")
        operator.wait_for_selector(".staff-body .refused")
        assert operator.locator(".new-operator").count() == 0
    finally:
        admin.close()
        operator.close()


def test_an_operator_creates_a_recurring_sit_and_go_and_stops_it(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    """A recurring sit'n'go from the console (an identical one opens each time it fills), shown as such in the
    list, and stopped from there: it plays, but opens no successor."""
    nickname = f"Recur{uuid.uuid4().hex[:6]}"
    player_over_the_api(platform_url, nickname)
    _, demo_id = concessionaire_of(api, nickname)
    console = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(console, platform_url, new_operator(api, demo_id))
        console.select_option(".new-tournament select[name=template]", "six_max_sit_and_go")
        console.fill(".new-tournament input[name=name]", f"Every six {nickname}")
        console.check(".new-tournament input[name=recurring]")
        console.click(".new-tournament button[type=submit]")
        console.wait_for_url("**/#/staff/tournament/*")
        tournament_id = console.url.rsplit("/", 1)[-1]
        console.click("a[data-tab='tournaments']")
        row = console.locator(f".tournament-list tr[data-tournament='{tournament_id}']")
        row.locator("button.stop-recurring").wait_for()
        screenshot(console, "recurring")
        row.locator("button.stop-recurring").click()
        row.locator("button.stop-recurring").wait_for(state="detached")  # the list, read again, says it recurs no more
        assert api.call("GET", f"/tournaments/{tournament_id}")["recurring"] is False
    finally:
        console.close()


def test_an_operator_keeps_a_scheduled_tournament_in_the_lobby_and_disables_it(
    platform_url: str, api: Api, browser: Any, screenshot: Any
) -> None:
    """The lobby's schedule from the console: an operator adds a tournament every hour for its concessionaire, the
    lobby has its next occurrence registering; an operator of another concessionaire sees none of it; disabled,
    the entry reads so and opens nothing more."""
    nickname = f"Sched{uuid.uuid4().hex[:6]}"
    key = f"hourly-{uuid.uuid4().hex[:6]}"
    name = f"Hourly {nickname}"
    player_over_the_api(platform_url, nickname)
    _, demo_id = concessionaire_of(api, nickname)
    code = f"other{uuid.uuid4().hex[:6]}"
    other = api.call("POST", "/concessionaires", json={"code": code, "name": f"Other {code}"})
    console = browser.new_page(viewport=DESKTOP)
    stranger = browser.new_page(viewport=DESKTOP)
    try:
        console_sign_in(console, platform_url, new_operator(api, demo_id))
        console.click("a[data-tab='lobbySchedule']")
        form = console.locator(".new-lobby-entry")
        form.locator("select[name=template] option[value='scheduled_mtt']").wait_for(state="attached")
        form.locator("select[name=template]").select_option("scheduled_mtt")
        form.locator("input[name=key]").fill(key)
        form.locator("input[name=name]").fill(name)
        form.locator("input[name=every_minutes]").fill("60")
        form.locator("button[type=submit]").click()
        row = console.locator(f".lobby-entries tr[data-entry='{key}'][data-enabled='true']")
        row.wait_for()
        assert "60" in row.inner_text() and demo_id in row.inner_text()
        form.locator("button[type=submit]").click()  # the same key again: the director's refusal, shown
        form.locator(".error").filter(has_text=key).wait_for()

        deadline = time.monotonic() + 60
        while not (found := [t for t in api.call("GET", "/tournaments") if t["name"] == name]):
            assert time.monotonic() < deadline, "the schedule never opened the entry's tournament"
            time.sleep(0.5)  # polls for the lobby's next pass, not for time to pass
        [occurrence] = found
        assert (occurrence["status"], occurrence["kind"], occurrence["concessionaire_id"]) == (
            "registering",
            "scheduled",
            demo_id,
        )
        screenshot(console, "lobby-schedule")

        console_sign_in(stranger, platform_url, new_operator(api, other["id"]))
        stranger.click("a[data-tab='lobbySchedule']")
        stranger.wait_for_selector(".lobby-entries table, .lobby-entries .empty")
        assert stranger.locator(f".lobby-entries tr[data-entry='{key}']").count() == 0

        row.locator("button.disable-entry").click()
        console.locator(f".lobby-entries tr[data-entry='{key}'][data-enabled='false']").wait_for()
        assert console.locator(f".lobby-entries tr[data-entry='{key}'] button.disable-entry").count() == 0
        [entry] = [e for e in api.call("GET", "/lobby-schedule") if e["key"] == key]
        assert entry["enabled"] is False and entry["disabled_at"]
    finally:
        console.close()
        stranger.close()

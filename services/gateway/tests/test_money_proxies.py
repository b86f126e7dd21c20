"""Coupons, accounts and statements, the leaderboard and conduct through the gateway: what the gateway adds
(the player, their birth date, their concessionaire), what it refuses itself, and what it relays."""

from fake_services import FakeServices, ok, problem
from gateway_test_support import Driver
from test_access import two_concessionaires

KEY = "coupon-key-1"
PICKS = [["1:0", "2:1"], ["0:0", "1:1"], ["2:0"], ["1:1"], ["0:1"], ["other home"], ["3:1"], ["0:2"]]
COUPON = {"currency": "EUR", "amount": 40, "picks": PICKS}


async def test_t1_4_a_coupon_carries_the_birth_date_from_the_identity_store(
    driver: Driver, services: FakeServices
) -> None:
    services.on("totalizator", "POST", r"/internal/v1/draws/2030-23/coupons", ok({"coupon_id": "C-1", "bets": 4}, 201))
    mario = await driver.player_session("Mario", date_of_birth="2000-02-29")
    token = mario["access_token"]
    forged = await driver.call(
        "POST", "/api/v1/draws/2030-23/coupons", token=token, json={**COUPON, "birth_date": "1970-01-01"}, key=KEY
    )
    assert forged.status_code == 422  # the birth date is the gateway's to give, never the client's
    placed = await driver.call("POST", "/api/v1/draws/2030-23/coupons", token=token, json=COUPON, key=KEY, expect=201)
    assert placed.json() == {"coupon_id": "C-1", "bets": 4}
    [call] = services.to("totalizator")
    assert call.body == {**COUPON, "player_id": mario["principal"]["id"], "birth_date": "2000-02-29"}
    assert call.header("Idempotency-Key") == KEY


async def test_a_retried_coupon_sends_the_same_key_and_the_replay_header_comes_back(
    driver: Driver, services: FakeServices
) -> None:
    services.on("totalizator", "POST", r".*/coupons", ok({"coupon_id": "C-1"}, 200, **{"Idempotent-Replayed": "true"}))
    mario = await driver.player_session("Mario")
    for _ in range(2):
        again = await driver.call(
            "POST", "/api/v1/draws/d-1/coupons", token=mario["access_token"], json=COUPON, key=KEY, expect=200
        )
        assert again.headers["idempotent-replayed"] == "true"
    assert [c.header("Idempotency-Key") for c in services.to("totalizator")] == [KEY, KEY]


async def test_only_players_place_coupons(driver: Driver, services: FakeServices) -> None:
    admin = await driver.admin_token()
    refused = await driver.call("POST", "/api/v1/draws/d-1/coupons", token=admin, json=COUPON, key=KEY)
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    assert services.calls == []


async def test_someone_elses_coupon_answers_like_a_missing_one(driver: Driver, services: FakeServices) -> None:
    mario = await driver.player_session("Mario")
    luigi = await driver.player_session("Luigi")
    services.on(
        "totalizator",
        "GET",
        r"/internal/v1/coupons/C-1",
        ok({"coupon_id": "C-1", "player_id": mario["principal"]["id"]}),
    )
    await driver.call("GET", "/api/v1/coupons/C-1", token=mario["access_token"], expect=200)
    refused = await driver.call("GET", "/api/v1/coupons/C-1", token=luigi["access_token"])
    assert (refused.status_code, refused.json()["code"]) == (404, "coupon_not_found")
    await driver.call("GET", "/api/v1/coupons/C-1", token=await driver.admin_token(), expect=200)


async def test_t2_6_draws_and_their_statistics_are_public(driver: Driver, services: FakeServices) -> None:
    services.on("totalizator", "GET", r"/v1/draws/d-1/statistics", ok({"draw_id": "d-1", "bets": 96}))
    services.on("totalizator", "GET", r"/v1/draws", ok([{"draw_id": "d-1"}]))
    assert (await driver.call("GET", "/api/v1/draws/d-1/statistics", expect=200)).json()["bets"] == 96
    await driver.call("GET", "/api/v1/draws", params={"status": ["open", "closed"]}, expect=200)
    assert services.to("totalizator")[1].params == {"status": ["open", "closed"], "limit": ["100"]}


async def test_a_new_players_statement_and_accounts_are_empty_not_an_error(
    driver: Driver, services: FakeServices
) -> None:
    services.on("wallet", "GET", r".*", problem(404, "unknown_account"))
    mario = await driver.player_session("Mario")
    me = mario["principal"]
    statement = await driver.call(
        "GET", f"/api/v1/players/{me['id']}/statement", token=mario["access_token"], expect=200
    )
    assert statement.json() == {"items": [], "next_cursor": None}
    accounts = await driver.call("GET", f"/api/v1/players/{me['id']}/accounts", token=mario["access_token"], expect=200)
    assert accounts.json() == {"player_id": me["id"], "concessionaire_id": me["concessionaire_id"], "accounts": []}
    assert {c.header("X-Concessionaire-Id") for c in services.to("wallet")} == {me["concessionaire_id"]}


async def test_a_statement_passes_its_filters_and_acts_for_the_players_concessionaire(
    driver: Driver, services: FakeServices
) -> None:
    services.on("wallet", "GET", r"/internal/v1/partner/players/.*/statement", ok({"items": [], "next_cursor": "c2"}))
    mario = await driver.player_session("Mario")
    me = mario["principal"]
    await driver.call(
        "GET",
        f"/api/v1/players/{me['id']}/statement",
        token=await driver.admin_token(),
        params={"currency": "EUR", "since": "2026-03-01T00:00:00Z", "limit": 20},
        expect=200,
    )
    [call] = services.to("wallet")
    assert call.params == {"currency": ["EUR"], "since": ["2026-03-01T00:00:00+00:00"], "limit": ["20"]}
    # An administrator belongs to no concessionaire: the call still acts for the player's.
    assert call.header("X-Concessionaire-Id") == me["concessionaire_id"]


async def test_a_deposit_opens_the_players_account_first_and_only_the_cashier_may_deposit(
    driver: Driver, services: FakeServices
) -> None:
    services.on("wallet", "POST", r"/internal/v1/players/.*/accounts", ok({"id": 17}, 201))
    services.on("wallet", "POST", r"/internal/v1/partner/players/.*/deposits", ok({"operation_id": 41}, 201))
    world = await two_concessionaires(driver)
    a = world["a"]
    player = a["player"]["id"]
    body = {"currency": "EUR", "amount": 5000, "reference": "till-3"}
    answer = await driver.call(
        "POST", f"/api/v1/players/{player}/deposits", api_key=a["key"], json=body, key=KEY, expect=201
    )
    assert answer.json() == {"operation_id": 41}
    opened, deposited = services.to("wallet")
    assert (opened.path, opened.body) == (
        f"/internal/v1/players/{player}/accounts",
        {"concessionaire_id": a["id"], "currency": "EUR"},
    )
    assert opened.header("Idempotency-Key") == f"gateway:open-account:{player}:EUR"
    assert (deposited.body, deposited.header("Idempotency-Key")) == (body, KEY)
    assert deposited.header("X-Concessionaire-Id") == a["id"]
    login = await driver.call(
        "POST", "/api/v1/auth/login", json={"login": "PlayerA", "password": "long enough password"}
    )
    self_service = await driver.call(
        "POST", f"/api/v1/players/{player}/deposits", token=login.json()["access_token"], json=body, key=KEY
    )
    assert (self_service.status_code, self_service.json()["code"]) == (403, "role_not_allowed")
    floats = await driver.call(
        "POST", f"/api/v1/players/{player}/deposits", api_key=a["key"], json={**body, "amount": 50.5}, key=KEY
    )
    assert floats.status_code == 422  # money is integer cents, never a float


async def test_concessionaire_accounts_are_their_own_staffs_only(driver: Driver, services: FakeServices) -> None:
    services.on("wallet", "GET", r"/internal/v1/partner/accounts", ok({"accounts": []}))
    world = await two_concessionaires(driver)
    a, b = world["a"], world["b"]
    await driver.call("GET", f"/api/v1/concessionaires/{a['id']}/accounts", api_key=a["key"], expect=200)
    refused = await driver.call("GET", f"/api/v1/concessionaires/{b['id']}/accounts", api_key=a["key"])
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_concessionaire")
    [call] = services.to("wallet")
    assert call.header("X-Concessionaire-Id") == a["id"]


async def test_p11_5_the_leaderboard_is_public_and_relayed(driver: Driver, services: FakeServices) -> None:
    entries = [{"rank": 1, "nickname": "Mario", "tier": "GRUPPO_UNO", "tier_label": "GRUPPO UNO (Group One)"}]
    services.on("rating", "GET", r"/v1/leaderboard", ok({"entries": entries}))
    board = await driver.call("GET", "/api/v1/leaderboard", params={"page": 2, "size": 10}, expect=200)
    assert board.json()["entries"] == entries
    assert services.to("rating")[0].params == {"page": ["2"], "size": ["10"]}


async def test_conduct_records_are_for_staff_and_partners_take_no_part(driver: Driver, services: FakeServices) -> None:
    services.on("rating", "GET", r"/internal/v1/players/.*/conduct", ok({"sanctions": []}))
    world = await two_concessionaires(driver)
    a = world["a"]
    player = a["player"]["id"]
    refused = await driver.call("GET", f"/api/v1/players/{player}/conduct", api_key=a["key"])
    assert (refused.status_code, refused.json()["code"]) == (403, "role_not_allowed")
    await driver.call("GET", f"/api/v1/players/{player}/conduct", token=a["operator"], expect=200)
    [call] = services.to("rating")
    assert (call.header("X-Principal-Role"), call.header("X-Concessionaire-Id")) == ("operator", a["id"])


async def test_staff_decide_sanctions_and_the_body_reaches_the_rating_service(
    driver: Driver, services: FakeServices
) -> None:
    services.on("rating", "POST", r"/internal/v1/sanctions", ok({"sanction_id": "s-1"}, 201))
    decision = {"report_ids": ["r-1"], "kind": "written_warning", "context": "after_tournament"}
    await driver.call("POST", "/api/v1/sanctions", token=await driver.admin_token(), json=decision, expect=201)
    mario = await driver.player_session("Mario")
    refused = await driver.call("POST", "/api/v1/sanctions", token=mario["access_token"], json=decision)
    assert refused.status_code == 403
    assert [c.body for c in services.to("rating")] == [decision]


async def test_draw_administration_is_for_staff_with_their_identity(driver: Driver, services: FakeServices) -> None:
    services.on("totalizator", "POST", r"/internal/v1/draws/d-1/announce", ok({"status": "open"}))
    services.on("totalizator", "PUT", r"/internal/v1/draws/d-1/matches/3/result", ok({"status": "closed"}))
    admin = await driver.admin_token()
    await driver.call("POST", "/api/v1/admin/draws/d-1/announce", token=admin, expect=200)
    await driver.call(
        "PUT", "/api/v1/admin/draws/d-1/matches/3/result", token=admin, json={"home": 2, "away": 1}, expect=200
    )
    await driver.call(
        "PUT", "/api/v1/admin/draws/d-1/matches/9/result", token=admin, json={"home": 2, "away": 1}, expect=422
    )
    mario = await driver.player_session("Mario")
    await driver.call("POST", "/api/v1/admin/draws/d-1/announce", token=mario["access_token"], expect=403)
    calls = services.to("totalizator")
    assert [(c.method, c.path, c.body) for c in calls] == [
        ("POST", "/internal/v1/draws/d-1/announce", None),
        ("PUT", "/internal/v1/draws/d-1/matches/3/result", {"home": 2, "away": 1}),
    ]
    assert calls[0].header("X-Principal-Role") == "admin"

"""Who may audit a hand (its deck and every hole card, P-1.3), with the table engine and the director faked: an
operator the hands of its own concessionaire's tournaments, administrators every hand. Any other hand answers
404 like a missing one, before the engine is asked for a card; the engine's own refusal of a hand still in
progress (P-1.4) reaches the caller unchanged. The whole platform's answers are in test_hole_card_privacy.py."""

from fake_services import FakeServices, ok, problem
from gateway_test_support import Driver

AUDIT = {"hand_id": "h-1", "table_id": "t-9.1.1", "deck": ["As"] * 52, "phh": "…"}


def _hand(services: FakeServices, tournament_id: str | None, organiser: str | None = None) -> None:
    owner = {"hand_id": "h-1", "table_id": "t-9.1.1", "tournament_id": tournament_id, "status": "completed"}
    services.on("table-engine", "GET", r"/internal/v1/hands/h-1", ok(owner))
    services.on("table-engine", "GET", r"/internal/v1/hands/h-1/audit", ok(AUDIT))
    services.on("tournament-director", "GET", r"/v1/tournaments/t-9", ok({"concessionaire_id": organiser}))


def _audits_asked(services: FakeServices) -> int:
    return len([c for c in services.to("table-engine") if c.path.endswith("/audit")])


async def test_p1_3_an_operator_audits_its_own_concessionaires_hands_only(
    driver: Driver, services: FakeServices
) -> None:
    ours, theirs = await driver.concessionaire("ours"), await driver.concessionaire("theirs")
    operator = await driver.operator_token(ours, "op@ours.example")
    other = await driver.operator_token(theirs, "op@theirs.example")
    _hand(services, "t-9", organiser=ours)

    assert (await driver.call("GET", "/api/v1/hands/h-1/audit", token=operator, expect=200)).json() == AUDIT
    refused = await driver.call("GET", "/api/v1/hands/h-1/audit", token=other, expect=404)
    assert refused.json()["code"] == "hand_not_found"
    assert _audits_asked(services) == 1, "no card is asked for on behalf of another concessionaire"


async def test_p1_3_a_hand_outside_any_tournament_is_for_administrators_alone(
    driver: Driver, services: FakeServices
) -> None:
    operator = await driver.operator_token(await driver.concessionaire("ours"), "op@ours.example")
    _hand(services, None)
    await driver.call("GET", "/api/v1/hands/h-1/audit", token=operator, expect=404)
    await driver.call("GET", "/api/v1/hands/h-1/audit", token=await driver.admin_token(), expect=200)
    assert [c.path for c in services.to("table-engine")] == ["/internal/v1/hands/h-1", "/internal/v1/hands/h-1/audit"]


async def test_p1_4_the_engines_refusal_of_a_hand_in_progress_is_relayed(
    driver: Driver, services: FakeServices
) -> None:
    ours = await driver.concessionaire("ours")
    operator = await driver.operator_token(ours, "op@ours.example")
    _hand(services, "t-9", organiser=ours)
    services.on("table-engine", "GET", r"/internal/v1/hands/h-1/audit", problem(409, "hand_in_progress"))
    for token in (operator, await driver.admin_token()):
        refused = await driver.call("GET", "/api/v1/hands/h-1/audit", token=token, expect=409)
        assert refused.json()["code"] == "hand_in_progress"
    missing = await driver.call("GET", "/api/v1/hands/h-2/audit", token=operator, expect=404)
    assert missing.json()["code"] == "not_found"  # the engine's answer for an unknown hand, as it came

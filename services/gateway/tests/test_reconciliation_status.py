"""The ledger's reconciliation status through the gateway, against the real wallet (issue 17, the console's Money
screen): the network's for administrators, a concessionaire's for its own staff only, clear refusals for the
rest."""

from gateway_test_support import Driver
from test_access import two_concessionaires
from test_deposit_limits_end_to_end import deposit, platform, staff_token

__all__ = ["platform"]  # the fixture this module borrows


async def test_admins_read_the_network_and_operators_their_own_concessionaire_only(platform: Driver) -> None:
    world = await two_concessionaires(platform)
    a, b = world["a"], world["b"]
    assert (await deposit(platform, a["key"], a["player"]["id"], 5_000, "d1")).status_code == 201
    admin = await platform.admin_token()
    operator_a, operator_b = [await staff_token(platform, f"op@{room}.example") for room in ("a", "b")]

    network = (await platform.call("GET", "/api/v1/reconciliation", token=admin, expect=200)).json()
    [eur] = network["currencies"]
    assert network["ok"] is True and (eur["currency"], eur["sum_of_balances"], eur["drifts"]) == ("EUR", 0, [])

    own = f"/api/v1/concessionaires/{a['id']}/reconciliation"
    mine = (await platform.call("GET", own, token=operator_a, expect=200)).json()
    [eur] = mine["currencies"]
    assert mine["ok"] is True and eur["sum_of_balances"] == 0
    assert eur["accounts"] == 2  # the player's account and the concessionaire's cash account: A's only
    by_admin = (await platform.call("GET", own, token=admin, expect=200)).json()
    assert by_admin["currencies"] == mine["currencies"]  # an admin may read any concessionaire's, the same way

    other = await platform.call("GET", own, token=operator_b, expect=403)
    assert other.json()["code"] == "not_your_concessionaire"
    assert (await platform.call("GET", "/api/v1/reconciliation", token=operator_a, expect=403)).status_code == 403
    theirs = (await platform.call("GET", f"/api/v1/concessionaires/{b['id']}/reconciliation", token=operator_b)).json()
    assert theirs["currencies"][0]["accounts"] == 0  # nothing of A's counted for B
    missing = await platform.call("GET", "/api/v1/concessionaires/nope/reconciliation", token=admin, expect=404)
    assert missing.json()["code"] == "concessionaire_not_found"

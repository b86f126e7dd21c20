"""Live statistics while bets are taken, and the final count, pool and files once closed (T-2.6, T-8.1)."""

from __future__ import annotations

from datetime import timedelta

from totalizator_harness import Platform, picks


def option(statistics: dict, match_no: int, label: str) -> dict:
    (row,) = [o for o in statistics["matches"][match_no - 1]["options"] if o["option"] == label]
    return row


async def test_t2_6_statistics_per_match_and_result_are_published_at_most_once_a_second(platform: Platform) -> None:
    await platform.open_draw()
    await platform.fund("p1", 10_000)
    await platform.fund("p2", 10_000, "EUR")
    assert (await platform.coupon("p1", picks(["1:0", "2:1"]), 400)).status_code == 201
    assert (await platform.coupon("p2", picks("1:0"), 100, currency="EUR")).status_code == 201

    await platform.services.clock.tick()  # less than a second since the announcement: not yet
    assert await platform.events("totalizator.statistics.updated") == []
    platform.clock.advance(timedelta(seconds=1))
    await platform.services.clock.tick()
    (event,) = await platform.events("totalizator.statistics.updated")
    assert (event["coupons"], event["bets"], event["pool_usd"]) == (2, 3, "5.0843")
    assert {"match_no": 1, "option": "1:0", "bets": 2, "amount_usd": "3.084300"} in event["options"]

    statistics = (await platform.http.get("/v1/draws/2030-23/statistics")).json()
    assert statistics["final"] is False and statistics["pool_usd"] == "5.0843"
    assert option(statistics, 1, "2:1") == {"option": "2:1", "bets": 1, "amount_usd": "2.000000"}
    assert option(statistics, 2, "0:0")["bets"] == 3

    await platform.coupon("p1", picks("0:0"), 100)
    await platform.services.clock.tick()  # within the second after the last refresh
    assert len(await platform.events("totalizator.statistics.updated")) == 1
    platform.clock.advance(timedelta(seconds=1))
    await platform.services.clock.tick()
    assert len(await platform.events("totalizator.statistics.updated")) == 2
    await platform.services.clock.tick()  # nothing new: nothing published
    assert len(await platform.events("totalizator.statistics.updated")) == 2


async def test_t2_6_t8_1_once_closed_the_final_count_pool_and_files_are_published(platform: Platform) -> None:
    await platform.open_draw()
    await platform.fund("p1", 10_000)
    await platform.coupon("p1", picks(["1:0", "2:1"]), 400)
    not_yet = await platform.http.get("/v1/draws/2030-23/files/bets.csv")
    assert not_yet.status_code == 409 and not_yet.json()["code"] == "files_not_published"

    await platform.close()
    (closed,) = await platform.events("totalizator.draw.closed")
    assert (closed["coupons"], closed["bets"], closed["pool_usd"]) == (1, 2, "4.00")
    statistics = (await platform.http.get("/v1/draws/2030-23/statistics")).json()
    assert statistics["final"] is True and statistics["coupons"] == 1 and option(statistics, 1, "2:1")["bets"] == 1

    bets = await platform.http.get("/v1/draws/2030-23/files/bets.csv")
    assert bets.headers["content-type"].startswith("text/csv")
    assert bets.headers["content-disposition"] == 'attachment; filename="bets-2030-23.csv"'
    header, row = bets.text.splitlines()
    assert header == "coupon_id,currency,amount,amount_usd,m1,m2,m3,m4,m5,m6,m7,m8"
    assert row.split(",")[1:5] == ["USD", "4.00", "4.00", "1:0|2:1"]
    draw_file = await platform.http.get("/v1/draws/2030-23/files/draw.json")
    assert draw_file.headers["content-disposition"] == 'attachment; filename="draw-2030-23.json"'
    assert draw_file.json()["fx_to_usd"] == {"USD": "1", "EUR": "1.0843", "JPY": "0.0067"}
    assert draw_file.json()["matches"][0]["result"] is None

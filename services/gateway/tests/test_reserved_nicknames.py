"""Impersonation: the nickname is all the public sees of a player (P-11.5), so no person may take one that passes
for the platform's staff or for a house bot, look-alikes included. The house's own bots still sign up."""

from typing import Any

import pytest
from gateway.domain.bot_names import house_signature, signed_by_house
from gateway.domain.reserved_names import Reserved, reserved, skeleton
from gateway_test_support import PASSWORD, Driver
from platform_kit.events.gateway import PlayerRegistered

STAFF_IMPOSTORS = [
    "admin",
    "ADMIN_",
    "Adm1n",
    "Adrnin",
    "Admln",
    "A.d.m.i.n",
    "Administrator",
    "AdminMario",
    "Mario_Admin",
    "TheAdmin",
    "x_support",
    "Supporto",
    "5upp0rt",
    "Staff",
    "57aff",
    "Operatore",
    "Amministratore",
    "assistenza",
    "Moderatore",
    "System",
    "Sistema.Poker",
    "r00t",
    "Dealer",
    "Croupier",
    "Banco-1",
    "Cassiere",
]
BOT_IMPOSTORS = ["Bot_Impostor", "Bot", "BOT_1a2b", "B0t_x", "Bot-x", "Bot.x", "BotX", "Bot7", "bot_x"]
FREE = ["Mario", "MarioRossi", "Badminton", "Madmin", "Botticelli", "Bots", "Bottega", "Banned", "Rossi_99", "Luigi"]


@pytest.mark.parametrize("nickname", STAFF_IMPOSTORS)
def test_names_that_pass_for_staff_are_reserved(nickname: str) -> None:
    assert reserved(nickname) is Reserved.STAFF


@pytest.mark.parametrize("nickname", BOT_IMPOSTORS)
def test_names_that_pass_for_a_house_bot_are_reserved(nickname: str) -> None:
    assert reserved(nickname) is Reserved.HOUSE_BOT


@pytest.mark.parametrize("nickname", FREE)
def test_words_that_merely_contain_or_begin_like_a_reserved_one_are_free(nickname: str) -> None:
    assert reserved(nickname) is None


def test_the_skeleton_reads_look_alikes_as_the_letters_they_pass_for() -> None:
    assert skeleton("Adm1n") == skeleton("ADMIN_") == skeleton("A.d.m.i.n") == skeleton("Adrnin") == "admin"


def test_a_house_signature_holds_for_its_own_bot_nickname_only() -> None:
    signature = house_signature("house-key", "Bot_0000abcd")
    assert signed_by_house("house-key", "Bot_0000abcd", signature)
    assert not signed_by_house("house-key", "Bot_0000abce", signature)  # another bot's name
    assert not signed_by_house("another-key", "Bot_0000abcd", signature)
    assert not signed_by_house("house-key", "Admin", house_signature("house-key", "Admin"))  # bots' names only
    assert not signed_by_house("house-key", "Bot_0000abcd", None)


def _sign_up_body(nickname: str, **extra: Any) -> dict[str, Any]:
    return {
        "concessionaire": "demo",
        "nickname": nickname,
        "email": f"{nickname.lower().replace('.', '')}@example.com",
        "date_of_birth": "1990-05-17",
        "password": PASSWORD,
        **extra,
    }


@pytest.mark.parametrize("nickname", ["Bot_Impostor", "admin", "Adm1n", "ADMIN_", "Mario_Support", "Operatore"])
async def test_a_person_cannot_sign_up_with_a_reserved_nickname(driver: Driver, nickname: str) -> None:
    refused = await driver.call("POST", "/api/v1/auth/signup", json=_sign_up_body(nickname), expect=422)
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "nickname_reserved"
    assert not [e for _, e in driver.bus.published if e.type == PlayerRegistered.TYPE]


async def test_a_concessionaire_cannot_register_a_player_with_a_reserved_nickname(driver: Driver) -> None:
    room = await driver.concessionaire("room-x")
    operator = await driver.operator_token(room, "op@x.example")
    body = {"nickname": "Croupier", "email": "c@x.example", "date_of_birth": "1980-01-01", "password": PASSWORD}
    refused = await driver.call("POST", "/api/v1/players", token=operator, json=body, expect=422)
    assert refused.json()["code"] == "nickname_reserved"


async def test_a_house_bot_signs_up_with_the_house_signature_over_its_nickname(driver: Driver) -> None:
    key = driver.services.context.house_key
    body = _sign_up_body("Bot_1a2b3c4d", house_signature=house_signature(key, "Bot_1a2b3c4d"))
    signed_up = await driver.call("POST", "/api/v1/auth/signup", json=body, expect=201)
    assert signed_up.json()["principal"]["nickname"] == "Bot_1a2b3c4d"


async def test_a_signature_for_another_name_or_key_does_not_open_the_prefix(driver: Driver) -> None:
    key = driver.services.context.house_key
    for signature in (house_signature(key, "Bot_00000001"), house_signature("guessed-key", "Bot_Impostor")):
        body = _sign_up_body("Bot_Impostor", house_signature=signature)
        refused = await driver.call("POST", "/api/v1/auth/signup", json=body, expect=422)
        assert refused.json()["code"] == "nickname_reserved"


async def test_ordinary_nicknames_still_sign_up(driver: Driver) -> None:
    await driver.call("POST", "/api/v1/auth/signup", json=_sign_up_body("Badminton"), expect=201)

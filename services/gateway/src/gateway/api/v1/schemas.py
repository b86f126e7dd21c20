"""Request and response bodies of the v1 API, with the examples shown in the OpenAPI document.

Input is checked with the domain's rules (nickname, email, password, code), so a bad field is a 422
`validation_failed` problem naming the field. (A reserved nickname is refused by the use case,
`nickname_reserved`: the house's own bots may take one.)
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from gateway.adapters.api_key_store import ApiKeyRecord
from gateway.adapters.identity_store import ConcessionaireRecord, PlayerRecord, StaffRecord
from gateway.domain import identity
from gateway.domain.roles import Principal, Role
from gateway.service.accounts import PlayerForm
from gateway.service.sessions import IssuedSession

Nickname = Annotated[str, AfterValidator(identity.check_nickname)]
Email = Annotated[str, Field(max_length=254), AfterValidator(identity.normalize_email)]
Password = Annotated[str, AfterValidator(identity.check_password)]
ConcessionaireCode = Annotated[str, AfterValidator(identity.check_concessionaire_code)]


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": list(examples)})


# -- sessions ----------------------------------------------------------------------------------------------------
class SignUp(BaseModel):
    model_config = _examples(
        {
            "concessionaire": "demo",
            "nickname": "MarioRossi",
            "email": "mario@example.com",
            "date_of_birth": "1990-05-17",
            "password": "correct horse battery",
        }
    )
    concessionaire: ConcessionaireCode = Field(description="Code of the concessionaire the player joins.")
    nickname: Nickname = Field(description="Unique across the network, whatever the case; shown publicly.")
    email: Email
    date_of_birth: date = Field(description="Players must be 18 or older (T-1.4).")
    password: Password
    house_signature: str | None = Field(
        None,
        pattern=r"^[0-9a-f]{64}$",
        description="Only the house bots send it: the house's signature over their `Bot_…` nickname, a prefix "
        "reserved for them. Leave it out.",
    )

    def form(self) -> PlayerForm:
        return PlayerForm(self.nickname, self.email, self.date_of_birth, self.password, self.house_signature)


class PlayerLogin(BaseModel):
    model_config = _examples({"login": "MarioRossi", "password": "correct horse battery"})
    login: str = Field(min_length=1, max_length=254, description="Nickname (any case) or email.")
    password: str = Field(min_length=1, max_length=128)


class StaffLogin(BaseModel):
    model_config = _examples({"email": "admin@example.com", "password": "admin-dev-password"})
    email: str = Field(min_length=3, max_length=254)
    password: str = Field(min_length=1, max_length=128)


class RefreshTokenBody(BaseModel):
    model_config = _examples({"refresh_token": "c2VjcmV0LXJlZnJlc2gtdG9rZW4tZXhhbXBsZQ"})
    refresh_token: str = Field(min_length=1, max_length=200)


class PrincipalView(BaseModel):
    model_config = _examples({"role": "player", "id": "3f2a…", "concessionaire_id": "9c1d…", "nickname": "MarioRossi"})
    role: Role
    id: str = Field(description="Player id, staff member id, or API key id (partner).")
    concessionaire_id: str | None
    nickname: str | None = None

    @classmethod
    def of(cls, principal: Principal) -> PrincipalView:
        return cls(
            role=principal.role,
            id=principal.subject_id,
            concessionaire_id=principal.concessionaire_id,
            nickname=principal.nickname,
        )


class SessionView(BaseModel):
    model_config = _examples(
        {
            "access_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…",
            "token_type": "bearer",
            "expires_in": 900,
            "access_expires_at": "2026-01-01T12:15:00Z",
            "refresh_token": "c2VjcmV0LXJlZnJlc2gtdG9rZW4tZXhhbXBsZQ",
            "refresh_expires_at": "2026-01-15T12:00:00Z",
            "principal": {"role": "player", "id": "3f2a…", "concessionaire_id": "9c1d…", "nickname": "MarioRossi"},
        }
    )
    access_token: str
    token_type: str = "bearer"
    expires_in: int = Field(description="Seconds the access token is valid.")
    access_expires_at: datetime
    refresh_token: str = Field(description="Works once: each refresh returns a new one.")
    refresh_expires_at: datetime
    principal: PrincipalView

    @classmethod
    def of(cls, issued: IssuedSession, now: datetime) -> SessionView:
        return cls(
            access_token=issued.access_token,
            expires_in=int((issued.access_expires_at - now).total_seconds()),
            access_expires_at=issued.access_expires_at,
            refresh_token=issued.refresh_token,
            refresh_expires_at=issued.refresh_expires_at,
            principal=PrincipalView.of(issued.principal),
        )


# -- concessionaires and staff -----------------------------------------------------------------------------------
class NewConcessionaire(BaseModel):
    model_config = _examples({"code": "sala-roma", "name": "Sala Roma S.r.l."})
    code: ConcessionaireCode
    name: str = Field(min_length=1, max_length=120)


class ConcessionaireView(BaseModel):
    model_config = _examples(
        {"id": "9c1d…", "code": "demo", "name": "Demo Concessionaire", "created_at": "2026-01-01T12:00:00Z"}
    )
    id: str
    code: str
    name: str
    created_at: datetime

    @classmethod
    def of(cls, record: ConcessionaireRecord) -> ConcessionaireView:
        return cls(id=record.id, code=record.code, name=record.name, created_at=record.created_at)


class ConcessionaireListing(BaseModel):
    """What anyone may see of a concessionaire: enough to pick one when signing up."""

    model_config = _examples({"code": "demo", "name": "Demo Concessionaire"})
    code: str
    name: str


class NewOperator(BaseModel):
    model_config = _examples({"email": "operator@sala-roma.example", "password": "operator password"})
    email: Email
    password: Password


class StaffView(BaseModel):
    model_config = _examples(
        {"id": "51be…", "email": "operator@sala-roma.example", "role": "operator", "concessionaire_id": "9c1d…"}
    )
    id: str
    email: str
    role: Role
    concessionaire_id: str | None
    created_at: datetime

    @classmethod
    def of(cls, record: StaffRecord) -> StaffView:
        return cls(
            id=record.id,
            email=record.email,
            role=record.role,
            concessionaire_id=record.concessionaire_id,
            created_at=record.created_at,
        )


# -- API keys ----------------------------------------------------------------------------------------------------
class NewApiKey(BaseModel):
    model_config = _examples({"label": "booking system"})
    label: str = Field(min_length=1, max_length=80, description="What the key is for, to tell keys apart.")


class ApiKeyView(BaseModel):
    model_config = _examples(
        {"id": "aa01…", "prefix": "4f9c2a7b1e3d", "label": "booking system", "created_at": "2026-01-01T12:00:00Z"}
    )
    id: str
    prefix: str = Field(description="The public part of the key (`gk_<prefix>_…`), to recognise it.")
    label: str
    created_at: datetime
    revoked_at: datetime | None = None

    @classmethod
    def of(cls, record: ApiKeyRecord) -> ApiKeyView:
        return cls(
            id=record.id,
            prefix=record.prefix,
            label=record.label,
            created_at=record.created_at,
            revoked_at=record.revoked_at,
        )


class CreatedApiKeyView(ApiKeyView):
    model_config = _examples(
        {
            "id": "aa01…",
            "prefix": "4f9c2a7b1e3d",
            "label": "booking system",
            "created_at": "2026-01-01T12:00:00Z",
            "key": "gk_4f9c2a7b1e3d_Zr8…",
        }
    )
    key: str = Field(description="The full key, shown this once only: store it now. Send it as `X-API-Key`.")


# -- players -----------------------------------------------------------------------------------------------------
class NewPlayer(BaseModel):
    model_config = _examples(
        {
            "nickname": "GiuliaB",
            "email": "giulia@example.com",
            "date_of_birth": "1985-11-02",
            "password": "another long password",
        }
    )
    nickname: Nickname
    email: Email
    date_of_birth: date = Field(description="Players must be 18 or older (T-1.4).")
    password: Password
    concessionaire_id: str | None = Field(
        None, description="Administrators only: the concessionaire. Operators and partners register their own."
    )

    def form(self) -> PlayerForm:
        return PlayerForm(self.nickname, self.email, self.date_of_birth, self.password)


class PlayerView(BaseModel):
    """A player's account as the player, their concessionaire and the network administrators see it."""

    model_config = _examples(
        {
            "id": "3f2a…",
            "nickname": "MarioRossi",
            "email": "mario@example.com",
            "date_of_birth": "1990-05-17",
            "concessionaire_id": "9c1d…",
            "created_at": "2026-01-01T12:00:00Z",
        }
    )
    id: str
    nickname: str
    email: str
    date_of_birth: date
    concessionaire_id: str
    created_at: datetime

    @classmethod
    def of(cls, record: PlayerRecord) -> PlayerView:
        return cls(
            id=record.id,
            nickname=record.nickname,
            email=record.email,
            date_of_birth=record.date_of_birth,
            concessionaire_id=record.concessionaire_id,
            created_at=record.created_at,
        )


class PublicPlayer(BaseModel):
    """P-11.5: publicly a player is a nickname, nothing else."""

    model_config = _examples({"player_id": "3f2a…", "nickname": "MarioRossi"})
    player_id: str
    nickname: str


class EmailChange(BaseModel):
    model_config = _examples({"email": "mario.rossi@example.com"})
    email: Email

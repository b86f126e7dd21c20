"""The request headers every service reads alike stay in the kit (platform_kit.internal_api and
platform_kit.idempotency): no service declares its own internal-token check, Idempotency-Key dependency, key
length limit, replay answer or `X-Principal-*` header parsing, so that no copy can drift from the others again
(one service refusing a key another accepts). Ruff's banned-api rule bans imports, not definitions: this scans
the services' code instead. It also keeps transactions at one boundary: service code takes a kit unit of work
or read session and opens none on the database itself (issue 19, below)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICE_SOURCES = sorted(ROOT.glob("services/*/src/**/*.py"))

KIT_HEADER_PARAMETERS = {"x_internal_token", "idempotency_key", "x_principal_role", "x_principal_id"}
KIT_HEADER_NAMES = {"x-internal-token", "idempotency-key", "x-principal-role", "x-principal-id"}
KIT_FUNCTIONS = {"require_internal_token"}
KEY_LIMIT = re.compile(r"^MAX_\w*KEY\w*$")


def _is_header(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Header"


def _reads_header(argument: ast.arg, default: ast.expr | None) -> bool:
    """The parameter is a FastAPI header: `Annotated[..., Header(...)]` or `= Header(...)`."""
    return _is_header(default) or any(_is_header(node) for node in ast.walk(argument.annotation or ast.Constant(None)))


def copies_in(source: str) -> list[str]:
    """What in `source` redoes a kit piece, one line per finding."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name in KIT_FUNCTIONS:
                found.append(f"line {node.lineno}: def {node.name}")
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            defaults = [None] * (len(node.args.posonlyargs + node.args.args) - len(node.args.defaults))
            for argument, default in zip(
                arguments, [*defaults, *node.args.defaults, *node.args.kw_defaults], strict=True
            ):
                if argument.arg in KIT_HEADER_PARAMETERS and _reads_header(argument, default):
                    found.append(f"line {node.lineno}: header parameter {argument.arg}")
        elif _is_header(node):
            assert isinstance(node, ast.Call)
            for keyword in node.keywords:
                value = keyword.value
                if (
                    keyword.arg == "alias"
                    and isinstance(value, ast.Constant)
                    and str(value.value).lower() in KIT_HEADER_NAMES
                ):
                    found.append(f"line {node.lineno}: Header(alias={value.value!r})")
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and KEY_LIMIT.match(target.id):
                    found.append(f"line {node.lineno}: key length limit {target.id}")
        elif isinstance(node, ast.Constant) and node.value == "Idempotent-Replayed":
            found.append(f"line {node.lineno}: the replay header set by hand (platform_kit.idempotency.keyed_answer)")
    return found


@pytest.mark.parametrize(
    "source",
    [
        "async def require_internal_token(request): ...",
        "def check(x_internal_token: Annotated[str | None, Header()] = None): ...",
        "def key(idempotency_key: str | None = Header(None)): ...",
        "def key(k: Annotated[str | None, fastapi.Header(alias='Idempotency-Key')] = None): ...",
        "def who(x_principal_role: Annotated[str | None, Header(description='role')] = None): ...",
        "MAX_IDEMPOTENCY_KEY = 100",
        "MAX_KEY_LENGTH: int = 120",
        "headers = {'Idempotent-Replayed': 'true'}",
    ],
)
def test_the_scan_finds_each_kind_of_copy(source: str) -> None:
    assert copies_in(source)


def test_what_is_not_a_copy_passes() -> None:
    source = (
        "def place(key: IdempotencyKey, idempotency_key: str = 'x'): ...\n"
        "def partner(x_concessionaire_id: Annotated[str | None, Header()] = None): ...\n"
        "MAX_STAKE = 10\n"
        "description = 'answers the first coupon (`Idempotent-Replayed`)'\n"
    )
    assert copies_in(source) == []


def test_no_service_redoes_the_kits_request_headers() -> None:
    assert SERVICE_SOURCES, "no service sources found"
    found = {
        str(path.relative_to(ROOT)): copies
        for path in SERVICE_SOURCES
        if (copies := copies_in(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "use platform_kit.internal_api / platform_kit.idempotency instead"


# Issue 19: a use case takes its transaction from one boundary — a kit unit of work (`UnitsOfWork.unit()`,
# `Reactions.unit()`, the request's `platform_kit.app.UnitOfWorkDep`) or read session (`UnitsOfWork.reading()`,
# `ReadingDep`) — and service code outside `adapters/` never opens one on the database itself. Ruff's banned-api
# rule cannot say it (it bans imports and qualified names, and `self._context.db.transaction` has none): this scans.
OPENERS = {"transaction", "sessions"}


def _names_a_database(node: ast.expr) -> bool:
    """`db`, `self._db`, `context.db`, `runtime.db`: what a database is called throughout the services."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name.lstrip("_") == "db"


def transactions_opened_in(source: str) -> list[str]:
    """Each `<database>.transaction()` or `<database>.sessions()` in `source`, one line per finding."""
    return [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in OPENERS
        and _names_a_database(node.func.value)
    ]


@pytest.mark.parametrize(
    "source",
    [
        "async def f(db):\n    async with db.transaction() as s: ...",
        "async def f(self):\n    async with self._context.db.sessions() as s: ...",
        "async def f(runtime):\n    async with runtime.db.transaction() as s, other() as t: ...",
    ],
)
def test_the_scan_finds_a_transaction_opened_on_the_database(source: str) -> None:
    assert transactions_opened_in(source)


def test_a_unit_of_work_or_reading_is_not_an_opening() -> None:
    source = (
        "async def f(self, uow):\n"
        "    async with self._context.units.unit() as uow: ...\n"
        "    async with self._units.reading() as session: ...\n"
        "    await session.begin_nested()\n"
    )
    assert transactions_opened_in(source) == []


def test_service_code_opens_no_transaction_of_its_own() -> None:
    found = {
        relative: opened
        for path in SERVICE_SOURCES
        if "adapters" not in path.parts
        and (relative := str(path.relative_to(ROOT)))
        and (opened := transactions_opened_in(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "take a unit of work or a read session (platform_kit.unit_of_work.UnitsOfWork) instead"

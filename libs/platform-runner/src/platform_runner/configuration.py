"""docs/configuration.md generated from the settings classes, so the documented list cannot go stale."""

from __future__ import annotations

from platform_kit.settings import ServiceSettings

from platform_runner.services import SERVICES, settings_class


def _prefix(service: str) -> str:
    return service.replace("-", "_").upper() + "_"


def _rows(fields: dict[str, object], names: list[str]) -> list[str]:
    rows = []
    for name in names:
        field = fields[name]
        default = getattr(field, "default", "")
        rows.append(f"| `{name.upper()}` | `{default!s}` | {getattr(field, 'description', '') or ''} |")
    return rows


def _platform_wide(fields: dict[str, object]) -> list[str]:
    """The fields read from one variable for the whole platform (their `validation_alias`, no service prefix)."""
    return [name for name, field in fields.items() if isinstance(getattr(field, "validation_alias", None), str)]


def render() -> str:
    common = ServiceSettings.model_fields
    platform_wide = _platform_wide(dict(common))
    lines = [
        "# Configuration",
        "",
        "Generated from the settings classes by `make contracts`; a test fails when it is stale.",
        "",
        "Every service reads environment variables under its own prefix: "
        + ", ".join(f"`{_prefix(s)}`" for s in SERVICES)
        + ". For example `WALLET_DATABASE_URL` or `TABLE_ENGINE_BUS_URL`.",
        "",
        "## Common to every service",
        "",
        "| variable (after the prefix) | default | meaning |",
        "|---|---|---|",
        *_rows(dict(common), [n for n in common if n not in ("service_name", *platform_wide)]),
        "",
        "## One for the whole platform",
        "",
        "Read alike by every service, under no service prefix.",
        "",
        "| variable | default | meaning |",
        "|---|---|---|",
        *(
            row.replace(f"| `{name.upper()}`", f"| `{common[name].validation_alias}`", 1)
            for name in platform_wide
            for row in _rows(dict(common), [name])
        ),
    ]
    for service in SERVICES:
        fields = settings_class(service).model_fields
        own = [name for name in fields if name not in common]
        if own:
            lines += [
                "",
                f"## {service} (`{_prefix(service)}`)",
                "",
                "| variable | default | meaning |",
                "|---|---|---|",
            ]
            lines += [row.replace("| `", f"| `{_prefix(service)}", 1) for row in _rows(dict(fields), own)]
    return "\n".join(lines) + "\n"

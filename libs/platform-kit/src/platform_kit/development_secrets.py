"""No deployment runs on a secret published in this repository.

The defaults of the secret settings (and the placeholders once committed for compose and the Kubernetes dev
overlay) let a newcomer start the platform at once, but anyone can read them: with the gateway's default signing
key, anyone can mint an administrator's access token. So a service that is not standalone (its bus is not
`memory://`) refuses to start while one of its secrets has such a value, naming the variables to set.
`ServiceRuntime.start` calls `refuse_development_secrets` first: every way of starting a service goes through it.
"""

from __future__ import annotations

from platform_kit.settings import ServiceSettings

GENERATE = "python -c 'import secrets; print(secrets.token_urlsafe(48))'"


class DevelopmentSecretsRefused(RuntimeError):
    """`variables`: the environment variables still holding a development value."""

    def __init__(self, service: str, variables: list[str]) -> None:
        self.variables = variables
        super().__init__(
            f"{service} refuses to start: {', '.join(variables)} still "
            f"{'has a development value' if len(variables) == 1 else 'have development values'}, published in "
            f"the repository, and the service is not standalone (its bus is not memory://). Set each to a fresh "
            f"random value, e.g. the output of `{GENERATE}`; the internal token must be the same in every "
            f'service (docs/operations.md, "Secrets").'
        )


def refuse_development_secrets(settings: ServiceSettings) -> None:
    """Raise `DevelopmentSecretsRefused` for a deployed service with a development secret; standalone passes."""
    if settings.standalone:
        return
    variables = settings.development_secrets()
    if variables:
        raise DevelopmentSecretsRefused(settings.service_name, variables)

"""Refusals with reasons: the error a caller gets when a definition breaks the rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Issue:
    """One broken rule: where (`field`, a dotted path such as `rebuy.max_rebuys`), a stable machine-readable
    `code` and a sentence for humans."""

    field: str
    code: str
    message: str


class DefinitionError(Exception):
    """A tournament definition was refused; `issues` lists every broken rule found.

    Deliberately not a `ValueError`: raised from a pydantic validator it passes through pydantic unchanged, so
    callers always get this type (with all its issues) rather than a wrapped `ValidationError`.
    """

    def __init__(self, issues: Sequence[Issue]) -> None:
        if not issues:
            raise ValueError("a DefinitionError needs at least one issue")
        self.issues: tuple[Issue, ...] = tuple(issues)
        super().__init__("; ".join(f"{issue.field}: {issue.message}" for issue in self.issues))

    def as_dicts(self) -> list[dict[str, str]]:
        """The issues as `{field, code, message}` dictionaries, ready for an API error body."""
        return [asdict(issue) for issue in self.issues]

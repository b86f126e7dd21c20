"""The staff member behind an administrative call, as the gateway tells us (trusted with the internal token).

X-Principal-Role: admin (a network administrator) or operator; X-Principal-Id: the staff member's id.
Every decision they take on a draw is recorded with it (T-1.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class StaffRole(StrEnum):
    ADMIN = "admin"
    OPERATOR = "operator"


@dataclass(frozen=True, slots=True)
class Staff:
    role: StaffRole
    staff_id: str | None = None

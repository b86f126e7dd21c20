"""The one error the file readers raise."""

from __future__ import annotations


class PublishedFileError(ValueError):
    """A published draw or bet file does not follow its format (T-8.2, T-8.3) or contradicts the draw."""

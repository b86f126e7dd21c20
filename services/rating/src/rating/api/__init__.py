"""HTTP routes of the rating service: thin — parse, call a use case, render."""

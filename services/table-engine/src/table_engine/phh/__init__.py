"""Hand histories in the open PHH format: read, write (per viewer, P-1.4) and replay through the engine."""

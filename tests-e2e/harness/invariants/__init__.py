"""What must hold after a run, faults or not. Each module checks one property as a pure function over facts
read from the services (`gather` reads them), and returns the problems it found — an empty list when it holds.
"""

"""Workload sizes: full when timing (``pytest benches --benchmark-enable``, or a bench run as a
script), small in the test run, which runs each benchmark once with ``--benchmark-disable`` only
to show that it still works (benches/conftest.py sets ``SMOKE`` before the benches are imported)."""

SMOKE = False


def size(full: int, smoke: int) -> int:
    """``full`` when timing, ``smoke`` in the test run's single untimed pass."""
    return smoke if SMOKE else full

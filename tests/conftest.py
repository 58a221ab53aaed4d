"""Hypothesis profiles, which also size the other randomised tests (``helpers.scaled``):

- ``dev``, the local default: 300 examples per property, quick;
- ``ci``, chosen when the CI variable is set: 1,000 examples per property (each property
  test without its own ``max_examples``), and e.g. 300 differential games per preset;
- ``long``, a soak: 10,000 examples and ten times ``ci``'s games,
  ``pytest --hypothesis-profile=long`` (or ``HYPOTHESIS_PROFILE=long``).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "long",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

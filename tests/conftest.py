"""Hypothesis profiles: `ci` (chosen when the CI variable is set) runs enough examples that the
property tests generate tens of thousands of cases per run; `dev` is quicker for local work."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=4000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

"""Rules whose payments would leave the exact integer range are refused (issue 12, item 5)."""

from __future__ import annotations

import pytest

from xueliu import (
    Rules,
    RulesError,
)


@pytest.mark.parametrize(
    "overrides",
    [dict(fan={"basic": 51}, cap_fan=51), dict(base_points=10**6, fan={"basic": 33})],
)
def test_rules_whose_payments_leave_the_exact_range_are_refused(overrides):
    with pytest.raises(RulesError, match="lower cap_fan, base_points"):
        Rules.preset("chengdu", **overrides)

import os

import pytest
from command_line import runner
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def cli(tmp_path):
    """Run ``xlashape ARGS...`` in ``tmp_path``; returns the CompletedProcess."""
    return runner(tmp_path)

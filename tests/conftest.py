import os

import pytest
from command_line import runner
from hypothesis import HealthCheck, settings

from xlashape import cpu

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def cli(tmp_path):
    """Run ``xlashape ARGS...`` in ``tmp_path``; returns the CompletedProcess."""
    return runner(tmp_path)


@pytest.fixture(params=["off", "l1", "l2"])
def prefetch(request):
    """Each prefetch mode of xlashape.cpu in turn, the one before restored after."""
    previous = cpu.set_prefetch(request.param)
    yield request.param
    cpu.set_prefetch(previous)

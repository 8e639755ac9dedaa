import os

import pytest
from command_line import runner
from hypothesis import HealthCheck, settings

from xlashape import cpu
from xlashape.core import _batch

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


@pytest.fixture
def every_split():
    """Every call large enough splits over as many threads as it asks, past
    the CPUs too (handing out counted as free), whatever the machine's load."""
    limit = _batch.set_cpu_limit(64)
    _batch._set_handoff_costs(0, 0)
    yield
    _batch._set_handoff_costs(-1, -1)
    _batch.set_cpu_limit(limit)

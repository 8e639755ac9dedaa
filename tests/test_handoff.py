"""The hand-off of every parallel call (csrc/runtime/handoff.h), as a pure
function of made-up costs: splitting never loses in its model, the
threads it gives are the model's best, never fall as the work grows and
never pass the cap, and no one sample fed to the rate estimator turns the
next decision."""

import hypothesis.strategies as st
from hypothesis import given

from xlashape.core import _batch

# Costs in nanoseconds, from nothing to a second's work.
NS = st.floats(0, 1e9, allow_nan=False, allow_infinity=False)
COST = st.floats(0, 1e6, allow_nan=False, allow_infinity=False)
ITEMS = st.integers(0, 10**10)
CHUNK = st.integers(1, 10**6)
CAP = st.integers(1, 256)
RATE = st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False)
# What a worker costs, (until it starts, on top), spinning and asleep, and
# how many spin: made up, sleeping ones sometimes the cheaper (the hand-off
# counts them no cheaper than spinning ones).
WORKER = st.tuples(COST, COST)
AWAKE = st.integers(0, 300)


def model(work, awake, asleep, spinning, threads):
    return _batch._handoff_model_ns(work, awake, asleep, spinning, threads)


def cap_of(items, min_chunk, cap):
    """The most threads a call may get: its cap, and a chunk each."""
    return max(1, min(cap, items // min_chunk))


@given(work=NS, awake=WORKER, asleep=WORKER, spinning=AWAKE, items=ITEMS, min_chunk=CHUNK,
       cap=CAP)
def test_the_threads_given_are_the_best_of_the_model(work, awake, asleep, spinning, items,
                                                     min_chunk, cap):
    threads, chunk = _batch._handoff(work, awake, asleep, spinning, items, min_chunk, cap)
    most = cap_of(items, min_chunk, cap)
    assert 1 <= threads <= most
    best = min(model(work, awake, asleep, spinning, w) for w in range(1, most + 1))
    got = model(work, awake, asleep, spinning, threads)
    # splitting never loses against running alone, and no other count does better
    assert got <= model(work, awake, asleep, spinning, 1) * (1 + 1e-12)
    assert got <= best * (1 + 1e-9) + 1e-6
    if threads > 1:
        # chunks of at least min_chunk items, at least one for each thread
        assert chunk >= min_chunk and items // chunk >= threads
        # and about four a thread, for balance, where min_chunk allows
        assert items // chunk < 8 * threads
        assert chunk == min_chunk or items // chunk >= 4 * threads
    else:
        assert chunk == items


@given(ns_per_item=RATE, awake=WORKER, asleep=WORKER, spinning=AWAKE, min_chunk=CHUNK, cap=CAP,
       sizes=st.lists(st.integers(0, 10**9), min_size=2, max_size=6))
def test_the_threads_never_fall_as_the_batch_grows(ns_per_item, awake, asleep, spinning,
                                                   min_chunk, cap, sizes):
    given_threads = [
        _batch._handoff(n * ns_per_item, awake, asleep, spinning, n, min_chunk, cap)[0]
        for n in sorted(sizes)
    ]
    assert given_threads == sorted(given_threads)
    assert max(given_threads) <= cap


@given(work=NS, awake=WORKER, asleep=WORKER, spinning=AWAKE, items=ITEMS, min_chunk=CHUNK,
       caps=st.lists(CAP, min_size=2, max_size=4))
def test_a_higher_cap_never_gives_fewer_threads(work, awake, asleep, spinning, items, min_chunk,
                                                caps):
    given_threads = [
        _batch._handoff(work, awake, asleep, spinning, items, min_chunk, c)[0] for c in sorted(caps)
    ]
    assert given_threads == sorted(given_threads)
    assert all(t <= c for t, c in zip(given_threads, sorted(caps)))


def test_a_mid_size_call_gets_the_workers_that_pay_not_all_or_none():
    # 30 us of work, a 6.7 us wake-up and 1.5 us a worker, on 16 cores:
    # T(w) = (30 + 6.7 (w - 1)) / w + 1.5 (w - 1) is least at w = 4.
    slow = (6_700, 1_500)
    assert _batch._handoff(30_000, slow, slow, 0, 30_000, 1_000, 16) == (4, 1_875)
    # ten times the work pays for 14 (w (w + 1) 1.5 < 293.3); a tenth, for none
    assert _batch._handoff(300_000, slow, slow, 0, 300_000, 1_000, 16)[0] == 14
    assert _batch._handoff(3_000, slow, slow, 0, 3_000, 1_000, 16) == (1, 3_000)
    # workers that still spin (0.5 us to start, 0.3 us each) pay from less
    # work, and for more of them: 9 of them and the caller
    fast = (500, 300)
    assert _batch._handoff(30_000, fast, slow, 15, 30_000, 1_000, 16)[0] == 10
    assert _batch._handoff(3_000, fast, slow, 15, 3_000, 1_000, 16)[0] == 3
    # past the spinning ones, a sleeping worker must pay for itself
    assert _batch._handoff(30_000, fast, slow, 2, 30_000, 1_000, 16)[0] == 3


@given(steady=RATE, outlier=st.floats(0, 1e9, allow_nan=False), history=st.integers(5, 40))
def test_one_outlier_leaves_a_steady_rate_where_it_was(steady, outlier, history):
    samples = [steady] * history
    assert _batch._rate_estimate(samples, 1.0) == steady
    assert _batch._rate_estimate([*samples, outlier], 1.0) == steady


@given(samples=st.lists(RATE, min_size=5, max_size=30), outlier=st.floats(0, 1e9, allow_nan=False),
       worker=WORKER, items=st.integers(1, 10**9), cap=CAP)
def test_one_outlier_moves_the_decision_at_most_to_a_neighbour_sample(samples, outlier, worker,
                                                                      items, cap):
    # The estimate after one more sample lies between the old median's
    # neighbours among the last five; so does the decision it gives, and
    # where those neighbours decide alike, the outlier turns nothing.
    window = sorted(samples[-5:])
    before = _batch._rate_estimate(samples, 1.0)
    after = _batch._rate_estimate([*samples, outlier], 1.0)
    assert before == window[2]
    assert window[1] <= after <= window[3]

    def decide(rate):
        return _batch._handoff(items * rate, worker, worker, 0, items, 1, cap)

    if decide(window[1]) == decide(window[3]):
        assert decide(after) == decide(before)


def test_the_rate_starts_at_its_prior_and_takes_the_lower_middle():
    assert _batch._rate_estimate([], 0.25) == 0.25
    assert _batch._rate_estimate([3.0], 0.25) == 3.0
    assert _batch._rate_estimate([3.0, 1.0], 0.25) == 1.0
    assert _batch._rate_estimate([3.0, 1.0, 2.0, 9.0], 0.25) == 2.0
    # only the last five count
    assert _batch._rate_estimate([100.0] * 10 + [1.0, 2.0, 3.0], 0.25) == 3.0

"""The fair-dice generator and commitments."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from talespin.table.fairness import SEED_BYTES, HmacRng, commitment, draw_seed


def test_same_seed_campaign_and_version_give_the_same_numbers() -> None:
    """The generator is reproducible from (seed, campaign, version)."""
    first = HmacRng(b"s" * 32, "camp", 12)
    second = HmacRng(b"s" * 32, "camp", 12)
    assert [first.randrange(10) for _ in range(50)] == [second.randrange(10) for _ in range(50)]


def test_another_version_or_campaign_gives_other_numbers() -> None:
    """The campaign id and the version both enter the derivation."""
    base = [HmacRng(b"s" * 32, "camp", 12).randrange(1000) for _ in range(1)]
    draws = lambda c, v: [r.randrange(1000) for r in [HmacRng(b"s" * 32, c, v)] for _ in range(20)]  # noqa: E731
    assert draws("camp", 12) != draws("camp", 13)
    assert draws("camp", 12) != draws("other", 12)
    assert base[0] == draws("camp", 12)[0]


@pytest.mark.parametrize("stop", [1, 2, 3, 6, 7, 10, 12, 1000, 2**70 + 1])
def test_every_draw_lies_in_range(stop: int) -> None:
    """randrange(n) stays within 0..n-1 for sizes that need rejection and sizes that do not."""
    rng = HmacRng(draw_seed(), "c", 1)
    assert all(0 <= rng.randrange(stop) < stop for _ in range(300))


def test_draws_are_close_to_uniform() -> None:
    """A d6 drawn 60 000 times from a fixed seed has every face within 3% of 10 000 (no modulo bias)."""
    rng = HmacRng(bytes(32), "uniform", 1)
    counts = Counter(rng.randrange(6) for _ in range(60_000))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    assert all(abs(n - 10_000) < 300 for n in counts.values())


def test_bad_sizes_are_refused() -> None:
    """randrange needs a whole number of outcomes of at least 1."""
    rng = HmacRng(bytes(32), "c", 1)
    for bad in (0, -3, True, 2.5):
        with pytest.raises(ValueError):
            rng.randrange(bad)  # type: ignore[arg-type]
    assert not rng.used


def test_commitment_is_the_sha256_of_the_seed() -> None:
    """The commitment published at a scene's start is SHA-256 of its 32-byte seed."""
    seed = draw_seed()
    assert len(seed) == SEED_BYTES
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert draw_seed() != seed

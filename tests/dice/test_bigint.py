"""The big-integer backends give identical products, so exact convolution is the same with or without GMP."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from talespin.dice import bigint
from talespin.dice.polynomial import convolve

_weights = st.lists(st.integers(0, 10**40), min_size=1, max_size=300)


def _schoolbook(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, wa in enumerate(a):
        for j, wb in enumerate(b):
            out[i + j] += wa * wb
    return out


def _gmp() -> object:
    if bigint.multiply_gmp is None:
        pytest.skip("gmpy2 is not installed: the GMP backend is SKIPPED (pip install 'talespin[fast]')")
    return bigint.multiply_gmp


@given(a=_weights, b=_weights)
@settings(max_examples=60, deadline=None)
def test_convolution_is_the_same_by_either_backend(a: list[int], b: list[int]) -> None:
    """Kronecker packing multiplied by Python or by GMP gives the schoolbook product, coefficient by
    coefficient (sequences long enough to take the packed path, with weights of up to 133 bits)."""
    gmp = _gmp()
    assert callable(gmp)
    expected = _schoolbook(a, b)
    assert convolve(a, b, product=bigint.multiply_python) == expected
    assert convolve(a, b, product=gmp) == expected


_big = st.binary(min_size=1, max_size=20_000).map(lambda raw: int.from_bytes(raw, "little"))


@given(a=_big, b=_big)
@settings(max_examples=25, deadline=None)
def test_big_products_agree(a: int, b: int) -> None:
    """Operands on both sides of the GMP threshold multiply to the same integer."""
    gmp = _gmp()
    assert callable(gmp)
    assert gmp(a, b) == bigint.multiply_python(a, b) == a * b


def test_the_backend_in_use_is_named() -> None:
    """``BACKEND`` names the multiplication :func:`convolve` uses by default."""
    expected = "gmpy2" if bigint.multiply_gmp is not None else "python"
    assert expected == bigint.BACKEND
    assert bigint.multiply is (bigint.multiply_gmp or bigint.multiply_python)

"""Big-integer multiplication for exact convolution: GMP when the ``[fast]`` extra is installed.

Exact odds of large pools multiply integers of hundreds of thousands of digits (Kronecker substitution in
:mod:`.polynomial`), and nearly all of that time is the multiplication itself. Python's own is
sub-quadratic (Karatsuba); GMP's (through gmpy2, ``pip install 'talespin[fast]'``) uses faster algorithms
for big operands and is many times quicker there. Both give the same integer, so the odds are identical
whichever is installed; :data:`BACKEND` says which one is in use, and the tests compare the two.

>>> multiply_python(12345678901234567890, 98765432109876543210) == 12345678901234567890 * 98765432109876543210
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["BACKEND", "GMP_FROM_BITS", "multiply", "multiply_gmp", "multiply_python"]

GMP_FROM_BITS: Final = 20_000
"""Below this many bits per operand the conversion to GMP and back costs more than it saves."""


def multiply_python(a: int, b: int) -> int:
    """The product by Python's own big integers."""
    return a * b


def _gmp() -> Callable[[int, int], int] | None:
    try:
        import gmpy2  # noqa: PLC0415 - optional: the [fast] extra
    except ImportError:
        return None
    mpz = gmpy2.mpz

    def product(a: int, b: int) -> int:
        if a.bit_length() < GMP_FROM_BITS or b.bit_length() < GMP_FROM_BITS:
            return a * b
        return int(mpz(a) * mpz(b))

    return product


multiply_gmp: Final = _gmp()
"""The product by GMP (``None`` when gmpy2 is not installed)."""

multiply: Final[Callable[[int, int], int]] = multiply_gmp or multiply_python
"""The product by the fastest backend installed."""

BACKEND: Final = "gmpy2" if multiply_gmp is not None else "python"
"""Which backend :func:`multiply` uses: ``"gmpy2"`` or ``"python"``."""

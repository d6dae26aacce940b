"""Dice notation: text → a frozen syntax tree, and back.

The syntax lives in one place, ``grammar.lark`` (read its header for examples). :func:`parse` turns text
into an :class:`~talespin.dice.syntax.Expression` (the node classes live in :mod:`~talespin.dice.syntax`);
``str()`` of any node prints valid notation again, and ``parse(str(tree)) == tree`` always holds (the
printed form is canonical: ``d6`` prints as ``1d6``).

Meaning, and the choices made where the notation could be read several ways:

- An expression is a signed sum of :class:`Part` s; each holds a :class:`Dice` term, a :class:`Constant`, or
  a :class:`SuccessCount`.
- A :class:`SuccessCount` (``NdS<=T``, ``NdS>=T``) counts dice, it does not add faces, so it **stands
  alone**: ``3d6<=2 + 1`` is refused (adding a number of successes to a sum of faces has no agreed meaning).
  Its dice **do not explode**: ``3d6!>=5`` is refused (games that explode successes count them in
  different ways).
- A zero-based die (``zS``, faces ``0..S-1``) does not explode: ``2z10!`` is refused.
- Counts, faces and every number are checked against :mod:`~talespin.dice.limits` for the whole expression
  before anything is rolled or computed.

>>> tree = parse("2d6! + d8 - 1")
>>> str(tree)
'2d6! + 1d8 - 1'
>>> tree.parts[1].term
Dice(count=1, size=8, explodes=False, zero_based=False)
>>> str(parse(" 6z10 <= 2 "))
'6z10<=2'
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from .errors import DiceError, NotationError
from .limits import check_dice_count, check_exploding, check_faces, check_notation, check_number
from .syntax import Comparison, Constant, Dice, Expression, Part, SuccessCount, Term

__all__ = [
    "Comparison",
    "Constant",
    "Dice",
    "Expression",
    "Part",
    "SuccessCount",
    "Term",
    "check_limits",
    "parse",
]


class _ToTree(Transformer[Token, Expression]):
    """One method per grammar rule, each building the rule's node."""

    def start(self, children: list[Expression]) -> Expression:
        return children[0]

    def expression(self, children: list[Part]) -> Expression:
        return Expression(tuple(children))

    def part(self, children: list[Token | Term]) -> Part:
        sign = -1 if len(children) == 2 and str(children[0]).strip() == "-" else 1
        term = children[-1]
        assert not isinstance(term, Token)
        return Part(sign, term)

    def success_count(self, children: list[Dice | Token]) -> SuccessCount:
        dice, comparison, target = children
        assert isinstance(dice, Dice)
        text = str(comparison).strip()
        return SuccessCount(dice, "<=" if text == "<=" else ">=", _number(str(target), "a target"))

    def dice(self, children: list[Token]) -> Dice:
        kinds = {token.type: token for token in children if token.type in ("KIND", "EXPLODE")}
        numbers = [token for token in children if token.type == "INT"]
        count = _number(str(numbers[0]), "a dice count") if len(numbers) == 2 else 1
        size = _number(str(numbers[-1]), "a number of faces")
        return Dice(count, size, "EXPLODE" in kinds, str(kinds["KIND"]).lower() == "z")

    def constant(self, children: list[Token]) -> Constant:
        return Constant(_number(str(children[0]), "a constant"))


def _number(text: str, what: str) -> int:
    check_number(text, what)
    return int(text)


_EXPECTED = {
    "INT": "a whole number",
    "TARGET": "a whole number (the target)",
    "KIND": "'d' or 'z' (a die)",
    "EXPLODE": "'!'",
    "SIGN": "'+' or '-'",
    "COMPARE": "'<=' or '>='",
    "$END": "the end of the notation",
    "<END-OF-FILE>": "the end of the notation",
}


@cache
def _parser() -> Lark:
    grammar = files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr")


def parse(text: str) -> Expression:
    """Parse dice notation, raising :class:`NotationError` (or ``LimitExceeded``) saying what was expected.

    >>> parse("2d")
    Traceback (most recent call last):
    ...
    talespin.dice.errors.NotationError: bad dice notation '2d' at column 3: expected a whole number
    """
    check_notation(text)
    try:
        tree = _parser().parse(text)
        expression = _ToTree().transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, DiceError):
            raise error.orig_exc from None
        raise
    except UnexpectedInput as error:
        raise NotationError(_explain(text, error)) from None
    check_limits(expression)
    return expression


def check_limits(expression: Expression) -> None:
    """Check the whole expression against the engine's limits before any work is done.

    At most ``MAX_DICE`` dice in all, faces between 1 and ``MAX_FACES``, no exploding d1.
    """
    check_dice_count(sum(dice.count for _, dice in expression.dice_terms))
    for _, dice in expression.dice_terms:
        if dice.explodes:
            check_exploding(dice.size)
        else:
            check_faces(dice.size)


def _explain(text: str, error: UnexpectedInput) -> str:
    if isinstance(error, UnexpectedToken | UnexpectedEOF):
        expected = error.expected
        column = len(text) + 1 if error.token.type == "$END" else error.column
    elif isinstance(error, UnexpectedCharacters):
        expected = error.allowed
        column = error.column
    else:  # pragma: no cover - lark raises only the kinds above
        expected, column = set(), error.column
    words = sorted({_EXPECTED.get(name, name) for name in expected if not name.startswith("_")})
    wanted = " or ".join(words) if words else "dice notation such as 3d6, 2d6! + 1 or 6z10<=2"
    return f"bad dice notation {text!r} at column {column}: expected {wanted}"

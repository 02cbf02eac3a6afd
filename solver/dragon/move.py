"""One move of a Die Dracheninsel turn, typed (in the style of python-chess's ``Move``).

A turn is a list of moves. The rulebook (:mod:`solver.dragon.rulebook`) generates them and
plays them; both route finders return them; repair, replay, the simulations, the SVG drawing
and the command line read them. Fields are names as the board files spell them (a field
``"q,r"``, a boat ``"boat:red"``, a card's name, a terrain, a colour). Their JSON form is the
contract of ``treasure dracheninsel route --json``: the keys ``action``, ``card`` and ``to``
always, the others only when set.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from solver.errors import InputError

ACTIONS = ("step", "flight", "long-journey", "swap", "patrol", "fright")


@dataclass(frozen=True)
class Move:
    """One action of the mover: where it ends and which cards it plays.

    - ``step`` to a neighbour, ``card`` paying for the field entered (``use`` its terrain);
    - ``flight`` over ``over`` with the flight ``card``, ``pay`` paying for the landing;
    - ``long-journey``: ``card`` played with the terrain card ``with_card`` makes ``terrain``
      free this turn;
    - ``swap`` of the tiles on the two fields ``swap``;
    - ``patrol``: a dragon set (``dragon`` None) or the one on ``dragon`` moved, to ``place``
      when a route finder proposes one (the rules let the player choose anywhere legal);
    - ``fright``: ``target`` sent home to its boat.
    ``join``: a guarding hunter the step picks up the treasure with; ``raid``: the carrier of a
    pair the step sends home; ``leave``: the second hunter on the treasure field leaves it
    with the pair. ``relaxed_pay`` appears only in a relaxation's plan (never played).
    """

    action: str
    to: str
    card: str | None = None
    over: str | None = None
    pay: str | None = None
    use: str | None = None
    with_card: str | None = None
    terrain: str | None = None
    swap: tuple[str, str] | None = None
    dragon: str | None = None
    place: str | None = None
    target: str | None = None
    join: str | None = None
    raid: str | None = None
    leave: bool = False
    relaxed_pay: str | None = None

    def cards(self) -> list[str]:
        """The cards the move plays (a flight's landing card and Weite Reise's companion too)."""
        return [c for c in (self.card, self.pay, self.with_card) if c]

    def enters(self) -> bool:
        """Does the mover walk or fly onto ``to`` (and pay for it)?"""
        return self.action in ("step", "flight")

    def payer(self) -> str | None:
        """The card paying for the field entered (a flight names it apart from its own card)."""
        return self.pay if self.action == "flight" else self.card

    def key(self) -> Move:
        """The move as the rules see it: where a dragon lands is the player's free choice and
        the order of a swap's two fields means nothing."""
        swap = tuple(sorted(self.swap)) if self.swap else None
        return replace(self, place=None, swap=swap)

    def details(self) -> str:
        """What the move does beyond its action, card and field, for people."""
        parts = []
        if self.over:
            parts.append(f"over {self.over}")
        if self.pay:
            parts.append(f"landing on {self.use} paid with {self.pay}")
        elif self.use:
            parts.append(f"pays {self.use}")
        if self.with_card:
            parts.append(f"with {self.with_card}: {self.terrain} free this turn")
        if self.swap:
            parts.append("swaps " + " and ".join(self.swap))
        if self.dragon:
            parts.append(f"moves the dragon from {self.dragon}")
        if self.place:
            parts.append(f"dragon to {self.place}")
        if self.target:
            parts.append(f"sends {self.target} home")
        if self.join:
            parts.append(f"joins {self.join}: the two carry the treasure")
        if self.raid:
            parts.append(f"raid: {self.raid} goes home")
        if self.leave:
            parts.append("leaves the treasure field with the pair")
        return "; ".join(parts)

    def to_json(self) -> dict:
        out: dict = {"action": self.action, "card": self.card, "to": self.to}
        for f in fields(self)[3:]:
            value = getattr(self, f.name)
            if value is None or value is False:
                continue
            out[_JSON_NAME.get(f.name, f.name)] = list(value) if f.name == "swap" else value
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "plan") -> Move:
        """A move from its JSON form; a one-line InputError names what is wrong."""
        if not isinstance(data, dict):
            raise InputError(f"{where}: a move is a JSON object, got {data!r}")
        known = {_JSON_NAME.get(f.name, f.name): f.name for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise InputError(f"{where}: unknown key {unknown[0]!r} in a move")
        if data.get("action") not in ACTIONS:
            raise InputError(f"{where}: action {data.get('action')!r} is not one of "
                             + ", ".join(ACTIONS))
        if not isinstance(data.get("to"), str):
            raise InputError(f"{where}: a move names the field it ends on ('to')")
        args = {known[k]: v for k, v in data.items()}
        for name, value in args.items():
            if name == "leave":
                if not isinstance(value, bool):
                    raise InputError(f"{where}: 'leave' is true or false, got {value!r}")
            elif name == "swap":
                if not (isinstance(value, list) and len(value) == 2
                        and all(isinstance(x, str) for x in value)):
                    raise InputError(f"{where}: 'swap' names two fields, got {value!r}")
                args[name] = tuple(value)
            elif value is not None and not isinstance(value, str):
                raise InputError(f"{where}: {name!r} is a name, got {value!r}")
        return cls(**args)


_JSON_NAME = {"with_card": "with"}  # ``with`` is a Python keyword


def plan_cards(plan: list[Move]) -> int:
    """How many cards a plan plays (companion and landing cards included)."""
    return len(played(plan))


def played(plan: list[Move]) -> list[str]:
    """The names of the cards a plan plays, in order."""
    return [card for move in plan for card in move.cards()]


def plan_json(plan: list[Move]) -> list[dict]:
    return [m.to_json() for m in plan]

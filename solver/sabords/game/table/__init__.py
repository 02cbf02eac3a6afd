"""Mille Sabords at the whole table: the game for two to five players.

**States.** Before a turn: the phase and every score (units of 100 points), listed from the
player to move in playing order. *Normal*: everyone below the target. *Final k*: a player (the
trigger) has reached the target and ``k`` players, the mover first, still have their last turn;
in the list, positions ``0 .. k-1`` are those players, ``k`` the trigger and the rest those who
have played theirs. *Race* (the French reading): after the final round everyone is below the
target again (the trigger dropped through Islands of Skulls), and the first player to end their
own turn at or above it wins at once. After the final round with someone at or above the
target, the highest score wins and a tie for it is shared equally.

**Values are vectors.** A state's value gives every player (by position) their P(win) plus their
shares of ties. Each mover maximises their own entry (the turn is the engine's stopping problem
with those entries of the next states as payoffs per outcome); the other entries follow from
the outcome distribution of the mover's turn. With two players this is the zero-sum game of
:mod:`solver.sabords.game.two_player`; with three or more it is a fixed point of best
responses, solved and certified in :mod:`solver.sabords.game.table.equilibrium`.
"""

"""Built-in policies, compiled each on its own (strategies/compiled.py) and chosen per seat by
an integer id; one module per family: random_policy, greedy (greedy and knock-threshold),
heuristic, forgetful, opponent_aware, ev, guide, what they share in common, and lookahead.

Every built-in has one signature (see docs/policies.md)::

    policy_nb(point, seat, held, g, rt, rng, par) -> action

``point`` is the decision point (codes.DP_*), ``held`` the card the seat holds now (-1 if
none), ``g`` the engine's state array, ``rt`` the rules and card tables, ``rng`` the random
streams and ``par[seat]`` the seat's row of the policy table (column 0 is the policy id, the
rest its parameters). A built-in reads only what its seat may see:

- the public slots ``g[G_PUB + PUB_*]`` and face-down counts ``g[G_FACE_DOWN + s]``,
- the face-up flags ``g[G_UP + s*MAX_POS + p]`` and the discard pile ``g[G_DISCARD + i]``,
- its own knowledge row ``g[G_KNOWN + (seat*MAX_PLAYERS + s)*MAX_POS + p]`` (card or -1),
- the legal mask ``g[G_LEGAL + a]``, its memory ``g[G_MEMORY + seat*MEMORY_SLOTS + i]`` and
  its own stream ``rng[STREAM_SEAT0 + seat]``.

Built-ins get the whole state array rather than per-seat copies because a call between compiled
functions costs about one stack word per array field; a test checks that scrambling everything
a seat may not see never changes a built-in's decision. Policies written by users get per-seat
views (issue 4).
"""

from __future__ import annotations

from simulator.game.codes import (POLICY_EV, POLICY_FORGETFUL, POLICY_GREEDY,  # noqa: F401
                                  POLICY_GUIDE, POLICY_HEURISTIC, POLICY_KNOCK_THRESHOLD,
                                  POLICY_OPPONENT_AWARE, POLICY_RANDOM)

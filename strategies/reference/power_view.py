"""What a greedy or knock-threshold seat judges at a power-card decision
(docs/policies.md#power-cards): its view of the table (:class:`PowerView`) and the judgments built on it: which power is worth
using and on whom, which line or card to exchange, what to nominate or snap, when to call."""

from __future__ import annotations

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.effects import DUTCH_EFFECTS, effect_of
from simulator.game.reference import Observation, is_empty
from simulator.game.rules import Rules


class PowerView:
    """What a greedy or knock-threshold seat estimates at a power decision: every card it
    knows is its value, every card it does not is the mean of its unseen pool (all kept
    multiplied by n = |U|, exact integers, as the policies do)."""

    def __init__(self, policy, obs: Observation):
        self.obs = obs
        self.policy = policy
        self.rules = policy.rules
        self.table = policy.table
        self.held = obs.held      # the card it holds (the Dutch 2's choices: from the plan)
        self.pool = policy.pool(obs, obs.held)
        self.n = max(self.pool.n, 1)

    def est(self, seat: int, p: int) -> int:
        card = self.obs.known[seat][p]
        if card is None:
            return self.pool.S if self.pool.n else 0
        return self.table.value[card] * self.n

    def cards(self, seat: int) -> list[int]:
        return [p for p, c in enumerate(self.obs.known[seat])
                if not (c is not None and is_empty(c))]

    def unknown(self, seat: int, positions) -> list[int]:
        return [p for p in positions if self.obs.known[seat][p] is None]

    def total(self, seat: int) -> int:
        return sum(self.est(seat, p) for p in self.cards(seat))

    def worst_own(self, positions) -> int:
        """The own position with the highest estimate (ties: the lowest position)."""
        me = self.obs.seat
        return max(positions, key=lambda p: (self.est(me, p), -p))

    def best_of(self, seat: int, positions) -> int:
        """The position with the lowest estimate (ties: the lowest position)."""
        return min(positions, key=lambda p: (self.est(seat, p), p))

    def opponents(self) -> list[int]:
        """Opponents in turn order from the seat, not shielded."""
        me, n = self.obs.seat, len(self.obs.known)
        return [(me + k) % n for k in range(1, n) if not self.obs.shielded[(me + k) % n]]

    def best_opponent_card(self) -> tuple[int, int] | None:
        """(seat, position) of the lowest-estimated opponent card."""
        best = None
        for s in self.opponents():
            for p in self.cards(s):
                if best is None or self.est(s, p) < self.est(*best):
                    best = (s, p)
        return best

    def best_receiver(self, positions, card: int | None) -> tuple[int | None, int]:
        """(p, n * gain): of its own ``positions``, the one where ``card`` (None: a card it
        does not know) would lower its estimate most, in place of the card there (pairs
        counted); ties to the lowest."""
        own = list(self.obs.known[self.obs.seat])
        now = self.policy.estimate(own, self.pool)
        best, best_gain = None, 0
        for p in sorted(positions):
            gain = now - self.policy.estimate(own[:p] + [card] + own[p + 1:], self.pool)
            if best is None or gain > best_gain:
                best, best_gain = p, gain
        return best, best_gain

    def swap_gain(self) -> int:
        """How much a blind swap lowers its estimate (n units; <= 0: no gain): the best
        opponent card into its position where that card gains most."""
        mine = self.cards(self.obs.seat)
        theirs = self.best_opponent_card()
        if not mine or theirs is None:
            return 0
        return self.best_receiver(mine, self.obs.known[theirs[0]][theirs[1]])[1]

    def peek_target(self, include_self: bool) -> tuple[int, int] | None:
        """The first card it does not know: its own (lowest position) when ``include_self``,
        else the opponents' in turn order."""
        obs = self.obs
        seats = ([obs.seat] if include_self else []) + self.opponents()
        for s in seats:
            for p in self.unknown(s, self.cards(s)):
                if obs.face_up[s][p] is None:
                    return s, p
        return None

    def known_matches(self, key: int, seats) -> list[tuple[int, int]]:
        """Cards it knows, in these seats (position order), of the pairing key ``key``."""
        return [(s, p) for s in seats for p in self.cards(s)
                if self.obs.known[s][p] is not None and self.table.key[self.obs.known[s][p]] == key]


def wants_power(view: PowerView, effect: int) -> bool:
    """Whether the greedy family uses a power it may use (when it does not place the card,
    docs/policies.md#power-cards): peeks when there is a card to learn, swaps when they gain,
    the Cumbia jack, the Dutch 8 and the shield always, the black king when it is not the
    lowest, the ace to remove a card (or else give one), a shuffle, flip, line swap or
    exchange when it has a target worth it, and the 2 when it wants one of its powers."""
    if effect != K.POW_COMBINE:
        return wants_single(view, effect)
    return combine_choice(view, None) is not None


def wants_single(view: PowerView, effect: int) -> bool:
    """wants_power for every effect but the Dutch 2's."""
    me = view.obs.seat
    if effect == K.POW_PEEK_OWN:
        return view.peek_target(True) is not None and view.peek_target(True)[0] == me
    if effect == K.POW_PEEK_OPP:
        return view.peek_target(False) is not None
    if effect == K.POW_PEEK_ANY:
        return view.peek_target(True) is not None
    if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_ANY_TWO):
        return view.swap_gain() > 0
    if effect == K.POW_SWAP_AFTER_PEEK_OPP:
        mine = view.cards(me)
        return bool(mine) and view.est(me, view.worst_own(mine)) > view.pool.S
    if effect in (K.POW_PEEK_BOTH_SWAP, K.POW_DRAW_TWO):
        return True
    if effect == K.POW_SHIELD:
        return exposed(view)
    if effect == K.POW_CANCEL_FINAL:
        return behind(view, seat_estimate(view, me))
    if effect == K.POW_GIVE_OR_REMOVE:
        return removal(view)[1] > 0 or giveable(view)
    if effect == K.POW_SHUFFLE_OPP:
        return shuffle_target(view) is not None
    if effect == K.POW_FLIP_OPP:
        return flip_target(view) is not None
    if effect == K.POW_SWAP_LINE:
        return line_target(view)[0] is not None
    if effect == K.POW_EXCHANGE_THIS:
        return exchange_gain(view) > 0
    return False


def combine_gain(view: PowerView, legal) -> tuple[int | None, int]:
    """(rank, n * gain): of the Dutch 2's powers that move cards (K.GREEDY_COMBINE_GAINS: the
    blind swap, the line swap, the exchange), among ``legal`` (None: the ranks the rules let
    it combine), the one that lowers its estimate most; (None, 0) when none does."""
    best, best_gain = None, 0
    for name in K.GREEDY_COMBINE_GAINS:
        rank = C.RANKS.index(name)
        if rank in legal if legal is not None else name in view.rules.dutch_powers:
            effect = DUTCH_EFFECTS[name]
            gain = view.swap_gain() if effect == K.POW_SWAP_OWN_OPP_BLIND else \
                line_target(view)[1] if effect == K.POW_SWAP_LINE else exchange_gain(view)
            if gain > best_gain:
                best, best_gain = rank, gain
    return best, best_gain


def combine_choice(view: PowerView, legal) -> int | None:
    """The Dutch 2's next power, among ``legal`` (None: the ranks the rules let it combine):
    the black king when it wants it, else the power that moves cards with the largest gain,
    else the first of K.GREEDY_COMBINE_ORDER it wants."""
    def ok(name):
        return C.RANKS.index(name) in legal if legal is not None else \
            name in view.rules.dutch_powers
    if ok("K") and wants_single(view, K.POW_CANCEL_FINAL):
        return C.RANKS.index("K")
    rank = combine_gain(view, legal)[0]
    if rank is not None:
        return rank
    for name in K.GREEDY_COMBINE_ORDER:
        if ok(name) and wants_single(view, DUTCH_EFFECTS[name]):
            return C.RANKS.index(name)
    return None


# ---- what a layout is worth to the seat -------------------------------------------------------
def seat_estimate(view: PowerView, s: int) -> int:
    """n * seat s's score as the seat estimates it from what it knows of the layout."""
    return view.policy.estimate(list(view.obs.known[s]), view.pool)


def behind(view: PowerView, mine: int) -> bool:
    """Is some opponent's estimate below ``mine``?"""
    return any(seat_estimate(view, s) < mine for s in range(len(view.obs.known))
               if s != view.obs.seat)


def leader(view: PowerView, legal) -> int | None:
    """Of the seats in ``legal`` but its own, the one with the lowest estimate (turn order on
    ties)."""
    me, n = view.obs.seat, len(view.obs.known)
    best = None
    for s in [(me + k) % n for k in range(1, n)]:
        if s in legal and (best is None or seat_estimate(view, s) < seat_estimate(view, best)):
            best = s
    return best


def removal(view: PowerView) -> tuple[int | None, int]:
    """(p, n * gain): the own card whose removal (its position emptied) lowers the estimate
    most, ties to the lowest position; (None, 0) when it has no card."""
    me = view.obs.seat
    own = list(view.obs.known[me])
    now = view.policy.estimate(own, view.pool)
    best, best_gain = None, 0
    for p in view.cards(me):
        gain = now - view.policy.estimate(own[:p] + [K.EMPTY0 + p] + own[p + 1:], view.pool)
        if best is None or gain > best_gain:
            best, best_gain = p, gain
    return best, best_gain


def can_draw(view: PowerView) -> bool:
    """Can a card be drawn from the stock (reshuffling the discard pile if need be)?"""
    obs = view.obs
    return obs.stock_count > 0 or (view.rules.stock_empty == "reshuffle_keep_top" and
                                   len(obs.discard) > 1)


def giveable(view: PowerView) -> bool:
    """May the Dutch ace give a card: the stock can be drawn and an unshielded opponent has
    room?"""
    obs = view.obs
    if not can_draw(view):
        return False
    return any(len(obs.known[s]) < K.MAX_POS or any(c is not None and is_empty(c)
                                                   for c in obs.known[s])
               for s in view.opponents())


# ---- the moves that hurt an opponent or end a lap ---------------------------------------------
def shuffle_target(view: PowerView) -> int | None:
    """The opponent with two face-down cards or more seen peeking at the most of them, one at
    least (turn order on ties)."""
    obs = view.obs
    best, most = None, 0
    for s in view.opponents():
        down = [p for p in range(len(obs.known[s])) if obs.face_up[s][p] is None]
        peeked = sum(1 for p in down if s in obs.peeked[s][p])
        if len(down) >= 2 and peeked > most:
            best, most = s, peeked
    return best


def flip_target(view: PowerView) -> tuple[int, int] | None:
    """The first face-down opponent card (turn order, positions ascending) it does not know
    and its owner was seen peeking at."""
    obs = view.obs
    for s in view.opponents():
        for p in range(len(obs.known[s])):
            if obs.face_up[s][p] is None and s in obs.peeked[s][p] and obs.known[s][p] is None:
                return s, p
    return None


def line_cells(rules: Rules, k: int) -> list[int]:
    """The positions of grid line k: rows 0..R-1, then columns R..R+C-1."""
    rows, cols = rules.grid_rows, rules.grid_cols
    return [k * cols + c for c in range(cols)] if k < rows else \
        [r * cols + (k - rows) for r in range(rows)]


def line_gain(view: PowerView, s: int, k: int) -> int:
    """n * how much swapping its line k with seat s's lowers its grid estimate."""
    npos = view.rules.n_positions
    own = list(view.obs.known[view.obs.seat][:npos])
    after = list(own)
    for p in line_cells(view.rules, k):
        after[p] = view.obs.known[s][p]
    return view.policy.estimate(own, view.pool) - view.policy.estimate(after, view.pool)


def best_line(view: PowerView, s: int) -> tuple[int, int]:
    """(k, n * gain) of the line whose swap with seat s gains most (the lowest of equals)."""
    gains = [line_gain(view, s, k) for k in range(view.rules.grid_rows + view.rules.grid_cols)]
    k = max(range(len(gains)), key=lambda i: (gains[i], -i))
    return k, gains[k]


def line_target(view: PowerView) -> tuple[int | None, int]:
    """(seat, n * gain): the opponent whose best line swap lowers its estimate most, by a point
    at least (turn order on ties); (None, 0) for none."""
    if view.rules.layout_mode == "hand":
        return None, 0
    best, best_gain = None, max(view.pool.n, 1) - 1
    for s in view.opponents():
        gain = best_line(view, s)[1]
        if gain > best_gain:
            best, best_gain = s, gain
    return best, (best_gain if best is not None else 0)


def exchange_target(view: PowerView) -> tuple[tuple[int, int] | None, int]:
    """The Dutch 9's card: ((seat, pos), n * score) of the opponent card it knows whose best
    placement gain less its value is largest (exchange_gain but for the held card's value),
    turn order, then positions, on ties; (None, 0) when it would place none."""
    obs, value, policy, pool = view.obs, view.table.value, view.policy, view.pool
    own = list(obs.known[obs.seat])
    now = policy.estimate(own, pool)
    best, best_score = None, 0
    for s in view.opponents():
        for q, card in enumerate(obs.known[s]):
            if card is None or is_empty(card):
                continue
            p = policy.best_placement(obs, card, pool)
            if p is not None:
                score = now - policy.estimate(own[:p] + [card] + own[p + 1:], pool) - \
                    value[card] * pool.n
                if best is None or score > best_score:
                    best, best_score = (s, q), score
    return best, best_score


def exchange_gain(view: PowerView) -> int:
    """n * what the Dutch 9 (or the 2 that plays it) gains when the held card goes to the
    opponent for exchange_target's card: its placement gain, less what the opponent gains
    (that card's value less the held card's); 0 when it has no card to take."""
    target, score = exchange_target(view)
    if target is None or view.held is None:
        return 0
    return max(score + view.table.value[view.held] * view.pool.n, 0)


def exposed(view: PowerView) -> bool:
    """The shield's reason: an own card below the pool's mean that an opponent knows (face up,
    or seen peeked at by another seat), which an opponent's swap would take."""
    obs, me = view.obs, view.obs.seat
    return any(c is not None and not is_empty(c) and view.table.value[c] * view.n < view.pool.S
               and (obs.face_up[me][p] is not None or obs.peeked[me][p] - {me})
               for p, c in enumerate(obs.known[me]))


def beats_placement(view: PowerView, effect: int, held: int, place: int) -> bool:
    """Is the held card's power worth more than placing it at ``place``, by how much each
    lowers the estimate? The Dutch ace's removal when it lowers it more; the black king when
    the seat would not be the lowest even with the king placed; the Dutch 2 for the king's
    reason, or when one of its powers that move cards gains more (combine_gain)."""
    if effect not in (K.POW_GIVE_OR_REMOVE, K.POW_CANCEL_FINAL, K.POW_COMBINE):
        return False
    obs, pool, policy = view.obs, view.pool, view.policy
    own = list(obs.known[obs.seat])
    gain = policy.estimate(own, pool) - policy.estimate(own[:place] + [held] + own[place + 1:],
                                                         pool)
    if effect == K.POW_GIVE_OR_REMOVE:
        return removal(view)[1] > gain
    combine = effect == K.POW_COMBINE
    if (not combine or ("K" in view.rules.dutch_powers and obs.ender is not None)) and \
            behind(view, seat_estimate(view, obs.seat) - gain):
        return True
    return combine and combine_gain(view, None)[1] > gain


# ---- Cactus's turn on the top discard's power; Cabo's blind matches -------------------------
def turn_power_wanted(view: PowerView) -> bool:
    """A whole turn on the top discard's unused power (Cactus), instead of a draw: a blind
    swap it wants (a peek is not worth a turn: docs/policies.md#power-cards)."""
    effect = effect_of(view.rules, view.obs.discard[-1])
    return effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_ANY_TWO) and view.swap_gain() > 0


def key_pool(view: PowerView, key: int) -> tuple[int, int, int, int]:
    """(m, v, n, S): the cards the seat has not seen (the deck but the discard pile, the held
    card and every card it knows in a layout): n cards worth S, m of them of pairing key
    ``key``, worth v."""
    value, keys, obs = view.table.value, view.table.key, view.obs
    seen = list(obs.discard) + ([obs.held] if obs.held is not None else []) + \
        [c for row in obs.known for c in row if c is not None and not is_empty(c)]
    unseen = list(view.table.deck)
    for c in seen:
        unseen.remove(c)
    of_key = [c for c in unseen if keys[c] == key]
    return (len(of_key), sum(value[c] for c in of_key), len(unseen),
            sum(value[c] for c in unseen))


def blind_match(view: PowerView) -> tuple[int, int] | None:
    """Cabo: a card it does not know to match the held card against, when the chance that it
    has the held card's key (m of the n cards it has not seen) pays for the penalty cards of
    a miss (each worth S/n): its own first face-down card it does not know (a hit removes a
    card of the key: v/m), else an opponent's (turn order; a hit gives that opponent its
    worst card)."""
    obs, value = view.obs, view.table.value
    me, players = obs.seat, len(obs.known)
    m, v, n, S = key_pool(view, view.table.key[obs.held])
    if m <= 0 or n <= 0:
        return None
    cost = (n - m) * view.rules.match_fail_penalty_cards * S if can_draw(view) else 0

    def first_unknown(s):
        return next((p for p in range(len(obs.known[s]))
                     if obs.known[s][p] is None and obs.face_up[s][p] is None), None)
    p = first_unknown(me)
    if p is not None and v * n > cost:
        return me, p
    worst = max([0] + [S if c is None else value[c] * n for c in obs.known[me]
                       if c is None or not is_empty(c)])
    if m * worst <= cost:
        return None
    for s in [(me + k) % players for k in range(1, players)]:
        q = first_unknown(s)
        if q is not None:
            return s, q
    return None


def pablo_nomination(view: PowerView) -> list[int]:
    """Pablo: its known own cards of the key whose two or more cards it knows total the most,
    when that total is above the held card's value (else nothing)."""
    me, obs = view.obs.seat, view.obs
    by_key: dict[int, list[int]] = {}
    for p in view.cards(me):
        if obs.known[me][p] is not None:
            by_key.setdefault(view.table.key[obs.known[me][p]], []).append(p)
    best, best_total = [], view.table.value[obs.held] if obs.held is not None else 0
    for positions in by_key.values():
        total = sum(view.table.value[obs.known[me][p]] for p in positions)
        if len(positions) >= 2 and total > best_total:
            best, best_total = positions, total
    return best


def cabo_nomination(view: PowerView) -> list[tuple[int, int]]:
    """Cabo: every card it knows of the held card's key, its own first, then the others in
    turn order."""
    me, n = view.obs.seat, len(view.obs.known)
    return view.known_matches(view.table.key[view.obs.held],
                              [me] + [(me + k) % n for k in range(1, n)])


def snap_target(view: PowerView, rules: Rules) -> tuple[int, int] | None:
    """The card greedy snaps: an own known card of the top's key worth more than 0, else
    (Cumbia) an opponent's known card of that key when it knows an own card worth more than 0
    to give back."""
    obs, me = view.obs, view.obs.seat
    key = view.table.key[obs.discard[-1]]
    own = [(s, p) for s, p in view.known_matches(key, [me]) if view.est(s, p) > 0]
    if own:
        return own[0]
    if rules.snap_mode == "cumbia" and any(
            obs.known[me][p] is not None and view.est(me, p) > 0 for p in view.cards(me)):
        others = view.known_matches(key, view.opponents() +
                                    [s for s in range(len(obs.known)) if obs.shielded[s]
                                     and s != me])
        if others:
            return others[0]
    return None


def greedy_calls(view: PowerView) -> bool:
    """Greedy calls (end trigger call) when it knows every card of its layout and their total
    plus K.GREEDY_CALL_MARGIN is at most every opponent's estimate; and, its stall rule, at once
    once the stock has been reshuffled GREEDY_STALL_RESHUFFLES times in the hole (a table of
    greedy players that never gets to know its cards, e.g. after Cactus's penalty cards,
    would otherwise play on to the turn cap)."""
    me, n = view.obs.seat, len(view.obs.known)
    if view.obs.reshuffles >= K.GREEDY_STALL_RESHUFFLES:
        return True
    if view.unknown(me, view.cards(me)):
        return False
    mine = view.total(me)
    return all(mine + K.GREEDY_CALL_MARGIN * view.n <= view.total(s)
               for s in range(n) if s != me)

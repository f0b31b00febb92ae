"""A six-card Golf bot as such bots are commonly written in plain Python (a class keeping what
it thought at the start of its turn, lists of cards, ranks by name): the original of the port
in strategies/examples/rule_bot.py, which docs/user_policies.md walks through.
tests/test_policy_port.py asks both the same questions and demands the same answers."""

LOW = 2            # a discard worth this or less is worth taking
GO_OUT_BELOW = 10  # never turn the last face-down card up with more than this


class RuleBot:
    def __init__(self, value):
        self.value = value          # card -> points under the rules
        self.mean = 0.0             # what an unseen card is worth, as judged at the turn's start

    @staticmethod
    def rank(card):
        return "A23456789TJQK"[card % 54 % 13] if card % 54 < 52 else "*"

    def partner(self, p):
        return p + 3 if p < 3 else p - 3

    def pairs_at(self, mine, card):
        """A position where the card completes a column pair (its partner shows that rank and
        is not paired already)."""
        for p in range(6):
            q = self.partner(p)
            if mine[q] is not None and self.rank(mine[q]) == self.rank(card) and \
                    not (mine[p] is not None and self.rank(mine[p]) == self.rank(mine[q])):
                return p
        return None

    def worst(self, mine):
        """The known card worth most that is not in a pair."""
        best, where = None, None
        for p, c in enumerate(mine):
            q = mine[self.partner(p)]
            if c is None or (q is not None and self.rank(q) == self.rank(c)):
                continue
            if best is None or self.value[c] > best:
                best, where = self.value[c], p
        return where

    def start_turn(self, mine, top, deck, seen):
        """'discard' or 'stock'. ``deck``: every card; ``seen``: the cards face up on the
        table and in the discard pile."""
        unseen = list(deck)
        for c in seen:
            unseen.remove(c)
        self.mean = sum(self.value[c] for c in unseen) / len(unseen)
        if top is not None and (self.pairs_at(mine, top) is not None or self.value[top] <= LOW):
            return "discard"
        return "stock"

    def place(self, mine, card, may_discard):
        """A position for the card, or None to discard it."""
        p = self.pairs_at(mine, card)
        if p is not None:
            return p
        w = self.worst(mine)
        if w is not None and self.value[card] + 1 <= self.value[mine[w]]:
            return w
        down = [p for p in range(6) if mine[p] is None]
        if down and self.value[card] < self.mean:
            total = sum(self.value[c] for c in mine if c is not None) + self.value[card]
            if len(down) > 1 or total <= GO_OUT_BELOW or not may_discard:
                return down[0]
        if may_discard:
            return None
        return w if w is not None else (down[0] if down else 0)

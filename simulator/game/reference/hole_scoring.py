"""A hole's scores from its layout values (docs/rules.md#scoring-a-hole)."""

from __future__ import annotations

from ..rules import Rules

BLACKJACK = 21             # twenty_one_scores_zero: the layout value that becomes 0


def ender_score(rules: Rules, layout_values: list[int], ender: int) -> int:
    """docs/rules.md#ender-scoring: the ender's hole score from s = L[ender], clamped so that a
    penalty never lowers and a bonus never raises the score."""
    L = layout_values
    s = L[ender]
    n = len(L)
    others = [L[q] for q in range(n) if q != ender]
    m = min(others)
    if s < m:
        lowest = True
    elif s > m:
        lowest = False
    elif rules.ender_tie == "neutral":
        return s
    else:
        lowest = rules.ender_tie == "counts_as_lowest"
    if lowest:
        bonus = {"none": s, "zero": 0, "minus_players": s - n, "fixed_minus_10": -10}
        f = bonus[rules.ender_bonus]
        return min(f, s) if rules.ender_clamp else f
    penalty = {"none": s, "plus_10": s + 10, "plus_20": s + 20, "double_plus_5": 2 * s + 5,
               "double": 2 * s, "equal_highest": max(L), "plus_twice_players": s + 2 * n,
               "plus_lowest_score": s + m, "plus_highest_opponent": s + max(others)}
    f = penalty[rules.ender_penalty]
    return max(f, s) if rules.ender_clamp else f


def hole_scores(rules: Rules, layout_values: list[int], ender: int, knocked: bool = False,
                couples: list[int] | None = None, extra: list[int] | None = None) -> list[int]:
    """Hole scores from the layout values (docs/rules.md#scoring-a-hole steps 3-5). ``ender``
    is -1 when the hole had none; ``couples[p]`` counts the quads/blocks seat p scored (for
    quad_others_penalty); ``extra[p]`` is a per-seat penalty incurred during the hole."""
    L = twenty_one_zero(rules, layout_values)
    n = len(L)
    couples = couples or [0] * n
    extra = extra or [0] * n
    scores = [L[p] + extra[p] for p in range(n)]
    # step 3: every other player pays for each quad someone scored ([000])
    if rules.quad_others_penalty:
        for q in range(n):
            for p in range(n):
                if p != q:
                    scores[p] += rules.quad_others_penalty * couples[q]
    # step 4: the ender's adjustment
    applies = ender >= 0 and (rules.ender_rule_applies_to == "any_ender" or knocked)
    if applies and (rules.ender_penalty != "none" or rules.ender_bonus != "none"):
        scores[ender] += ender_score(rules, L, ender) - L[ender]
    if applies:
        scores[ender] += rules.ender_extra
    # non_caller_rule (Cactus): a player who did not call and whose layout value is at most
    # the caller's scores 0 (its points incurred during the hole still count)
    if ender >= 0 and rules.non_caller_rule == "zero_if_not_above_caller":
        for q in range(n):
            if q != ender and L[q] <= L[ender]:
                scores[q] = extra[q]
    # step 5: hole-level transforms
    if rules.lowest_scores_zero:
        low = min(L)
        for p in range(n):
            if L[p] == low:
                scores[p] = 0
        if ender >= 0 and L[ender] != low:
            scores[ender] += low
    if rules.shoot_the_moon is not None:
        moon = rules.shoot_the_moon
        # AMB-30: judged on the layout value, before ender adjustments; several players may
        # shoot the moon, each one triggering the effect
        shooters = [q for q in range(n) if L[q] == moon]
        for q in shooters:
            scores[q] = 0           # "scores 0 instead"
        for q in shooters:
            for p in range(n):
                if p != q:
                    scores[p] += moon
    # step 6: the lowest hole score's bonus, then the penalty for a shared score
    if rules.lowest_bonus:
        low = min(scores)
        scores = [v + rules.lowest_bonus if v == low else v for v in scores]
    if rules.tie_penalty:
        shared = [v for v in scores if scores.count(v) > 1]
        scores = [v + rules.tie_penalty if v in shared else v for v in scores]
    return scores


def twenty_one_zero(rules: Rules, layout_values: list[int]) -> list[int]:
    """The layout values with twenty_one_scores_zero applied: exactly 21 is worth 0."""
    if not rules.twenty_one_scores_zero:
        return list(layout_values)
    return [0 if v == BLACKJACK else v for v in layout_values]

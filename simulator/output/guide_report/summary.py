"""The rules of thumb at the top of a guide, its verdict and how it was measured."""

from __future__ import annotations

from ...experiments import stats
from ...experiments.guide import (LINE_SITUATIONS, RANK_TABLES, SAY_TABLES, SWEEPS, GuideResult,
                                  early_count, entry_name, equal_word, has_lines, knock_words,
                                  line_word)
from ...game.cards import RANK_NAMES
from ...game.rules import Rules
from .data import _value_text, check_summary
from .tables import _against, _reveal_words
from .words import BASELINE, MAX_RULES, Rule, _capital, _ranks_text


def _situation_phrase(rules: Rules, situation: str) -> str:
    line = line_word(rules) if has_lines(rules) else ""
    nothing = ", when they pair nothing" if rules.pair_scope != "none" else ""
    return {"line3": f"when they complete a {line} of three",
            "line2": f"when they match one card of a {line} whose other two places are open",
            "pair": "when they pair one of your cards",
            "early": f"early in the round ({early_count(rules)} or more of your cards unknown)"
                     f"{nothing}",
            "late": f"later in the round{nothing}",
            "last": f"on your last turn{nothing}",
            "other": "that pair nothing" if rules.pair_scope != "none" else ""}[situation]


def _say_rule_text(rules: Rules, table: str, situation: str, yes: bool, ranks: str) -> str:
    """A rule of thumb of the tables of powers, snaps and matches."""
    equal = equal_word(rules)
    if table == "power":
        return (f"Use the power of {ranks} drawn from the stock when you do not keep them"
                if yes else f"Discard {ranks} drawn from the stock unused when you do not "
                "keep them")
    if table == "snap":
        whose = "your own" if situation == "own" else "an opponent's"
        back = ", giving one of yours back" if situation == "opponent" else ""
        return (f"Snap {whose} {ranks} that you know when a matching card is discarded{back}"
                if yes else f"Do not snap {whose} {ranks} when a matching card is discarded")
    if situation == "blind":
        return (f"Match {ranks} you hold blind when you know no card of their {equal} and do "
                "not keep them" if yes else f"Never match {ranks} blind")
    if rules.turn_match_mode == "pablo_multi_replace":
        return (f"Replace two or more of your {ranks} with the card you hold whenever you know "
                "them" if yes else f"Never replace your {ranks} with the card you hold")
    return (f"Match {ranks} you hold whenever you know a card of their {equal}" if yes else
            f"Do not match {ranks} you hold, even when you know a card of their {equal}")


def _rule_text(rules: Rules, table: str, situation: str, yes: bool, ranks: str) -> str:
    if table in SAY_TABLES:
        return _say_rule_text(rules, table, situation, yes, ranks)
    phrase = _situation_phrase(rules, situation)
    lines = situation in LINE_SITUATIONS
    line = line_word(rules) if lines else ""
    lower = "" if lines or situation == "pair" else ", if they lower your score"
    if table == "down":
        kept = f"{ranks} you keep {phrase}".rstrip()
        return (f"Put {kept} over a face-down card, not over your highest face-up card" if yes
                else f"Put {kept} where they save most, not over a face-down card")
    source = "from the discard pile" if table == "take" else "drawn from the stock"
    verb = "Take" if table == "take" else "Keep"
    if yes:
        there = f", and put them in that {line}" if lines else ""
        return f"{verb} {ranks} {source} {phrase}{there}{lower}"
    if lines:
        just = {"line3": f"complete a {line} of three",
                "line2": f"match one card of a {line}"}[situation]
        return (f"Don't {verb.lower()} {ranks} {source} just because they {just}: play them "
                "like any other card")
    if table == "take":
        return f"Don't take {ranks} from the discard pile {phrase}: draw from the stock"
    return f"Discard {ranks} drawn from the stock {phrase}"


def rules_of_thumb(result: GuideResult) -> tuple[list[Rule], int]:
    """The clear advice of the tables as rules a player can apply, the most valuable first,
    and how many there are in all (at most MAX_RULES are listed). The ranks with the same
    clear advice in one situation make one rule; its worth is the sum of their measured
    effects (the chosen option over the other), with the paired interval of that sum over
    the same deals."""
    groups: dict[tuple, list] = {}
    for e in result.entries:
        if e.table in RANK_TABLES and e.clear and e.diffs is not None:
            groups.setdefault((e.table, e.situation, e.chosen == e.a), []).append(e)
    rules = []
    for (table, situation, yes), entries in groups.items():
        d = sum(e.diffs if yes else -e.diffs for e in entries)
        w = stats.paired_interval(d.sum(), (d * d).sum(), d.size)
        if not (w.lo > 0 or w.hi < 0):
            continue
        ranks = _ranks_text([entry_name(result.rules, table, RANK_NAMES.index(e.row))
                             for e in entries])
        rules.append(Rule(_rule_text(result.rules, table, situation, yes, ranks),
                          float(w.mean), float(w.lo), float(w.hi)))
    for e in result.entries:
        if e.table == "reveal" and e.clear:
            what, apart, together = _reveal_words(result.rules)
            yes = e.chosen == e.a
            lo, hi = (e.win.lo, e.win.hi) if yes else (-e.win.hi, -e.win.lo)
            rules.append(Rule(f"{what} {apart if yes else together}, not "
                              f"{together if yes else apart}",
                              float(e.win.mean if yes else -e.win.mean), float(lo), float(hi)))
    for th in result.thresholds:
        if th.start not in th.values or th.best == th.start:
            continue
        i = th.values.index(th.start)   # the baseline's threshold, against the best
        lo, hi = -float(th.diff.hi[i]), -float(th.diff.lo[i])
        if not lo > 0:
            continue
        text = (f"Go out only when your score would then be at most {_value_text(th.best)}"
                if th.table == "out" else
                f"{_capital(knock_words(result.rules)[0])} when your estimated score is at "
                f"most {_value_text(th.best)}")
        text += (", rather than whenever you can" if th.start >= 1000 else
                 ", rather than never" if th.start <= -1000 else
                 f", rather than at {_value_text(th.start)}")
        rules.append(Rule(text, -float(th.diff.mean[i]), lo, hi,
                          _against(th, result.players, result.rules)))
    rules.sort(key=lambda r: -r.worth)
    return rules[:MAX_RULES], len(rules)


def rules_of_thumb_lines(result: GuideResult) -> list[str]:
    rules, total = rules_of_thumb(result)
    if not rules:
        return ["No entry made a clear difference on these deals: play as the baseline player "
                "does (more --deals narrow the intervals)."]
    lines = [r.line() for r in rules]
    if total > len(rules):
        lines.append(f"({total - len(rules)} more clear rules in the tables below.)")
    return lines


RULES_OF_THUMB_NOTE = ("The clear advice of the tables below, the most valuable first. Worth: "
                       "what following the rule adds to your share of rounds won, at a table "
                       "of baseline players unless it says otherwise (the sum of the measured "
                       "entries it stands for, ± its paired 95% interval).")


def verdict_line(result: GuideResult) -> str:
    c = check_summary(result)
    if c is None:
        return "The guide was not checked (--check-rounds 0)."
    diff = c["guide_win"] - c["field_win"]
    se = 2 * c["guide_win_se"]   # the two shares sum to 1, so their difference moves twice
    beats = diff - 1.96 * se > 0
    return (f"Checked: a player following these tables won {100 * c['guide_win']:.2f}% "
            f"(±{196 * c['guide_win_se']:.2f}) of the rounds against {BASELINE}' "
            f"{100 * c['field_win']:.2f}% over {c['rounds']:,} rounds on fresh deals (seed "
            f"{c['seed']}), every seating of {result.players} players: "
            f"{'it beats them' if beats else 'it does NOT clearly beat them'} by "
            f"{100 * diff:.2f} ± {196 * se:.2f} percentage points; its seats score "
            f"{c['score_diff']:+.3f} ± {1.96 * c['score_diff_se']:.3f} points a round against "
            "theirs.")


def method_lines(result: GuideResult) -> list[str]:
    out = [
        f"Every entry was measured on the same {result.deals:,} deals (seed {result.seed}), "
        f"the guided player taking each of the {result.players} seats in turn against "
        f"{result.players - 1} baseline players: the two versions of the tables that differ in "
        "that entry alone played identical deals, so the difference is paired (common random "
        "numbers).",
        "Entries were settled one after another, starting from tables that play exactly as "
        "the baseline player" + (" (knocking at 8)" if result.field == "knock-threshold" else "")
        + (f", except that they complete a {line_word(result.rules)} of three whenever a card "
           "can and keep it (the entries for joining one then measure where that leads); the "
           f"entries for lines came first, joining a {line_word(result.rules)} before "
           "completing one" if has_lines(result.rules) else "")
        + "; a change was kept only when it won clearly (its 95% interval leaves out zero).",
    ]
    if result.thresholds:
        out.append("Thresholds were swept on the same deals against players who follow the "
                   "guide's tables themselves, starting from the baseline's threshold; the "
                   "best reply became the others' threshold and the sweep was repeated (at "
                   f"most {SWEEPS} times) until the best reply was what the others play.")
    out += [
        "Win share: the share of rounds with the lowest score, a k-way tie counting 1/k.",
        f"The finished guide plays as the strategy `{result.spec}`.",
    ]
    return out

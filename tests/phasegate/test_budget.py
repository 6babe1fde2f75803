"""Budget plans per docs/phase-gate.md, including the corrected original examples."""

from __future__ import annotations

import pytest

from summarizer.core.errors import EscalationRequired, InputError
from summarizer.phasegate.budget import (
    BudgetItem,
    TrimItem,
    allocate_phase,
    carryover,
    per_phase_budget,
    place_entries,
    plan_batch,
    trim_plan,
)


@pytest.mark.parametrize(
    ("phases", "budget"), [(None, 12), (8, 12), (10, 10), (3, 33), (1, 100), (20, 5), (30, 5), (7, 14)]
)
def test_per_phase_budget(phases: int | None, budget: int) -> None:
    """max(5, floor(100 / phases)), 8 phases by default."""
    assert per_phase_budget(phases) == budget


def test_per_phase_budget_rejects_zero_phases() -> None:
    """0 phases is a usage error naming the flag."""
    with pytest.raises(InputError, match="--phases"):
        per_phase_budget(0)


@pytest.mark.parametrize(
    ("budget", "used", "carried"),
    [
        (12, 4, 1),
        (13, 5.5, 1),
        (12, 12, 0),
        (12, 15, 0),
        (100, 0, 20),
        (10, 7.5, 0),
        (12, 6.5, 1),
        (12, 2, 2),
    ],
)
def test_carryover_is_floor_of_20_percent_of_unused(budget: float, used: float, carried: int) -> None:
    """12 budgeted, 4 used: 8 unused, 1 carried (the original "8 lines carried" is wrong)."""
    assert carryover(budget, used) == carried


def seed_phases() -> list[tuple[str | None, list[BudgetItem]]]:
    return [
        ("1", [BudgetItem("A", 0.82, "CRITICAL"), BudgetItem("B", 0.45, "MEDIUM")]),
        (
            "2",
            [BudgetItem("C", 0.91, "CRITICAL"), BudgetItem("D", 0.67, "HIGH"), BudgetItem("E", 0.21, "LOW")],
        ),
    ]


def test_seed_budget_example_with_corrected_carryover() -> None:
    """Example: phase 1 uses 4 of 12 and carries 1 (not 8); phase 2 has 13, D is expanded, 5.5 used."""
    plan = plan_batch(seed_phases())
    one, two = plan.phases
    assert (one.budget, one.used, one.carryover) == (12, 4, 1)
    assert (two.carry_in, two.available) == (1, 13)
    modes = {a.id: (a.mode, a.cost) for a in two.allocations}
    assert modes == {"C": ("expanded", 3), "D": ("expanded", 2), "E": ("aggressive", 0.5)}
    assert two.used == 5.5
    assert plan.used == 9.5
    # The original example says D saw "20 remaining lines"; after minimum costs 13 - 4.5 = 8.5 remain.
    assert two.available - (3 + 1 + 0.5) == 8.5
    assert two.carryover == 1  # floor(0.2 x 7.5)


def test_high_upgrades_go_in_score_order_until_the_budget_runs_out() -> None:
    """Minimum costs first; one spare line upgrades only the best-scored HIGH entry."""
    items = [
        BudgetItem("low-high", 0.55, "HIGH"),
        BudgetItem("crit", 0.8, "CRITICAL"),
        BudgetItem("top-high", 0.7, "HIGH"),
    ]
    plan = allocate_phase(items, budget=6)
    modes = {a.id: a.mode for a in plan.allocations}
    assert modes == {"crit": "expanded", "top-high": "expanded", "low-high": "standard"}
    assert [a.id for a in plan.allocations] == ["crit", "top-high", "low-high"]
    assert allocate_phase(items, budget=5).used == 5  # no spare line: both HIGH stay standard


def test_carry_in_is_spent_on_upgrades() -> None:
    """The carried line counts as budget."""
    items = [BudgetItem("c", 0.8, "CRITICAL"), BudgetItem("h", 0.6, "HIGH")]
    assert allocate_phase(items, budget=4, carry_in=0).allocations[1].mode == "standard"
    assert allocate_phase(items, budget=4, carry_in=1).allocations[1].mode == "expanded"


def test_critical_is_never_reduced_past_the_budget_and_the_plan_says_so() -> None:
    """Three CRITICAL entries in a 5-line phase still cost 9 lines; the plan is flagged."""
    plan = allocate_phase([BudgetItem(str(i), 0.9, "CRITICAL") for i in range(3)], budget=5, phase="2a")
    assert all(a.mode == "expanded" and a.cost == 3 for a in plan.allocations)
    assert plan.used == 9 and plan.over_budget and plan.carryover == 0
    assert "CRITICAL entries are never reduced" in plan.flags[0]


def test_more_than_five_critical_raise_the_overflow_flag() -> None:
    """6 CRITICAL in a phase: the "Budget risk" flag; 5 is fine."""
    six = allocate_phase([BudgetItem(str(i), 0.9, "CRITICAL") for i in range(6)], budget=12, phase="3")
    five = allocate_phase([BudgetItem(str(i), 0.9, "CRITICAL") for i in range(5)], budget=12, phase="3")
    assert any("Phase 3 has 6 > 5 CRITICAL entries. Budget risk." in f for f in six.flags)
    assert not any("Budget risk" in f for f in five.flags)


def test_critical_alone_over_100_escalates_with_the_three_options() -> None:
    """34 CRITICAL entries need 102 lines: escalate, and check() raises for writers."""
    plan = allocate_phase([BudgetItem(str(i), 0.9, "CRITICAL") for i in range(34)], budget=12)
    assert plan.escalation is not None
    for option in ("(1) increase budget", "(2) increase TOTAL_BUDGET permanently", "(3) split phase"):
        assert option in plan.escalation
    assert "102 lines" in plan.escalation
    with pytest.raises(EscalationRequired):
        plan.check()
    assert (
        allocate_phase([BudgetItem(str(i), 0.9, "CRITICAL") for i in range(33)], budget=12).escalation is None
    )


def test_escalation_counts_critical_across_the_batch() -> None:
    """17 + 17 CRITICAL in two phases is 102 lines: the batch escalates."""
    phases = [(p, [BudgetItem(f"{p}{i}", 0.9, "CRITICAL") for i in range(17)]) for p in ("1", "2")]
    plan = plan_batch(phases)
    assert plan.escalation and "102" in plan.escalation
    with pytest.raises(EscalationRequired):
        plan.check()


def low(id_: str, score: float, date: str) -> TrimItem:
    return TrimItem(id_, "LOW", score, 0.5, date)


def test_trim_removes_low_lowest_score_then_oldest_first() -> None:
    """C7: LOW entries go first, lowest score first, the older of two equal scores first."""
    items = [
        TrimItem("crit", "CRITICAL", 0.9, 99, "2026-01-01"),
        low("new-tie", 0.1, "2026-03-01"),
        low("old-tie", 0.1, "2026-01-01"),
        low("better", 0.2, "2026-01-01"),
        TrimItem("med", "MEDIUM", 0.3, 1, "2026-01-01"),
    ]
    plan = trim_plan(items, month="2026-06")
    assert plan.before == 101.5
    assert plan.remove == ("old-tie", "new-tie", "better")
    assert plan.after == 100
    assert plan.cut_to_filename == ()
    assert plan.archive == plan.remove
    assert plan.archive_path == "_notes/archive/2026-06-compressed-entries.md"


def test_trim_cuts_medium_to_filename_only_after_low_runs_out() -> None:
    """No LOW left: MEDIUM entries drop to 0.5 lines, lowest score first; CRITICAL/HIGH untouched."""
    items = [
        TrimItem("crit", "CRITICAL", 0.9, 99, ""),
        TrimItem("high", "HIGH", 0.6, 2, ""),
        TrimItem("m1", "MEDIUM", 0.4, 1, ""),
        TrimItem("m2", "MEDIUM", 0.3, 1, ""),
    ]
    plan = trim_plan(items, month="2026-06")
    assert plan.remove == ()
    assert plan.cut_to_filename == ("m2", "m1")
    assert plan.after == 102
    assert plan.protected_over_cap  # 99 + 2 > 100
    assert any("never dropped" in m for m in plan.messages)
    assert set(plan.archive) == {"m1", "m2"}


def test_no_trim_under_the_cap() -> None:
    """At or under 100 lines nothing changes and nothing is archived."""
    plan = trim_plan([TrimItem("a", "LOW", 0.1, 0.5, "")] * 3, month="2026-06")
    assert not plan.needed and plan.archive == () and plan.archive_path == ""


@pytest.mark.parametrize(
    ("available", "costs", "remaining"),
    [
        (3.5, [1.0, 2.0, 0.5], 0.0),  # one whole line left: the higher-scored HIGH is upgraded
        (3.25, [1.0, 1.0, 0.5], 0.75),  # less than a line: no upgrade
        (5.0, [2.0, 2.0, 0.5], 0.5),
        (1.0, [1.0, 1.0, 0.5], -1.5),  # minimum costs are never cut; the caller flags the overrun
    ],
)
def test_place_entries_upgrades_high_in_score_order_with_whole_lines(
    available: float, costs: list[float], remaining: float
) -> None:
    """The rule the phase plan and the bank gate share; the bank can have a half line left."""
    placed, upgraded, left = place_entries(["HIGH", "HIGH", "LOW"], [0.6, 0.7, 0.1], available)
    assert (placed, left) == (costs, remaining)
    assert upgraded == [cost == 2.0 for cost in costs]

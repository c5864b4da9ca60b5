//! The executor at its boundary: rows written as sheets, run against the test world, judged
//! by the steps they write and the world they leave.

mod common;

use common::{handlers, problems, render, row, seat, sheet, table, thing, World};
use turnstile_core::determinism::{Chance, Fingerprint};
use turnstile_core::Seat;
use turnstile_effects::{
    EffectError, EffectHost, EffectTable, Event, Executor, Limits, Step, Trigger,
};

/// Resolves `event` and returns the steps.
fn run(table: &EffectTable, world: &mut World, event: Event) -> Vec<Step> {
    let handlers = handlers();
    let mut executor = Executor::new(table, &handlers);
    let mut steps = Vec::new();
    executor
        .resolve(world, event, &mut steps)
        .unwrap_or_else(|e| panic!("{e}"));
    steps
}

fn turn_start(s: u16) -> Event {
    Event::new(Trigger::OnTurnStart).by(Seat(s))
}

#[test]
fn rows_run_in_the_hosts_owner_order_then_by_row_order() {
    // Written out of order on purpose: neither file order nor owner ids decide.
    let t = table(&sheet(&[
        &row(
            "card:a",
            "1",
            "OnTurnStart",
            "Damage",
            "Opponent",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:b",
            "1",
            "OnTurnStart",
            "Damage",
            "Opponent",
            &[("operation.amount", "2")],
        ),
        &row(
            "card:a",
            "0",
            "OnTurnStart",
            "Damage",
            "Opponent",
            &[("operation.amount", "3")],
        ),
        &row(
            "card:b",
            "0",
            "OnTurnStart",
            "Damage",
            "Opponent",
            &[("operation.amount", "4")],
        ),
    ]));
    let mut world = World::new();
    world.place("card:b", seat(0), Some(Seat(0)));
    world.place("card:a", seat(0), Some(Seat(0)));
    let steps = run(&t, &mut world, turn_start(0));
    assert_eq!(
        render(&steps),
        [
            "card:b#0 Damage(health) seat1 20->16",
            "card:b#1 Damage(health) seat1 16->14",
            "card:a#0 Damage(health) seat1 14->11",
            "card:a#1 Damage(health) seat1 11->10",
        ]
    );

    // The host's order is the rule: swap the slots, and the order of execution follows.
    let mut world = World::new();
    world.place("card:a", seat(0), Some(Seat(0)));
    world.place("card:b", seat(0), Some(Seat(0)));
    let steps = run(&t, &mut world, turn_start(0));
    let owners: Vec<String> = steps
        .iter()
        .map(|s| format!("{}#{}", s.owner, s.row))
        .collect();
    assert_eq!(owners, ["card:a#0", "card:a#1", "card:b#0", "card:b#1"]);
}

#[test]
fn only_rows_of_the_events_trigger_run() {
    let t = table(&sheet(&[
        &row(
            "card:a",
            "0",
            "OnTurnEnd",
            "Damage",
            "Owner",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:a",
            "1",
            "OnTurnStart",
            "Damage",
            "Owner",
            &[("operation.amount", "2")],
        ),
    ]));
    let mut world = World::new();
    world.place("card:a", seat(0), Some(Seat(0)));
    let steps = run(&t, &mut world, turn_start(0));
    assert_eq!(render(&steps), ["card:a#1 Damage(health) seat0 20->18"]);
}

#[test]
fn scopes_give_their_targets_in_seat_order() {
    let t = table(&sheet(&[
        &row(
            "card:self",
            "0",
            "OnTurnStart",
            "Damage",
            "Self",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:self",
            "1",
            "OnTurnStart",
            "Damage",
            "Owner",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:self",
            "2",
            "OnTurnStart",
            "Damage",
            "Opponent",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:self",
            "3",
            "OnTurnStart",
            "Damage",
            "Target",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:self",
            "4",
            "OnTurnStart",
            "Damage",
            "AllSeats",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:self",
            "5",
            "OnTurnStart",
            "Damage",
            "ActingSeat",
            &[("operation.amount", "1")],
        ),
    ]));
    let mut world = World::new();
    world.seats = 3;
    world.set(seat(2), "health", 20);
    world.unit("card:self", 7, 1, 5);
    world.set(thing(9), "health", 9);
    let steps = run(&t, &mut world, turn_start(2).at(thing(9)));
    assert_eq!(
        render(&steps),
        [
            "card:self#0 Damage(health) thing7 5->4",
            "card:self#1 Damage(health) seat1 20->19",
            "card:self#2 Damage(health) seat0 20->19",
            "card:self#2 Damage(health) seat2 20->19",
            "card:self#3 Damage(health) thing9 9->8",
            "card:self#4 Damage(health) seat0 19->18",
            "card:self#4 Damage(health) seat1 19->18",
            "card:self#4 Damage(health) seat2 19->18",
            "card:self#5 Damage(health) seat2 18->17",
        ]
    );

    // No event target, no event seat: `Target` and `ActingSeat` give nobody.
    let mut world = World::new();
    world.unit("card:self", 7, 1, 5);
    let steps = run(&t, &mut world, Event::new(Trigger::OnTurnStart));
    assert!(
        steps.iter().all(|s| s.row != 3 && s.row != 5),
        "{:?}",
        render(&steps)
    );
}

#[test]
fn always_and_formula_conditions() {
    let t = table(&sheet(&[
        &row(
            "card:a",
            "0",
            "OnTurnStart",
            "Damage",
            "AllSeats",
            &[
                ("condition.$type", "Formula"),
                ("condition.formula", "target.health > 15 and not tag_spell"),
                ("operation.amount", "5"),
            ],
        ),
        &row(
            "card:a",
            "1",
            "OnTurnStart",
            "Heal",
            "Owner",
            &[("operation.amount", "1")],
        ),
    ]));
    let mut world = World::new();
    world.set(seat(1), "health", 10);
    world.place("card:a", seat(0), Some(Seat(0)));
    let steps = run(&t, &mut world, turn_start(0));
    assert_eq!(
        render(&steps),
        [
            "card:a#0 Damage(health) seat0 20->15",
            "card:a#1 Heal(health) seat0 15->16",
        ]
    );
    // Checked per target, each time: now seat 0 has 16 > 15, seat 1 still 10.
    let steps = run(&t, &mut world, turn_start(0));
    assert_eq!(render(&steps)[0], "card:a#0 Damage(health) seat0 16->11");
    // The flag turns the formula off.
    world.spell = true;
    world.set(seat(0), "health", 20);
    let steps = run(&t, &mut world, turn_start(0));
    assert_eq!(render(&steps), ["card:a#1 Heal(health) seat0 20->21"]);
}

#[test]
fn has_status_condition_counts_stacks_on_the_target() {
    let t = table(&sheet(&[&row(
        "card:a",
        "0",
        "OnTurnStart",
        "Damage",
        "Opponent",
        &[
            ("condition.$type", "HasStatus"),
            ("condition.status", "poison"),
            ("condition.atLeast", "2"),
            ("operation.amount", "3"),
        ],
    )]));
    let mut world = World::new();
    world.place("card:a", seat(0), Some(Seat(0)));
    world.statuses.apply(seat(1), "poison", 1, None);
    assert!(run(&t, &mut world, turn_start(0)).is_empty());
    world.statuses.apply(seat(1), "poison", 1, None);
    assert_eq!(
        render(&run(&t, &mut world, turn_start(0))),
        ["card:a#0 Damage(health) seat1 20->17"]
    );
}

#[test]
fn a_chance_draws_exactly_once_per_check() {
    for (text, den) in [("1/2", 2u32), ("0/3", 3), ("3/3", 3)] {
        let t = table(&sheet(&[&row(
            "card:a",
            "0",
            "OnTurnStart",
            "Damage",
            "AllSeats",
            &[
                ("condition.$type", "Chance"),
                ("condition.chance", text),
                ("condition.stream", "effect_proc"),
                ("operation.amount", "1"),
            ],
        )]));
        let chance: Chance = text.parse().unwrap();
        let mut world = World::new();
        world.place("card:a", seat(0), Some(Seat(0)));
        let mut mirror = world.streams.get("effect_proc").unwrap().clone();
        let untouched = world.streams.get("shuffle").unwrap().clone();
        let mut expected_hits = 0;
        let mut hits = 0;
        for _ in 0..20 {
            // Two checks per resolution (two seats), one draw each, hit or miss.
            for _ in 0..2 {
                if chance.roll(&mut mirror) {
                    expected_hits += 1;
                }
            }
            hits += run(&t, &mut world, turn_start(0)).len();
        }
        assert_eq!(hits, expected_hits, "{text}");
        assert_eq!(world.streams.get("effect_proc").unwrap(), &mirror, "{text}");
        assert_eq!(world.streams.get("shuffle").unwrap(), &untouched);
        let _ = den;
    }
}

/// A guarded chance checks its formula first and rolls only for the targets it lets through:
/// a seat the guard leaves out neither hits nor moves the stream.
#[test]
fn a_guarded_chance_rolls_only_where_its_formula_holds() {
    let t = table(&sheet(&[&row(
        "card:a",
        "0",
        "OnTurnStart",
        "Damage",
        "AllSeats",
        &[
            ("condition.$type", "Chance"),
            ("condition.chance", "1/2"),
            ("condition.stream", "effect_proc"),
            ("condition.formula", "target.health > 5"),
            ("operation.amount", "1"),
        ],
    )]));
    let chance: Chance = "1/2".parse().unwrap();
    let mut world = World::new();
    world.place("card:a", seat(0), Some(Seat(0)));
    // Seat 1 is below the guard's 5 for good (it is never damaged further); ten turns take
    // seat 0 to 10 at the lowest, so the guard always lets it through.
    world.set(seat(1), "health", 4);
    let mut mirror = world.streams.get("effect_proc").unwrap().clone();
    let mut expected = 0;
    for _ in 0..10 {
        // One draw per resolution: seat 0's. Seat 1 is not rolled for.
        if chance.roll(&mut mirror) {
            expected += 1;
        }
        for step in render(&run(&t, &mut world, turn_start(0))) {
            assert!(step.contains("seat0"), "{step}");
        }
    }
    assert_eq!(world.streams.get("effect_proc").unwrap(), &mirror);
    assert_eq!(world.get(seat(0), "health"), 20 - expected);
    assert_eq!(world.get(seat(1), "health"), 4);
    // An ill-formed guard is refused at load, named by its column.
    let problems = problems(&sheet(&[&row(
        "card:a",
        "0",
        "OnTurnStart",
        "Damage",
        "AllSeats",
        &[
            ("condition.$type", "Chance"),
            ("condition.chance", "1/2"),
            ("condition.stream", "effect_proc"),
            ("condition.formula", "nosuch > 1"),
            ("operation.amount", "1"),
        ],
    )]));
    assert!(
        problems.iter().any(|p| p.contains("condition.formula")),
        "{problems:?}"
    );
}

#[test]
fn each_operation_changes_what_it_says() {
    let t = table(&sheet(&[
        &row(
            "card:op",
            "0",
            "OnTurnStart",
            "Damage",
            "Owner",
            &[("operation.amount", "25")],
        ),
        &row(
            "card:op",
            "1",
            "OnTurnStart",
            "Heal",
            "Opponent",
            &[("operation.amount", "50")],
        ),
        &row(
            "card:op",
            "2",
            "OnTurnStart",
            "Draw",
            "Owner",
            &[("operation.count", "3")],
        ),
        &row(
            "card:op",
            "3",
            "OnTurnStart",
            "Draw",
            "Opponent",
            &[("operation.count", "20")],
        ),
        &row(
            "card:op",
            "4",
            "OnTurnStart",
            "GainResource",
            "Owner",
            &[("operation.resource", "mana"), ("operation.amount", "2")],
        ),
        &row(
            "card:op",
            "5",
            "OnTurnStart",
            "SpendResource",
            "Opponent",
            &[("operation.resource", "mana"), ("operation.amount", "10")],
        ),
        &row(
            "card:op",
            "6",
            "OnTurnStart",
            "ApplyStatus",
            "Opponent",
            &[
                ("operation.status", "poison"),
                ("operation.stacks", "2"),
                ("operation.durationTurns", "3"),
            ],
        ),
        &row(
            "card:op",
            "7",
            "OnTurnStart",
            "ApplyStatus",
            "Opponent",
            &[
                ("operation.status", "poison"),
                ("operation.stacks", "1"),
                ("operation.durationTurns", "1"),
            ],
        ),
        &row(
            "card:op",
            "8",
            "OnTurnStart",
            "RemoveStatus",
            "Opponent",
            &[("operation.status", "poison"), ("operation.stacks", "1")],
        ),
        &row(
            "card:op",
            "9",
            "OnTurnStart",
            "Custom",
            "Owner",
            &[("operation.handler", "double_mana")],
        ),
        &row(
            "card:op",
            "10",
            "OnTurnStart",
            "RemoveStatus",
            "Opponent",
            &[("operation.status", "poison")],
        ),
    ]));
    let mut world = World::new();
    world.place("card:op", seat(0), Some(Seat(0)));
    world.set(seat(1), "health", 12);
    let steps = run(&t, &mut world, turn_start(0));
    assert_eq!(
        render(&steps),
        [
            "card:op#0 Damage(health) seat0 20->0",
            "card:op#1 Heal(health) seat1 12->30",
            "card:op#2 Draw seat0 0->3",
            "card:op#3 Draw seat1 0->10",
            "card:op#4 GainResource(mana) seat0 3->5",
            "card:op#5 SpendResource(mana) seat1 3->0",
            "card:op#6 ApplyStatus(poison) seat1 0->2",
            "card:op#7 ApplyStatus(poison) seat1 2->3",
            "card:op#8 RemoveStatus(poison) seat1 3->2",
            "card:op#9 Custom:double_mana seat0 5->10",
            "card:op#10 RemoveStatus(poison) seat1 2->0",
        ]
    );
    assert_eq!(world.deck[&Seat(0)], 7);
    assert_eq!(world.deck[&Seat(1)], 0);
    assert_eq!(world.handler_calls["double_mana"], 1);
    assert!(world.statuses.entries().is_empty());
}

#[test]
fn reapplying_a_status_keeps_the_longer_duration() {
    let mut world = World::new();
    world.statuses.apply(seat(1), "poison", 2, Some(3));
    world.statuses.apply(seat(1), "poison", 1, Some(1));
    let entry = world.statuses.get(seat(1), "poison").unwrap();
    assert_eq!((entry.stacks, entry.remaining_turns), (3, Some(3)));
    world.statuses.apply(seat(1), "poison", 1, None);
    assert_eq!(
        world
            .statuses
            .get(seat(1), "poison")
            .unwrap()
            .remaining_turns,
        None
    );
}

#[test]
fn a_host_can_give_an_operation_its_own_meaning() {
    // The test world's shield absorbs a whole hit; drawing for a unit is refused.
    let t = table(&sheet(&[
        &row(
            "card:a",
            "0",
            "OnTurnStart",
            "Damage",
            "Target",
            &[("operation.amount", "4")],
        ),
        &row(
            "card:a",
            "1",
            "OnTurnStart",
            "Damage",
            "Target",
            &[("operation.amount", "4")],
        ),
    ]));
    let mut world = World::new();
    world.place("card:a", seat(0), Some(Seat(0)));
    world.statuses.apply(seat(1), "shield", 1, None);
    let steps = run(&t, &mut world, turn_start(0).at(seat(1)));
    assert_eq!(
        render(&steps),
        [
            "card:a#0 Damage(health) seat1 20->20",
            "card:a#1 Damage(health) seat1 20->16",
        ]
    );

    let t = table(&sheet(&[&row(
        "card:a",
        "0",
        "OnTurnStart",
        "Draw",
        "Self",
        &[("operation.count", "1")],
    )]));
    let mut world = World::new();
    world.unit("card:a", 3, 0, 5);
    let handlers = handlers();
    let error = Executor::new(&t, &handlers)
        .resolve(&mut world, turn_start(0), &mut Vec::new())
        .unwrap_err();
    assert_eq!(error.code(), "host");
    assert!(error.to_string().contains("not_applicable"), "{error}");
    assert!(error.to_string().contains("effects.tsv: row 2"), "{error}");
}

#[test]
fn amounts_may_be_formulas() {
    let t = table(&sheet(&[
        &row(
            "status:poison",
            "0",
            "OnStatusTick",
            "Damage",
            "Self",
            &[("operation.amount", "owner.stacks * 2")],
        ),
        &row(
            "status:poison",
            "1",
            "OnStatusTick",
            "Heal",
            "Self",
            &[("operation.amount", "0 - owner.stacks")],
        ),
        &row(
            "card:bad",
            "0",
            "OnTurnStart",
            "Damage",
            "Owner",
            &[("operation.amount", "1 / (round - round)")],
        ),
    ]));
    let mut world = World::new();
    world.statuses.apply(seat(1), "poison", 3, None);
    let steps = run(
        &t,
        &mut world,
        Event::new(Trigger::OnStatusTick).at(seat(1)),
    );
    // A negative amount counts as zero.
    assert_eq!(
        render(&steps),
        [
            "status:poison#0 Damage(health) seat1 20->14",
            "status:poison#1 Heal(health) seat1 14->14",
        ]
    );
    world.place("card:bad", seat(0), Some(Seat(0)));
    let handlers = handlers();
    let error = Executor::new(&t, &handlers)
        .resolve(&mut world, turn_start(0), &mut Vec::new())
        .unwrap_err();
    assert_eq!(error.code(), "evaluation");
    assert!(error.to_string().contains("division_by_zero"), "{error}");
}

#[test]
fn a_status_expires_after_its_turns() {
    // Venom puts 2 stacks of poison for 3 turns on the opponent; poison deals its stacks
    // as damage each time it ticks, at the end of its bearer's turn.
    let t = table(&sheet(&[
        &row(
            "card:venom",
            "0",
            "OnCardPlayed",
            "ApplyStatus",
            "Opponent",
            &[
                ("operation.status", "poison"),
                ("operation.stacks", "2"),
                ("operation.durationTurns", "3"),
            ],
        ),
        &row(
            "status:poison",
            "0",
            "OnStatusTick",
            "Damage",
            "Self",
            &[("operation.amount", "owner.stacks")],
        ),
    ]));
    let mut world = World::new();
    world.cards.insert(
        turnstile_effects::ThingId(1),
        ("card:venom".into(), Seat(0)),
    );
    run(
        &t,
        &mut world,
        Event::new(Trigger::OnCardPlayed).by(Seat(0)).from(thing(1)),
    );
    let mut health = Vec::new();
    for _turn in 0..5 {
        run(
            &t,
            &mut world,
            Event::new(Trigger::OnStatusTick).at(seat(1)),
        );
        world.statuses.tick(seat(1));
        health.push(world.get(seat(1), "health"));
    }
    assert_eq!(health, [18, 16, 14, 14, 14]);
    assert!(world.statuses.on(seat(1)).next().is_none());
}

#[test]
fn this_round_next_round_and_permanent_rule_changes() {
    let t = table(&sheet(&[
        &row(
            "card:rally",
            "0",
            "OnCardPlayed",
            "GainResource",
            "Owner",
            &[
                ("operation.resource", "attack_bonus"),
                ("operation.amount", "2"),
                ("duration", "ThisRound"),
            ],
        ),
        &row(
            "card:rally",
            "1",
            "OnCardPlayed",
            "GainResource",
            "Owner",
            &[
                ("operation.resource", "max_mana"),
                ("operation.amount", "1"),
                ("duration", "NextRound"),
            ],
        ),
        &row(
            "card:rally",
            "2",
            "OnCardPlayed",
            "GainResource",
            "Owner",
            &[
                ("operation.resource", "max_mana"),
                ("operation.amount", "1"),
                ("duration", "Permanent"),
            ],
        ),
    ]));
    let handlers = handlers();
    let mut executor = Executor::new(&t, &handlers);
    let mut world = World::new();
    world.cards.insert(
        turnstile_effects::ThingId(1),
        ("card:rally".into(), Seat(0)),
    );
    let mut steps = Vec::new();
    let resolution = executor
        .resolve(
            &mut world,
            Event::new(Trigger::OnCardPlayed).by(Seat(0)).from(thing(1)),
            &mut steps,
        )
        .unwrap();
    assert!(resolution.rebuilt);
    assert_eq!(
        render(&steps),
        [
            "card:rally#0 GainResource(attack_bonus) seat0 0->0 [recorded]",
            "card:rally#1 GainResource(max_mana) seat0 3->3 [recorded]",
            "card:rally#2 GainResource(max_mana) seat0 3->3 [recorded]",
            "card:rally#2 GainResource(max_mana) seat0 3->4 [lingering]",
            "card:rally#0 GainResource(attack_bonus) seat0 0->2 [round]",
        ]
    );
    let rules = |w: &World| (w.get(seat(0), "attack_bonus"), w.get(seat(0), "max_mana"));
    assert_eq!(rules(&world), (2, 4));

    // Round 2: this round's bonus is gone, next round's mana holds.
    world.round = 2;
    executor.rebuild(&mut world, &mut Vec::new()).unwrap();
    assert_eq!(rules(&world), (0, 5));
    // Round 3: only the permanent change is left.
    world.round = 3;
    executor.rebuild(&mut world, &mut Vec::new()).unwrap();
    assert_eq!(rules(&world), (0, 4));
    assert_eq!(
        world.ledger.entries().len(),
        1,
        "expired entries are pruned"
    );
}

#[test]
fn passive_rows_are_rebuilt_never_accumulated() {
    let t = table(&sheet(&[
        &row(
            "relic:crown",
            "0",
            "Passive",
            "GainResource",
            "Owner",
            &[
                ("operation.resource", "max_mana"),
                ("operation.amount", "2"),
            ],
        ),
        &row(
            "relic:crown",
            "1",
            "Passive",
            "GainResource",
            "Opponent",
            &[
                ("condition.$type", "Formula"),
                ("condition.formula", "round >= 2"),
                ("operation.resource", "attack_bonus"),
                ("operation.amount", "1"),
            ],
        ),
    ]));
    let handlers = handlers();
    let mut executor = Executor::new(&t, &handlers);
    let mut world = World::new();
    world.place("relic:crown", seat(0), Some(Seat(0)));
    let mut first = Vec::new();
    executor.rebuild(&mut world, &mut first).unwrap();
    assert_eq!(
        render(&first),
        ["relic:crown#0 GainResource(max_mana) seat0 3->5 [passive]"]
    );
    let after_first = world.clone();
    let mut second = Vec::new();
    executor.rebuild(&mut world, &mut second).unwrap();
    assert_eq!(world, after_first, "rebuilding twice changes nothing");
    assert_eq!(first, second);

    world.round = 2;
    executor.rebuild(&mut world, &mut Vec::new()).unwrap();
    assert_eq!(world.get(seat(1), "attack_bonus"), 1);
    // The cause leaves: its rule goes with it at the next rebuild.
    world.present.clear();
    executor.rebuild(&mut world, &mut Vec::new()).unwrap();
    assert_eq!(world.get(seat(0), "max_mana"), 3);
    assert_eq!(world.get(seat(1), "attack_bonus"), 0);
}

#[test]
fn custom_handlers_are_dispatched_by_the_id_in_the_data() {
    let t = table(&sheet(&[&row(
        "card:trick",
        "0",
        "OnCardPlayed",
        "Custom",
        "Owner",
        &[("operation.handler", "swap_health")],
    )]));
    assert_eq!(t.custom_row_count(), 1);
    let mut world = World::new();
    world.set(seat(0), "health", 5);
    world.cards.insert(
        turnstile_effects::ThingId(4),
        ("card:trick".into(), Seat(0)),
    );
    let steps = run(
        &t,
        &mut world,
        Event::new(Trigger::OnCardPlayed).by(Seat(0)).from(thing(4)),
    );
    assert_eq!(
        render(&steps),
        ["card:trick#0 Custom:swap_health seat0 5->20"]
    );
    assert_eq!(world.handler_calls.get("swap_health"), Some(&1));
    assert_eq!(world.handler_calls.get("double_mana"), None);
}

#[test]
fn an_unknown_handler_id_is_a_load_error() {
    let text = sheet(&[
        &row(
            "card:ok",
            "0",
            "OnCardPlayed",
            "Custom",
            "Owner",
            &[("operation.handler", "swap_health")],
        ),
        &row(
            "card:typo",
            "0",
            "OnCardPlayed",
            "Custom",
            "Owner",
            &[("operation.handler", "swap_helth")],
        ),
    ]);
    assert_eq!(
        problems(&text),
        ["effects.tsv: row 3, column operation.handler: no handler is registered as `swap_helth`; registered: `double_mana`, `echo`, `swap_health` (unknown_handler)"]
    );
}

#[test]
fn caused_events_run_after_the_current_event() {
    // Killing a unit raises OnUnitDies; its rows run after every row of the first event.
    let t = table(&sheet(&[
        &row(
            "card:bolt",
            "0",
            "OnTurnStart",
            "Damage",
            "Target",
            &[("operation.amount", "9")],
        ),
        &row(
            "card:bolt",
            "1",
            "OnTurnStart",
            "Damage",
            "Opponent",
            &[("operation.amount", "1")],
        ),
        &row(
            "relic:grave",
            "0",
            "OnUnitDies",
            "Heal",
            "Owner",
            &[("operation.amount", "2")],
        ),
    ]));
    let mut world = World::new();
    world.place("card:bolt", seat(0), Some(Seat(0)));
    world.place("relic:grave", seat(0), Some(Seat(0)));
    world.set(seat(0), "health", 10);
    world.unit("card:wolf", 5, 1, 3);
    let steps = run(&t, &mut world, turn_start(0).at(thing(5)));
    assert_eq!(
        render(&steps),
        [
            "card:bolt#0 Damage(health) thing5 3->0",
            "card:bolt#1 Damage(health) seat1 20->19",
            "relic:grave#0 Heal(health) seat0 10->12",
        ]
    );
}

#[test]
fn endless_effects_stop_at_the_limits() {
    let t = table(&sheet(&[
        &row(
            "relic:echo",
            "0",
            "Ping",
            "Custom",
            "Owner",
            &[("operation.handler", "echo")],
        ),
        &row(
            "relic:echo",
            "0",
            "Pong",
            "Custom",
            "Owner",
            &[("operation.handler", "echo")],
        )
        .into_iter()
        .map(|(k, v)| if k == "order" { (k, "1") } else { (k, v) })
        .collect::<Vec<_>>(),
    ]));
    let handlers = handlers();
    let mut world = World::new();
    world.place("relic:echo", seat(0), Some(Seat(0)));
    let ping = Event::new(Trigger::Custom("Ping".into()));

    // The default limits: 10 000 events (each of which writes one step here).
    let mut steps = Vec::new();
    let error = Executor::new(&t, &handlers)
        .resolve(&mut world, ping.clone(), &mut steps)
        .unwrap_err();
    assert_eq!(error, EffectError::EventLimit { limit: 10_000 });
    assert_eq!(error.code(), "event_limit");
    assert_eq!(steps.len(), 10_000);

    let limits = Limits {
        max_steps: 500,
        max_events: 1_000_000,
    };
    let mut steps = Vec::new();
    let error = Executor::new(&t, &handlers)
        .with_limits(limits)
        .resolve(&mut world, ping, &mut steps)
        .unwrap_err();
    assert_eq!(error, EffectError::StepLimit { limit: 500 });
    assert_eq!(error.code(), "step_limit");
    assert_eq!(steps.len(), 500);
}

/// A busy scenario: chances, statuses, caused events, lingering rules.
fn scenario(world: &mut World, t: &EffectTable) -> Vec<Step> {
    let handlers = handlers();
    let mut executor = Executor::new(t, &handlers);
    let mut steps = Vec::new();
    for turn in 0..6u16 {
        let s = turn % 2;
        world.round = u32::from(turn / 2) + 1;
        executor.rebuild(world, &mut steps).unwrap();
        executor
            .resolve(world, turn_start(s).at(thing(5)), &mut steps)
            .unwrap();
        executor
            .resolve(
                world,
                Event::new(Trigger::OnStatusTick).at(seat(s)).by(Seat(s)),
                &mut steps,
            )
            .unwrap();
        world.statuses.tick(seat(s));
    }
    steps
}

fn busy_sheet() -> String {
    sheet(&[
        &row(
            "card:alpha",
            "0",
            "OnTurnStart",
            "Damage",
            "Opponent",
            &[
                ("condition.$type", "Chance"),
                ("condition.chance", "1/2"),
                ("condition.stream", "effect_proc"),
                ("operation.amount", "2"),
            ],
        ),
        &row(
            "card:alpha",
            "1",
            "OnTurnStart",
            "ApplyStatus",
            "Opponent",
            &[
                ("operation.status", "poison"),
                ("operation.stacks", "1"),
                ("operation.durationTurns", "2"),
            ],
        ),
        &row(
            "card:beta",
            "0",
            "OnTurnStart",
            "Damage",
            "Target",
            &[("operation.amount", "1")],
        ),
        &row(
            "card:beta",
            "1",
            "OnTurnStart",
            "GainResource",
            "ActingSeat",
            &[
                ("operation.resource", "attack_bonus"),
                ("operation.amount", "1"),
                ("duration", "ThisRound"),
            ],
        ),
        &row(
            "card:beta",
            "2",
            "OnUnitDies",
            "Draw",
            "Owner",
            &[("operation.count", "2")],
        ),
        &row(
            "status:poison",
            "0",
            "OnStatusTick",
            "Damage",
            "Self",
            &[("operation.amount", "owner.stacks")],
        ),
        &row(
            "relic:gamma",
            "0",
            "Passive",
            "GainResource",
            "AllSeats",
            &[
                ("operation.resource", "max_mana"),
                ("operation.amount", "1"),
            ],
        ),
    ])
}

fn busy_world() -> World {
    let mut world = World::new();
    world.place("card:beta", seat(1), Some(Seat(1)));
    world.place("card:alpha", seat(0), Some(Seat(0)));
    world.place("relic:gamma", seat(0), Some(Seat(0)));
    world.unit("card:wolf", 5, 0, 3);
    world
}

#[test]
fn the_same_inputs_give_the_same_steps() {
    let t = table(&busy_sheet());
    let (mut a, mut b) = (busy_world(), busy_world());
    let steps_a = scenario(&mut a, &t);
    let steps_b = scenario(&mut b, &t);
    assert!(steps_a.len() > 20, "{}", steps_a.len());
    assert_eq!(steps_a, steps_b);
    assert_eq!(a, b);
    // And so the same receipt bytes.
    assert_eq!(
        Fingerprint::of(&steps_a).unwrap(),
        Fingerprint::of(&steps_b).unwrap()
    );
    // Another seed is another game.
    let mut c = busy_world();
    c.streams = turnstile_core::determinism::Streams::new("other-seed", &common::STREAMS).unwrap();
    assert_ne!(scenario(&mut c, &t), steps_a);
}

#[test]
fn renaming_owners_changes_nothing_but_their_names() {
    // Names chosen so that their sort order flips: behaviour must not follow ids.
    let renames = [
        ("card:alpha", "card:zulu"),
        ("card:beta", "card:able"),
        ("relic:gamma", "relic:aaa"),
    ];
    let rename = |text: &str| {
        renames
            .iter()
            .fold(text.to_owned(), |t, (from, to)| t.replace(from, to))
    };
    let original = table(&busy_sheet());
    let renamed = table(&rename(&busy_sheet()));
    let mut world = busy_world();
    let mut renamed_world = busy_world();
    for (owner, _, _) in &mut renamed_world.present {
        *owner = rename(owner);
    }
    let steps = scenario(&mut world, &original);
    let renamed_steps = scenario(&mut renamed_world, &renamed);
    let back: Vec<Step> = renamed_steps
        .into_iter()
        .map(|mut s| {
            let owner = renames
                .iter()
                .find(|(_, to)| *to == &*s.owner)
                .map_or(s.owner.to_string(), |(from, _)| (*from).to_owned());
            s.owner = owner.as_str().into();
            s
        })
        .collect();
    assert_eq!(back, steps);
    // The world differs only where it keeps names: the board and the ledger.
    renamed_world.present = world.present.clone();
    let ledger_back: Vec<_> = renamed_world
        .ledger
        .entries()
        .iter()
        .cloned()
        .map(|mut e| {
            if let Some((from, _)) = renames.iter().find(|(_, to)| *to == e.owner) {
                e.owner = (*from).to_owned();
            }
            e
        })
        .collect();
    assert!(!ledger_back.is_empty());
    assert_eq!(ledger_back, world.ledger.entries());
    renamed_world.ledger = world.ledger.clone();
    assert_eq!(renamed_world, world);
}

#[test]
fn the_report_counts_custom_rows() {
    let t = table(&sheet(&[
        &row(
            "card:a",
            "0",
            "OnCardPlayed",
            "Custom",
            "Owner",
            &[("operation.handler", "swap_health")],
        ),
        &row(
            "card:b",
            "0",
            "OnCardPlayed",
            "Custom",
            "Owner",
            &[("operation.handler", "swap_health")],
        ),
        &row(
            "card:b",
            "1",
            "OnCardPlayed",
            "Custom",
            "Owner",
            &[("operation.handler", "double_mana")],
        ),
        &row(
            "card:c",
            "0",
            "OnCardPlayed",
            "Damage",
            "Target",
            &[("operation.amount", "1")],
        ),
    ]));
    let report = t.report();
    assert_eq!(report.rows, 4);
    assert_eq!(report.owners, 3);
    assert_eq!(report.custom_rows, 3);
    assert_eq!(report.custom_rows_by_handler["swap_health"], 2);
    assert_eq!(report.custom_rows_by_handler["double_mana"], 1);
    assert_eq!(report.rows_by_operation["Damage"], 1);
    assert_eq!(t.custom_row_count(), 3);
}

#[test]
fn owners_without_rows_are_skipped() {
    let t = table(&sheet(&[&row(
        "card:a",
        "0",
        "OnTurnStart",
        "Damage",
        "Owner",
        &[("operation.amount", "1")],
    )]));
    let mut world = World::new();
    world.place("card:vanilla", seat(0), Some(Seat(0)));
    world.place("card:a", seat(0), Some(Seat(0)));
    assert_eq!(run(&t, &mut world, turn_start(0)).len(), 1);
    assert!(world.resource(seat(0), "health") == Some(19));
}

#[test]
fn not_recording_acts_the_same_and_writes_no_steps() {
    let t = table(&sheet(&[&row(
        "card:a",
        "0",
        "OnTurnStart",
        "Damage",
        "Owner",
        &[("operation.amount", "2")],
    )]));
    let handlers = handlers();
    let mut recorded = World::new();
    recorded.place("card:a", seat(0), Some(Seat(0)));
    let mut silent = recorded.clone();
    let steps = run(&t, &mut recorded, turn_start(0));
    let mut none = Vec::new();
    let resolution = Executor::new(&t, &handlers)
        .recording(false)
        .resolve(&mut silent, turn_start(0), &mut none)
        .unwrap();
    assert!(none.is_empty());
    assert_eq!(resolution.steps as usize, steps.len());
    assert_eq!(silent, recorded);
}

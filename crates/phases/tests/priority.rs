//! Response windows and `expectedStep` at their boundary: passing, the stack resolving last
//! in first out, `no_priority`, reopening and closing, and step counting.

use turnstile_core::{CommandRefusal, Rejection, Seat};
use turnstile_phases::{
    ActivationStep, PassOutcome, PriorityError, PriorityWindow, StackEntry, WindowAfter,
    MAX_STACK_DEPTH, RESPONSE_TAG,
};

const RESPONSE: &[&str] = &[RESPONSE_TAG];

fn window(seats: u16, owner: u16) -> PriorityWindow<String> {
    PriorityWindow::new((0..seats).map(Seat).collect(), Seat(owner)).unwrap()
}

fn resolved(outcome: PassOutcome<String>) -> (String, WindowAfter) {
    match outcome {
        PassOutcome::Resolved { entry, window } => (entry.item, window),
        PassOutcome::Passed { holder } => {
            panic!("expected a resolution, priority went to {holder}")
        }
    }
}

#[test]
fn with_no_window_the_turn_owner_holds_priority() {
    let w = window(3, 1);
    assert!(!w.is_open());
    assert_eq!(w.holder(), Seat(1));
    assert_eq!(w.check(Seat(1)), Ok(()));
    let error = w.check(Seat(0)).unwrap_err();
    assert_eq!(error.code(), "no_priority");
    assert_eq!(
        error.to_string(),
        "seat 0 does not hold priority; seat 1 does"
    );
    let rejection: Rejection = error.into();
    assert_eq!(rejection.code, "no_priority");
}

#[test]
fn two_seats_both_pass_and_the_action_resolves() {
    let mut w = window(2, 0);
    assert_eq!(w.open(Seat(0), "fireball".into()), Ok(Seat(1)));
    assert!(w.is_open());
    // The opener does not hold priority now.
    assert_eq!(w.pass(Seat(0)).unwrap_err().code(), "no_priority");
    assert_eq!(
        w.respond(Seat(0), RESPONSE, "counter".into())
            .unwrap_err()
            .code(),
        "no_priority"
    );
    assert_eq!(w.pass(Seat(1)), Ok(PassOutcome::Passed { holder: Seat(0) }));
    assert_eq!(w.passes_in_a_row(), 1);
    let (item, after) = resolved(w.pass(Seat(0)).unwrap());
    assert_eq!(item, "fireball");
    assert_eq!(after, WindowAfter::Closed);
    assert!(!w.is_open());
    assert_eq!(w.holder(), Seat(0));
}

#[test]
fn responses_stack_and_resolve_last_in_first_out_reopening_between() {
    let mut w = window(3, 0);
    assert_eq!(w.open(Seat(0), "A".into()), Ok(Seat(1)));
    assert_eq!(w.respond(Seat(1), RESPONSE, "B".into()), Ok(Seat(2)));
    assert_eq!(w.respond(Seat(2), RESPONSE, "C".into()), Ok(Seat(0)));
    assert_eq!(
        w.stack()
            .iter()
            .map(|e| (e.seat.0, e.item.as_str()))
            .collect::<Vec<_>>(),
        [(0, "A"), (1, "B"), (2, "C")]
    );

    let mut order = Vec::new();
    for round in 0..3 {
        // Every seat passes in a row, starting from whoever holds priority.
        let first = w.holder();
        assert_eq!(
            first,
            Seat(0),
            "round {round}: priority returns to the turn owner"
        );
        assert!(matches!(w.pass(Seat(0)), Ok(PassOutcome::Passed { .. })));
        assert!(matches!(w.pass(Seat(1)), Ok(PassOutcome::Passed { .. })));
        let (item, after) = resolved(w.pass(Seat(2)).unwrap());
        order.push(item);
        let expected = if round < 2 {
            WindowAfter::Reopened { holder: Seat(0) }
        } else {
            WindowAfter::Closed
        };
        assert_eq!(after, expected);
    }
    assert_eq!(order, ["C", "B", "A"]);
    assert!(!w.is_open());
}

#[test]
fn a_response_breaks_the_run_of_passes() {
    let mut w = window(3, 0);
    w.open(Seat(0), "A".into()).unwrap();
    w.pass(Seat(1)).unwrap();
    assert_eq!(w.passes_in_a_row(), 1);
    w.respond(Seat(2), RESPONSE, "B".into()).unwrap();
    assert_eq!(w.passes_in_a_row(), 0);
    // Two more passes are not enough: all three must pass after the response.
    assert!(matches!(
        w.pass(Seat(0)),
        Ok(PassOutcome::Passed { holder: Seat(1) })
    ));
    assert!(matches!(
        w.pass(Seat(1)),
        Ok(PassOutcome::Passed { holder: Seat(2) })
    ));
    assert_eq!(resolved(w.pass(Seat(2)).unwrap()).0, "B");
}

#[test]
fn misuse_is_refused_and_changes_nothing() {
    let mut w = window(2, 0);
    assert_eq!(w.pass(Seat(0)).unwrap_err(), PriorityError::WindowClosed);
    assert_eq!(
        w.respond(Seat(0), RESPONSE, "x".into()).unwrap_err(),
        PriorityError::WindowClosed
    );
    w.open(Seat(0), "A".into()).unwrap();
    let snapshot = w.clone();
    assert_eq!(
        w.respond(Seat(1), &["spell"], "x".into())
            .unwrap_err()
            .code(),
        "not_a_response"
    );
    assert_eq!(
        w.open(Seat(1), "again".into()).unwrap_err().code(),
        "window_open"
    );
    assert_eq!(w.begin_turn(Seat(1)).unwrap_err().code(), "window_open");
    assert_eq!(w, snapshot);

    for _ in 1..MAX_STACK_DEPTH {
        let holder = w.holder();
        w.respond(holder, RESPONSE, "r".into()).unwrap();
    }
    let holder = w.holder();
    assert_eq!(
        w.respond(holder, RESPONSE, "one too many".into())
            .unwrap_err()
            .code(),
        "stack_full"
    );
    assert_eq!(w.stack().len(), MAX_STACK_DEPTH);
}

#[test]
fn abandoning_returns_the_unresolved_entries_and_a_new_turn_moves_priority() {
    let mut w = window(2, 0);
    w.open(Seat(0), "A".into()).unwrap();
    w.respond(Seat(1), RESPONSE, "B".into()).unwrap();
    let left = w.abandon();
    assert_eq!(
        left,
        [
            StackEntry {
                seat: Seat(0),
                item: "A".to_owned()
            },
            StackEntry {
                seat: Seat(1),
                item: "B".to_owned()
            }
        ]
    );
    assert!(!w.is_open());
    w.begin_turn(Seat(1)).unwrap();
    assert_eq!((w.turn_owner(), w.holder()), (Seat(1), Seat(1)));
    assert_eq!(w.open(Seat(1), "C".into()), Ok(Seat(0)));
    assert_eq!(w.begin_turn(Seat(7)).unwrap_err().code(), "window_open");
}

#[test]
fn construction_checks_its_seats() {
    let new = |seats: Vec<u16>, owner| {
        PriorityWindow::<()>::new(seats.into_iter().map(Seat).collect(), Seat(owner))
            .unwrap_err()
            .code()
    };
    assert_eq!(new(vec![], 0), "no_seats");
    assert_eq!(new(vec![0, 1, 0], 0), "duplicate_seat");
    assert_eq!(new(vec![0, 1], 2), "unknown_seat");
    // Turn order need not be numeric order.
    let mut w = PriorityWindow::new(vec![Seat(2), Seat(0), Seat(1)], Seat(1)).unwrap();
    assert_eq!(w.open(Seat(1), 'x'), Ok(Seat(2)));
}

#[test]
fn window_state_round_trips_through_serde() {
    let mut w = window(3, 2);
    w.open(Seat(2), "A".into()).unwrap();
    w.pass(Seat(0)).unwrap();
    let json = serde_json::to_string(&w).unwrap();
    assert_eq!(
        json,
        r#"{"seats":[0,1,2],"turnOwner":2,"holder":1,"passesInARow":1,"stack":[{"seat":2,"item":"A"}]}"#
    );
    assert_eq!(
        serde_json::from_str::<PriorityWindow<String>>(&json).unwrap(),
        w
    );
    let outcome =
        serde_json::to_string(&PassOutcome::<String>::Passed { holder: Seat(1) }).unwrap();
    assert_eq!(outcome, r#"{"kind":"Passed","holder":1}"#);
    let error = serde_json::to_string(&PriorityError::NoPriority {
        seat: Seat(0),
        holder: Seat(1),
    })
    .unwrap();
    assert_eq!(error, r#"{"code":"no_priority","seat":0,"holder":1}"#);
}

#[test]
fn expected_step_counts_the_commands_of_the_current_activation() {
    let mut step = ActivationStep::new();
    assert_eq!(step.current(), 0);
    assert_eq!(step.check(Some(0)), Ok(()));
    assert_eq!(step.check(None), Ok(()));
    step.accept();
    step.accept();
    assert_eq!(step.current(), 2);
    let refusal = step.check(Some(1)).unwrap_err();
    assert_eq!(refusal.code(), "stale_step");
    assert_eq!(
        refusal,
        CommandRefusal::StaleStep {
            expected: 1,
            current: 2
        }
    );
    step.begin_activation();
    assert_eq!(step.check(Some(0)), Ok(()));
    assert_eq!(serde_json::to_string(&step).unwrap(), r#"{"step":0}"#);
}

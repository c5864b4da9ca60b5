//! Rows executed per second: one `OnTurnStart` resolution over a board of owners whose rows
//! damage, heal, gain mana and apply statuses under `Always` and formula conditions, with
//! every step recorded (as receipts need). Run with
//! `cargo bench -p turnstile-effects --bench effects`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use turnstile_core::determinism::{StreamTable, Streams};
use turnstile_core::Seat;
use turnstile_effects::{
    effect_loader, Change, EffectHost, EffectLedger, EffectState, EffectTable, EffectVocabulary,
    Event, Executor, HandlerRegistry, HostError, Nothing, OperationError, OwnerInstance, Owners,
    Plain, ResourceKind, RowContext, StatusBoard, Target, Trigger, EFFECT_COLUMNS,
};
use turnstile_formula::{Type, Value, VariableSchema};

const STREAMS: StreamTable = StreamTable::new(&["effect_proc"]);
const OWNERS: usize = 16;

/// A two-seat world with its resources in plain arrays.
#[derive(Clone)]
struct Arena {
    health: [i64; 2],
    mana: [i64; 2],
    hand: [i64; 2],
    statuses: StatusBoard,
    ledger: EffectLedger,
    streams: Streams,
    owners: Vec<String>,
}

fn seat_of(target: Target) -> Option<usize> {
    match target {
        Target::Seat(s) => Some(usize::from(s.0)),
        Target::Thing(_) => None,
    }
}

impl EffectHost for Arena {
    type Vocabulary = Plain;

    fn seat_count(&self) -> u16 {
        2
    }

    fn round(&self) -> u32 {
        1
    }

    fn owners(&self, _event: &Event, owners: &mut Owners<'_>) {
        for (i, owner) in self.owners.iter().enumerate() {
            let seat = Seat((i % 2) as u16);
            owners.push(owner, Target::Seat(seat), Some(seat));
        }
    }

    fn variable(&self, context: &RowContext<'_>, slot: u16) -> Option<Value> {
        match slot {
            0 => Some(Value::Int(1)),
            1 => Some(Value::Int(self.resource(context.target, "health")?)),
            _ => None,
        }
    }

    fn streams(&mut self) -> &mut Streams {
        &mut self.streams
    }

    fn resource(&self, target: Target, resource: &str) -> Option<i64> {
        let s = seat_of(target)?;
        match resource {
            "health" => self.health.get(s).copied(),
            "mana" => self.mana.get(s).copied(),
            _ => None,
        }
    }

    fn set_resource(
        &mut self,
        target: Target,
        resource: &str,
        value: i64,
    ) -> Result<(), HostError> {
        let s = seat_of(target).ok_or_else(|| HostError::no_resource(target, resource))?;
        let slot = match resource {
            "health" => self.health.get_mut(s),
            "mana" => self.mana.get_mut(s),
            _ => None,
        };
        *slot.ok_or_else(|| HostError::no_resource(target, resource))? = value;
        Ok(())
    }

    fn effects(&mut self) -> EffectState<'_> {
        EffectState {
            statuses: &mut self.statuses,
            ledger: &mut self.ledger,
        }
    }

    fn scope_targets(
        &self,
        scope: Nothing,
        _owner: &OwnerInstance,
        _event: &Event,
        _out: &mut Vec<Target>,
    ) {
        match scope {}
    }

    fn operate(
        &mut self,
        operation: &Nothing,
        _context: &RowContext<'_>,
        _caused: &mut Vec<Event>,
    ) -> Result<Change, OperationError> {
        match *operation {}
    }

    fn reset_rules(&mut self) {}

    fn draw(
        &mut self,
        target: Target,
        count: i64,
        _caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let s = seat_of(target).ok_or_else(|| HostError::not_applicable("Draw", target))?;
        let before = self.hand[s];
        self.hand[s] = before.saturating_add(count);
        Ok(Change::int(before, self.hand[s]))
    }
}

fn sheet() -> String {
    let mut text = EFFECT_COLUMNS.join("\t");
    text.push('\n');
    let cell = |pairs: &[(&str, &str)]| {
        EFFECT_COLUMNS
            .iter()
            .map(|c| pairs.iter().find(|(k, _)| k == c).map_or("", |(_, v)| *v))
            .collect::<Vec<_>>()
            .join("\t")
    };
    for i in 0..OWNERS {
        let owner = format!("card:c{i}");
        let o = owner.as_str();
        for line in [
            cell(&[
                ("owner", o),
                ("order", "0"),
                ("trigger", "OnTurnStart"),
                ("condition.$type", "Always"),
                ("operation.$type", "Damage"),
                ("operation.amount", "1"),
                ("scope", "Opponent"),
                ("duration", "Permanent"),
            ]),
            cell(&[
                ("owner", o),
                ("order", "1"),
                ("trigger", "OnTurnStart"),
                ("condition.$type", "Formula"),
                (
                    "condition.formula",
                    "target.health < 1000000 and round >= 1",
                ),
                ("operation.$type", "Heal"),
                ("operation.amount", "1"),
                ("scope", "Owner"),
                ("duration", "Permanent"),
            ]),
            cell(&[
                ("owner", o),
                ("order", "2"),
                ("trigger", "OnTurnStart"),
                ("condition.$type", "Always"),
                ("operation.$type", "GainResource"),
                ("operation.resource", "mana"),
                ("operation.amount", "1"),
                ("scope", "AllSeats"),
                ("duration", "Permanent"),
            ]),
            cell(&[
                ("owner", o),
                ("order", "3"),
                ("trigger", "OnTurnStart"),
                ("condition.$type", "Always"),
                ("operation.$type", "ApplyStatus"),
                ("operation.status", "poison"),
                ("operation.stacks", "1"),
                ("scope", "Opponent"),
                ("duration", "Permanent"),
            ]),
        ] {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}

fn setup() -> (EffectTable, HandlerRegistry<Arena>, Arena) {
    let variables =
        VariableSchema::from_declarations([("round", Type::Int), ("target.health", Type::Int)])
            .unwrap();
    let mut vocabulary = EffectVocabulary::new(variables);
    vocabulary
        .owner_kind("card")
        .unwrap()
        .resource("health", ResourceKind::State)
        .unwrap()
        .resource("mana", ResourceKind::State)
        .unwrap()
        .status("poison")
        .unwrap()
        .streams_of(&STREAMS)
        .unwrap();
    let handlers = HandlerRegistry::new();
    let loaded = effect_loader::<turnstile_effects::Plain>().sheet("bench.tsv", &sheet());
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let table = EffectTable::compile(loaded.rows, &vocabulary, &handlers).unwrap();
    let arena = Arena {
        health: [1_000, 1_000],
        mana: [0, 0],
        hand: [0, 0],
        statuses: StatusBoard::new(),
        ledger: EffectLedger::new(),
        streams: Streams::new("bench", &STREAMS).unwrap(),
        owners: (0..OWNERS).map(|i| format!("card:c{i}")).collect(),
    };
    (table, handlers, arena)
}

fn bench(c: &mut Criterion) {
    let (table, handlers, arena) = setup();
    let mut executor = Executor::new(&table, &handlers);
    let mut steps = Vec::with_capacity(256);
    // Steps per resolution: 16 owners × (1 + 1 + 2 + 1) targets = 80.
    let mut probe = arena.clone();
    let per_resolution = executor
        .resolve(&mut probe, Event::new(Trigger::OnTurnStart), &mut steps)
        .unwrap()
        .steps;
    assert_eq!(per_resolution, 80);

    let mut group = c.benchmark_group("effects");
    group.throughput(Throughput::Elements(u64::from(per_resolution)));
    group.bench_function("resolve_80_rows_with_steps", |b| {
        let mut world = arena.clone();
        b.iter(|| {
            steps.clear();
            let resolution = executor
                .resolve(&mut world, Event::new(Trigger::OnTurnStart), &mut steps)
                .unwrap();
            black_box(resolution);
            // Keep the world's numbers bounded between iterations without rebuilding it.
            world.health = [1_000, 1_000];
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

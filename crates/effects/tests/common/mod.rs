//! A small two-seat card world that implements `EffectHost`, the way Duel will: seats with
//! health, mana and a deck, units on a board (things with health), statuses, a `max_mana`
//! rule and an `attack_bonus` rule, rebuilt from defaults. Tests build effect tables from
//! sheet text and run them here.

#![allow(dead_code)]

use std::collections::BTreeMap;

use turnstile_core::determinism::{StreamTable, Streams};
use turnstile_core::Seat;
use turnstile_effects::{
    effect_loader, Change, EffectHost, EffectLedger, EffectState, EffectTable, EffectVocabulary,
    Event, HandlerRegistry, HostError, Nothing, Number, OperationError, OwnerInstance, Owners,
    Plain, ResourceKind, RowContext, StatusBoard, Step, StepKind, Target, ThingId, Trigger,
    EFFECT_COLUMNS,
};
use turnstile_formula::{Type, Value, VariableSchema};

pub const STREAMS: StreamTable = StreamTable::new(&["effect_proc", "shuffle"]);

/// The variables rows of the test world may read, in slot order.
pub const VARIABLES: &[(&str, Type)] = &[
    ("round", Type::Int),         // 0
    ("target.health", Type::Int), // 1
    ("owner.stacks", Type::Int),  // 2
    ("target.mana", Type::Int),   // 3
    ("event.seat", Type::Int),    // 4
    ("tag_spell", Type::Bool),    // 5
];

pub fn vocabulary() -> EffectVocabulary {
    let variables = VariableSchema::from_declarations(VARIABLES.iter().copied()).unwrap();
    let mut v = EffectVocabulary::new(variables);
    v.owner_kind("card")
        .unwrap()
        .owner_kind("status")
        .unwrap()
        .owner_kind("phase")
        .unwrap()
        .owner_kind("relic")
        .unwrap()
        .resource("health", ResourceKind::State)
        .unwrap()
        .resource("max_health", ResourceKind::State)
        .unwrap()
        .resource("mana", ResourceKind::State)
        .unwrap()
        .resource("max_mana", ResourceKind::Rule)
        .unwrap()
        .resource("attack_bonus", ResourceKind::Rule)
        .unwrap()
        .status("poison")
        .unwrap()
        .status("stun")
        .unwrap()
        .status("shield")
        .unwrap()
        .streams_of(&STREAMS)
        .unwrap()
        .custom_trigger("OnUnitDies")
        .unwrap()
        .custom_trigger("Ping")
        .unwrap()
        .custom_trigger("Pong")
        .unwrap();
    v
}

/// The test world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct World {
    pub seats: u16,
    pub round: u32,
    /// (target, resource) → value.
    pub resources: BTreeMap<(Target, String), i64>,
    /// Rule resources' defaults, restored by `reset_rules`.
    pub rule_defaults: BTreeMap<(Target, String), i64>,
    pub hand: BTreeMap<Seat, i64>,
    pub deck: BTreeMap<Seat, i64>,
    pub statuses: StatusBoard,
    pub ledger: EffectLedger,
    pub streams: Streams,
    /// Present owners in board order: (owner, anchor, seat).
    pub present: Vec<(String, Target, Option<Seat>)>,
    /// Owners by instance (the played card of an `OnCardPlayed`).
    pub cards: BTreeMap<ThingId, (String, Seat)>,
    pub spell: bool,
    /// How many times each handler ran.
    pub handler_calls: BTreeMap<String, u32>,
}

pub fn seat(n: u16) -> Target {
    Target::Seat(Seat(n))
}

pub fn thing(n: u32) -> Target {
    Target::Thing(ThingId(n))
}

impl World {
    /// Two seats with 20 health (max 30), 3 mana, max_mana 3, attack_bonus 0, 10 cards in
    /// deck and none in hand.
    pub fn new() -> World {
        let mut w = World {
            seats: 2,
            round: 1,
            resources: BTreeMap::new(),
            rule_defaults: BTreeMap::new(),
            hand: BTreeMap::new(),
            deck: BTreeMap::new(),
            statuses: StatusBoard::new(),
            ledger: EffectLedger::new(),
            streams: Streams::new("test-seed", &STREAMS).unwrap(),
            present: Vec::new(),
            cards: BTreeMap::new(),
            spell: false,
            handler_calls: BTreeMap::new(),
        };
        for s in 0..2 {
            w.set(seat(s), "health", 20);
            w.set(seat(s), "max_health", 30);
            w.set(seat(s), "mana", 3);
            w.rule_defaults.insert((seat(s), "max_mana".into()), 3);
            w.rule_defaults.insert((seat(s), "attack_bonus".into()), 0);
            w.hand.insert(Seat(s), 0);
            w.deck.insert(Seat(s), 10);
        }
        w.reset_rules();
        w
    }

    pub fn set(&mut self, target: Target, resource: &str, value: i64) {
        self.resources.insert((target, resource.to_owned()), value);
    }

    pub fn get(&self, target: Target, resource: &str) -> i64 {
        self.resources
            .get(&(target, resource.to_owned()))
            .copied()
            .unwrap_or(i64::MIN)
    }

    /// Puts an owner on the board, at the right end.
    pub fn place(&mut self, owner: &str, anchor: Target, seat: Option<Seat>) {
        self.present.push((owner.to_owned(), anchor, seat));
    }

    /// A unit with health on the board.
    pub fn unit(&mut self, owner: &str, id: u32, controller: u16, health: i64) {
        self.set(thing(id), "health", health);
        self.place(owner, thing(id), Some(Seat(controller)));
    }
}

impl EffectHost for World {
    type Vocabulary = Plain;

    fn seat_count(&self) -> u16 {
        self.seats
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn owners(&self, event: &Event, owners: &mut Owners<'_>) {
        match &event.trigger {
            Trigger::OnStatusTick => {
                // The statuses of the ticking bearer, by name.
                if let Some(bearer) = event.target {
                    let seat = match bearer {
                        Target::Seat(s) => Some(s),
                        Target::Thing(_) => event.seat,
                    };
                    for entry in self.statuses.on(bearer) {
                        owners.push(&format!("status:{}", entry.status), bearer, seat);
                    }
                }
            }
            Trigger::OnCardPlayed => {
                // The played card first, then the board reacting, left to right.
                if let Some(Target::Thing(id)) = event.source {
                    if let Some((owner, seat)) = self.cards.get(&id) {
                        owners.push(owner, Target::Thing(id), Some(*seat));
                    }
                }
                for (owner, anchor, seat) in &self.present {
                    owners.push(owner, *anchor, *seat);
                }
            }
            _ => {
                for (owner, anchor, seat) in &self.present {
                    owners.push(owner, *anchor, *seat);
                }
            }
        }
    }

    fn variable(&self, context: &RowContext<'_>, slot: u16) -> Option<Value> {
        Some(match slot {
            0 => Value::Int(i64::from(self.round)),
            1 => Value::Int(self.resource(context.target, "health")?),
            2 => Value::Int(
                self.statuses
                    .stacks(context.owner.anchor, context.owner_ref.id()),
            ),
            3 => Value::Int(self.resource(context.target, "mana").unwrap_or(0)),
            4 => Value::Int(context.event.seat.map_or(-1, |s| i64::from(s.0))),
            5 => Value::Bool(self.spell),
            _ => return None,
        })
    }

    fn streams(&mut self) -> &mut Streams {
        &mut self.streams
    }

    fn resource(&self, target: Target, resource: &str) -> Option<i64> {
        self.resources.get(&(target, resource.to_owned())).copied()
    }

    fn set_resource(
        &mut self,
        target: Target,
        resource: &str,
        value: i64,
    ) -> Result<(), HostError> {
        match self.resources.get_mut(&(target, resource.to_owned())) {
            Some(slot) => {
                *slot = value;
                Ok(())
            }
            None => Err(HostError::no_resource(target, resource)),
        }
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

    fn reset_rules(&mut self) {
        for (key, value) in &self.rule_defaults {
            self.resources.insert(key.clone(), *value);
        }
    }

    fn draw(
        &mut self,
        target: Target,
        count: i64,
        _caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let Target::Seat(s) = target else {
            return Err(HostError::not_applicable("Draw", target));
        };
        let deck = self.deck.entry(s).or_default();
        let drawn = count.min(*deck).max(0);
        *deck -= drawn;
        let hand = self.hand.entry(s).or_default();
        let before = *hand;
        *hand += drawn;
        Ok(Change::int(before, *hand))
    }

    /// A shield absorbs a whole hit and loses a stack; a unit at 0 health raises `OnUnitDies`.
    fn damage(
        &mut self,
        target: Target,
        amount: i64,
        caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let before = self
            .resource(target, "health")
            .ok_or_else(|| HostError::no_resource(target, "health"))?;
        if self.statuses.stacks(target, "shield") > 0 {
            self.statuses.remove(target, "shield", Some(1));
            return Ok(Change::int(before, before));
        }
        let after = before.saturating_sub(amount).max(0).min(before);
        self.set_resource(target, "health", after)?;
        if after == 0 && before > 0 {
            if let Target::Thing(_) = target {
                caused.push(Event::new(Trigger::Custom("OnUnitDies".into())).from(target));
            }
        }
        Ok(Change::int(before, after))
    }
}

/// The handlers of the test world.
pub fn handlers() -> HandlerRegistry<World> {
    let mut registry = HandlerRegistry::new();
    registry
        .register(
            "swap_health",
            "Swaps the health of the two seats; the change reported is the target's health.",
            |world: &mut World, call, _caused| {
                world.handler_calls.entry("swap_health".into()).and_modify(|n| *n += 1).or_insert(1);
                let a = world.get(seat(0), "health");
                let b = world.get(seat(1), "health");
                world.set(seat(0), "health", b);
                world.set(seat(1), "health", a);
                let before = if call.target == seat(0) { a } else { b };
                Ok(Change::int(before, world.get(call.target, "health")))
            },
        )
        .unwrap()
        .register(
            "echo",
            "Raises the custom trigger `Ping` when run on `Pong` and `Pong` when run on `Ping`, changing nothing: a loop, for the limit tests.",
            |world: &mut World, call, caused| {
                world.handler_calls.entry("echo".into()).and_modify(|n| *n += 1).or_insert(1);
                let next = if call.trigger.name() == "Ping" { "Pong" } else { "Ping" };
                caused.push(Event::new(Trigger::Custom(next.into())));
                Ok(Change::int(0, 0))
            },
        )
        .unwrap()
        .register(
            "double_mana",
            "Doubles the target's mana, saturating; the change is its mana.",
            |world: &mut World, call, _caused| {
                world.handler_calls.entry("double_mana".into()).and_modify(|n| *n += 1).or_insert(1);
                let before = world.get(call.target, "mana");
                world.set(call.target, "mana", before.saturating_mul(2));
                Ok(Change::int(before, before.saturating_mul(2)))
            },
        )
        .unwrap();
    registry
}

/// A sheet from rows of cells given by column name; other columns empty.
pub fn sheet(rows: &[&[(&str, &str)]]) -> String {
    let mut text = EFFECT_COLUMNS.join("\t");
    text.push('\n');
    for row in rows {
        let cells: Vec<&str> = EFFECT_COLUMNS
            .iter()
            .map(|c| row.iter().find(|(k, _)| k == c).map_or("", |(_, v)| *v))
            .collect();
        text.push_str(&cells.join("\t"));
        text.push('\n');
    }
    text
}

/// Compiles sheet text for the test world, panicking with the problems if any.
pub fn table(text: &str) -> EffectTable {
    let loaded = effect_loader::<turnstile_effects::Plain>().sheet("effects.tsv", text);
    assert_eq!(loaded.problems, vec![], "sheet problems");
    match EffectTable::compile(loaded.rows, &vocabulary(), &handlers()) {
        Ok(t) => t,
        Err(problems) => panic!(
            "load problems:\n{}",
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// The problems of loading sheet text for the test world, one line each.
pub fn problems(text: &str) -> Vec<String> {
    let loaded = effect_loader::<turnstile_effects::Plain>().sheet("effects.tsv", text);
    let mut lines: Vec<String> = loaded.problems.iter().map(ToString::to_string).collect();
    if let Err(problems) = EffectTable::compile(loaded.rows, &vocabulary(), &handlers()) {
        lines.extend(problems.iter().map(ToString::to_string));
    }
    lines
}

/// A row's cells for `sheet`: the common columns, plus extras.
pub fn row<'a>(
    owner: &'a str,
    order: &'a str,
    trigger: &'a str,
    operation: &'a str,
    scope: &'a str,
    extra: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut cells = vec![
        ("owner", owner),
        ("order", order),
        ("trigger", trigger),
        ("operation.$type", operation),
        ("scope", scope),
    ];
    if !extra.iter().any(|(k, _)| *k == "condition.$type") {
        cells.push(("condition.$type", "Always"));
    }
    if !extra.iter().any(|(k, _)| *k == "duration") {
        cells.push(("duration", "Permanent"));
    }
    cells.extend_from_slice(extra);
    cells
}

pub fn target_name(t: Target) -> String {
    match t {
        Target::Seat(s) => format!("seat{}", s.0),
        Target::Thing(id) => format!("thing{}", id.0),
    }
}

pub fn number(n: Number) -> String {
    match n {
        Number::Int(i) => i.to_string(),
        Number::Fixed(f) => f.to_string(),
    }
}

/// One line per step: `owner#row operation(subject) target before->after`.
pub fn render(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|s| {
            let subject = s
                .subject
                .as_deref()
                .map(|x| format!("({x})"))
                .unwrap_or_default();
            let kind = match s.kind {
                StepKind::Instant => "",
                StepKind::Recorded => " [recorded]",
                StepKind::Lingering => " [lingering]",
                StepKind::Passive => " [passive]",
                StepKind::Round => " [round]",
            };
            format!(
                "{}#{} {}{} {} {}->{}{}",
                s.owner,
                s.row,
                s.operation,
                subject,
                target_name(s.target),
                number(s.before),
                number(s.after),
                kind
            )
        })
        .collect()
}

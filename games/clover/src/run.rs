//! The run around scoring: the rebuild points (run start, buying and selling a joker, buying
//! a voucher, round start, round end, and whenever a rule-carrying thing comes or goes), blinds
//! and their integer chip targets, end-of-round money and interest, tags, consumables and the
//! shop with rerolls — each random draw on its own named stream.
//!
//! Rounds are numbered from 1 and the counter moves when a round *starts*: a `ThisRound`
//! change made in the shop after round r holds in round r and so ends when round r+1 starts
//! (spec: "set in a shop, until the next round starts"); a `NextRound` change made then holds
//! in round r+1 only.

use serde::{Deserialize, Serialize};
use turnstile_effects::{EffectError, Executor, Step};

use crate::vocabulary::{CloverScope, CloverTrigger, Event, Scope, Trigger};

use crate::cards::{standard_deck, Card, Suit};
use crate::content::Content;
use crate::hands::HandType;
use crate::indices::{len_i64, len_u32, rank_of_draw};
use crate::score::key_cache;
use crate::state::{rarity_of_roll, RunState, Stickers, Thing};

/// Why a run action was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The executor stopped.
    #[error("{0}")]
    Effect(#[from] EffectError),
    /// Not enough money.
    #[error("costs ${cost}, you have ${money} (not_enough_money)")]
    NotEnoughMoney {
        /// The price.
        cost: i64,
        /// Money held.
        money: i64,
    },
    /// No free joker slot.
    #[error("every joker slot is taken (no_joker_slot)")]
    NoJokerSlot,
    /// Not in the catalog or not on offer.
    #[error("`{0}` is not available (not_available)")]
    NotAvailable(String),
    /// An eternal joker cannot be sold or destroyed.
    #[error("`{0}` is eternal: it cannot be sold (eternal)")]
    Eternal(String),
    /// A consumable that acts on hand cards was used on none, or on too many.
    #[error("`{owner}` is used on 1 to {most} cards of your hand, not {given} (no_targets)")]
    NoTargets {
        /// The consumable.
        owner: String,
        /// The most it takes.
        most: usize,
        /// How many were given.
        given: usize,
    },
    /// No free consumable slot.
    #[error("every consumable slot is taken (no_consumable_slot)")]
    NoConsumableSlot,
    /// Cards were given to a consumable that takes none.
    #[error("`{owner}` is not used on cards, but {given} were chosen (bad_targets)")]
    BadTargets {
        /// The consumable.
        owner: String,
        /// 0.
        most: usize,
        /// How many were given.
        given: usize,
    },
}

impl RunError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            RunError::Effect(e) => e.code(),
            RunError::NotEnoughMoney { .. } => "not_enough_money",
            RunError::NoJokerSlot => "no_joker_slot",
            RunError::NotAvailable(_) => "not_available",
            RunError::Eternal(_) => "eternal",
            RunError::NoTargets { .. } => "no_targets",
            RunError::NoConsumableSlot => "no_consumable_slot",
            RunError::BadTargets { .. } => "bad_targets",
        }
    }
}

/// The three blinds of an ante.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Blind {
    /// ×1, $3 (none from the second stake up).
    Small,
    /// ×1.5, $4.
    Big,
    /// ×2, $5 ($8 at showdown antes); its boss's rules apply while it is played.
    Boss,
}

/// Base chip targets for antes 1..=15 at blind scaling 1, 2, 3 (clover-facts.md, "Blinds":
/// antes past 8 by the genre's formula, rounded down to two significant digits, computed once).
/// Ante 16's would be past `i64::MAX` at every scaling.
const BASE: [[i64; 15]; 3] = [
    [
        300,
        800,
        2_000,
        5_000,
        11_000,
        20_000,
        35_000,
        50_000,
        110_000,
        560_000,
        7_200_000,
        300_000_000,
        47_000_000_000,
        29_000_000_000_000,
        77_000_000_000_000_000,
    ],
    [
        300,
        900,
        2_600,
        8_000,
        20_000,
        36_000,
        60_000,
        100_000,
        230_000,
        1_100_000,
        14_000_000,
        600_000_000,
        94_000_000_000,
        58_000_000_000_000,
        150_000_000_000_000_000,
    ],
    [
        300,
        1_000,
        3_200,
        9_000,
        25_000,
        60_000,
        110_000,
        200_000,
        460_000,
        2_200_000,
        29_000_000,
        1_200_000_000,
        180_000_000_000,
        110_000_000_000_000,
        300_000_000_000_000_000,
    ],
];

/// The chips a blind requires: `base(ante) × blind mult × deck multiplier`, integers only,
/// with a boss blind at ×2 (see [`boss_target`] for a boss with its own multiplier).
/// Ante 0 or below is 100; past ante 15, where the genre's targets leave `i64`, a target is
/// `i64::MAX` (only a saturated score reaches it).
pub fn blind_target(ante: i64, scaling: i64, blind: Blind, deck_multiplier: i64) -> i64 {
    let halves = match blind {
        Blind::Small => 2,
        Blind::Big => 3,
        Blind::Boss => 4,
    };
    target_in_halves(ante, scaling, halves, deck_multiplier)
}

/// A boss blind's target with the boss's own multiplier (the `boss_blind_mult` rule its
/// `Passive` rows set: ×2 by default, ×4 for a wall-like boss, ×1 for a one-hand boss).
pub fn boss_target(ante: i64, scaling: i64, boss_mult: i64, deck_multiplier: i64) -> i64 {
    target_in_halves(
        ante,
        scaling,
        boss_mult.max(0).saturating_mul(2),
        deck_multiplier,
    )
}

/// `base(ante) × halves / 2 × deck multiplier`: blind multipliers are whole or halves (×1.5).
fn target_in_halves(ante: i64, scaling: i64, halves: i64, deck_multiplier: i64) -> i64 {
    if ante > 15 {
        return i64::MAX;
    }
    let base = if ante <= 0 {
        100
    } else {
        // Content that sets `blind_scaling` outside 1..=3 is refused at load
        // (`content::BLIND_SCALINGS`); the bound here only keeps the index in the table.
        let row = usize::try_from(scaling.clamp(1, 3) - 1).unwrap_or(0);
        let col = usize::try_from(ante - 1).unwrap_or(0);
        BASE[row][col]
    };
    (base.saturating_mul(halves) / 2).saturating_mul(deck_multiplier.max(1))
}

/// Computes layer 1 once per run (and again if the stake changed): the rule defaults with
/// the stake's `Passive` rows applied (every stake up to the run's, lowest first), without the
/// ledger. A rebuild then resets to these rules rather than to the bare defaults, so a stake
/// is the ground every other layer builds on (spec/effects.md's layer 1), not a passive owner.
pub(crate) fn stake_layer(run: &mut RunState, content: &Content) -> Result<(), RunError> {
    if run
        .scoring
        .stake_rules
        .as_ref()
        .is_some_and(|(s, _)| *s == run.stake)
    {
        return Ok(());
    }
    let ledger = std::mem::take(&mut run.ledger);
    let rules = std::mem::take(&mut run.rules);
    run.scoring.stake_only = true;
    run.scoring.keys = key_cache(content, run);
    let mut steps = Vec::new();
    let result = Executor::new(&content.effects, &content.handlers).rebuild(run, &mut steps);
    run.scoring.stake_only = false;
    run.ledger = ledger;
    let base = std::mem::replace(&mut run.rules, rules);
    result?;
    run.scoring.stake_rules = Some((run.stake, base));
    Ok(())
}

fn resolve(run: &mut RunState, content: &Content, event: Event) -> Result<Vec<Step>, RunError> {
    stake_layer(run, content)?;
    run.scoring.keys = key_cache(content, run);
    let mut steps = Vec::new();
    Executor::new(&content.effects, &content.handlers).resolve(run, event, &mut steps)?;
    // A joker that destroyed itself leaves now; its rules leave with it.
    if run.remove_destroyed_jokers() {
        steps.extend(rebuild(run, content)?);
    }
    Ok(steps)
}

/// Rebuilds every rule from defaults through the four layers. Idempotent.
pub fn rebuild(run: &mut RunState, content: &Content) -> Result<Vec<Step>, RunError> {
    stake_layer(run, content)?;
    run.scoring.keys = key_cache(content, run);
    let mut steps = Vec::new();
    Executor::new(&content.effects, &content.handlers).rebuild(run, &mut steps)?;
    Ok(steps)
}

fn has_rows(content: &Content, owner: &str, trigger: &Trigger) -> bool {
    content
        .effects
        .rows()
        .iter()
        .any(|r| r.owner.as_str() == owner && &r.trigger == trigger)
}

fn use_owner(run: &mut RunState, content: &Content, owner: &str) -> Result<(), RunError> {
    run.scoring.acting = Some(owner.to_owned());
    let result = resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnUse)),
    );
    run.scoring.acting = None;
    result.map(|_| ())
}

/// Run start: rebuild, then the deck's `OnUse` rows (starting money and the like).
pub fn start_run(run: &mut RunState, content: &Content) -> Result<(), RunError> {
    rebuild(run, content)?;
    let deck = format!("deck:{}", run.deck);
    use_owner(run, content, &deck)?;
    rebuild(run, content)?;
    Ok(())
}

/// Buys a joker: money, a free slot, then rebuild (its rules apply now) and its `OnBuy` rows.
pub fn buy_joker(run: &mut RunState, content: &Content, id: &str) -> Result<(), RunError> {
    buy_joker_with(run, content, id, Stickers::default())
}

/// The price of a joker offer: its catalog cost plus its edition's ([`edition_cost`]) less
/// the discount, or `rental_price` with a rental sticker.
pub fn joker_price(run: &RunState, content: &Content, id: &str, stickers: Stickers) -> i64 {
    if stickers.rental {
        return run.rule(crate::state::Rule::RentalPrice).max(0);
    }
    run.price(joker_cost(content, id, stickers.edition))
}

/// What an edition adds to a joker's cost: foil $2, holographic $3, polychrome and negative $5.
pub fn edition_cost(edition: crate::cards::Edition) -> i64 {
    use crate::cards::Edition;
    match edition {
        Edition::None => 0,
        Edition::Foil => 2,
        Edition::Holographic => 3,
        Edition::Polychrome | Edition::Negative => 5,
    }
}

/// A joker's cost before any discount: its catalog cost plus its edition's.
fn joker_cost(content: &Content, id: &str, edition: crate::cards::Edition) -> i64 {
    content
        .catalog
        .get(&format!("joker:{id}"))
        .map_or(0, |e| i64::from(e.cost))
        + edition_cost(edition)
}

/// The price of a shop offer (`kind:id`) as the shop asks it now: a joker's from
/// [`joker_price`], a planet's $0 under the `free_planets` rule, anything else its catalog
/// cost less the discount ([`RunState::price`]). The view shows these, so the page never
/// prices an offer differently from the rules that charge it.
pub fn offer_price(run: &RunState, content: &Content, item: &str, stickers: Stickers) -> i64 {
    // A playing card costs $1 plus its edition's cost (the edition rides in `stickers`).
    if item == "card" {
        return run.price(1 + edition_cost(stickers.edition));
    }
    if let Some(id) = item.strip_prefix("joker:") {
        return joker_price(run, content, id, stickers);
    }
    if item.starts_with("planet:") && run.rule(crate::state::Rule::FreePlanets) > 0 {
        return 0;
    }
    run.price(content.catalog.get(item).map_or(0, |e| i64::from(e.cost)))
}

/// The price of a booster pack (`pack:<id>`): its catalog cost less the discount, $0 for a
/// Celestial pack under the `free_planets` rule.
pub fn pack_price(run: &RunState, content: &Content, pack: &str) -> i64 {
    let Some(entry) = content.catalog.get(pack) else {
        return 0;
    };
    if entry.holds.as_deref() == Some("planet") && run.rule(crate::state::Rule::FreePlanets) > 0 {
        return 0;
    }
    run.price(i64::from(entry.cost))
}

/// Buys a joker offered with `stickers` (see [`buy_joker`]).
pub fn buy_joker_with(
    run: &mut RunState,
    content: &Content,
    id: &str,
    stickers: Stickers,
) -> Result<(), RunError> {
    if !content.catalog.contains_key(&format!("joker:{id}")) {
        return Err(RunError::NotAvailable(id.to_owned()));
    }
    let cost = joker_price(run, content, id, stickers);
    if run.spendable() < cost {
        return Err(RunError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    // A negative joker brings its own slot.
    if len_i64(run.jokers.len()) >= run.rule(crate::state::Rule::JokerSlots)
        && stickers.edition != crate::cards::Edition::Negative
    {
        return Err(RunError::NoJokerSlot);
    }
    let mut joker = content
        .joker(id)
        .ok_or_else(|| RunError::NotAvailable(id.to_owned()))?;
    joker.stick(stickers, perishable_rounds(run));
    // An edition's cost counts in what selling pays.
    joker.sell_value = (joker_cost(content, id, stickers.edition) / 2).max(1);
    if stickers.rental {
        joker.sell_value = (run.rule(crate::state::Rule::RentalPrice) / 2).max(1);
    }
    run.money -= cost;
    run.jokers.push(joker);
    rebuild(run, content)?;
    let slot = run.jokers.len() - 1;
    resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnBuy)).from(Thing::Slot(slot).target()),
    )?;
    Ok(())
}

/// Sells the joker in `slot`: its `OnSell` rows, its sell value ([`crate::state::Joker::sell_value`]),
/// then rebuild.
pub fn sell_joker(run: &mut RunState, content: &Content, slot: usize) -> Result<(), RunError> {
    let Some(joker) = run.jokers.get(slot) else {
        return Err(RunError::NotAvailable(format!("slot {slot}")));
    };
    if joker.eternal {
        return Err(RunError::Eternal(joker.id.clone()));
    }
    let value = joker.sell_value;
    run.scoring.selling = Some(slot);
    let sold = resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnSell)).from(Thing::Slot(slot).target()),
    );
    run.scoring.selling = None;
    sold?;
    run.jokers.remove(slot);
    run.money = run.money.saturating_add(value);
    rebuild(run, content)?;
    resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnJokerSold)),
    )?;
    Ok(())
}

/// Buys a voucher, then rebuild.
pub fn buy_voucher(run: &mut RunState, content: &Content, id: &str) -> Result<(), RunError> {
    let owner = format!("voucher:{id}");
    let entry = content
        .catalog
        .get(&owner)
        .ok_or_else(|| RunError::NotAvailable(id.to_owned()))?;
    let cost = run.price(i64::from(entry.cost));
    if run.spendable() < cost {
        return Err(RunError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    run.money -= cost;
    run.vouchers.push(owner.clone());
    rebuild(run, content)?;
    // A voucher's `OnBuy` rows act once, when it is redeemed (an ante set back).
    if has_rows(content, &owner, &Trigger::Game(CloverTrigger::OnBuy)) {
        run.scoring.acting = Some(owner);
        let result = resolve(
            run,
            content,
            Event::new(Trigger::Game(CloverTrigger::OnBuy)),
        );
        run.scoring.acting = None;
        result?;
        rebuild(run, content)?;
    }
    Ok(())
}

/// Takes a tag: its `OnUse` rows at once; kept (and a rebuild made) only when it has rows
/// for a later moment (`OnShopEnter`, `OnBossDefeated`), dropped once those fired.
pub fn take_tag(run: &mut RunState, content: &Content, id: &str) -> Result<(), RunError> {
    let owner = format!("tag:{id}");
    if !content.catalog.contains_key(&owner) {
        return Err(RunError::NotAvailable(id.to_owned()));
    }
    let waiting = run.tag_copies;
    take_one_tag(run, content, &owner)?;
    // A tag that gained `tag_copies` (a double tag) waits for the next one; any other tag is
    // taken once more for each copy waiting.
    if run.tag_copies <= waiting {
        for _ in 0..std::mem::take(&mut run.tag_copies) {
            take_one_tag(run, content, &owner)?;
        }
    }
    // Always: a tag may have created a joker, whose rules apply at once.
    rebuild(run, content)?;
    Ok(())
}

/// One tag's `OnUse` rows; placed among the run's tags when it waits for a later moment.
fn take_one_tag(run: &mut RunState, content: &Content, owner: &str) -> Result<(), RunError> {
    run.scoring.boss_redraw = 0;
    use_owner(run, content, owner)?;
    // A row that gained `boss_redraw` (the boss tag) draws the ante's boss again, never the
    // same one (unless it is the only one).
    if run.scoring.boss_redraw > 0 {
        run.scoring.boss_redraw = 0;
        let now = run.boss.clone();
        draw_boss(run, content, now.as_deref());
    }
    if has_rows(content, owner, &Trigger::Game(CloverTrigger::OnShopEnter))
        || has_rows(
            content,
            owner,
            &Trigger::Game(CloverTrigger::OnBossDefeated),
        )
    {
        run.tags.push(owner.to_owned());
    }
    Ok(())
}

/// Uses the consumable at `index` (its `OnUse` rows), then removes it and rebuilds.
pub fn use_consumable(run: &mut RunState, content: &Content, index: usize) -> Result<(), RunError> {
    use_consumable_on(run, content, index, &[]).map(|_| ())
}

/// What a consumable did to the cards it was used on: each card as it is now (same order),
/// and which of them were destroyed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UsedOn {
    /// The cards after the use, in the order given.
    pub cards: Vec<Card>,
    /// Indices (into `cards`) of those destroyed.
    pub destroyed: Vec<usize>,
}

/// How many hand cards the consumable `owner` is used on at most (its catalog `picks`; 0:
/// it takes none).
pub fn targets_of(content: &Content, owner: &str) -> u8 {
    content
        .catalog
        .get(owner)
        .map_or(0, |e| if e.kind == "pack" { 0 } else { e.picks })
}

/// Uses the consumable at `index` on `cards` (chosen from the hand; its `Selected` rows act on
/// them, left to right), then removes it and rebuilds. A consumable that takes cards needs 1
/// to its `picks` of them (`no_targets`), one that takes none refuses any (`bad_targets`).
pub fn use_consumable_on(
    run: &mut RunState,
    content: &Content,
    index: usize,
    cards: &[Card],
) -> Result<UsedOn, RunError> {
    use_consumable_in_hand(run, content, index, cards, &[])
}

/// Whether `owner` (a consumable) picks hand cards at random (`RandomHandCard` rows): it is
/// used only while a blind is played.
pub fn picks_from_hand(content: &Content, owner: &str) -> bool {
    content
        .effects
        .rows()
        .iter()
        .any(|r| r.owner.as_str() == owner && r.scope == Scope::Game(CloverScope::RandomHandCard))
}

/// [`use_consumable_on`] during a blind: `chosen` are the cards it is used on, `rest` the
/// other hand cards (what `RandomHandCard` rows may pick among, with the chosen ones). The
/// result's cards and destroyed indices cover `chosen` then `rest`.
pub fn use_consumable_in_hand(
    run: &mut RunState,
    content: &Content,
    index: usize,
    chosen: &[Card],
    rest: &[Card],
) -> Result<UsedOn, RunError> {
    let cards = chosen;
    let Some(owner) = run.consumables.get(index).cloned() else {
        return Err(RunError::NotAvailable(format!("consumable {index}")));
    };
    let most = usize::from(targets_of(content, &owner));
    if most == 0 && !cards.is_empty() {
        return Err(RunError::BadTargets {
            owner,
            most,
            given: cards.len(),
        });
    }
    if most > 0 && (cards.is_empty() || cards.len() > most) {
        return Err(RunError::NoTargets {
            owner,
            most,
            given: cards.len(),
        });
    }
    run.consumables.remove(index);
    if owner.starts_with("planet:") {
        if let Err(at) = run.planets_used.binary_search(&owner) {
            run.planets_used.insert(at, owner.clone());
        }
    }
    run.scoring.held = [chosen, rest].concat();
    run.scoring.selected = chosen.len();
    run.scoring.destroyed_held.clear();
    // A consumable that picks hand cards at random draws their order once, on `creation`
    // (Fisher-Yates); one that does not draws nothing.
    run.scoring.random_order.clear();
    if picks_from_hand(content, &owner) {
        let mut order: Vec<usize> = (0..run.scoring.held.len()).collect();
        for i in (1..order.len()).rev() {
            let bound = len_u32(i + 1);
            let j = run.streams.below("creation", bound).map_err(stream_error)? as usize;
            order.swap(i, j);
        }
        run.scoring.random_order = order;
    }
    let result = use_owner(run, content, &owner);
    run.scoring.selected = 0;
    run.scoring.random_order.clear();
    result?;
    let used = UsedOn {
        cards: std::mem::take(&mut run.scoring.held),
        destroyed: std::mem::take(&mut run.scoring.destroyed_held),
    };
    rebuild(run, content)?;
    Ok(used)
}

/// Round start: the round counter moves, the boss (if this is its blind) joins the rules,
/// rebuild, hands and discards from the rules, `OnRoundStart` rows.
pub fn start_round(run: &mut RunState, content: &Content, blind: Blind) -> Result<(), RunError> {
    run.round = run.round.saturating_add(1);
    run.round_hands = 0;
    // A joker's `no_boss` (as the rules stand when the blind starts) keeps the boss's rules out.
    run.boss_active =
        blind == Blind::Boss && run.boss.is_some() && run.rule(crate::state::Rule::NoBoss) == 0;
    rebuild(run, content)?;
    run.hands_left = run.rule(crate::state::Rule::Hands).max(1);
    run.discards_left = run.rule(crate::state::Rule::Discards).max(0);
    resolve(run, content, Event::new(Trigger::OnRoundStart))?;
    Ok(())
}

/// Round end (the blind beaten): `OnRoundEnd` rows of jokers and of each held card, the
/// blind's reward, $1 per unused hand, interest; a boss blind fires `OnBossDefeated`; the
/// boss leaves the rules; rebuild.
pub fn end_round(
    run: &mut RunState,
    content: &Content,
    blind: Blind,
    held: &[Card],
) -> Result<(), RunError> {
    end_round_with(run, content, blind, held, Reward::Blind)
}

/// Whether a round's end pays the blind's reward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reward {
    /// The blind was beaten: its reward is paid.
    Blind,
    /// The run was saved from a loss (`OnRoundLost`): no blind reward; the rest (unused
    /// hands and discards, interest, jokers' round-end money) as usual.
    None,
}

/// [`end_round`], saying whether the blind's reward is paid.
pub fn end_round_with(
    run: &mut RunState,
    content: &Content,
    blind: Blind,
    held: &[Card],
    paid: Reward,
) -> Result<(), RunError> {
    resolve(run, content, Event::new(Trigger::OnRoundEnd))?;
    run.scoring.held = held.to_vec();
    for i in 0..held.len() {
        resolve(
            run,
            content,
            Event::new(Trigger::OnRoundEnd).at(Thing::Held(i).target()),
        )?;
    }
    let showdown = run
        .boss
        .as_ref()
        .and_then(|b| content.catalog.get(b))
        .is_some_and(|e| e.showdown);
    let reward = match (paid, blind) {
        (Reward::None, _) => 0,
        (Reward::Blind, Blind::Small) => run.rule(crate::state::Rule::SmallBlindReward),
        (Reward::Blind, Blind::Big) => 4,
        (Reward::Blind, Blind::Boss) if showdown => 8,
        (Reward::Blind, Blind::Boss) => 5,
    };
    // `interest` dollars for every $5 held, counted up to the cap's fives.
    let interest = (run.money.max(0) / 5)
        .min(run.rule(crate::state::Rule::InterestCap) / 5)
        .saturating_mul(run.rule(crate::state::Rule::Interest).max(0));
    run.unused_discards = run
        .unused_discards
        // The count saturates (as every money sum does) rather than dropping a huge value.
        .saturating_add(u32::try_from(run.discards_left.max(0)).unwrap_or(u32::MAX));
    let unused = run.hands_left.max(0) * run.rule(crate::state::Rule::HandReward).max(0)
        + run.discards_left.max(0) * run.rule(crate::state::Rule::DiscardReward).max(0);
    run.money = run.money.saturating_add(reward + unused + interest);
    // Stickers: every rental joker costs its fee (money may go below zero, as in the genre);
    // every perishable joker has one round less, and is debuffed at zero (the rebuild below
    // drops its rules).
    let fee = run.rule(crate::state::Rule::RentalFee).max(0);
    for joker in &mut run.jokers {
        if joker.rental {
            run.money = run.money.saturating_sub(fee);
        }
        if let Some(rounds) = joker.perishable.as_mut() {
            *rounds = rounds.saturating_sub(1);
        }
    }
    // A boss's disabled joker works again once its blind is over.
    for joker in &mut run.jokers {
        joker.disabled = false;
    }
    if blind == Blind::Boss {
        resolve(
            run,
            content,
            Event::new(Trigger::Game(CloverTrigger::OnBossDefeated)),
        )?;
        let content_ref = content;
        run.tags.retain(|t| {
            !has_rows(
                content_ref,
                t,
                &Trigger::Game(CloverTrigger::OnBossDefeated),
            )
        });
        run.boss_active = false;
        run.ante = run.ante.saturating_add(1);
        run.ante_played.clear();
    }
    rebuild(run, content)?;
    Ok(())
}

/// `disable_joker` (a boss): the joker disabled until now works again, and one joker drawn
/// on `boss_proc` is disabled for the coming hand (no draw without the rule or without
/// jokers). The game calls it when a blind starts and after every hand that leaves the blind
/// going. Returns the disabled slot.
pub fn disable_a_joker(run: &mut RunState, content: &Content) -> Result<Option<usize>, RunError> {
    let mut changed = false;
    for joker in &mut run.jokers {
        changed |= std::mem::take(&mut joker.disabled);
    }
    let mut disabled = None;
    if run.rule(crate::state::Rule::DisableJoker) != 0 {
        if let Some(n) = Some(len_u32(run.jokers.len())).filter(|n| *n > 0) {
            let at = run.streams.below("boss_proc", n).map_err(stream_error)? as usize;
            if let Some(joker) = run.jokers.get_mut(at) {
                joker.disabled = true;
                changed = true;
                disabled = Some(at);
            }
        }
    }
    if changed {
        rebuild(run, content)?;
    }
    Ok(disabled)
}

/// The last hand of a blind fell short, having reached `percent` % of its target:
/// `OnRoundLost` rows resolve (`round.scoredPercent`), and a row that gains the `rescue`
/// resource saves the run. Returns the owner that saved it, if one did.
pub fn round_lost(
    run: &mut RunState,
    content: &Content,
    percent: i64,
) -> Result<Option<String>, RunError> {
    run.scoring.round_percent = percent;
    run.scoring.rescue = 0;
    let steps = resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnRoundLost)),
    )?;
    if run.scoring.rescue <= 0 {
        return Ok(None);
    }
    run.scoring.rescue = 0;
    Ok(steps
        .iter()
        .find(|s| s.subject.as_deref() == Some("rescue"))
        .map(|s| s.owner.to_string()))
}

/// Draws the round's targets ([`crate::state::RoundTargets`]) on `round_target`, in a fixed
/// order: the card (rank and printed suit of one of the run's `cards` that is not stone), the
/// scoring suit (one of the three suits that are not the current one), the discarded suit and
/// the discarded rank (each from one such card), and the hand (one of the hands the player can
/// see — the nine plain ones and each secret one played this run — other than the current
/// one). A deck of stone cards only keeps the card, discarded suit and rank it had.
/// The game calls it when the run starts and at every round's end.
pub fn draw_round_targets(run: &mut RunState, cards: &[Card]) -> Result<(), RunError> {
    let ranked: Vec<&Card> = cards.iter().filter(|c| !c.is_stone()).collect();
    let mut t = run.round_targets;
    if let Some(card) = pick(run, &ranked)? {
        (t.card_rank, t.card_suit) = (card.rank, card.suit);
    }
    let suits: Vec<Suit> = Suit::ALL.into_iter().filter(|s| *s != t.suit).collect();
    if let Some(suit) = pick(run, &suits)? {
        t.suit = *suit;
    }
    if let Some(card) = pick(run, &ranked)? {
        t.discard_suit = card.suit;
    }
    if let Some(card) = pick(run, &ranked)? {
        t.discard_rank = card.rank;
    }
    let hands: Vec<HandType> = HandType::ALL
        .into_iter()
        .filter(|h| *h != t.hand)
        .filter(|h| h.index() < 9 || run.played_counts.get(h.index()).is_some_and(|&n| n > 0))
        .collect();
    if let Some(hand) = pick(run, &hands)? {
        t.hand = *hand;
    }
    run.round_targets = t;
    Ok(())
}

/// One of `items`, drawn on `round_target` (none from an empty list, and then no draw).
fn pick<'a, T>(run: &mut RunState, items: &'a [T]) -> Result<Option<&'a T>, RunError> {
    if items.is_empty() {
        return Ok(None);
    }
    let n = u32::try_from(items.len()).map_err(|_| {
        RunError::NotAvailable(format!("{} round targets to draw from", items.len()))
    })?;
    let at = run.streams.below("round_target", n).map_err(stream_error)?;
    Ok(items.get(at as usize))
}

/// A discard of `discarded` (already out of the hand): `OnDiscard` once per card, about
/// that card — its seal first, then the jokers — under the stake's layer; a joker that
/// destroyed itself on it leaves. Returns the steps.
pub fn discard(
    run: &mut RunState,
    content: &Content,
    discarded: &[Card],
) -> Result<Vec<Step>, RunError> {
    run.scoring.held = discarded.to_vec();
    // The discarded cards' poker hand: rows of the discard read `hand.*` of it, and a
    // `LevelUpHand` without a hand levels it.
    run.scoring.detected = crate::score::detect_in_run(run, discarded);
    run.scoring.destroyed_held.clear();
    stake_layer(run, content)?;
    run.scoring.keys = key_cache(content, run);
    let mut steps = Vec::new();
    for k in 0..discarded.len() {
        let card = Thing::Held(k).target();
        Executor::new(&content.effects, &content.handlers).resolve(
            run,
            Event::new(Trigger::Game(CloverTrigger::OnDiscard)).at(card),
            &mut steps,
        )?;
    }
    if run.remove_destroyed_jokers() {
        rebuild(run, content)?;
    }
    Ok(steps)
}

/// Opens the shop: `OnShopEnter` rows (tags placed for it are spent), then fresh offers.
pub fn enter_shop(run: &mut RunState, content: &Content) -> Result<Vec<String>, RunError> {
    run.shops = run.shops.saturating_add(1);
    resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnShopEnter)),
    )?;
    run.tags
        .retain(|t| !has_rows(content, t, &Trigger::Game(CloverTrigger::OnShopEnter)));
    rebuild(run, content)?;
    let mut offers = roll_shop(run, content)?;
    offers.extend(roll_vouchers(run, content)?);
    Ok(offers)
}

/// The shop's vouchers: `voucher_slots` (1; a voucher tag adds one for its shop) different
/// ones not yet owned, each drawn by [`roll_voucher`] among those not drawn yet.
pub fn roll_vouchers(run: &mut RunState, content: &Content) -> Result<Vec<String>, RunError> {
    let slots = run.rule(crate::state::Rule::VoucherSlots).max(0);
    let mut drawn: Vec<String> = Vec::new();
    for _ in 0..slots {
        match roll_voucher_besides(run, content, &drawn)? {
            Some(v) => drawn.push(v),
            None => break,
        }
    }
    Ok(drawn)
}

/// The shop's voucher: one not yet owned, drawn on `shop_voucher` (none when all are owned).
pub fn roll_voucher(run: &mut RunState, content: &Content) -> Result<Option<String>, RunError> {
    roll_voucher_besides(run, content, &[])
}

fn roll_voucher_besides(
    run: &mut RunState,
    content: &Content,
    drawn: &[String],
) -> Result<Option<String>, RunError> {
    let pool: Vec<String> = content
        .of_kind("voucher")
        .filter(|e| {
            e.requires
                .as_ref()
                .is_none_or(|r| run.vouchers.contains(&format!("voucher:{r}")))
        })
        .map(|e| format!("voucher:{}", e.id))
        .filter(|v| !run.vouchers.contains(v) && !drawn.contains(v))
        .collect();
    let n = len_u32(pool.len());
    if n == 0 {
        return Ok(None);
    }
    let pick = run
        .streams
        .below("shop_voucher", n)
        .map_err(|e| RunError::NotAvailable(e.to_string()))? as usize;
    Ok(pool.get(pick).cloned())
}

/// Draws the shop's offers: per slot a card type on `shop_slot` (joker 20, tarot 4, planet 4),
/// a rarity on `shop_rarity` (70/25/5), and the pick on `shop_pick`; owned jokers excluded.
pub fn roll_shop(run: &mut RunState, content: &Content) -> Result<Vec<String>, RunError> {
    let slots = run.rule(crate::state::Rule::ShopSlots).max(0);
    let mut offers = Vec::new();
    let stream =
        |e: turnstile_core::determinism::StreamError| RunError::NotAvailable(e.to_string());
    for _ in 0..slots {
        // The card type by the rules' weights (joker 20, tarot 4, planet 4, spectral 0 by
        // default: a draw below 28, as before the weights were rules).
        let weights = [
            ("joker", run.rule(crate::state::Rule::JokerWeight).max(0)),
            ("tarot", run.rule(crate::state::Rule::TarotWeight).max(0)),
            ("planet", run.rule(crate::state::Rule::PlanetWeight).max(0)),
            (
                "spectral",
                run.rule(crate::state::Rule::SpectralWeight).max(0),
            ),
            // Last, so at weight 0 every earlier draw is what it was without it.
            ("card", run.rule(crate::state::Rule::CardWeight).max(0)),
        ];
        let total: i64 = weights.iter().map(|(_, w)| w).sum();
        let Ok(total) = u32::try_from(total) else {
            continue;
        };
        if total == 0 {
            continue;
        }
        let mut kind_roll = i64::from(run.streams.below("shop_slot", total).map_err(stream)?);
        let mut kind = "planet";
        for (k, w) in weights {
            if kind_roll < w {
                kind = k;
                break;
            }
            kind_roll -= w;
        }
        // A playing card for sale: the game draws which one when it stocks the slot.
        if kind == "card" {
            offers.push("card".to_owned());
            continue;
        }
        let rarity = if kind == "joker" {
            rarity_of_roll(run.streams.below("shop_rarity", 100).map_err(stream)?)
        } else {
            0
        };
        let pool: Vec<String> = content
            .of_kind(kind)
            .filter(|e| kind != "joker" || e.rarity == rarity)
            .filter(|e| {
                run.rule(crate::state::Rule::Duplicates) != 0
                    || !run.jokers.iter().any(|j| j.id == e.id)
            })
            .map(|e| format!("{}:{}", e.kind, e.id))
            .collect();
        if pool.is_empty() {
            continue;
        }
        let n = len_u32(pool.len());
        let pick = run.streams.below("shop_pick", n).map_err(stream)? as usize;
        offers.push(pool[pick].clone());
    }
    Ok(offers)
}

/// Rerolls the shop for its cost.
pub fn reroll_shop(
    run: &mut RunState,
    content: &Content,
    rerolls_so_far: i64,
) -> Result<Vec<String>, RunError> {
    let cost = reroll_price(run, rerolls_so_far);
    if run.spendable() < cost {
        return Err(RunError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    run.money -= cost;
    let offers = roll_shop(run, content)?;
    resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnReroll)),
    )?;
    Ok(offers)
}

/// A booster pack was opened (its contents drawn): the jokers' `OnPackOpened` rows.
pub fn pack_opened(run: &mut RunState, content: &Content) -> Result<(), RunError> {
    resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnPackOpened)),
    )?;
    Ok(())
}

/// A booster pack was closed with picks left (`skipPack`): its `OnPackSkipped` rows.
pub fn skip_pack(run: &mut RunState, content: &Content) -> Result<(), RunError> {
    resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnPackSkipped)),
    )?;
    Ok(())
}

/// What the next reroll of a shop costs after `rerolls_so_far` in it: nothing while the
/// `free_rerolls` last, then `reroll_cost` plus $1 for each paid reroll before it.
pub fn reroll_price(run: &RunState, rerolls_so_far: i64) -> i64 {
    let free = run.rule(crate::state::Rule::FreeRerolls).max(0);
    if rerolls_so_far < free {
        return 0;
    }
    run.rule(crate::state::Rule::RerollCost)
        .max(0)
        .saturating_add(rerolls_so_far - free)
}

/// A freshly shuffled 52-card deck, on the `shuffle` stream.
pub fn shuffled_deck(run: &mut RunState) -> Vec<Card> {
    shuffled(run, standard_deck())
}

/// The run's own deck (the cards it owns, packs' cards included), shuffled on `shuffle`.
pub fn shuffled(run: &mut RunState, mut deck: Vec<Card>) -> Vec<Card> {
    let _ = run.streams.shuffle("shuffle", &mut deck);
    deck
}

fn stream_error(e: turnstile_core::determinism::StreamError) -> RunError {
    RunError::NotAvailable(e.to_string())
}

fn perishable_rounds(run: &RunState) -> u32 {
    // Past `u32` rounds a perishable joker never perishes, as at `u32::MAX`.
    u32::try_from(run.rule(crate::state::Rule::PerishableRounds).max(0)).unwrap_or(u32::MAX)
}

/// Polls a shop or pack joker's edition on `edition`: one roll below 10 000 — 9 970 and above
/// negative (0.3 %, whatever the rate), then from the top 60, 200 and 400 times `edition_rate`
/// for polychrome, holographic and foil (at rate 1: 0.3 %, 1.4 % and 2 %, the genre's rates;
/// the hone and glow up vouchers raise the rate).
pub fn poll_edition(run: &mut RunState) -> Result<crate::cards::Edition, RunError> {
    use crate::cards::Edition;
    let rate = run.rule(crate::state::Rule::EditionRate).max(0);
    let roll = i64::from(run.streams.below("edition", 10_000).map_err(stream_error)?);
    Ok(if roll >= 9_970 {
        Edition::Negative
    } else if roll >= 10_000 - 60 * rate {
        Edition::Polychrome
    } else if roll >= 10_000 - 200 * rate {
        Edition::Holographic
    } else if roll >= 10_000 - 400 * rate {
        Edition::Foil
    } else {
        Edition::None
    })
}

/// Polls the stickers of a joker offered in the shop or a pack, on the `sticker` stream
/// (clover-facts.md, "Stakes"): with the `eternal_stickers` or `perishable_stickers` rule one
/// roll below 100 — 70 and above eternal, 40..70 perishable; with `rental_stickers` a second,
/// separate roll — 70 and above rental. Without those rules nothing is drawn.
pub fn poll_stickers(run: &mut RunState) -> Result<Stickers, RunError> {
    let mut stickers = Stickers::default();
    let eternal = run.rule(crate::state::Rule::EternalStickers) != 0;
    let perishable = run.rule(crate::state::Rule::PerishableStickers) != 0;
    if eternal || perishable {
        let roll = run.streams.below("sticker", 100).map_err(stream_error)?;
        if eternal && roll >= 70 {
            stickers.eternal = true;
        } else if perishable && (40..70).contains(&roll) {
            stickers.perishable = true;
        }
    }
    if run.rule(crate::state::Rule::RentalStickers) != 0 {
        stickers.rental = run.streams.below("sticker", 100).map_err(stream_error)? >= 70;
    }
    stickers.edition = poll_edition(run)?;
    Ok(stickers)
}

/// The shop's booster packs, `pack_slots` of them, each drawn by weight on the `pack` stream
/// (the catalog's `weight`, in hundredths). Called once [`enter_shop`] counted the shop: the
/// run's first shop always offers, in its first slot, the cheapest pack that holds jokers
/// (the normal Buffoon pack), without a draw.
pub fn roll_packs(run: &mut RunState, content: &Content) -> Result<Vec<String>, RunError> {
    let packs: Vec<&crate::content::CatalogEntry> = content.of_kind("pack").collect();
    let total: u32 = packs.iter().map(|p| p.weight).sum();
    let slots = run.rule(crate::state::Rule::PackSlots).max(0);
    let mut offers = Vec::new();
    if run.shops == 1 {
        if let Some(first) = packs
            .iter()
            .filter(|p| p.holds.as_deref() == Some("joker"))
            .min_by_key(|p| (p.cost, p.id.clone()))
        {
            offers.push(format!("pack:{}", first.id));
        }
    }
    while len_i64(offers.len()) < slots && total > 0 {
        let mut roll = run.streams.below("pack", total).map_err(stream_error)?;
        for p in &packs {
            if roll < p.weight {
                offers.push(format!("pack:{}", p.id));
                break;
            }
            roll -= p.weight;
        }
    }
    Ok(offers)
}

/// A random playing card drawn on `stream`: rank and suit uniform; with `extras`, enhanced with
/// 40 % (uniform among the eight), an edition polled at rate 2 without negative (roll below
/// 1000: 988+ polychrome, 960+ holographic, 920+ foil), a seal with 20 % (uniform among four).
fn random_card(run: &mut RunState, stream: &str, extras: bool) -> Result<Card, RunError> {
    use crate::cards::{Edition, Enhancement, Seal};
    let mut draw = |n: u32| run.streams.below(stream, n).map_err(stream_error);
    let rank = rank_of_draw(draw(13)?);
    let suit = Suit::ALL[draw(4)? as usize];
    let mut card = Card::new(rank, suit);
    if !extras {
        return Ok(card);
    }
    if draw(100)? < 40 {
        card.enhancement = Enhancement::GIVEN[draw(8)? as usize];
    }
    card.edition = match draw(1000)? {
        988.. => Edition::Polychrome,
        960.. => Edition::Holographic,
        920.. => Edition::Foil,
        _ => Edition::None,
    };
    if draw(100)? < 20 {
        card.seal = [Seal::Gold, Seal::Red, Seal::Blue, Seal::Purple][draw(4)? as usize];
    }
    Ok(card)
}

/// A playing card for sale in the shop, drawn on `shop_pick` (enhancement, edition and seal
/// only under `card_extras`).
pub fn shop_card(run: &mut RunState) -> Result<Card, RunError> {
    let extras = run.rule(crate::state::Rule::CardExtras) != 0;
    random_card(run, "shop_pick", extras)
}

/// A playing card bought: its price ([`offer_price`] of `card`) is paid, and `OnCardAdded`
/// resolves (the game adds the card to the run's deck).
pub fn buy_card(
    run: &mut RunState,
    content: &Content,
    edition: crate::cards::Edition,
) -> Result<(), RunError> {
    let cost = run.price(1 + edition_cost(edition));
    if run.spendable() < cost {
        return Err(RunError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    run.money -= cost;
    resolve(
        run,
        content,
        Event::new(Trigger::Game(CloverTrigger::OnCardAdded)),
    )?;
    Ok(())
}

/// One card shown in an opened pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum PackItem {
    /// A joker, tarot, planet or spectral (`kind:id`), with a joker's stickers.
    Owned {
        /// `kind:id`.
        item: String,
        /// A joker's stickers.
        #[serde(default, skip_serializing_if = "Stickers::is_none")]
        stickers: Stickers,
    },
    /// A playing card (Standard packs).
    Card {
        /// The card.
        card: Card,
    },
}

/// What an opened pack shows: `shown` cards of what it `holds`, all drawn on the `pack`
/// stream (a joker's stickers on `sticker`). No card shows twice in one pack; owned jokers
/// are excluded. Playing cards: rank and suit uniform; enhanced with 40 % (uniform among the
/// eight); an edition polled at rate 2 without negative (roll below 1000: 988+ polychrome,
/// 960+ holographic, 920+ foil); a seal with 20 % (uniform among the four).
pub fn pack_contents(
    run: &mut RunState,
    content: &Content,
    pack: &str,
) -> Result<Vec<PackItem>, RunError> {
    let entry = content
        .catalog
        .get(pack)
        .filter(|e| e.kind == "pack")
        .ok_or_else(|| RunError::NotAvailable(pack.to_owned()))?;
    let holds = entry.holds.clone().unwrap_or_default();
    let mut items: Vec<PackItem> = Vec::new();
    for _ in 0..entry.shown {
        if holds == "planet" && items.is_empty() && run.rule(crate::state::Rule::Telescope) != 0 {
            if let Some(planet) = most_played_planet(run, content) {
                items.push(PackItem::Owned {
                    item: planet,
                    stickers: Stickers::default(),
                });
                continue;
            }
        }
        let item = match holds.as_str() {
            "card" => PackItem::Card {
                card: random_card(run, "pack", true)?,
            },
            kind => {
                // `arcana_spectrals` (the omen globe): each card of a tarot pack may be a
                // spectral instead, one roll per card (none without the rule).
                let rate = run.rule(crate::state::Rule::ArcanaSpectrals);
                let kind = if kind == "tarot"
                    && rate > 0
                    && i64::from(run.streams.below("pack", 100).map_err(stream_error)?) < rate
                {
                    "spectral"
                } else {
                    kind
                };
                let rarity = if kind == "joker" {
                    rarity_of_roll(run.streams.below("pack", 100).map_err(stream_error)?)
                } else {
                    0
                };
                let shown = |o: &str| {
                    items
                        .iter()
                        .any(|i| matches!(i, PackItem::Owned { item, .. } if item == o))
                };
                let pool: Vec<String> = content
                    .of_kind(kind)
                    .filter(|e| kind != "joker" || e.rarity == rarity)
                    .filter(|e| {
                        kind != "joker"
                            || run.rule(crate::state::Rule::Duplicates) != 0
                            || !run.jokers.iter().any(|j| j.id == e.id)
                    })
                    .map(|e| format!("{}:{}", e.kind, e.id))
                    .filter(|o| !shown(o))
                    .collect();
                let n = len_u32(pool.len());
                if n == 0 {
                    continue;
                }
                let pick = run.streams.below("pack", n).map_err(stream_error)? as usize;
                let stickers = if kind == "joker" {
                    poll_stickers(run)?
                } else {
                    Stickers::default()
                };
                PackItem::Owned {
                    item: pool[pick].clone(),
                    stickers,
                }
            }
        };
        items.push(item);
    }
    Ok(items)
}

/// The planet of the poker hand played most often this run (ties: the higher hand), chosen
/// without a draw so the telescope costs the pack stream nothing; `None` before any hand.
fn most_played_planet(run: &RunState, content: &Content) -> Option<String> {
    let (index, &times) = run
        .played_counts
        .iter()
        .enumerate()
        .max_by_key(|&(index, &times)| (times, index))?;
    if times == 0 {
        return None;
    }
    content.pools.planet_of_hand.get(index).cloned().flatten()
}

/// Takes a joker, tarot, planet or spectral out of an opened pack: a joker goes to a joker
/// slot (refused without room; no `OnBuy`: it was not bought), a consumable is used at once
/// (its `OnUse` rows; it never takes a consumable slot). Playing cards are the game's (its
/// deck). Rebuilds.
pub fn take_from_pack(
    run: &mut RunState,
    content: &Content,
    item: &str,
    stickers: Stickers,
) -> Result<(), RunError> {
    let (kind, id) = item.split_once(':').unwrap_or(("", item));
    if kind == "joker" {
        if len_i64(run.jokers.len()) >= run.rule(crate::state::Rule::JokerSlots) {
            return Err(RunError::NoJokerSlot);
        }
        let mut joker = content
            .joker(id)
            .ok_or_else(|| RunError::NotAvailable(item.to_owned()))?;
        joker.stick(stickers, perishable_rounds(run));
        if stickers.rental {
            joker.sell_value = (run.rule(crate::state::Rule::RentalPrice) / 2).max(1);
        }
        run.jokers.push(joker);
    } else {
        if !content.catalog.contains_key(item) {
            return Err(RunError::NotAvailable(item.to_owned()));
        }
        if targets_of(content, item) > 0 {
            // A card that changes hand cards cannot act in a pack (no hand is dealt there):
            // it is kept, in a consumable slot, to be used during a blind.
            if len_i64(run.consumables.len()) >= run.rule(crate::state::Rule::ConsumableSlots) {
                return Err(RunError::NoConsumableSlot);
            }
            run.consumables.push(item.to_owned());
        } else {
            use_owner(run, content, item)?;
        }
    }
    rebuild(run, content)?;
    Ok(())
}

/// Picks this ante's boss on the `boss` stream: at antes 8, 16, ... among the showdown
/// bosses, otherwise among the regular bosses allowed at the ante.
/// Called when an ante starts (the run's first, and each after a boss is beaten), so the
/// boss is known — and shown — before its blind.
pub fn choose_boss(run: &mut RunState, content: &Content) -> Option<String> {
    run.boss_rerolled = false;
    draw_boss(run, content, None)
}

/// Draws a boss for the ante on `boss`, leaving `except` out of the pool (a reroll never
/// gives the same boss again, unless it is the only one).
fn draw_boss(run: &mut RunState, content: &Content, except: Option<&str>) -> Option<String> {
    let ante = run.ante;
    let showdown = ante % 8 == 0 && content.of_kind("boss").any(|e| e.showdown);
    let mut pool: Vec<String> = content
        .of_kind("boss")
        .filter(|e| e.showdown == showdown)
        .filter(|e| showdown || e.min_ante.unwrap_or(1) <= ante)
        .map(|e| format!("boss:{}", e.id))
        .collect();
    if pool.len() > 1 {
        pool.retain(|b| Some(b.as_str()) != except);
    }
    let n = Some(len_u32(pool.len())).filter(|n| *n > 0)?;
    let pick = run.streams.below("boss", n).ok()? as usize;
    run.boss = pool.get(pick).cloned();
    run.boss.clone()
}

/// Why a boss reroll is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BossRerollError {
    /// No voucher allows it (`boss_rerolls` is 0).
    #[error("no voucher lets you reroll the boss (no_boss_reroll)")]
    NotAllowed,
    /// The once-per-ante reroll was used.
    #[error("the boss was already rerolled this ante (boss_reroll_spent)")]
    Spent,
    /// Not enough money.
    #[error("a boss reroll costs ${cost}, you have ${money} (not_enough_money)")]
    NotEnoughMoney {
        /// The price.
        cost: i64,
        /// Money held.
        money: i64,
    },
}

impl BossRerollError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            BossRerollError::NotAllowed => "no_boss_reroll",
            BossRerollError::Spent => "boss_reroll_spent",
            BossRerollError::NotEnoughMoney { .. } => "not_enough_money",
        }
    }
}

/// Rerolls this ante's boss for `boss_reroll_cost`: allowed once per ante with
/// `boss_rerolls` 1 (the first voucher), without limit from 2 (the second). The new boss is
/// drawn on `boss`, never the one it replaces.
pub fn reroll_boss(run: &mut RunState, content: &Content) -> Result<String, BossRerollError> {
    let allowed = run.rule(crate::state::Rule::BossRerolls);
    if allowed <= 0 {
        return Err(BossRerollError::NotAllowed);
    }
    if allowed == 1 && run.boss_rerolled {
        return Err(BossRerollError::Spent);
    }
    let cost = run.rule(crate::state::Rule::BossRerollCost).max(0);
    if run.spendable() < cost {
        return Err(BossRerollError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    let current = run.boss.clone();
    let Some(boss) = draw_boss(run, content, current.as_deref()) else {
        return Err(BossRerollError::NotAllowed);
    };
    run.money -= cost;
    run.boss_rerolled = true;
    Ok(boss)
}

/// The price of a boss's blind: its `boss_blind_mult` from its own `Passive` row (×2 when it
/// sets none), the ante's scaling and the deck's multiplier as the rules stand now.
pub fn boss_preview_target(run: &RunState, content: &Content, boss: &str) -> i64 {
    if run.rule(crate::state::Rule::NoBoss) != 0 {
        return boss_target(
            i64::from(run.ante),
            run.rule(crate::state::Rule::BlindScaling),
            2,
            run.rule(crate::state::Rule::BlindMultiplier),
        );
    }
    let mult = content
        .effects
        .rows()
        .iter()
        .filter(|r| r.owner.as_str() == boss && r.trigger == Trigger::Passive)
        .find_map(|r| match &r.operation {
            crate::vocabulary::Operation::SetRule {
                rule,
                value: turnstile_effects::Amount::Value(n),
            } if rule == crate::state::Rule::BossBlindMult.name() => Some(i64::from(*n)),
            _ => None,
        })
        .unwrap_or(2);
    boss_target(
        i64::from(run.ante),
        run.rule(crate::state::Rule::BlindScaling),
        mult,
        run.rule(crate::state::Rule::BlindMultiplier),
    )
}

/// The run's starting deck, by the `deck_shape` rule its deck sets: the standard 52 (0);
/// without J, Q, K (1: 40 cards); the spades and hearts of two standard decks (2: clubs
/// become spades, diamonds hearts); or 52 cards each of a rank and a suit drawn uniformly on
/// `deck_gen` (3).
pub fn starting_deck(run: &mut RunState) -> Result<Vec<Card>, RunError> {
    let standard = crate::cards::standard_deck();
    Ok(match run.rule(crate::state::Rule::DeckShape) {
        1 => standard.into_iter().filter(|c| !c.is_face(false)).collect(),
        2 => standard
            .into_iter()
            .map(|mut c| {
                c.suit = match c.suit {
                    crate::cards::Suit::Clubs => crate::cards::Suit::Spades,
                    crate::cards::Suit::Diamonds => crate::cards::Suit::Hearts,
                    s => s,
                };
                c
            })
            .collect(),
        3 => {
            let suits = [
                crate::cards::Suit::Spades,
                crate::cards::Suit::Hearts,
                crate::cards::Suit::Clubs,
                crate::cards::Suit::Diamonds,
            ];
            let mut cards = Vec::with_capacity(52);
            for _ in 0..52 {
                let rank = rank_of_draw(run.streams.below("deck_gen", 13).map_err(stream_error)?);
                let suit = run.streams.below("deck_gen", 4).map_err(stream_error)? as usize;
                cards.push(Card::new(rank, suits[suit.min(3)]));
            }
            cards
        }
        _ => standard,
    })
}

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
use turnstile_effects::{EffectError, Event, Executor, Step, Target, ThingId, Trigger};

use crate::cards::{standard_deck, Card};
use crate::content::Content;
use crate::score::key_cache;
use crate::state::{RunState, SLOT};

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
}

impl RunError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            RunError::Effect(e) => e.code(),
            RunError::NotEnoughMoney { .. } => "not_enough_money",
            RunError::NoJokerSlot => "no_joker_slot",
            RunError::NotAvailable(_) => "not_available",
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

/// Base chip targets for antes 1..=12 at blind scaling 1, 2, 3 (clover-facts.md, "Blinds").
const BASE: [[i64; 12]; 3] = [
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
    ],
];

/// The chips a blind requires: `base(ante) × blind mult × deck multiplier`, integers only.
/// Ante 0 or below is 100; past ante 12 the ante-12 value holds (saturating table).
pub fn blind_target(ante: i64, scaling: i64, blind: Blind, deck_multiplier: i64) -> i64 {
    let base = if ante <= 0 {
        100
    } else {
        let row = usize::try_from(scaling.clamp(1, 3) - 1).unwrap_or(0);
        let col = usize::try_from(ante.min(12) - 1).unwrap_or(0);
        BASE[row][col]
    };
    let scaled = match blind {
        Blind::Small => base,
        Blind::Big => base.saturating_mul(3) / 2,
        Blind::Boss => base.saturating_mul(2),
    };
    scaled.saturating_mul(deck_multiplier.max(1))
}

fn resolve(run: &mut RunState, content: &Content, event: Event) -> Result<Vec<Step>, RunError> {
    run.scoring.keys = key_cache(content, run);
    let mut steps = Vec::new();
    Executor::new(&content.effects, &content.handlers).resolve(run, event, &mut steps)?;
    Ok(steps)
}

/// Rebuilds every rule from defaults through the four layers. Idempotent.
pub fn rebuild(run: &mut RunState, content: &Content) -> Result<Vec<Step>, RunError> {
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
    let result = resolve(run, content, Event::new(Trigger::OnUse));
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
    let entry = content
        .catalog
        .get(&format!("joker:{id}"))
        .ok_or_else(|| RunError::NotAvailable(id.to_owned()))?;
    let cost = i64::from(entry.cost);
    if run.money < cost {
        return Err(RunError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    if i64::try_from(run.jokers.len()).unwrap_or(i64::MAX) >= run.rule("joker_slots") {
        return Err(RunError::NoJokerSlot);
    }
    let joker = content
        .joker(id)
        .ok_or_else(|| RunError::NotAvailable(id.to_owned()))?;
    run.money -= cost;
    run.jokers.push(joker);
    rebuild(run, content)?;
    let slot = run.jokers.len() - 1;
    resolve(
        run,
        content,
        Event::new(Trigger::OnBuy).from(Target::Thing(ThingId(SLOT + slot as u32))),
    )?;
    Ok(())
}

/// Sells the joker in `slot`: its `OnSell` rows, half its cost (at least $1), then rebuild.
pub fn sell_joker(run: &mut RunState, content: &Content, slot: usize) -> Result<(), RunError> {
    let Some(joker) = run.jokers.get(slot) else {
        return Err(RunError::NotAvailable(format!("slot {slot}")));
    };
    let cost = content
        .catalog
        .get(&format!("joker:{}", joker.id))
        .map_or(0, |e| i64::from(e.cost));
    resolve(
        run,
        content,
        Event::new(Trigger::OnSell).from(Target::Thing(ThingId(SLOT + slot as u32))),
    )?;
    run.jokers.remove(slot);
    run.money = run.money.saturating_add((cost / 2).max(1));
    rebuild(run, content)?;
    Ok(())
}

/// Buys a voucher, then rebuild.
pub fn buy_voucher(run: &mut RunState, content: &Content, id: &str) -> Result<(), RunError> {
    let owner = format!("voucher:{id}");
    let entry = content
        .catalog
        .get(&owner)
        .ok_or_else(|| RunError::NotAvailable(id.to_owned()))?;
    let cost = i64::from(entry.cost);
    if run.money < cost {
        return Err(RunError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    run.money -= cost;
    run.vouchers.push(owner);
    rebuild(run, content)?;
    Ok(())
}

/// Takes a tag: its `OnUse` rows at once; kept (and a rebuild made) only when it has rows
/// for a later moment (`OnShopEnter`, `OnBossDefeated`), dropped once those fired.
pub fn take_tag(run: &mut RunState, content: &Content, id: &str) -> Result<(), RunError> {
    let owner = format!("tag:{id}");
    if !content.catalog.contains_key(&owner) {
        return Err(RunError::NotAvailable(id.to_owned()));
    }
    use_owner(run, content, &owner)?;
    if has_rows(content, &owner, &Trigger::OnShopEnter)
        || has_rows(content, &owner, &Trigger::OnBossDefeated)
    {
        run.tags.push(owner);
        rebuild(run, content)?;
    }
    Ok(())
}

/// Uses the consumable at `index` (its `OnUse` rows), then removes it and rebuilds.
pub fn use_consumable(run: &mut RunState, content: &Content, index: usize) -> Result<(), RunError> {
    let Some(owner) = run.consumables.get(index).cloned() else {
        return Err(RunError::NotAvailable(format!("consumable {index}")));
    };
    run.consumables.remove(index);
    use_owner(run, content, &owner)?;
    rebuild(run, content)?;
    Ok(())
}

/// Round start: the round counter moves, the boss (if this is its blind) joins the rules,
/// rebuild, hands and discards from the rules, `OnRoundStart` rows.
pub fn start_round(run: &mut RunState, content: &Content, blind: Blind) -> Result<(), RunError> {
    run.round = run.round.saturating_add(1);
    run.boss_active = blind == Blind::Boss && run.boss.is_some();
    rebuild(run, content)?;
    run.hands_left = run.rule("hands").max(1);
    run.discards_left = run.rule("discards").max(0);
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
    resolve(run, content, Event::new(Trigger::OnRoundEnd))?;
    run.scoring.held = held.to_vec();
    for i in 0..held.len() {
        resolve(
            run,
            content,
            Event::new(Trigger::OnRoundEnd)
                .at(Target::Thing(ThingId(crate::state::HELD + i as u32))),
        )?;
    }
    let reward = match blind {
        Blind::Small => run.rule("small_blind_reward"),
        Blind::Big => 4,
        Blind::Boss => {
            if run.ante % 8 == 0 {
                8
            } else {
                5
            }
        }
    };
    let interest = if run.rule("interest") != 0 {
        (run.money.max(0) / 5).min(run.rule("interest_cap") / 5)
    } else {
        0
    };
    run.money = run
        .money
        .saturating_add(reward + run.hands_left.max(0) + interest);
    if blind == Blind::Boss {
        resolve(run, content, Event::new(Trigger::OnBossDefeated))?;
        let content_ref = content;
        run.tags
            .retain(|t| !has_rows(content_ref, t, &Trigger::OnBossDefeated));
        run.boss_active = false;
        run.ante = run.ante.saturating_add(1);
    }
    rebuild(run, content)?;
    Ok(())
}

/// Opens the shop: `OnShopEnter` rows (tags placed for it are spent), then fresh offers.
pub fn enter_shop(run: &mut RunState, content: &Content) -> Result<Vec<String>, RunError> {
    resolve(run, content, Event::new(Trigger::OnShopEnter))?;
    run.tags
        .retain(|t| !has_rows(content, t, &Trigger::OnShopEnter));
    rebuild(run, content)?;
    let mut offers = roll_shop(run, content)?;
    offers.extend(roll_voucher(run, content)?);
    Ok(offers)
}

/// The shop's voucher: one not yet owned, drawn on `shop_voucher` (none when all are owned).
pub fn roll_voucher(run: &mut RunState, content: &Content) -> Result<Option<String>, RunError> {
    let pool: Vec<String> = content
        .of_kind("voucher")
        .map(|e| format!("voucher:{}", e.id))
        .filter(|v| !run.vouchers.contains(v))
        .collect();
    let n = u32::try_from(pool.len()).unwrap_or(0);
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
    let slots = run.rule("shop_slots").max(0);
    let mut offers = Vec::new();
    let stream =
        |e: turnstile_core::determinism::StreamError| RunError::NotAvailable(e.to_string());
    for _ in 0..slots {
        let kind_roll = run.streams.below("shop_slot", 28).map_err(stream)?;
        let (kind, rarity) = if kind_roll < 20 {
            let r = run.streams.below("shop_rarity", 100).map_err(stream)?;
            (
                "joker",
                if r < 70 {
                    1
                } else if r < 95 {
                    2
                } else {
                    3
                },
            )
        } else if kind_roll < 24 {
            ("tarot", 0)
        } else {
            ("planet", 0)
        };
        let pool: Vec<String> = content
            .of_kind(kind)
            .filter(|e| kind != "joker" || e.rarity == rarity)
            .filter(|e| !run.jokers.iter().any(|j| j.id == e.id))
            .map(|e| format!("{}:{}", e.kind, e.id))
            .collect();
        if pool.is_empty() {
            continue;
        }
        let n = u32::try_from(pool.len()).unwrap_or(u32::MAX);
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
    let cost = run
        .rule("reroll_cost")
        .max(0)
        .saturating_add(rerolls_so_far);
    if run.money < cost {
        return Err(RunError::NotEnoughMoney {
            cost,
            money: run.money,
        });
    }
    run.money -= cost;
    roll_shop(run, content)
}

/// A freshly shuffled 52-card deck, on the `shuffle` stream.
pub fn shuffled_deck(run: &mut RunState) -> Vec<Card> {
    let mut deck = standard_deck();
    let _ = run.streams.shuffle("shuffle", &mut deck);
    deck
}

/// Picks this ante's boss on the `boss` stream among bosses allowed at the ante.
pub fn choose_boss(run: &mut RunState, content: &Content) -> Option<String> {
    let ante = run.ante;
    let pool: Vec<String> = content
        .of_kind("boss")
        .filter(|e| e.min_ante.unwrap_or(1) <= ante)
        .map(|e| format!("boss:{}", e.id))
        .collect();
    let n = u32::try_from(pool.len()).ok().filter(|n| *n > 0)?;
    let pick = run.streams.below("boss", n).ok()? as usize;
    run.boss = pool.get(pick).cloned();
    run.boss.clone()
}

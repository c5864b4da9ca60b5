//! clover as a Turnstile game: the whole run behind the one legality boundary. A command is
//! checked by applying it to a copy of the state (so a refused command changes nothing, and
//! `commit` cannot fail); the view hides the deck order, the generator states (upcoming shop
//! contents, chance outcomes) and the next boss until it is due.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use turnstile_core::determinism::{Chance, Fixed};
use turnstile_core::{
    ActionKind, BundleSource, CommandContext, ContentProblem, Game, MatchSetup, MatchStatus,
    Outcome, ParamRange, ParamSpec, ParamValue, Rejection, Seat, SetupError, Viewer,
};
use turnstile_effects::{EffectHost as _, Step};

use crate::cards::Card;
use crate::content::{Content, CATALOG_FILE, EFFECT_FILES};
use crate::hands::HandType;
use crate::indices::{len_i64, len_u32, positions};
use crate::run::{self, Blind, PackItem, RunError};
use crate::score::score_hand;
use crate::state::{Joker, RunState, Stickers};

/// The game marker.
#[derive(Debug, Clone, Copy)]
pub struct Clover;

/// Content as the engine pins it: the files' text (what the revision covers), compiled once.
#[derive(Clone)]
pub struct CloverContent {
    files: Vec<(String, String)>,
    compiled: Arc<Content>,
}

impl CloverContent {
    /// The shipped content.
    pub fn shipped() -> Result<CloverContent, Vec<ContentProblem>> {
        let mut files: Vec<(String, String)> = EFFECT_FILES
            .iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
            .collect();
        files.push((CATALOG_FILE.0.to_owned(), CATALOG_FILE.1.to_owned()));
        // In path order, as a bundle folder reads them: one content, one revision.
        files.sort();
        CloverContent::from_files(files)
    }

    fn from_files(files: Vec<(String, String)>) -> Result<CloverContent, Vec<ContentProblem>> {
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let compiled = Arc::new(Content::from_files(&refs)?);
        Ok(CloverContent { files, compiled })
    }

    /// The compiled content.
    pub fn content(&self) -> &Content {
        &self.compiled
    }

    /// A bundle source holding the shipped files (for `Match::new` in tests and tools).
    pub fn shipped_source() -> BundleSource {
        let mut source = BundleSource::new();
        for (p, t) in EFFECT_FILES.iter().chain(std::iter::once(&CATALOG_FILE)) {
            source.insert(*p, t.as_bytes().to_vec());
        }
        source
    }
}

impl std::fmt::Debug for CloverContent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CloverContent")
            .field("files", &self.files.len())
            .finish()
    }
}

impl PartialEq for CloverContent {
    fn eq(&self, other: &Self) -> bool {
        self.files == other.files
    }
}

impl Serialize for CloverContent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.files.serialize(s)
    }
}

impl<'de> Deserialize<'de> for CloverContent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CloverContent, D::Error> {
        let files = Vec::<(String, String)>::deserialize(d)?;
        CloverContent::from_files(files)
            .map_err(|p| serde::de::Error::custom(format!("{} content problem(s)", p.len())))
    }
}

/// The stakes a run may be played at: 1 (White) to 8 (Gold), each including the lower ones.
pub const STAKES: std::ops::RangeInclusive<u8> = 1..=8;

/// Why a stake is refused, naming the field and the range.
pub fn stake_range_message(stake: i64) -> String {
    format!(
        "`stake` is {stake}; a stake is {} (White) to {} (Gold)",
        STAKES.start(),
        STAKES.end()
    )
}

/// Reads `stake` as any integer and refuses one outside [`STAKES`] with the range, so a
/// config of 0 or 99 is an `invalid_config` that says why (not a stake moved to 1 or 8).
fn stake_in_range<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let stake = i64::deserialize(d)?;
    u8::try_from(stake)
        .ok()
        .filter(|s| STAKES.contains(s))
        .ok_or_else(|| serde::de::Error::custom(stake_range_message(stake)))
}

/// A run's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloverConfig {
    /// Stake 1..=8 (each includes the lower ones); anything else is refused.
    #[serde(deserialize_with = "stake_in_range")]
    pub stake: u8,
    /// Deck id.
    pub deck: String,
}

impl Default for CloverConfig {
    fn default() -> Self {
        CloverConfig {
            stake: 1,
            deck: "plain".into(),
        }
    }
}

/// Where the run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// Choosing (or skipping) the next blind.
    SelectBlind,
    /// Playing a blind.
    Playing,
    /// In the shop.
    Shop,
    /// A booster pack is open (bought in the shop): pick from it or skip it.
    Pack,
    /// Lost: a blind was not beaten.
    Lost,
    /// Given up: the player resigned the run (outcome `resigned`).
    Resigned,
}

/// A card offered in the shop: `kind:id`, with a joker's stickers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShopOffer {
    /// `joker:<id>`, `tarot:<id>`, `planet:<id>`, `voucher:<id>`, or `card` (a playing card).
    pub item: String,
    /// A joker's stickers (stakes 4, 7, 8) and a joker's or playing card's edition.
    #[serde(default, skip_serializing_if = "Stickers::is_none")]
    pub stickers: Stickers,
    /// The playing card for sale (`item` is `card`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
}

/// An opened booster pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenPack {
    /// `pack:<id>`.
    pub pack: String,
    /// The cards it shows (a picked card leaves the list).
    pub items: Vec<PackItem>,
    /// How many more may be picked.
    pub picks_left: u8,
}

/// The full state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloverState {
    /// The run.
    pub run: RunState,
    /// Where it is.
    pub phase: Phase,
    /// The next (or current) blind.
    pub blind: Blind,
    /// The run's deck: every playing card it owns (52 at the start; Standard packs add,
    /// broken glass removes). Its order means nothing; each blind shuffles a copy.
    pub cards: Vec<Card>,
    /// Draw pile, top last (hidden).
    pub deck: Vec<Card>,
    /// The hand.
    pub hand: Vec<Card>,
    /// Chips scored this blind.
    pub scored: i64,
    /// The blind's target.
    pub target: i64,
    /// Shop offers.
    pub shop: Vec<ShopOffer>,
    /// The shop's booster packs (`pack:<id>`); their contents are drawn when opened.
    pub packs: Vec<String>,
    /// The pack being opened.
    pub pack: Option<OpenPack>,
    /// Rerolls in this shop.
    pub rerolls: i64,
    /// Whether the ante-8 boss was beaten (endless from then).
    pub won: bool,
    /// Commands applied.
    pub steps: u64,
}

/// A command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum CloverAction {
    /// Play the next blind.
    SelectBlind,
    /// Skip a small or big blind for a tag.
    SkipBlind,
    /// Play cards (hand indices, 1 to 5).
    Play {
        /// Indices into the hand.
        cards: Vec<u8>,
    },
    /// Discard cards (1 to 5).
    Discard {
        /// Indices into the hand.
        cards: Vec<u8>,
    },
    /// Buy a shop offer.
    Buy {
        /// Offer index.
        slot: u8,
    },
    /// Sell a joker.
    Sell {
        /// Joker slot.
        slot: u8,
    },
    /// Use a consumable.
    Use {
        /// Consumable index.
        index: u8,
        /// The hand cards it is used on (indices; for a consumable that changes cards, in
        /// the `playing` phase).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cards: Vec<u8>,
    },
    /// Reroll the shop.
    Reroll,
    /// Buy and open a booster pack of the shop.
    OpenPack {
        /// Pack slot.
        slot: u8,
    },
    /// Take a card out of the open pack.
    PickPack {
        /// Index among the pack's cards.
        index: u8,
    },
    /// Close the open pack, leaving what is left.
    SkipPack,
    /// Leave the shop.
    LeaveShop,
    /// Reroll this ante's boss for money, before its blind (a voucher allows it: once per
    /// ante with the first, without limit with the second).
    RerollBoss,
    /// Give the run up: it ends with outcome `resigned` (`wonThenResigned` after the ante-8
    /// win), and the receipt records it (what `POST /resign` submits).
    Resign,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum CloverEvent {
    /// A blind started.
    BlindStarted {
        /// Which.
        blind: Blind,
        /// Chips needed.
        target: i64,
    },
    /// A blind was skipped for a tag.
    BlindSkipped {
        /// The tag taken.
        tag: String,
    },
    /// This ante's boss was rerolled.
    BossRerolled {
        /// The new boss.
        boss: String,
        /// Money after paying.
        money: i64,
    },
    /// A hand scored, with the step list of clover-facts.md's order: every row that acted,
    /// with its owner, row, and the value before and after.
    HandScored {
        /// The hand.
        hand: Option<HandType>,
        /// Its score (`None` only in a preview whose score rode on a chance roll).
        score: Option<i64>,
        /// Chips so far this blind (`None` as for `score`).
        total: Option<i64>,
        /// Chips before the multiplication.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chips: Option<i64>,
        /// Mult before the multiplication.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mult: Option<Fixed>,
        /// Every step, in order (empty in a preview whose score rode on a chance roll).
        steps: Vec<Step>,
        /// Whether scoring rolled a chance (a lucky card, a chance joker, a glass break): a
        /// preview then shows the hand but not its score.
        chance: bool,
        /// Whether cards of the hand lay face down as it was played: a preview then shows
        /// neither the hand (a face-down card was played) nor its score (one was held or
        /// played). Left out of the canonical form while none did.
        #[serde(
            rename = "faceDown",
            default,
            skip_serializing_if = "FaceDown::is_none"
        )]
        face_down: FaceDown,
        /// The cards played, in hand order (the order they score in), when one of them lay
        /// face down: they turn face up as they score, so the player learns what they played
        /// (empty otherwise, and in a preview).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        revealed: Vec<Card>,
    },
    /// Cards were discarded.
    Discarded {
        /// How many.
        count: u32,
    },
    /// The blind was beaten.
    BlindBeaten {
        /// Money after the payout.
        money: i64,
    },
    /// The run is lost.
    RunLost,
    /// The last hand fell short but a joker saved the run: the blind counts as beaten,
    /// without its reward (a `BlindBeaten` follows).
    RunSaved {
        /// The joker that saved it (`joker:<id>`; it destroyed itself doing so).
        by: String,
    },
    /// The player gave the run up.
    RunResigned,
    /// The ante-8 boss was beaten: the run is won; endless play continues.
    RunWon,
    /// Shop changed (bought, sold, rerolled, used).
    ShopChanged,
    /// Left the shop.
    ShopLeft,
    /// A booster pack was opened.
    PackOpened {
        /// `pack:<id>`.
        pack: String,
        /// What it shows.
        items: Vec<PackItem>,
    },
    /// A card was taken out of the pack.
    PackPicked {
        /// What was taken.
        item: PackItem,
    },
    /// The pack was closed (picks used up, or skipped).
    PackClosed,
}

/// Which cards of a hand lay face down as it was played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FaceDown {
    /// None did.
    #[default]
    None,
    /// Only held cards did (the hand's type is known, its score is not).
    Held,
    /// A played card did (neither is known).
    Played,
}

impl FaceDown {
    /// `FaceDown::None`.
    pub fn is_none(&self) -> bool {
        *self == FaceDown::None
    }

    /// Of a hand whose played cards are `played` (hand indices).
    fn of(hand: &[Card], played: &[usize]) -> FaceDown {
        if played
            .iter()
            .any(|&i| hand.get(i).is_some_and(|c| c.face_down))
        {
            FaceDown::Played
        } else if hand.iter().any(|c| c.face_down) {
            FaceDown::Held
        } else {
            FaceDown::None
        }
    }
}

/// The player's view: no deck order, no generator states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CloverView {
    /// Where the run is.
    pub phase: Phase,
    /// Ante.
    pub ante: u32,
    /// The blind.
    pub blind: Blind,
    /// Its target.
    pub target: i64,
    /// Chips scored this blind.
    pub scored: i64,
    /// Money.
    pub money: i64,
    /// Hands left.
    pub hands_left: i64,
    /// Discards left.
    pub discards_left: i64,
    /// The hand, in the order drawn; `null` for a card lying face down (a boss drew it so):
    /// nothing of it is shown, not even its enhancement, until it leaves the hand.
    pub hand: Vec<Option<Card>>,
    /// Cards left in the deck (their order is hidden).
    pub deck_count: u32,
    /// Jokers.
    pub jokers: Vec<Joker>,
    /// Consumables.
    pub consumables: Vec<String>,
    /// Current shop offers.
    pub shop: Vec<ShopOffer>,
    /// What each shop offer costs now, in `shop` order (discounts, rental stickers and
    /// free planets applied: the price `buy` charges).
    pub shop_prices: Vec<i64>,
    /// The shop's booster packs (their contents are not drawn until opened).
    pub packs: Vec<String>,
    /// What each pack costs now, in `packs` order.
    pub pack_prices: Vec<i64>,
    /// The open pack, if any.
    pub pack: Option<OpenPack>,
    /// Playing cards the run owns.
    pub deck_size: u32,
    /// Hand levels.
    pub levels: Vec<u32>,
    /// This ante's boss (chosen when the ante starts).
    pub boss: Option<String>,
    /// The ante's three blinds, small, big and boss, each with its target and whether it is
    /// done; the boss's shows its id and name.
    pub blinds: Vec<BlindPreview>,
    /// Whether the boss may be rerolled now (`rerollBoss`), and for how much.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boss_reroll_cost: Option<i64>,
    /// Won (endless).
    pub won: bool,
    /// The stake played (1 White … 8 Gold).
    pub stake: u8,
    /// The id of the deck chosen at the start (its cards' order stays hidden).
    pub deck_id: String,
    /// Tags held, oldest first.
    pub tags: Vec<String>,
    /// Copies the next tag taken brings (a double tag).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub tag_copies: u32,
    /// Vouchers redeemed.
    pub vouchers: Vec<String>,
    /// What the next reroll of the shop costs.
    pub reroll_cost: i64,
    /// This round's targets (the effigy's card, the relic's suit, …): public, as the genre
    /// shows them on the jokers that read them.
    pub round_targets: crate::state::RoundTargets,
}

/// One blind of the ante, as the view shows it before it is played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlindPreview {
    /// Small, big or boss.
    pub blind: Blind,
    /// The chips it asks for, as the rules stand now.
    pub target: i64,
    /// The boss (`boss:<id>`), for the boss blind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boss: Option<String>,
    /// The boss's name and rules text, for the boss blind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its rules text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Already beaten or skipped this ante.
    pub done: bool,
    /// The boss blind will start without its boss's rules (`no_boss`, the Usurper).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
}

fn blind_previews(content: &Content, state: &CloverState) -> Vec<BlindPreview> {
    let r = &state.run;
    let order = [Blind::Small, Blind::Big, Blind::Boss];
    let now = order.iter().position(|b| *b == state.blind).unwrap_or(0);
    order
        .iter()
        .enumerate()
        .map(|(i, &blind)| {
            let entry = r.boss.as_ref().and_then(|b| content.catalog.get(b));
            let boss = blind == Blind::Boss;
            BlindPreview {
                blind,
                target: match (boss, &r.boss) {
                    (true, Some(id)) => run::boss_preview_target(r, content, id),
                    _ => run::blind_target(
                        i64::from(r.ante),
                        r.rule(crate::state::Rule::BlindScaling),
                        blind,
                        r.rule(crate::state::Rule::BlindMultiplier),
                    ),
                },
                boss: if boss { r.boss.clone() } else { None },
                name: entry.filter(|_| boss).map(|e| e.name.clone()),
                text: entry.filter(|_| boss).map(|e| e.text.clone()),
                done: i < now,
                disabled: boss && r.rule(crate::state::Rule::NoBoss) != 0,
            }
        })
        .collect()
}

/// Whether a card of the hand lies face down (a preview then hides what it decides).
fn holds_face_down(state: &CloverState) -> bool {
    state.hand.iter().any(|c| c.face_down)
}

fn reject(e: RunError) -> Rejection {
    Rejection::new(e.code(), e.to_string())
}

fn effect(e: impl std::fmt::Display) -> Rejection {
    Rejection::new("effect", e.to_string())
}

/// When a card is drawn: a boss may turn the cards of one moment face down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DrawMoment {
    /// The blind's first hand.
    First,
    /// After a hand was played.
    AfterPlay,
    /// After a discard, or a hand grown mid-blind.
    Other,
}

impl CloverState {
    /// Fills the hand to the hand size.
    fn draw(&mut self, moment: DrawMoment) -> Result<(), Rejection> {
        // A hand size past what `usize` holds asks for every card the deck has.
        let size = usize::try_from(self.run.rule(crate::state::Rule::HandSize).max(1))
            .unwrap_or(usize::MAX);
        while self.hand.len() < size {
            let Some(card) = self.deck.pop() else { break };
            self.deal(card, moment)?;
        }
        Ok(())
    }

    /// The draw after a play or a discard: the hand filled, or with `draw_count` (a boss)
    /// exactly that many cards, whatever the hand size.
    fn draw_after(&mut self, moment: DrawMoment) -> Result<(), Rejection> {
        let count = self.run.rule(crate::state::Rule::DrawCount);
        if count <= 0 {
            return self.draw(moment);
        }
        for _ in 0..count {
            let Some(card) = self.deck.pop() else { break };
            self.deal(card, moment)?;
        }
        Ok(())
    }

    /// One card drawn into the hand, face down when a boss's rule says so: every card of the
    /// first hand (`face_down_first`), every card drawn after a play (`face_down_after_play`),
    /// every face card (`face_down_faces`), or a chance of 1 in `face_down_odds` for each card
    /// (times `chance_factor`, rolled on `boss_proc` for every card drawn while the rule holds,
    /// so the stream moves by the number of cards drawn, whatever they are).
    fn deal(&mut self, mut card: Card, moment: DrawMoment) -> Result<(), Rejection> {
        use crate::state::Rule;
        let r = &self.run;
        let mut down = (moment == DrawMoment::First && r.rule(Rule::FaceDownFirst) != 0)
            || (moment == DrawMoment::AfterPlay && r.rule(Rule::FaceDownAfterPlay) != 0)
            || (r.rule(Rule::FaceDownFaces) != 0 && card.is_face(r.rule(Rule::AllFaces) != 0));
        let odds = r.rule(Rule::FaceDownOdds);
        if odds > 0 {
            let den = u32::try_from(odds).map_err(|_| {
                Rejection::new(
                    "effect",
                    format!("face_down_odds {odds} is above 4294967295: no chance can hold it"),
                )
            })?;
            let chance = Chance::new(1, den).map_err(effect)?;
            let chance = self.run.chance(chance, "boss_proc");
            down |= self.run.streams.roll("boss_proc", chance).map_err(effect)?;
        }
        card.face_down = down;
        self.hand.push(card);
        Ok(())
    }

    /// Every card of the hand turned face up (the boss stopped acting mid-blind).
    fn turn_hand_face_up(&mut self) {
        for card in &mut self.hand {
            card.face_down = false;
        }
    }

    /// Takes the playing cards `AddCard` rows made: each joins the run's deck for good (a card
    /// made during a blind is drawn from the next blind on); returns those that also join the
    /// hand, for the caller to place.
    fn take_created(&mut self) -> Vec<Card> {
        let mut for_hand = Vec::new();
        for new in std::mem::take(&mut self.run.scoring.created) {
            self.cards.push(new.card);
            if new.to_hand {
                for_hand.push(new.card);
            }
        }
        for_hand
    }

    /// The blind is over and the run goes on: the round ends (paying `reward`), the next
    /// blind is set, a new ante's boss is drawn, and the shop opens.
    fn close_blind(
        &mut self,
        content: &Content,
        reward: run::Reward,
        events: &mut Vec<CloverEvent>,
    ) -> Result<(), Rejection> {
        let hand: Vec<Card> = std::mem::take(&mut self.hand)
            .into_iter()
            .map(Card::face_up)
            .collect();
        self.run.scoring.deck = crate::state::DeckCounts::of(&self.cards, self.deck.len());
        let boss = self.blind == Blind::Boss;
        let ante = self.run.ante;
        run::end_round_with(&mut self.run, content, self.blind, &hand, reward).map_err(reject)?;
        run::draw_round_targets(&mut self.run, &self.cards).map_err(reject)?;
        events.push(CloverEvent::BlindBeaten {
            money: self.run.money,
        });
        if boss {
            // A new ante: its boss is drawn now and shown until its blind.
            run::choose_boss(&mut self.run, content);
            if ante == 8 && !self.won {
                self.won = true;
                events.push(CloverEvent::RunWon);
            }
        }
        self.blind = match self.blind {
            Blind::Small => Blind::Big,
            Blind::Big => Blind::Boss,
            Blind::Boss => Blind::Small,
        };
        let offers = run::enter_shop(&mut self.run, content).map_err(reject)?;
        self.shop = offer_stickers(&mut self.run, offers)?;
        self.packs = run::roll_packs(&mut self.run, content).map_err(reject)?;
        self.rerolls = 0;
        self.phase = Phase::Shop;
        Ok(())
    }

    /// After a hand is played, `hook_discards` (a boss) held cards are discarded at random,
    /// drawn on `boss_proc`.
    fn hook(&mut self) -> Result<(), Rejection> {
        let n = self.run.rule(crate::state::Rule::HookDiscards).max(0);
        for _ in 0..n {
            let len = len_u32(self.hand.len());
            if len == 0 {
                break;
            }
            let at = self.run.streams.below("boss_proc", len).map_err(effect)? as usize;
            self.hand.remove(at);
        }
        Ok(())
    }

    fn start_blind(&mut self, content: &Content) -> Result<Vec<CloverEvent>, Rejection> {
        if self.blind == Blind::Boss && self.run.boss.is_none() {
            run::choose_boss(&mut self.run, content);
        }
        run::start_round(&mut self.run, content, self.blind).map_err(reject)?;
        run::disable_a_joker(&mut self.run, content).map_err(reject)?;
        self.target = run::blind_target(
            i64::from(self.run.ante),
            self.run.rule(crate::state::Rule::BlindScaling),
            self.blind,
            self.run.rule(crate::state::Rule::BlindMultiplier),
        );
        if self.blind == Blind::Boss {
            self.target = run::boss_target(
                i64::from(self.run.ante),
                self.run.rule(crate::state::Rule::BlindScaling),
                self.run.rule(crate::state::Rule::BossBlindMult),
                self.run.rule(crate::state::Rule::BlindMultiplier),
            );
        }
        self.scored = 0;
        // Cards rows added as the blind started join the run's deck (and are shuffled in);
        // those for the hand join it after the draw, beyond the hand size.
        let for_hand = self.take_created();
        let mut pile = self.cards.clone();
        for card in &for_hand {
            if let Some(at) = pile.iter().position(|c| c == card) {
                pile.remove(at);
            }
        }
        self.deck = run::shuffled(&mut self.run, pile);
        self.hand.clear();
        self.draw(DrawMoment::First)?;
        self.hand.extend(for_hand);
        self.phase = Phase::Playing;
        Ok(vec![CloverEvent::BlindStarted {
            blind: self.blind,
            target: self.target,
        }])
    }

    fn picked(&self, cards: &[u8]) -> Result<Vec<usize>, Rejection> {
        let mut idx: Vec<usize> = cards.iter().map(|c| usize::from(*c)).collect();
        idx.sort_unstable();
        idx.dedup();
        if idx.is_empty()
            || idx.len() > 5
            || idx.len() != cards.len()
            || idx.iter().any(|i| *i >= self.hand.len())
        {
            return Err(Rejection::new(
                "bad_cards",
                "pick 1 to 5 different cards of your hand",
            ));
        }
        Ok(idx)
    }

    /// Applies an action (on a copy, by `check`).
    pub fn apply(
        &mut self,
        content: &Content,
        action: &CloverAction,
    ) -> Result<Vec<CloverEvent>, Rejection> {
        let mut events = Vec::new();
        match (self.phase, action) {
            (Phase::SelectBlind, CloverAction::SelectBlind) => {
                events = self.start_blind(content)?
            }
            (Phase::SelectBlind, CloverAction::SkipBlind) => {
                if self.blind == Blind::Boss {
                    return Err(Rejection::new(
                        "cannot_skip",
                        "the boss blind cannot be skipped",
                    ));
                }
                self.run.skips = self.run.skips.saturating_add(1);
                let tags: Vec<String> = content.of_kind("tag").map(|t| t.id.clone()).collect();
                let n = len_u32(tags.len()).max(1);
                let pick = self.run.streams.below("tag", n).map_err(effect)? as usize;
                let tag = tags.get(pick).cloned().unwrap_or_default();
                let boss = self.run.boss.clone();
                run::take_tag(&mut self.run, content, &tag).map_err(reject)?;
                let redrawn = (self.run.boss != boss)
                    .then(|| self.run.boss.clone())
                    .flatten();
                self.blind = if self.blind == Blind::Small {
                    Blind::Big
                } else {
                    Blind::Boss
                };
                events.push(CloverEvent::BlindSkipped { tag });
                if let Some(boss) = redrawn {
                    events.push(CloverEvent::BossRerolled {
                        boss,
                        money: self.run.money,
                    });
                }
            }
            (Phase::Playing, CloverAction::Play { cards }) => {
                let idx = self.picked(cards)?;
                let face_down = FaceDown::of(&self.hand, &idx);
                // Played cards turn face up; held ones stay as they lie, but score as what
                // they are.
                let played: Vec<Card> = idx.iter().map(|&i| self.hand[i].face_up()).collect();
                // The event names the played cards (in hand order, as they score) when one
                // of them lay face down.
                let revealed = if face_down == FaceDown::Played {
                    played.clone()
                } else {
                    Vec::new()
                };
                let staying: Vec<Card> = (0..self.hand.len())
                    .filter(|i| !idx.contains(i))
                    .map(|i| self.hand[i])
                    .collect();
                let held: Vec<Card> = staying.iter().map(|c| c.face_up()).collect();
                self.run.hands_left -= 1;
                self.run.scoring.deck = crate::state::DeckCounts::of(&self.cards, self.deck.len());
                let streams_before = self.run.streams.clone();
                let receipt =
                    score_hand(&mut self.run, content, &played, &held, true).map_err(effect)?;
                let chance = self.run.streams != streams_before;
                self.scored = self.scored.saturating_add(receipt.score);
                // Broken glass leaves the run's deck for good; a card a joker changed while it
                // scored (lasting chips, a new enhancement) is changed in the deck for good.
                for (i, old) in played.iter().enumerate() {
                    let Some(at) = self.cards.iter().position(|c| c == old) else {
                        continue;
                    };
                    if receipt.destroyed.contains(&(i as u32)) {
                        self.cards.remove(at);
                    } else if let Some(new) = self.run.scoring.played.get(i) {
                        self.cards[at] = *new;
                    }
                }
                // The ante remembers what was played (a boss may debuff it later).
                self.run
                    .ante_played
                    .extend(self.run.scoring.played.iter().copied());
                self.hand = staying;
                let for_hand = self.take_created();
                self.hand.extend(for_hand);
                events.push(CloverEvent::HandScored {
                    hand: receipt.hand,
                    score: Some(receipt.score),
                    total: Some(self.scored),
                    chips: Some(receipt.chips),
                    mult: Some(receipt.mult),
                    steps: receipt.steps,
                    chance,
                    face_down,
                    revealed,
                });
                if self.scored >= self.target {
                    self.close_blind(content, run::Reward::Blind, &mut events)?;
                } else if self.run.hands_left <= 0 {
                    // The last hand fell short: a joker may save the run (`OnRoundLost`).
                    let percent = self.scored.saturating_mul(100) / self.target.max(1);
                    let saved_by =
                        run::round_lost(&mut self.run, content, percent).map_err(reject)?;
                    if let Some(by) = saved_by {
                        events.push(CloverEvent::RunSaved { by });
                        self.close_blind(content, run::Reward::None, &mut events)?;
                    } else {
                        self.phase = Phase::Lost;
                        events.push(CloverEvent::RunLost);
                    }
                } else {
                    self.hook()?;
                    run::disable_a_joker(&mut self.run, content).map_err(reject)?;
                    self.draw_after(DrawMoment::AfterPlay)?;
                }
            }
            (Phase::Playing, CloverAction::Discard { cards }) => {
                if self.run.discards_left <= 0 {
                    return Err(Rejection::new("no_discards", "no discards left"));
                }
                let idx = self.picked(cards)?;
                self.run.discards_left -= 1;
                let discarded: Vec<Card> = idx.iter().map(|&i| self.hand[i].face_up()).collect();
                self.hand = (0..self.hand.len())
                    .filter(|i| !idx.contains(i))
                    .map(|i| self.hand[i])
                    .collect();
                run::discard(&mut self.run, content, &discarded).map_err(reject)?;
                // A discarded card a row destroyed leaves the run's deck for good.
                for &i in &self.run.scoring.destroyed_held {
                    let Some(card) = discarded.get(i) else {
                        continue;
                    };
                    if let Some(at) = self.cards.iter().position(|c| c == card) {
                        self.cards.remove(at);
                    }
                }
                self.draw_after(DrawMoment::Other)?;
                events.push(CloverEvent::Discarded {
                    count: len_u32(idx.len()),
                });
            }
            (Phase::Shop, CloverAction::Buy { slot }) => {
                let offer = self
                    .shop
                    .get(usize::from(*slot))
                    .cloned()
                    .ok_or_else(|| Rejection::new("not_available", "no such offer"))?;
                let (kind, id) = offer.item.split_once(':').unwrap_or(("", ""));
                if let Some(card) = offer.card {
                    // A playing card joins the run's deck (drawn from the next blind on).
                    run::buy_card(&mut self.run, content, card.edition).map_err(reject)?;
                    self.cards.push(card);
                } else if kind == "joker" {
                    run::buy_joker_with(&mut self.run, content, id, offer.stickers)
                        .map_err(reject)?;
                } else if kind == "voucher" {
                    run::buy_voucher(&mut self.run, content, id).map_err(reject)?;
                } else {
                    let cost = run::offer_price(&self.run, content, &offer.item, offer.stickers);
                    if self.run.spendable() < cost {
                        return Err(reject(RunError::NotEnoughMoney {
                            cost,
                            money: self.run.money,
                        }));
                    }
                    if len_i64(self.run.consumables.len())
                        >= self.run.rule(crate::state::Rule::ConsumableSlots)
                    {
                        return Err(Rejection::new(
                            "no_consumable_slot",
                            "every consumable slot is taken",
                        ));
                    }
                    self.run.money -= cost;
                    self.run.consumables.push(offer.item.clone());
                }
                self.shop.remove(usize::from(*slot));
                events.push(CloverEvent::ShopChanged);
            }
            (Phase::Shop, CloverAction::OpenPack { slot }) => {
                let pack = self
                    .packs
                    .get(usize::from(*slot))
                    .cloned()
                    .ok_or_else(|| Rejection::new("not_available", "no such pack"))?;
                let entry = content
                    .catalog
                    .get(&pack)
                    .ok_or_else(|| reject(RunError::NotAvailable(pack.clone())))?;
                let cost = run::pack_price(&self.run, content, &pack);
                if self.run.spendable() < cost {
                    return Err(reject(RunError::NotEnoughMoney {
                        cost,
                        money: self.run.money,
                    }));
                }
                self.run.money -= cost;
                let picks = entry.picks.max(1);
                let items = run::pack_contents(&mut self.run, content, &pack).map_err(reject)?;
                run::pack_opened(&mut self.run, content).map_err(reject)?;
                self.packs.remove(usize::from(*slot));
                events.push(CloverEvent::PackOpened {
                    pack: pack.clone(),
                    items: items.clone(),
                });
                if items.is_empty() {
                    events.push(CloverEvent::PackClosed);
                } else {
                    self.pack = Some(OpenPack {
                        pack,
                        items,
                        picks_left: picks,
                    });
                    self.phase = Phase::Pack;
                }
            }
            (Phase::Pack, CloverAction::PickPack { index }) => {
                let mut open = self
                    .pack
                    .clone()
                    .ok_or_else(|| Rejection::new("wrong_phase", "no pack is open"))?;
                let at = usize::from(*index);
                let item =
                    open.items.get(at).cloned().ok_or_else(|| {
                        Rejection::new("not_available", "no such card in the pack")
                    })?;
                match &item {
                    PackItem::Owned { item, stickers } => {
                        run::take_from_pack(&mut self.run, content, item, *stickers)
                            .map_err(reject)?
                    }
                    PackItem::Card { card } => self.cards.push(*card),
                }
                open.items.remove(at);
                open.picks_left = open.picks_left.saturating_sub(1);
                events.push(CloverEvent::PackPicked { item });
                if open.picks_left == 0 || open.items.is_empty() {
                    self.pack = None;
                    self.phase = Phase::Shop;
                    events.push(CloverEvent::PackClosed);
                } else {
                    self.pack = Some(open);
                }
            }
            (Phase::Pack, CloverAction::SkipPack) => {
                run::skip_pack(&mut self.run, content).map_err(reject)?;
                self.pack = None;
                self.phase = Phase::Shop;
                events.push(CloverEvent::PackClosed);
            }
            (
                Phase::Shop | Phase::SelectBlind | Phase::Playing | Phase::Pack,
                CloverAction::Sell { slot },
            ) => {
                // Jokers sell at any moment of a run, as in the genre; one whose sale turns the
                // boss off (`boss_active`) gives back what the boss took from this blind.
                let boss_was = self.run.boss_active;
                let (hands, discards) = (
                    self.run.rule(crate::state::Rule::Hands),
                    self.run.rule(crate::state::Rule::Discards),
                );
                run::sell_joker(&mut self.run, content, usize::from(*slot)).map_err(reject)?;
                if boss_was && !self.run.boss_active && self.phase == Phase::Playing {
                    let more_hands = self.run.rule(crate::state::Rule::Hands) - hands;
                    let more_discards = self.run.rule(crate::state::Rule::Discards) - discards;
                    self.run.hands_left += more_hands.max(0);
                    self.run.discards_left += more_discards.max(0);
                    self.target = run::boss_target(
                        i64::from(self.run.ante),
                        self.run.rule(crate::state::Rule::BlindScaling),
                        self.run.rule(crate::state::Rule::BossBlindMult),
                        self.run.rule(crate::state::Rule::BlindMultiplier),
                    );
                    // A boss that stops acting stops hiding cards too.
                    self.turn_hand_face_up();
                    self.draw(DrawMoment::Other)?;
                }
                events.push(CloverEvent::ShopChanged);
            }
            (
                Phase::Shop | Phase::SelectBlind | Phase::Playing | Phase::Pack,
                CloverAction::Use { index, cards },
            ) => {
                let owner = self.run.consumables.get(usize::from(*index));
                if owner.is_some_and(|o| run::picks_from_hand(content, o))
                    && self.phase != Phase::Playing
                {
                    return Err(Rejection::new(
                        "wrong_phase",
                        "this consumable acts on cards in hand: use it while a blind is played",
                    ));
                }
                let idx = if cards.is_empty() {
                    Vec::new()
                } else {
                    if self.phase != Phase::Playing {
                        return Err(Rejection::new(
                            "wrong_phase",
                            "cards are chosen for a consumable while a blind is played",
                        ));
                    }
                    self.picked(cards)?
                };
                // The chosen cards first, then the rest of the hand (a consumable may pick
                // among all of them at random); `order` maps each back to its hand index.
                let order: Vec<usize> = idx
                    .iter()
                    .copied()
                    .chain((0..self.hand.len()).filter(|i| !idx.contains(i)))
                    .collect();
                // A consumable acts on what the cards are; a face-down card stays face down.
                let chosen: Vec<Card> = idx.iter().map(|&i| self.hand[i].face_up()).collect();
                let rest: Vec<Card> = order[idx.len()..]
                    .iter()
                    .map(|&i| self.hand[i].face_up())
                    .collect();
                let used = run::use_consumable_in_hand(
                    &mut self.run,
                    content,
                    usize::from(*index),
                    &chosen,
                    &rest,
                )
                .map_err(reject)?;
                let before: Vec<Card> = order.iter().map(|&i| self.hand[i].face_up()).collect();
                // The changed cards replace the old ones in the hand and in the run's deck;
                // destroyed ones leave both.
                let mut gone = Vec::new();
                for (k, &i) in order.iter().enumerate() {
                    let (old, new) = (before[k], used.cards.get(k).copied().unwrap_or(before[k]));
                    let at = self.cards.iter().position(|c| *c == old);
                    if used.destroyed.contains(&k) {
                        gone.push(i);
                        if let Some(at) = at {
                            self.cards.remove(at);
                        }
                    } else {
                        self.hand[i] = Card {
                            face_down: self.hand[i].face_down,
                            ..new
                        };
                        if let Some(at) = at {
                            self.cards[at] = new;
                        }
                    }
                }
                gone.sort_unstable();
                for i in gone.into_iter().rev() {
                    self.hand.remove(i);
                }
                // The cards it added join the hand at the end of `apply`.
                events.push(CloverEvent::ShopChanged);
            }
            (Phase::Shop, CloverAction::Reroll) => {
                // A reroll replaces the card slots; the voucher offer and the packs stay.
                let vouchers: Vec<ShopOffer> = self
                    .shop
                    .iter()
                    .filter(|o| o.item.starts_with("voucher:"))
                    .cloned()
                    .collect();
                let offers =
                    run::reroll_shop(&mut self.run, content, self.rerolls).map_err(reject)?;
                self.shop = offer_stickers(&mut self.run, offers)?;
                self.shop.extend(vouchers);
                self.rerolls += 1;
                events.push(CloverEvent::ShopChanged);
            }
            (Phase::SelectBlind, CloverAction::RerollBoss) => {
                let boss = run::reroll_boss(&mut self.run, content)
                    .map_err(|e| Rejection::new(e.code(), e.to_string()))?;
                events.push(CloverEvent::BossRerolled {
                    boss,
                    money: self.run.money,
                });
            }
            (Phase::Shop, CloverAction::LeaveShop) => {
                self.shop.clear();
                self.packs.clear();
                self.phase = Phase::SelectBlind;
                events.push(CloverEvent::ShopLeft);
            }
            (
                Phase::Shop | Phase::SelectBlind | Phase::Playing | Phase::Pack,
                CloverAction::Resign,
            ) => {
                self.phase = Phase::Resigned;
                events.push(CloverEvent::RunResigned);
            }
            (Phase::Lost | Phase::Resigned, _) => {
                return Err(Rejection::new(
                    "match_over",
                    "the run has ended; it accepts no more commands",
                ))
            }
            _ => {
                return Err(Rejection::new(
                    "wrong_phase",
                    format!("not now: {:?}", self.phase),
                ))
            }
        }
        // Cards rows added at any other moment (a consumable's use, a round's end, the shop)
        // join the run's deck, and the hand while a blind is played.
        let for_hand = self.take_created();
        if self.phase == Phase::Playing {
            self.hand.extend(for_hand);
        }
        self.run.scoring = crate::state::Scoring::default();
        self.steps += 1;
        Ok(events)
    }
}

/// Shop offers with their stickers: each joker's polled on the `sticker` stream.
fn offer_stickers(run: &mut RunState, offers: Vec<String>) -> Result<Vec<ShopOffer>, Rejection> {
    offers
        .into_iter()
        .map(|item| {
            // A playing card slot is stocked now, in slot order, on `shop_pick`.
            if item == "card" {
                let card = run::shop_card(run).map_err(reject)?;
                return Ok(ShopOffer {
                    item,
                    stickers: Stickers {
                        edition: card.edition,
                        ..Stickers::default()
                    },
                    card: Some(card),
                });
            }
            let stickers = if item.starts_with("joker:") {
                run::poll_stickers(run).map_err(reject)?
            } else {
                Stickers::default()
            };
            Ok(ShopOffer {
                item,
                stickers,
                card: None,
            })
        })
        .collect()
}

impl Game for Clover {
    const ID: &'static str = "clover";
    const CONTENT_KINDS: &'static [&'static str] = &["effects", "catalog"];
    const STREAMS: &'static [&'static str] = crate::state::STREAMS.names();
    const HIDDEN_INFORMATION: bool = true;
    // Version 1: the boss is drawn when the ante starts (streams `boss`, `boss_proc`), the
    // two `Custom` handlers are gone, and later mechanics are rules, not content. Version 2:
    // a run writes only the rules that differ from their defaults, so adding a rule no longer
    // changes every run's fingerprints (version 1 wrote the whole table, and each rule added
    // since made its files diverge). Older files are refused as retired (docs/clover.md,
    // "Rules versions").
    const RULES_VERSION: u32 = 2;
    const OLDEST_RULES: u32 = 2;

    type Content = CloverContent;
    type Config = CloverConfig;
    type State = CloverState;
    type Action = CloverAction;
    type Event = CloverEvent;
    type View = CloverView;
    type Plan = (CloverState, Vec<CloverEvent>);

    fn load_content(source: &BundleSource) -> Result<CloverContent, Vec<ContentProblem>> {
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for path in source.files.keys() {
            if path.ends_with(".tsv")
                || (path.ends_with(".json")
                    && path != "content/bundle.json"
                    && path != "bundle.json")
            {
                match source.text(path) {
                    Ok(t) => files.push((path.clone(), t.to_owned())),
                    Err(p) => problems.push(p),
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        CloverContent::from_files(files)
    }

    fn seat_range(_content: &CloverContent, _config: &CloverConfig) -> (u16, u16) {
        (1, 1)
    }

    fn setup(
        content: &CloverContent,
        setup: MatchSetup<'_, CloverConfig>,
    ) -> Result<CloverState, SetupError> {
        let c = content.content();
        if !c
            .catalog
            .contains_key(&format!("deck:{}", setup.config.deck))
        {
            return Err(SetupError::new(
                "unknown_deck",
                format!("no deck `{}`", setup.config.deck),
            ));
        }
        let mut run = RunState::new(setup.seed, setup.config.stake, &setup.config.deck)
            .map_err(|e| SetupError::new("bad_seed", e.message))?;
        run::start_run(&mut run, c).map_err(|e| SetupError::new(e.code(), e.to_string()))?;
        // The first ante's boss is known from the start, as every ante's is when it starts.
        run::choose_boss(&mut run, c);
        let cards =
            run::starting_deck(&mut run).map_err(|e| SetupError::new(e.code(), e.to_string()))?;
        run::draw_round_targets(&mut run, &cards)
            .map_err(|e| SetupError::new(e.code(), e.to_string()))?;
        run.deck_start = crate::state::DeckCounts::of(&cards, 0).size;
        run.scoring = crate::state::Scoring::default();
        Ok(CloverState {
            run,
            phase: Phase::SelectBlind,
            blind: Blind::Small,
            deck: Vec::new(),
            hand: Vec::new(),
            scored: 0,
            target: 0,
            shop: Vec::new(),
            packs: Vec::new(),
            pack: None,
            cards,
            rerolls: 0,
            won: false,
            steps: 0,
        })
    }

    /// The kinds open now, each with the values its parameter may take: hand indices for
    /// `play` and `discard` (a subset of 1 to 5, `discard` only with discards left), and for
    /// `buy`, `sell`, `openPack`, `pickPack` and `use` the slots whose command the rules would
    /// accept now (affordable, with room, not eternal). Bare kinds (`selectBlind`, `skipBlind`,
    /// `reroll`, `skipPack`, `leaveShop`) are listed only when accepted.
    fn legal_actions(content: &CloverContent, state: &CloverState, seat: Seat) -> Vec<ActionKind> {
        let accepted = |action: CloverAction| {
            let ctx = CommandContext {
                seat: Some(seat),
                tick: 0,
            };
            Self::check(content, state, ctx, &action).is_ok()
        };
        let slots = |kind: &str, name: &str, n: usize, action: &dyn Fn(u8) -> CloverAction| {
            let values: Vec<ParamValue> = positions(n)
                .filter(|&i| accepted(action(i)))
                .map(ParamValue::from)
                .collect();
            (!values.is_empty()).then(|| ActionKind {
                kind: kind.into(),
                params: vec![ParamSpec {
                    name: name.into(),
                    range: ParamRange::OneOf { values },
                }],
            })
        };
        let bare =
            |kind: &str, action: CloverAction| accepted(action).then(|| ActionKind::bare(kind));
        let cards = |kind: &str| {
            let n = state.hand.len();
            (n > 0).then(|| ActionKind {
                kind: kind.into(),
                params: vec![ParamSpec {
                    name: "cards".into(),
                    range: ParamRange::SubsetOf {
                        items: positions(n).map(ParamValue::from).collect(),
                        min: 1,
                        max: len_u32(n.min(5)),
                    },
                }],
            })
        };
        let mut kinds: Vec<Option<ActionKind>> = match state.phase {
            Phase::SelectBlind => vec![
                bare("selectBlind", CloverAction::SelectBlind),
                bare("skipBlind", CloverAction::SkipBlind),
                bare("rerollBoss", CloverAction::RerollBoss),
            ],
            Phase::Playing => vec![
                cards("play"),
                cards("discard").filter(|_| state.run.discards_left > 0),
            ],
            Phase::Shop => vec![
                slots("buy", "slot", state.shop.len(), &|slot| CloverAction::Buy {
                    slot,
                }),
                bare("reroll", CloverAction::Reroll),
                slots("openPack", "slot", state.packs.len(), &|slot| {
                    CloverAction::OpenPack { slot }
                }),
                bare("leaveShop", CloverAction::LeaveShop),
            ],
            Phase::Pack => vec![
                slots(
                    "pickPack",
                    "index",
                    state.pack.as_ref().map_or(0, |p| p.items.len()),
                    &|index| CloverAction::PickPack { index },
                ),
                bare("skipPack", CloverAction::SkipPack),
            ],
            Phase::Lost | Phase::Resigned => Vec::new(),
        };
        if !matches!(state.phase, Phase::Lost | Phase::Resigned) {
            kinds.push(bare("resign", CloverAction::Resign));
            kinds.push(slots("sell", "slot", state.run.jokers.len(), &|slot| {
                CloverAction::Sell { slot }
            }));
            // A consumable used on hand cards is listed when it could be used on the first
            // one (its `cards` are the player's choice, 1 to its catalog `picks`); any other
            // when it could be used as it is.
            kinds.push(slots(
                "use",
                "index",
                state.run.consumables.len(),
                &|index| CloverAction::Use {
                    index,
                    cards: state
                        .run
                        .consumables
                        .get(usize::from(index))
                        .filter(|owner| run::targets_of(content.content(), owner) > 0)
                        .map_or_else(Vec::new, |_| vec![0]),
                },
            ));
        }
        kinds.into_iter().flatten().collect()
    }

    fn enumerate_actions(
        _content: &CloverContent,
        state: &CloverState,
        _seat: Seat,
    ) -> Vec<CloverAction> {
        let mut out = Vec::new();
        match state.phase {
            Phase::SelectBlind => {
                out.push(CloverAction::SelectBlind);
                out.push(CloverAction::SkipBlind);
                if state.run.rule(crate::state::Rule::BossRerolls) > 0 {
                    out.push(CloverAction::RerollBoss);
                }
            }
            Phase::Playing => {
                for i in positions(state.hand.len()) {
                    out.push(CloverAction::Play { cards: vec![i] });
                    out.push(CloverAction::Discard { cards: vec![i] });
                }
            }
            Phase::Shop => {
                for slot in positions(state.shop.len()) {
                    out.push(CloverAction::Buy { slot });
                }
                for slot in positions(state.packs.len()) {
                    out.push(CloverAction::OpenPack { slot });
                }
                for (slot, joker) in positions(state.run.jokers.len()).zip(&state.run.jokers) {
                    if !joker.eternal {
                        out.push(CloverAction::Sell { slot });
                    }
                }
                out.push(CloverAction::Reroll);
                out.push(CloverAction::LeaveShop);
            }
            Phase::Pack => {
                let n = state.pack.as_ref().map_or(0, |p| p.items.len());
                for index in positions(n) {
                    out.push(CloverAction::PickPack { index });
                }
                out.push(CloverAction::SkipPack);
            }
            Phase::Lost | Phase::Resigned => {}
        }
        out
    }

    fn check(
        content: &CloverContent,
        state: &CloverState,
        _ctx: CommandContext,
        action: &CloverAction,
    ) -> Result<Self::Plan, Rejection> {
        let mut next = state.clone();
        let events = next.apply(content.content(), action)?;
        Ok((next, events))
    }

    fn commit(
        _content: &CloverContent,
        state: &mut CloverState,
        _ctx: CommandContext,
        plan: Self::Plan,
    ) -> Vec<CloverEvent> {
        *state = plan.0;
        plan.1
    }

    fn view(content: &CloverContent, state: &CloverState, _viewer: Viewer) -> CloverView {
        let r = &state.run;
        CloverView {
            phase: state.phase,
            ante: r.ante,
            blind: state.blind,
            target: state.target,
            scored: state.scored,
            money: r.money,
            hands_left: r.hands_left,
            discards_left: r.discards_left,
            hand: state
                .hand
                .iter()
                .map(|c| (!c.face_down).then_some(*c))
                .collect(),
            deck_count: len_u32(state.deck.len()),
            jokers: r.jokers.clone(),
            consumables: r.consumables.clone(),
            shop: state.shop.clone(),
            shop_prices: state
                .shop
                .iter()
                .map(|o| run::offer_price(r, content.content(), &o.item, o.stickers))
                .collect(),
            packs: state.packs.clone(),
            pack_prices: state
                .packs
                .iter()
                .map(|p| run::pack_price(r, content.content(), p))
                .collect(),
            pack: state.pack.clone(),
            deck_size: len_u32(state.cards.len()),
            levels: r.levels.clone(),
            boss: r.boss.clone(),
            blinds: blind_previews(content.content(), state),
            boss_reroll_cost: (state.phase == Phase::SelectBlind
                && (r.rule(crate::state::Rule::BossRerolls) >= 2
                    || (r.rule(crate::state::Rule::BossRerolls) == 1 && !r.boss_rerolled)))
                .then(|| r.rule(crate::state::Rule::BossRerollCost).max(0)),
            won: state.won,
            stake: r.stake,
            deck_id: r.deck.clone(),
            tags: r.tags.clone(),
            tag_copies: r.tag_copies,
            vouchers: r.vouchers.clone(),
            reroll_cost: run::reroll_price(r, state.rerolls),
            round_targets: r.round_targets,
        }
    }

    /// A preview never tells the player what is hidden from them: cards it would draw are
    /// counted out of the hand (the deck order stays unknown), and when the action would draw
    /// from any named stream — a chance roll, a new shop, a pack's contents, a boss, a tag, a
    /// shuffle — the preview shows the run as it stands now, since every value after such a
    /// draw may depend on its outcome. So it does while a face-down card is in the hand: what
    /// a play, a discard or a consumable leaves (money, the score, the hand) may depend on it.
    fn preview_view(
        content: &CloverContent,
        before: &CloverState,
        after: &CloverState,
        viewer: Viewer,
    ) -> CloverView {
        if before.run.streams != after.run.streams || holds_face_down(before) {
            return Self::view(content, before, viewer);
        }
        let mut view = Self::view(content, after, viewer);
        let drawn = before.deck.len().saturating_sub(after.deck.len());
        view.hand.truncate(after.hand.len().saturating_sub(drawn));
        view
    }

    /// The events of a preview: a scored hand keeps its hand type, and its score and steps
    /// unless scoring rolled a chance; when the action drew from any named stream, the events
    /// after the score (a beaten blind, the shop, a pack's contents, a tag) are left out, as the
    /// view is. A face-down card hides what it decides: the hand, when one was played; the
    /// score, steps and all that follows (a beaten or lost blind), when one was in the hand.
    fn preview_events(
        _content: &CloverContent,
        before: &CloverState,
        after: &CloverState,
        events: &[CloverEvent],
        _viewer: Viewer,
    ) -> Vec<CloverEvent> {
        let drew = before.run.streams != after.run.streams || holds_face_down(before);
        events
            .iter()
            .filter_map(|event| match event {
                CloverEvent::HandScored {
                    hand,
                    chance,
                    face_down,
                    ..
                } if *chance || !face_down.is_none() => Some(CloverEvent::HandScored {
                    hand: if *face_down == FaceDown::Played {
                        None
                    } else {
                        *hand
                    },
                    score: None,
                    total: None,
                    chips: None,
                    mult: None,
                    steps: Vec::new(),
                    chance: *chance,
                    face_down: *face_down,
                    revealed: Vec::new(),
                }),
                CloverEvent::HandScored { .. } | CloverEvent::Discarded { .. } => {
                    Some(event.clone())
                }
                _ if drew => None,
                CloverEvent::PackOpened { pack, .. } => Some(CloverEvent::PackOpened {
                    pack: pack.clone(),
                    items: Vec::new(),
                }),
                other => Some(other.clone()),
            })
            .collect()
    }

    fn status(_content: &CloverContent, state: &CloverState) -> MatchStatus {
        match state.phase {
            Phase::Resigned => MatchStatus::Finished {
                outcome: Outcome {
                    kind: if state.won {
                        "wonThenResigned".into()
                    } else {
                        "resigned".into()
                    },
                    winners: if state.won { vec![Seat(0)] } else { Vec::new() },
                },
            },
            Phase::Lost => MatchStatus::Finished {
                outcome: Outcome {
                    kind: if state.won {
                        "wonThenLost".into()
                    } else {
                        "lost".into()
                    },
                    winners: if state.won { vec![Seat(0)] } else { Vec::new() },
                },
            },
            _ => MatchStatus::Active,
        }
    }

    fn step(state: &CloverState) -> u64 {
        state.steps
    }
}

/// A greedy bot: always plays the blind; plays the 5-or-fewer card subset with the highest
/// hand (then most rank chips); buys the first affordable joker; else opens a joker pack when
/// a slot is free, or another pack when $8 remain after it, and takes the first card it can;
/// never rerolls.
pub fn bot_action(content: &Content, state: &CloverState) -> Option<CloverAction> {
    /// The most hand cards the bot weighs (2^12 subsets).
    const BOT_CARDS: usize = 12;
    match state.phase {
        Phase::SelectBlind => Some(CloverAction::SelectBlind),
        Phase::Playing => {
            // The bot plays from what it may see: face-down cards are unknown to it, so it
            // picks among the face-up ones, and plays up to five unknown cards only when it
            // sees none.
            let mut shown: Vec<u8> = positions(state.hand.len())
                .filter(|&i| !state.hand[usize::from(i)].face_down)
                .collect();
            if shown.is_empty() {
                let cards = positions(state.hand.len()).take(5).collect();
                return Some(CloverAction::Play { cards });
            }
            // Every subset of up to five is weighed, among the twelve cards with the most chips
            // when the hand holds more (a grown hand would make the search explode).
            shown.sort_by_key(|&i| std::cmp::Reverse(state.hand[usize::from(i)].chips()));
            shown.truncate(BOT_CARDS);
            shown.sort_unstable();
            let n = shown.len();
            let mut best: Option<((HandType, i64), Vec<u8>)> = None;
            for mask in 1u32..(1u32 << n) {
                if mask.count_ones() > 5 {
                    continue;
                }
                let idx: Vec<u8> = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| shown[i])
                    .collect();
                let cards: Vec<Card> = idx.iter().map(|&i| state.hand[usize::from(i)]).collect();
                let d = crate::hands::detect(
                    &cards,
                    &vec![false; cards.len()],
                    crate::hands::DetectionRules::default(),
                );
                let chips: i64 = d.scoring.iter().map(|&i| cards[i].chips()).sum();
                let key = (d.hand.unwrap_or(HandType::HighCard), chips);
                if best.as_ref().is_none_or(|(k, _)| key > *k) {
                    best = Some((key, idx));
                }
            }
            best.map(|(_, cards)| CloverAction::Play { cards })
        }
        Phase::Shop => {
            let slots = state.run.rule(crate::state::Rule::JokerSlots);
            let room = len_i64(state.run.jokers.len()) < slots;
            for (slot, offer) in positions(state.shop.len()).zip(&state.shop) {
                let Some(id) = offer.item.strip_prefix("joker:") else {
                    continue;
                };
                if room
                    && run::joker_price(&state.run, content, id, offer.stickers) <= state.run.money
                {
                    return Some(CloverAction::Buy { slot });
                }
            }
            // Packs: a joker pack when a slot is free, any other when $8 stay after it.
            for (slot, pack) in positions(state.packs.len()).zip(&state.packs) {
                let Some(entry) = content.catalog.get(pack) else {
                    continue;
                };
                let cost = run::pack_price(&state.run, content, pack);
                let wanted = if entry.holds.as_deref() == Some("joker") {
                    room && cost <= state.run.money
                } else {
                    cost + 8 <= state.run.money
                };
                if wanted {
                    return Some(CloverAction::OpenPack { slot });
                }
            }
            Some(CloverAction::LeaveShop)
        }
        Phase::Pack => {
            let room =
                len_i64(state.run.jokers.len()) < state.run.rule(crate::state::Rule::JokerSlots);
            let shelf = len_i64(state.run.consumables.len())
                < state.run.rule(crate::state::Rule::ConsumableSlots);
            let items = state.pack.as_ref().map_or(&[][..], |p| &p.items[..]);
            let pick = positions(items.len()).zip(items).find_map(|(i, item)| {
                let wanted = match item {
                    PackItem::Owned { item, .. } if item.starts_with("joker:") => room,
                    // A card-changing consumable is kept for a blind, in a consumable slot.
                    PackItem::Owned { item, .. } => shelf || run::targets_of(content, item) == 0,
                    PackItem::Card { .. } => true,
                };
                wanted.then_some(i)
            });
            Some(match pick {
                Some(index) => CloverAction::PickPack { index },
                None => CloverAction::SkipPack,
            })
        }
        Phase::Lost | Phase::Resigned => None,
    }
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

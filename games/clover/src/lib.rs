//! clover: a poker-hand scoring roguelike whose every effect is a row of data (issue 5;
//! docs/clover.md). Jokers, planets, tarots, spectrals, bosses, tags, vouchers, decks and
//! stakes are catalog entries plus effect rows (`content/`), run by the one executor of
//! `turnstile-effects`; the code here lists who is present, in the order the rules fix, and
//! what the formula variables are worth.
//!
//! | module | what |
//! |---|---|
//! | [`cards`] | ranks, suits, enhancements, editions, seals, the 52-card deck |
//! | [`hands`] | the twelve poker hands, levels, detection under the detection rules |
//! | [`state`] | the run's state: the executor's host, rules, streams |
//! | [`content`] | catalog and effect rows, loaded from sheets and JSON; the content report |
//! | [`score`] | scoring in the full evaluation order, with the step list |
//! | [`run`] | rebuild points, rounds, blinds, money, the shop |
//! | [`benchmark`] | the workloads `turnstile bench clover` and the criterion benches time |
//! | [`calculator`] | the JSON hand description of `turnstile clover score` |
//! | [`vocabulary`] | clover's own effect triggers, scopes and operations |
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod benchmark;
pub mod calculator;
pub mod cards;
pub mod content;
pub mod game;
mod handlers;
pub mod hands;
mod indices;
pub mod run;
pub mod score;
pub mod state;
pub mod vocabulary;

pub use content::{
    content_report, content_schema_of, CloverManifest, Content, ContentReport, SCHEMAS,
};
pub use game::{bot_action, Clover, CloverAction, CloverConfig, CloverContent, CloverState};
pub use score::{score_hand, ScoreError, ScoreReceipt};
pub use state::{Joker, RunState};

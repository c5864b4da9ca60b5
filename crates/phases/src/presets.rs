//! The three phase sequences the default content publishes (spec/phases.md, "Presets"), as
//! reusable content files under `crates/phases/presets/`.
//!
//! No preset claims to be another game's full rules. A game loads them like any other content
//! — through the validator, against its own schema and effect ids — so a preset that stopped
//! being valid could never be published.

use turnstile_core::ContentProblem;

use crate::sequence::PhaseCatalog;
use crate::validate::ValidationContext;

/// `classic-style`: start → action → end.
pub const CLASSIC_STYLE: &str = include_str!("../presets/classic-style.json");

/// `hearthstone-style`: start → draw → main → end; the start phase's entry effect refreshes
/// resources and the draw phase's draws a card.
pub const HEARTHSTONE_STYLE: &str = include_str!("../presets/hearthstone-style.json");

/// `priority-window`: after a `PLAY_CARD`, a response window in which the other
/// seats respond (actions tagged `response`) or pass (`PASS_PRIORITY`); the pass that closes
/// the window carries the tag `closes_window` and returns to the action phase.
pub const PRIORITY_WINDOW: &str = include_str!("../presets/priority-window.json");

/// Every preset as `(file name, text)`.
pub const PRESETS: [(&str, &str); 3] = [
    ("classic-style.json", CLASSIC_STYLE),
    ("hearthstone-style.json", HEARTHSTONE_STYLE),
    ("priority-window.json", PRIORITY_WINDOW),
];

/// The effect ids the presets reference; a game publishing them defines these effects.
pub const PRESET_EFFECTS: [&str; 2] = ["refresh-resources", "draw-card"];

/// The tag the host adds to the pass that closed a response window (see
/// [`PRIORITY_WINDOW`]).
pub const CLOSES_WINDOW_TAG: &str = "closes_window";

/// The three presets, validated in `context`.
pub fn preset_catalog(
    context: &ValidationContext<'_>,
) -> Result<PhaseCatalog, Vec<ContentProblem>> {
    PhaseCatalog::load(PRESETS, context)
}

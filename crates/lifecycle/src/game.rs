//! What a game on the match lifecycle tells the registry, so that it registers with one call
//! (`register_lifecycle_game::<G>` in `crates/samples`): its shipped content, its default
//! config and listing, and how to build the actions the server submits itself — the system
//! Timeout and ClockResumed, and Resign — and the JSON Schemas of its content files. The game crate implements it without knowing the
//! runtime; the registry wires the rest (the `random` bot, timers, replay verification).

use turnstile_core::{BundleSource, Game, Seat, Tick};

/// A game on the match lifecycle, described for the registry.
pub trait LifecycleGame: Game {
    /// The content bundle the game ships (its files, embedded in the binary).
    fn bundled_source() -> BundleSource;
    /// The config of a match whose request names none.
    fn default_config() -> Self::Config;
    /// What a listing shows of the content's options (phase sequences, clocks, seat range).
    fn config_options(content: &Self::Content) -> serde_json::Value;
    /// The index of the current activation, which a `Timeout` names.
    fn turn_index(state: &Self::State) -> u64;
    /// The system Timeout of activation `turn_index`.
    fn timeout(turn_index: u64) -> Self::Action;
    /// The system ClockResumed after an outage from `last_heartbeat_tick` to `takeover_tick`.
    fn clock_resumed(last_heartbeat_tick: Tick, takeover_tick: Tick) -> Self::Action;
    /// `seat` resigns.
    fn resign(seat: Seat) -> Self::Action;
    /// The JSON Schema documents of the game's content files, `(name, schema)`, the name being
    /// the file stem under `docs/schemas/` (unique across games). None by default.
    fn content_schemas() -> Vec<(String, serde_json::Value)> {
        Vec::new()
    }
    /// Which of those schemas a content file follows, by its path under the bundle's root;
    /// `None` for a file with no schema of the game's own (a plain `bundle.json` manifest).
    fn content_schema_of(path: &str) -> Option<&'static str> {
        let _ = path;
        None
    }
}

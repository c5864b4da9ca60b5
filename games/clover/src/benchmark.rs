//! The workloads clover's speed is measured on, shared by `turnstile bench clover` and the
//! criterion benches (`games/clover/benches/scoring.rs`) so both time the same thing
//! (docs/clover.md, Performance).

use turnstile_core::{Game, MatchSetup};

use crate::cards::{Card, Enhancement, Seal, Suit};
use crate::content::Content;
use crate::game::{bot_action, Clover, CloverConfig, CloverContent};
use crate::run;
use crate::state::RunState;

/// Commands a whole bot run may take before it is cut off: a greedy bot that keeps winning
/// would otherwise play endless antes, and a benchmark must end.
pub const BOT_RUN_COMMAND_CAP: u32 = 400;

/// The scoring workload: a run with five jokers (a flat +mult, a face retrigger, a per-heart
/// +mult, a held-king ×mult and a flush ×mult), a five-card heart flush with two red seals and
/// a glass king, and three held cards (a steel king among them), so every scoring step —
/// retriggers, held effects, joker ×mult — runs.
pub fn scoring_workload(content: &Content) -> Result<(RunState, Vec<Card>, Vec<Card>), String> {
    let mut r = RunState::new("bench", 1, "plain").map_err(|e| e.message)?;
    for id in [
        "harlequin",
        "mirror_court",
        "rose_pin",
        "crown_keeper",
        "echo_tide",
    ] {
        r.jokers.push(
            content
                .joker(id)
                .ok_or_else(|| format!("no joker `{id}`"))?,
        );
    }
    run::rebuild(&mut r, content).map_err(|e| e.to_string())?;
    let played = vec![
        Card::new(11, Suit::Hearts).sealed(Seal::Red),
        Card::new(12, Suit::Hearts),
        Card::new(13, Suit::Hearts).with(Enhancement::Glass),
        Card::new(4, Suit::Hearts),
        Card::new(9, Suit::Hearts).sealed(Seal::Red),
    ];
    let held = vec![
        Card::new(13, Suit::Spades).with(Enhancement::Steel),
        Card::new(2, Suit::Clubs),
        Card::new(13, Suit::Clubs),
    ];
    Ok((r, played, held))
}

/// One whole run of the greedy bot from `seed` on the default config, until it is lost, won
/// or [`BOT_RUN_COMMAND_CAP`] commands: the commands it took.
pub fn bot_run(shipped: &CloverContent, seed: &str) -> Result<u32, String> {
    let content = shipped.content();
    let mut state = <Clover as Game>::setup(
        shipped,
        MatchSetup {
            config: &CloverConfig::default(),
            seed,
            seats: 1,
        },
    )
    .map_err(|e| format!("{} ({})", e.message, e.code))?;
    let mut commands = 0;
    while commands < BOT_RUN_COMMAND_CAP {
        let Some(action) = bot_action(content, &state) else {
            break;
        };
        state.apply(content, &action).map_err(|e| e.to_string())?;
        commands += 1;
    }
    Ok(commands)
}

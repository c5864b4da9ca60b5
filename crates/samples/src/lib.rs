//! The sample games — Sokoban, Connect Four, Tic-Tac-Toe, Nim, Pig, Duel and clover — registered the way
//! a server serves them: each with its shipped content, its default config, its bots and its
//! system actions (Timeout and ClockResumed for the timed games, Resign where the game has
//! one). `turnstile serve`, every other command of the binary and the server's tests take their
//! registry from here, so there is one list of what Turnstile ships.
//!
//! Games know nothing of the runtime; this crate is where they meet it. It must never contain
//! rules: a bot here only asks the game's own policy, and every action still goes through the
//! one resolver.

use serde_json::json;
use turnstile_core::{BundleSource, Game, LegalActionResolver, Seat, Tick};
use turnstile_runtime::{Bot, GameRegistry};

use turnstile_clover::{Clover, CloverAction, CloverConfig, CloverContent};
use turnstile_connect4::ConnectFourRules;
use turnstile_duel::{Duel, DuelAction, DuelConfig};
use turnstile_kit::{Action, Kit, KitGame, KitState, MatchConfig, Rules};
use turnstile_lifecycle::LifecycleGame;
use turnstile_mnk::{Mnk, MnkGame, Searchable};
use turnstile_runtime::{ContentSchemas, GameRegistration};
use turnstile_sokoban::{Sokoban, SokobanAction, SokobanConfig, SokobanContent};
use turnstile_tictactoe::TicTacToeRules;

type BotResult<G> = Result<Box<dyn Bot<G>>, Box<dyn std::error::Error + Send + Sync>>;

/// Every sample game, registered.
pub fn registry() -> GameRegistry {
    let mut registry = GameRegistry::new();
    register_sokoban(&mut registry);
    register_connect4(&mut registry);
    register_tictactoe(&mut registry);
    register_duel(&mut registry);
    register_clover(&mut registry);
    register_kit_game::<turnstile_nim::Nim>(&mut registry);
    register_lifecycle_game::<turnstile_pig::Pig>(&mut registry);
    registry
}

/// The Sokoban bundle shipped in `games/sokoban/content/`, embedded in the binary.
pub fn sokoban_source() -> BundleSource {
    let mut source = BundleSource::new();
    source.insert(
        "bundle.json",
        &include_bytes!("../../../games/sokoban/content/bundle.json")[..],
    );
    source.insert(
        "levels/microban.xsb",
        &include_bytes!("../../../games/sokoban/content/levels/microban.xsb")[..],
    );
    source.insert(
        "levels/microban-ii.xsb",
        &include_bytes!("../../../games/sokoban/content/levels/microban-ii.xsb")[..],
    );
    source.insert(
        "levels/hexoban-turnstile.hsb",
        &include_bytes!("../../../games/sokoban/content/levels/hexoban-turnstile.hsb")[..],
    );
    source
}

/// Sokoban, Microban level 1 by default; its listing names the collections and their sizes.
pub fn register_sokoban(registry: &mut GameRegistry) {
    registry
        .register::<Sokoban>()
        .with_content(sokoban_source())
        .with_default_config(SokobanConfig {
            collection: "microban".into(),
            level: 1,
            xsb: None,
            topology: None,
        })
        .with_resign(|_| SokobanAction::Resign)
        .with_config_options(|content: &SokobanContent| {
            json!({ "collections": content.collections.iter()
                .map(|c| json!({ "id": c.id, "levels": c.levels.len() }))
                .collect::<Vec<_>>() })
        });
}

/// Registers a game of the kit (`turnstile-kit`) with everything the kit gives it, in one
/// call: its shipped content, the default config, its turn configs as config options, the
/// system Timeout and ClockResumed, Resign, and (from the runtime) the `random` bot. The
/// registration is returned to add the game's own bots; the game is registered when it drops.
pub fn register_kit_game<G: KitGame>(registry: &mut GameRegistry) -> GameRegistration<'_, Kit<G>> {
    registry
        .register::<Kit<G>>()
        .with_content(G::bundled_source())
        .with_default_config(MatchConfig::default())
        .with_config_options(|rules: &Rules| serde_json::to_value(rules).unwrap_or_default())
        .with_timeout(KitState::turn_index, |turn_index| Action::Timeout {
            turn_index,
        })
        .with_clock_resumed(|last_heartbeat_tick, takeover_tick| Action::ClockResumed {
            last_heartbeat_tick,
            takeover_tick,
        })
        .with_resign(|_| Action::Resign)
        // A kit game's `rules.json` holds its turn configs, in the engine's own schema.
        .with_content_schemas(ContentSchemas::new(Vec::new, |path| {
            (path == "rules.json").then_some("turn-rules")
        }))
}

/// Registers a game on the match lifecycle (`turnstile_lifecycle::LifecycleGame`) in one call:
/// its shipped content, default config and listing, the system Timeout and ClockResumed,
/// Resign, and (from the runtime) the `random` bot. The registration is returned to add the
/// game's own bots.
pub fn register_lifecycle_game<G: LifecycleGame>(
    registry: &mut GameRegistry,
) -> GameRegistration<'_, G> {
    registry
        .register::<G>()
        .with_content(G::bundled_source())
        .with_default_config(G::default_config())
        .with_config_options(G::config_options)
        .with_timeout(G::turn_index, G::timeout)
        .with_clock_resumed(G::clock_resumed)
        .with_resign(G::resign)
        .with_content_schemas(ContentSchemas::new(
            G::content_schemas,
            G::content_schema_of,
        ))
}

/// The strong bot of an m,n,k-game (`turnstile_mnk::StrongBot`'s policy) seated as a runtime
/// [`Bot`].
pub struct MnkStrongBot<V: Searchable>(pub turnstile_mnk::StrongBot<V>);

impl<V: Searchable> Bot<MnkGame<V>> for MnkStrongBot<V> {
    fn name(&self) -> &'static str {
        "strong"
    }

    fn choose(
        &mut self,
        resolver: &LegalActionResolver<'_, MnkGame<V>>,
        state: &<MnkGame<V> as Game>::State,
        seat: Seat,
        tick: Tick,
    ) -> Option<<MnkGame<V> as Game>::Action> {
        self.0.choose(resolver, state, seat, tick)
    }
}

/// An m,n,k-game on the kit with its strong bot.
pub fn register_mnk<V: Searchable>(registry: &mut GameRegistry) {
    register_kit_game::<Mnk<V>>(registry).with_bot(
        "strong",
        |seed, seat| -> BotResult<MnkGame<V>> {
            Ok(Box::new(MnkStrongBot(turnstile_mnk::StrongBot::<V>::new(
                seed, seat,
            )?)))
        },
    );
}

/// Connect Four with its strong bot, server timers and ClockResumed.
pub fn register_connect4(registry: &mut GameRegistry) {
    register_mnk::<ConnectFourRules>(registry);
}

/// Tic-Tac-Toe with its perfect bot, server timers and ClockResumed.
pub fn register_tictactoe(registry: &mut GameRegistry) {
    register_mnk::<TicTacToeRules>(registry);
}

/// Duel's greedy bot, registered as `strong`: it scores each candidate by its preview.
pub struct StrongDuelBot;

impl Bot<Duel> for StrongDuelBot {
    fn name(&self) -> &'static str {
        "strong"
    }

    fn choose(
        &mut self,
        resolver: &LegalActionResolver<'_, Duel>,
        state: &<Duel as Game>::State,
        seat: Seat,
        tick: Tick,
    ) -> Option<DuelAction> {
        turnstile_duel::bot::choose_greedy(resolver, state, seat, tick)
    }
}

/// Duel under the content's first preset unless the config names another, with its bot, its
/// clocks' server timers and ClockResumed; 2 to 4 seats. Its listing names the presets, the
/// clocks and the seat range.
pub fn register_duel(registry: &mut GameRegistry) {
    registry
        .register::<Duel>()
        .with_content(turnstile_duel::content::bundled_source())
        .with_default_config(DuelConfig::default())
        .with_config_options(|content: &turnstile_duel::DuelContent| {
            json!({
                "phaseSequences": content.phases.catalog.sequences()
                    .map(|s| s.sequence_id().to_owned()).collect::<Vec<_>>(),
                "clocks": content.rules.lifecycle.clock_ids(),
                "defaultClock": content.rules.lifecycle.default_clock.as_str(),
                "seats": { "min": 2, "max": 4 },
            })
        })
        .with_bot("strong", |_seed, _seat| -> BotResult<Duel> {
            Ok(Box::new(StrongDuelBot))
        })
        .with_timeout(turnstile_duel::DuelState::turn_index, |turn_index| {
            DuelAction::Timeout { turn_index }
        })
        .with_clock_resumed(
            |last_heartbeat_tick, takeover_tick| DuelAction::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            },
        )
        .with_resign(|_| DuelAction::Resign)
        .with_content_schemas(ContentSchemas::new(
            || turnstile_sheets::named_schemas(turnstile_duel::SCHEMAS),
            turnstile_duel::content_schema_of,
        ));
}

/// clover's greedy run player, registered as `greedy`: the game's own policy
/// ([`turnstile_clover::bot_action`]), checked by the resolver like any command.
pub struct GreedyCloverBot;

impl Bot<Clover> for GreedyCloverBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(
        &mut self,
        resolver: &LegalActionResolver<'_, Clover>,
        state: &<Clover as Game>::State,
        _seat: Seat,
        _tick: Tick,
    ) -> Option<CloverAction> {
        turnstile_clover::bot_action(resolver.content().content(), state)
    }
}

/// clover with its shipped content and its greedy bot.
pub fn register_clover(registry: &mut GameRegistry) {
    registry
        .register::<Clover>()
        .with_content(CloverContent::shipped_source())
        .with_default_config(CloverConfig::default())
        .with_resign(|_| CloverAction::Resign)
        .with_bot("greedy", |_seed, _seat| -> BotResult<Clover> {
            Ok(Box::new(GreedyCloverBot))
        })
        .with_content_schemas(ContentSchemas::new(
            || turnstile_sheets::named_schemas(turnstile_clover::SCHEMAS),
            turnstile_clover::content_schema_of,
        ));
}

/// Sokoban's hint for a seat's view (what `POST /api/v1/matches/{id}/hint` answers): the
/// position in the view becomes a level of its own and the solver's [`hint`] searches it
/// with at most `node_budget` nodes. Cells are `[x, y]` as in the view.
///
/// `{"kind": "push", "boxFrom", "boxTo", "moves", "pushesLeft"}` (`moves`: the walk and the
/// push, in the board's letters), `{"kind": "already_solved"}`, `{"kind": "unsolvable",
/// "deadlock"}` (the level can't be solved from here: undo) or `{"kind":
/// "no_solution_found", "reason"}` (the budget ran out; the level may still be solvable).
/// Refused with `bad_view` when the view is not a Sokoban board.
///
/// [`hint`]: turnstile_sokoban::solver::hint
pub fn sokoban_hint(
    view: &serde_json::Value,
    node_budget: u64,
) -> Result<serde_json::Value, (&'static str, String)> {
    use turnstile_sokoban::solver::{hint, start_position, DeadlockKind, Hint};
    use turnstile_sokoban::{Level, SokobanView};
    let bad = |m: String| ("bad_view", m);
    let view: SokobanView = serde_json::from_value(view.clone())
        .map_err(|e| bad(format!("not a Sokoban view: {e}")))?;
    let topology = view.topology.unwrap_or_default();
    let level = Level::from_rows_in(topology, None, &view.rows, "view").map_err(|errors| {
        let first = errors.first().map(ToString::to_string).unwrap_or_default();
        bad(format!("the view's board is not a level: {first}"))
    })?;
    let xy = |c: turnstile_sokoban::Cell| {
        let (x, y) = level.xy(c);
        json!([x, y])
    };
    let deadlock = |d: Option<DeadlockKind>| match d {
        None => json!(null),
        Some(DeadlockKind::DeadSquare { cell }) => json!({"kind": "dead_square", "cell": xy(cell)}),
        Some(DeadlockKind::Freeze { cell }) => json!({"kind": "freeze", "cell": xy(cell)}),
        Some(DeadlockKind::Bipartite) => json!({"kind": "bipartite"}),
    };
    let found = hint(&level, &start_position(&level), node_budget)
        .map_err(|e| bad(format!("the view's position: {}", e.code())))?;
    Ok(match found {
        Hint::AlreadySolved => json!({"kind": "already_solved"}),
        Hint::Push {
            box_from,
            box_to,
            moves,
            pushes_left,
        } => json!({
            "kind": "push", "boxFrom": xy(box_from), "boxTo": xy(box_to),
            "moves": moves, "pushesLeft": pushes_left,
        }),
        Hint::Unsolvable { deadlock: d } => json!({"kind": "unsolvable", "deadlock": deadlock(d)}),
        Hint::NoSolutionFound { reason } => {
            json!({"kind": "no_solution_found", "reason": reason.code()})
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_game_is_registered_with_valid_content() {
        let registry = registry();
        assert_eq!(
            registry.ids(),
            [
                "clover",
                "connect4",
                "duel",
                "nim",
                "pig",
                "sokoban",
                "tictactoe"
            ]
        );
        for id in registry.ids() {
            let game = registry.get(id).unwrap();
            let content = game.builtin_content().expect("ships content");
            assert!(content.is_ok(), "{id}: its shipped content loads");
        }
    }

    #[test]
    fn the_timed_games_have_timeouts_and_clock_resumed() {
        let registry = registry();
        for id in ["connect4", "duel", "nim", "pig", "tictactoe"] {
            let d = registry.get(id).unwrap().describe();
            assert!(d.timeouts && d.clock_resumed, "{id}");
        }
        for id in registry.ids() {
            // `POST /resign` submits the game's own resign action: the server decides none.
            assert!(
                registry.get(id).unwrap().describe().resign,
                "{id} can resign"
            );
        }
        assert!(!registry.get("sokoban").unwrap().describe().timeouts);
    }
}

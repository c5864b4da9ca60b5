//! The registry of games a build serves: how code that does not know a game's types (the
//! command line, the server) reaches its content loader and replay verifier by id.
//!
//! A team's own game joins by `registry.register::<MyGame>()`; nothing else in the engine
//! changes. The registration can add what a server needs beyond the rules — bots by name, the
//! game's system actions, a default config:
//!
//! ```ignore
//! registry
//!     .register::<ConnectFour>()
//!     .with_content(turnstile_connect4::bundled_source())
//!     .with_bot("strong", |seed, seat| Ok(Box::new(StrongBot::new(seed, seat)?)))
//!     .with_timeout(|state| state.turn_index(), |turn_index| ConnectFourAction::Timeout { turn_index })
//!     .with_resign(|_seat| ConnectFourAction::Resign);
//! ```
//!
//! Every game gets the runtime's `random` bot ([`RandomBot`](crate::RandomBot)) for free.

use crate::bots::Bot;
use crate::erased::{
    compile, load_stored, CompiledBundle, ErasedBundle, ErasedError, ErasedMatch, ErasedSpec,
    GameDescription, GameHooks, TypedMatch,
};
use crate::replay::{
    verify, ReplayEntry, ReplayError, ReplayFile, ReplayText, Verifier, VerifyReport,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use turnstile_core::content::MANIFEST_FILE;
use turnstile_core::{
    BundleSource, ContentBundle, ContentProblem, Fingerprint, Game, Location, Seat, Tick,
};

/// A game seen through its id, without its types.
pub trait RegisteredGame: Send + Sync {
    /// The game id.
    fn id(&self) -> &'static str;
    /// Loads and validates a bundle, returning its revision or every problem.
    fn validate_content(&self, source: &BundleSource) -> Result<Fingerprint, Vec<ContentProblem>>;
    /// Re-executes a replay of this game.
    fn verify_replay(&self, file: &ReplayFile) -> Result<VerifyReport, ReplayError>;
    /// Re-executes a replay of this game read as text ([`Verifier::verify_text`]).
    fn verify_replay_text(&self, replay: &ReplayText<'_>) -> Result<VerifyReport, ReplayError>;

    /// What the game offers: bots, system actions, its default config and config schema.
    fn describe(&self) -> GameDescription;
    /// The content bundle the game ships with, compiled, if it was registered with one.
    fn builtin_content(&self) -> Option<Result<CompiledBundle, Vec<ContentProblem>>>;
    /// The files of the content bundle the game ships with, if it was registered with one.
    fn builtin_source(&self) -> Option<&BundleSource>;
    /// The JSON Schemas of the game's content files, if it was registered with them.
    fn content_schemas(&self) -> Option<&ContentSchemas>;
    /// Loads and validates source files into a bundle and its stored form.
    fn compile_content(&self, source: &BundleSource)
        -> Result<CompiledBundle, Vec<ContentProblem>>;
    /// Loads a stored bundle (`{"content", "game"}`), checking its revision when given.
    fn load_bundle(
        &self,
        stored: &Value,
        revision: Option<&Fingerprint>,
    ) -> Result<ErasedBundle, ErasedError>;
    /// The seat counts a config allows over a bundle (inclusive), or why the config is invalid.
    fn seat_range(&self, bundle: &ErasedBundle, config: &Value) -> Result<(u16, u16), ErasedError>;
    /// The config options a bundle offers (collections and levels, turn configs), as JSON.
    fn config_options(&self, bundle: &ErasedBundle) -> Value;
    /// Creates a match at sequence 0.
    fn new_match(
        &self,
        bundle: &ErasedBundle,
        spec: ErasedSpec,
    ) -> Result<Box<dyn ErasedMatch>, ErasedError>;
    /// Restores a match from a snapshot, the log up to it (`earlier`, answering repeats) and the
    /// log after it (`later`, re-executed and checked).
    fn restore_match(
        &self,
        bundle: &ErasedBundle,
        spec: ErasedSpec,
        snapshot: &Value,
        earlier: &[ReplayEntry],
        later: &[ReplayEntry],
    ) -> Result<Box<dyn ErasedMatch>, ErasedError>;
}

struct Registered<G: Game> {
    hooks: Arc<GameHooks<G>>,
    builtin: Option<BundleSource>,
    schemas: Option<ContentSchemas>,
}

/// The JSON Schemas a game publishes for its content files, and which one each file follows.
///
/// `turnstile content schema` writes every registered game's documents into `docs/schemas/`,
/// and its staleness test walks every game's content folder through [`ContentSchemas::file`],
/// so a game brings its schemas with its registration and no shared list names it.
pub struct ContentSchemas {
    documents: SchemaDocuments,
    file: fn(&str) -> Option<&'static str>,
}

/// `() → [(name, schema)]`: a game's schema documents, generated on demand.
type SchemaDocuments = Box<dyn Fn() -> Vec<(String, Value)> + Send + Sync>;

impl ContentSchemas {
    /// `documents()` lists the game's schema documents as `(name, schema)`, the name being the
    /// file stem under `docs/schemas/` (unique across games); `file(path)` names the schema a
    /// content file follows, by its path under the bundle's root (`phases/main.json`), or
    /// `None` for a file that has none of its own (a level file; a `bundle.json` that is a plain
    /// manifest).
    pub fn new<D>(documents: D, file: fn(&str) -> Option<&'static str>) -> Self
    where
        D: Fn() -> Vec<(String, Value)> + Send + Sync + 'static,
    {
        ContentSchemas {
            documents: Box::new(documents),
            file,
        }
    }

    /// The game's schema documents, `(name, schema)`, in the game's order.
    pub fn documents(&self) -> Vec<(String, Value)> {
        (self.documents)()
    }

    /// The schema a content file follows, by its path under the bundle's root.
    pub fn file(&self, path: &str) -> Option<&'static str> {
        (self.file)(path)
    }
}

impl<G: Game> RegisteredGame for Registered<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn describe(&self) -> GameDescription {
        let hooks = &self.hooks;
        GameDescription {
            id: G::ID,
            hidden_information: G::HIDDEN_INFORMATION,
            bots: hooks.bots.keys().cloned().collect(),
            timeouts: hooks.timeout.is_some(),
            clock_resumed: hooks.clock_resumed.is_some(),
            resign: hooks.resign.is_some(),
            default_config: hooks
                .default_config
                .as_ref()
                .and_then(|c| crate::replay::canonical_value(c).ok()),
            config_schema: hooks.config_schema.clone(),
        }
    }

    fn builtin_content(&self) -> Option<Result<CompiledBundle, Vec<ContentProblem>>> {
        self.builtin.as_ref().map(compile::<G>)
    }

    fn builtin_source(&self) -> Option<&BundleSource> {
        self.builtin.as_ref()
    }

    fn content_schemas(&self) -> Option<&ContentSchemas> {
        self.schemas.as_ref()
    }

    fn compile_content(
        &self,
        source: &BundleSource,
    ) -> Result<CompiledBundle, Vec<ContentProblem>> {
        compile::<G>(source)
    }

    fn load_bundle(
        &self,
        stored: &Value,
        revision: Option<&Fingerprint>,
    ) -> Result<ErasedBundle, ErasedError> {
        load_stored::<G>(stored, revision)
    }

    fn seat_range(&self, bundle: &ErasedBundle, config: &Value) -> Result<(u16, u16), ErasedError> {
        let typed = bundle.typed::<G>()?;
        let config = <G::Config as serde::Deserialize>::deserialize(config)
            .map_err(|e| ErasedError::InvalidConfig(e.to_string()))?;
        Ok(G::seat_range(&typed.content, &config))
    }

    fn config_options(&self, bundle: &ErasedBundle) -> Value {
        match (&self.hooks.config_options, bundle.typed::<G>()) {
            (Some(hook), Ok(typed)) => hook(&typed.content),
            _ => Value::Null,
        }
    }

    fn new_match(
        &self,
        bundle: &ErasedBundle,
        spec: ErasedSpec,
    ) -> Result<Box<dyn ErasedMatch>, ErasedError> {
        Ok(Box::new(TypedMatch::<G>::create(
            self.hooks.clone(),
            bundle,
            spec,
        )?))
    }

    fn restore_match(
        &self,
        bundle: &ErasedBundle,
        spec: ErasedSpec,
        snapshot: &Value,
        earlier: &[ReplayEntry],
        later: &[ReplayEntry],
    ) -> Result<Box<dyn ErasedMatch>, ErasedError> {
        Ok(Box::new(TypedMatch::<G>::restore(
            self.hooks.clone(),
            bundle,
            spec,
            snapshot,
            earlier,
            later,
        )?))
    }

    fn validate_content(&self, source: &BundleSource) -> Result<Fingerprint, Vec<ContentProblem>> {
        let content = G::load_content(source)?;
        ContentBundle::new(G::ID, content)
            .map(|b| b.revision)
            .map_err(|p| vec![p])
    }

    fn verify_replay(&self, file: &ReplayFile) -> Result<VerifyReport, ReplayError> {
        verify::<G>(file)
    }

    fn verify_replay_text(&self, replay: &ReplayText<'_>) -> Result<VerifyReport, ReplayError> {
        Verifier::<G>::new().verify_text(replay)
    }
}

/// The games this build knows, by id.
#[derive(Default)]
pub struct GameRegistry {
    games: BTreeMap<&'static str, Box<dyn RegisteredGame>>,
}

impl GameRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds game `G` (replacing a game registered under the same id). The returned
    /// [`GameRegistration`] adds bots, system actions and content; the game is in the registry
    /// once it is dropped, at the end of the statement.
    pub fn register<G: Game>(&mut self) -> GameRegistration<'_, G> {
        GameRegistration {
            registry: self,
            hooks: Some(GameHooks::default()),
            builtin: None,
            schemas: None,
        }
    }

    /// A game by id.
    pub fn get(&self, id: &str) -> Option<&dyn RegisteredGame> {
        self.games.get(id).map(|g| g.as_ref())
    }

    /// The registered ids, sorted.
    pub fn ids(&self) -> Vec<&'static str> {
        self.games.keys().copied().collect()
    }

    /// Validates a bundle of whichever game its manifest names.
    pub fn validate_content(
        &self,
        source: &BundleSource,
    ) -> Result<(&'static str, Fingerprint), Vec<ContentProblem>> {
        #[derive(serde::Deserialize)]
        struct GameField {
            game: String,
        }
        let header: GameField = source.json(MANIFEST_FILE).map_err(|p| vec![p])?;
        let game = self.get(&header.game).ok_or_else(|| {
            vec![ContentProblem::new(
                MANIFEST_FILE,
                Location::Pointer {
                    pointer: "/game".into(),
                },
                "unknown_game",
                format!(
                    "unknown game {:?}; this build knows {}",
                    header.game,
                    self.ids().join(", ")
                ),
            )]
        })?;
        game.validate_content(source).map(|rev| (game.id(), rev))
    }

    /// Verifies a replay of whichever game it names.
    pub fn verify_replay(&self, file: &ReplayFile) -> Result<VerifyReport, ReplayError> {
        self.get(&file.game)
            .ok_or_else(|| ReplayError::UnknownGame(file.game.clone(), self.ids().join(", ")))?
            .verify_replay(file)
    }

    /// [`GameRegistry::verify_replay`] for a file read as text: the same reports and errors,
    /// without a JSON tree of every entry.
    pub fn verify_replay_text(&self, replay: &ReplayText<'_>) -> Result<VerifyReport, ReplayError> {
        let game = &replay.header().game;
        self.get(game)
            .ok_or_else(|| ReplayError::UnknownGame(game.clone(), self.ids().join(", ")))?
            .verify_replay_text(replay)
    }
}

/// A game being registered: add its bots, system actions and content, then let it drop.
///
/// The game enters the registry when this value is dropped, so `registry.register::<G>();`
/// alone registers it, and a chain of `with_*` calls registers it at the end of the statement.
pub struct GameRegistration<'r, G: Game> {
    registry: &'r mut GameRegistry,
    hooks: Option<GameHooks<G>>,
    builtin: Option<BundleSource>,
    schemas: Option<ContentSchemas>,
}

impl<G: Game> GameRegistration<'_, G> {
    fn hooks(&mut self) -> &mut GameHooks<G> {
        self.hooks.get_or_insert_with(GameHooks::default)
    }

    /// Adds a bot by name (`strong`); `make(match seed, seat)` builds one for a seat. The
    /// runtime's `random` bot is registered already; registering `random` replaces it.
    pub fn with_bot<F>(mut self, name: &str, make: F) -> Self
    where
        F: Fn(&str, Seat) -> Result<Box<dyn Bot<G>>, Box<dyn std::error::Error + Send + Sync>>
            + Send
            + Sync
            + 'static,
    {
        self.hooks().bots.insert(name.into(), Arc::new(make));
        self
    }

    /// The game's system Timeout: `turn_index(state)` names the current turn and
    /// `action(turn_index)` builds the action a server submits (command id
    /// `timeout:<turn index>`, no seat) when the clock reaches [`Game::deadline_tick`].
    pub fn with_timeout<I, A>(mut self, turn_index: I, action: A) -> Self
    where
        I: Fn(&G::State) -> u64 + Send + Sync + 'static,
        A: Fn(u64) -> G::Action + Send + Sync + 'static,
    {
        self.hooks().timeout = Some((Arc::new(turn_index), Arc::new(action)));
        self
    }

    /// The game's system ClockResumed: `action(last heartbeat tick, takeover tick)`, recorded by
    /// a node that takes the match over after its lease expired.
    pub fn with_clock_resumed<A>(mut self, action: A) -> Self
    where
        A: Fn(Tick, Tick) -> G::Action + Send + Sync + 'static,
    {
        self.hooks().clock_resumed = Some(Arc::new(action));
        self
    }

    /// The game's own Resign action for a seat.
    pub fn with_resign<A>(mut self, action: A) -> Self
    where
        A: Fn(Seat) -> G::Action + Send + Sync + 'static,
    {
        self.hooks().resign = Some(Arc::new(action));
        self
    }

    /// The config used when a request names none, and shown as an example.
    pub fn with_default_config(mut self, config: G::Config) -> Self {
        self.hooks().default_config = Some(config);
        self
    }

    /// A JSON Schema of the game's config, for listings.
    pub fn with_config_schema(mut self, schema: Value) -> Self {
        self.hooks().config_schema = Some(schema);
        self
    }

    /// Describes the config options a content bundle offers (its collections and levels, its
    /// turn configs), for listings.
    pub fn with_config_options<F>(mut self, options: F) -> Self
    where
        F: Fn(&G::Content) -> Value + Send + Sync + 'static,
    {
        self.hooks().config_options = Some(Arc::new(options));
        self
    }

    /// The content bundle the game ships with (its files), published by a server at start.
    pub fn with_content(mut self, source: BundleSource) -> Self {
        self.builtin = Some(source);
        self
    }

    /// The JSON Schemas of the game's content files (see [`ContentSchemas`]).
    pub fn with_content_schemas(mut self, schemas: ContentSchemas) -> Self {
        self.schemas = Some(schemas);
        self
    }
}

impl<G: Game> Drop for GameRegistration<'_, G> {
    fn drop(&mut self) {
        let hooks = self.hooks.take().unwrap_or_default();
        self.registry.games.insert(
            G::ID,
            Box::new(Registered::<G> {
                hooks: Arc::new(hooks),
                builtin: self.builtin.take(),
                schemas: self.schemas.take(),
            }),
        );
    }
}

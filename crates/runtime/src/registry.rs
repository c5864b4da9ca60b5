//! The registry of games a build serves: how code that does not know a game's types (the
//! command line, the server) reaches its content loader and replay verifier by id.
//!
//! A team's own game joins by `registry.register::<MyGame>()`; nothing else in the engine
//! changes.

use crate::replay::{verify, ReplayError, ReplayFile, VerifyReport};
use std::collections::BTreeMap;
use std::marker::PhantomData;
use turnstile_core::content::MANIFEST_FILE;
use turnstile_core::{BundleSource, ContentBundle, ContentProblem, Fingerprint, Game, Location};

/// A game seen through its id, without its types.
pub trait RegisteredGame: Send + Sync {
    /// The game id.
    fn id(&self) -> &'static str;
    /// Loads and validates a bundle, returning its revision or every problem.
    fn validate_content(&self, source: &BundleSource) -> Result<Fingerprint, Vec<ContentProblem>>;
    /// Re-executes a replay of this game.
    fn verify_replay(&self, file: &ReplayFile) -> Result<VerifyReport, ReplayError>;
}

struct Registered<G>(PhantomData<fn() -> G>);

impl<G: Game> RegisteredGame for Registered<G> {
    fn id(&self) -> &'static str {
        G::ID
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

    /// Adds game `G` (replacing a game registered under the same id).
    pub fn register<G: Game>(&mut self) -> &mut Self {
        self.games
            .insert(G::ID, Box::new(Registered::<G>(PhantomData)));
        self
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
}

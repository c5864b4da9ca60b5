//! Turnstile's authoritative server, as a library: the HTTP API of `spec/api.md` over any
//! registered game, live streams, per-seat credentials, deadline timers, bot seats, and one
//! [`Store`] (SQLite for one node, PostgreSQL for several).
//!
//! A binary builds a [`GameRegistry`] — the sample games, or a team's own game beside them —
//! opens a store, and runs a [`Server`]:
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use turnstile_runtime::GameRegistry;
//! use turnstile_server::{Server, ServerConfig};
//!
//! let mut registry = GameRegistry::new();
//! // registry.register::<MyGame>().with_content(my_bundle_source());
//! let store = turnstile_store::open("./turnstile.db").await?;
//! let server = Server::start(registry, store, ServerConfig::default()).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! server.serve(listener, async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```
//!
//! How a command flows is in `hub` (its `cache`, `commands` and `leases`); what runs without a
//! request (timers, bots, leases, other nodes' commits) in `driver`; the live stream in `stream`.
//!
//! **What the server must never do**: answer a command before its receipt is committed to the
//! store; apply a command twice (command ids are idempotency keys, in memory and in the
//! store); show a seat another seat's hidden information (every receipt, view, preview,
//! timeline, resolution, stream and replay is redacted for the caller; seeds and full replays
//! only after the match ends); keep a token (only SHA-256 hashes are stored); put a stack
//! trace, a path or a database message in a response; panic on anything a client sends; judge
//! legality anywhere but the game's `LegalActionResolver`; read the clock inside rules (ticks
//! are stamped at the edge).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub(crate) mod api;
mod api_http;
pub mod auth;
mod catalogue;
pub mod clock;
pub mod config;
mod connections;
pub(crate) mod driver;
pub mod dto;
pub mod edge;
pub mod error;
pub mod extract;
pub(crate) mod fair_start;
pub(crate) mod hint;
pub(crate) mod hub;
pub mod limits;
pub mod metrics;
pub mod openapi;
pub(crate) mod stream;
mod streams;
pub mod web;

pub use config::ServerConfig;
pub use edge::{Clock, Entropy, OsEntropy, SystemClock};
pub use error::{ApiError, ErrorBody, ErrorKind};
pub use hint::{HintHook, HintRefusal, Hints};
pub use limits::Rate;

use crate::api::AppState;
use crate::error::ApiResult;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::future::Future;
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use turnstile_core::BundleSource;
use turnstile_runtime::GameRegistry;
use turnstile_store::Store;

/// Publishes a content bundle straight into a store, without a running server (what
/// `turnstile content publish DIR --database ...` does): validated by the game, stored under its
/// revision, and made the game's current revision when `make_current`. Running matches keep the
/// revision they pinned.
pub async fn publish(
    registry: &GameRegistry,
    store: &dyn Store,
    game: &str,
    source: &BundleSource,
    make_current: bool,
    now_ms: i64,
) -> ApiResult<dto::PublishResponse> {
    api::publish_bundle(registry, store, game, source, make_current, now_ms).await
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// A game's shipped content does not load.
    #[error("the built-in content of {game} is invalid: {problems}")]
    BuiltinContent {
        /// The game.
        game: String,
        /// The problems, one per line.
        problems: String,
    },
    /// The store refused something at start.
    #[error("storage: {0}")]
    Store(#[from] turnstile_store::StoreError),
    /// A server setting is unusable (named in the message, with why).
    #[error("server setting: {0}")]
    Config(String),
    /// A registered game has no resign action: `POST /resign` must end every match with a
    /// receipt the replay re-derives, so the server decides no resignation itself.
    #[error("game {game} registers no resign action (GameRegistration::with_resign); every game served must have one")]
    NoResignAction {
        /// The game.
        game: String,
    },
}

impl StartError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            StartError::BuiltinContent { .. } => "invalid_builtin_content",
            StartError::Store(e) if e.is_unavailable() => "store_unavailable",
            StartError::Store(_) => "store_failure",
            StartError::Config(_) => "invalid_server_setting",
            StartError::NoResignAction { .. } => "no_resign_action",
        }
    }
}

/// A running server node: its hub and background tasks.
#[derive(Clone)]
pub struct Server {
    hub: Arc<hub::Hub>,
}

impl Server {
    /// Starts a node with the system clock and the operating system's randomness.
    pub async fn start(
        registry: GameRegistry,
        store: Arc<dyn Store>,
        config: ServerConfig,
    ) -> Result<Server, StartError> {
        Self::start_with(
            registry,
            store,
            config,
            Arc::new(SystemClock::new()),
            Arc::new(OsEntropy),
        )
        .await
    }

    /// Starts a node with the given edges: publishes each game's built-in content (and makes
    /// it current where a game has none yet), resumes the store's active matches (leases,
    /// timers, bots), and starts the background tasks.
    pub async fn start_with(
        registry: GameRegistry,
        store: Arc<dyn Store>,
        config: ServerConfig,
        clock: Arc<dyn Clock>,
        entropy: Arc<dyn Entropy>,
    ) -> Result<Server, StartError> {
        config.validate().map_err(StartError::Config)?;
        let node_id = match &config.node_id {
            Some(id) => id.clone(),
            None if store.backend() == "sqlite" => "local".to_owned(),
            None => format!(
                "node-{}",
                edge::random_hex(entropy.as_ref(), 8).map_err(StartError::Config)?
            ),
        };
        for id in registry.ids() {
            let Some(game) = registry.get(id) else {
                continue;
            };
            if !game.describe().resign {
                return Err(StartError::NoResignAction {
                    game: id.to_owned(),
                });
            }
            let Some(compiled) = game.builtin_content() else {
                continue;
            };
            let compiled = compiled.map_err(|problems| StartError::BuiltinContent {
                game: id.to_owned(),
                problems: problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n"),
            })?;
            let revision = compiled.bundle.revision().to_string();
            store
                .put_content(&turnstile_store::ContentRecord {
                    game: id.to_owned(),
                    revision: revision.clone(),
                    bundle: compiled.json,
                    created_at_ms: clock.wall_ms(),
                })
                .await?;
            // New matches pin the current revision. An older release's current revision that
            // this build cannot load (Duel's format-1 presets) would strand every new match of
            // the game, so it gives way to the built-in content; one that loads stays current
            // (an operator may have published it on purpose).
            let keep = match store.current_revision(id).await? {
                None => false,
                Some(current) if current == revision => true,
                Some(current) => match store.get_content(id, &current).await? {
                    Some(stored) => game
                        .load_bundle(&stored.bundle, current.parse().ok().as_ref())
                        .is_ok(),
                    None => false,
                },
            };
            if !keep {
                store.set_current_revision(id, &revision).await?;
            }
        }
        let hub = Arc::new(hub::Hub::new(
            Arc::new(registry),
            store,
            clock,
            entropy,
            config,
            node_id,
        ));
        // Listen at once: active matches are resumed (leases, timers, bots) in the background,
        // and any match a request names first is loaded on that request.
        let resuming = hub.clone();
        tokio::spawn(async move { driver::resume_active(&resuming).await });
        driver::spawn_background(&hub);
        Ok(Server { hub })
    }

    /// This node's id in leases.
    pub fn node_id(&self) -> &str {
        &self.hub.node_id
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.hub.store
    }

    /// Publishes a content bundle from its files, as `POST /api/v1/content/{game}` does.
    pub async fn publish(
        &self,
        game: &str,
        source: &BundleSource,
        make_current: bool,
    ) -> ApiResult<dto::PublishResponse> {
        publish(
            &self.hub.registry,
            self.hub.store.as_ref(),
            game,
            source,
            make_current,
            self.hub.wall_ms(),
        )
        .await
    }

    /// The HTTP routes.
    pub fn router(&self) -> Router {
        let hub = self.hub.clone();
        let config = &hub.config;
        let mut router = Router::new()
            .route("/api/v1/games", get(api::list_games))
            .route(
                "/api/v1/matches",
                post(api::create_match).get(api::list_open_matches),
            )
            .route("/api/v1/matches/search", post(api::search_matches))
            .route("/api/v1/matches/{match_id}", get(api::get_match))
            .route(
                "/api/v1/matches/{match_id}/commands",
                post(api::submit_command),
            )
            .route(
                "/api/v1/matches/{match_id}/legal-actions",
                get(api::legal_actions),
            )
            .route("/api/v1/matches/{match_id}/preview", post(api::preview))
            .route("/api/v1/matches/{match_id}/timeline", get(api::timeline))
            .route(
                "/api/v1/matches/{match_id}/resolutions/{command_id}",
                get(api::resolution),
            )
            .route("/api/v1/matches/{match_id}/events", get(stream::events))
            .route("/api/v1/matches/{match_id}/resign", post(api::resign))
            .route("/api/v1/matches/{match_id}/replay", get(api::replay))
            .route("/api/v1/matches/{match_id}/state", get(api::full_state))
            .route("/api/v1/matches/{match_id}/ready", post(api::ready))
            .route("/api/v1/matches/{match_id}/join", post(api::join_match))
            .route("/api/v1/matches/{match_id}/hint", post(hint::hint))
            .route(
                "/api/v1/content/{game}",
                post(api::publish_content).layer(DefaultBodyLimit::max(config.max_content_bytes)),
            )
            .route("/api/v1/content/{game}/{revision}", get(api::get_content))
            .route("/openapi.json", get(openapi_json))
            .route("/healthz", get(api::healthz))
            .route("/metrics", get(api::metrics))
            .fallback(fallback)
            .method_not_allowed_fallback(method_not_allowed)
            .layer(DefaultBodyLimit::max(config.max_body_bytes))
            .layer(axum::middleware::from_fn_with_state(
                hub.clone(),
                count_status,
            ))
            .layer(CatchPanicLayer::custom(panicked));
        if !config.cors_origins.is_empty() {
            let origins: Vec<HeaderValue> = config
                .cors_origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o).ok())
                .collect();
            router = router.layer(
                CorsLayer::new()
                    .allow_origin(AllowOrigin::list(origins))
                    .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
                    .allow_headers([
                        axum::http::header::AUTHORIZATION,
                        axum::http::header::CONTENT_TYPE,
                        axum::http::HeaderName::from_static("last-event-id"),
                    ])
                    .expose_headers([axum::http::HeaderName::from_static("turnstile-repeat")]),
            );
        }
        router.with_state(hub)
    }

    /// Serves HTTP on `listener` until `shutdown` completes, then stops the node: live
    /// streams end, timers and bots stop, leases are released so the next start (or another
    /// node) takes over at once.
    pub async fn serve<F>(
        self,
        listener: tokio::net::TcpListener,
        shutdown: F,
    ) -> std::io::Result<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let hub = self.hub.clone();
        let stop = async move {
            shutdown.await;
            // Live streams and background work end first, so connections can drain.
            let _ = hub.shutdown.send(true);
        };
        let result = connections::serve(listener, self.router(), &self.hub.config, stop).await;
        self.stop().await;
        result
    }

    /// Stops the node's background work and releases its leases.
    pub async fn stop(&self) {
        let _ = self.hub.shutdown.send(true);
        self.hub.release_all().await;
    }
}

async fn openapi_json() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        openapi::document(),
    )
        .into_response()
}

async fn fallback(method: Method, uri: Uri) -> Response {
    if method == Method::GET || method == Method::HEAD {
        if let Some(file) = web::file(&uri) {
            return file;
        }
    }
    ApiError::not_found("not_found", "no such route").into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::new(
        ErrorKind::MethodNotAllowed,
        "method_not_allowed",
        "this route does not take this method",
    )
    .into_response()
}

async fn count_status(State(hub): State<AppState>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    hub.metrics.status(response.status().as_u16());
    response
}

fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a handler panicked");
    ApiError::internal("answer this request").into_response()
}

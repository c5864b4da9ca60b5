//! `POST /api/v1/matches/{matchId}/hint`: a seat asks a game's helper for its next step.
//!
//! The server knows no game, so a game that offers hints registers a [`HintHook`] in
//! [`ServerConfig::hints`](crate::ServerConfig) (the binary does so for Sokoban): a pure
//! function of the seat's own view and a node budget. The route
//!
//! * authenticates the seat token (a spectator gets 403 `spectator`),
//! * allows one search per token at a time (a second one while the first runs gets
//!   409 `hint_in_progress`) and a few per second ([`Hints::rate`], then 429 `rate_limited`),
//! * takes the view under the match's lock, releases the lock, and runs the search on the
//!   blocking pool (`spawn_blocking`), so neither the executor nor the match waits for it,
//! * never submits anything: a hint is no command and leaves no receipt.

use crate::api::AppState;
use crate::auth;
use crate::dto::HintResponse;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::{Limiter, Rate};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// Why a hook gave no hint: a stable code and a message (answered as 422).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintRefusal {
    /// The stable snake_case code.
    pub code: &'static str,
    /// What went wrong, for a person.
    pub message: String,
}

/// A game's hint function: `(the seat's view, node budget) → the hint as JSON`. It must be
/// deterministic and bounded by the budget (it runs on the blocking pool, never on the
/// executor).
pub type HintHook = Arc<dyn Fn(&Value, u64) -> Result<Value, HintRefusal> + Send + Sync>;

/// The hint functions by game id, their limits and the searches under way.
#[derive(Clone)]
pub struct Hints {
    hooks: BTreeMap<String, HintHook>,
    /// Positions (nodes) one search may expand.
    pub node_budget: u64,
    /// Hints per token.
    pub rate: Rate,
    limiter: Arc<Limiter>,
    /// Token hashes with a search under way.
    running: Arc<Mutex<BTreeSet<String>>>,
}

impl std::fmt::Debug for Hints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hints")
            .field("games", &self.hooks.keys().collect::<Vec<_>>())
            .field("node_budget", &self.node_budget)
            .field("rate", &self.rate)
            .finish()
    }
}

impl Default for Hints {
    /// No game, 200 000 nodes a search, 2 hints a second per token with a burst of 5.
    fn default() -> Self {
        Hints::new(
            200_000,
            Rate {
                per_second: 2,
                burst: 5,
            },
        )
    }
}

impl Hints {
    /// No hooks yet, with these limits.
    pub fn new(node_budget: u64, rate: Rate) -> Hints {
        Hints {
            hooks: BTreeMap::new(),
            node_budget,
            rate,
            limiter: Arc::new(Limiter::new(rate)),
            running: Arc::new(Mutex::new(BTreeSet::new())),
        }
    }

    /// Registers the hint function of a game.
    pub fn with(mut self, game: &str, hook: HintHook) -> Hints {
        self.hooks.insert(game.to_owned(), hook);
        self
    }

    /// Marks a search for `token` as running; `false` when one already is.
    fn begin(&self, token: &str) -> bool {
        self.running
            .lock()
            .map(|mut running| running.insert(token.to_owned()))
            .unwrap_or(false)
    }
}

/// Removes a token from the running searches when the request ends, however it ends.
struct Running {
    hints: Hints,
    token: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut running) = self.hints.running.lock() {
            running.remove(&self.token);
        }
    }
}

/// `POST /api/v1/matches/{matchId}/hint`.
#[utoipa::path(post, path = "/api/v1/matches/{matchId}/hint", tag = "commands",
    params(("matchId" = String, Path, description = "The match id")), security(("bearer" = [])),
    responses((status = 200, body = HintResponse, description = "The game's hint for this seat's position; no receipt"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "No such match, or its game offers no hints (`hints_unavailable`)"),
        (status = 409, body = ErrorBody, description = "A hint for this token is being searched (`hint_in_progress`)"),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn hint(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<HintResponse>> {
    let slot = hub.slot(&id).await?;
    let token = auth::hash_token(auth::bearer(&headers)?);
    let role = hub.role(&slot, &token).await?;
    let seat = role.seat().ok_or_else(|| {
        ApiError::forbidden("spectator", "a spectator token cannot ask for hints")
    })?;
    let hints = hub.config.hints.clone();
    let hook = hints.hooks.get(&slot.record.game).cloned().ok_or_else(|| {
        ApiError::not_found(
            "hints_unavailable",
            format!("the game {} offers no hints", slot.record.game),
        )
    })?;
    if !hints.begin(&token) {
        return Err(ApiError::new(
            crate::error::ErrorKind::Conflict,
            "hint_in_progress",
            "a hint for this token is being searched; wait for its answer",
        ));
    }
    let running = Running {
        hints: hints.clone(),
        token: token.clone(),
    };
    hints
        .limiter
        .take(&token, hub.now())
        .map_err(|wait| ApiError::rate_limited("too many hints for this token", wait))?;
    let (view, sequence) = {
        let guard = hub.lock(&slot).await?;
        let m = guard
            .as_ref()
            .map(|l| l.m.as_ref())
            .ok_or_else(|| ApiError::internal("load the match"))?;
        let view = m
            .view(turnstile_core::Viewer::Seat(seat))
            .map_err(|_| ApiError::internal("render the view"))?;
        (view.view, m.sequence())
    };
    let budget = hints.node_budget;
    let answer = tokio::task::spawn_blocking(move || hook(&view, budget))
        .await
        .map_err(|_| ApiError::internal("search for a hint"))?;
    drop(running);
    let hint = answer.map_err(|r| ApiError::rejected(r.code, r.message))?;
    Ok(Json(HintResponse {
        sequence,
        node_budget: budget,
        hint,
    }))
}

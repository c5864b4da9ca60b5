//! The route handlers of `/api/v1`: each authenticates, reads its match through the hub, and
//! answers as the caller may see it.

use crate::auth::{self, Role};
use crate::driver::ensure_driver;
use crate::dto::*;
use crate::edge::random_hex;
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorKind};
use crate::extract::Path;
use crate::extract::{ApiJson, ApiQuery, ClientAddr, OptionalJson};
use crate::hub::{refusal_error, Hub, Loaded, Origin, Slot, Submission, FORMAT_RETIRED};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;
use turnstile_core::content::MANIFEST_FILE;
use turnstile_core::{BundleSource, Seat, Viewer};
use turnstile_runtime::{ErasedError, ErasedMatch, ErasedSpec, SeatKind, SeatSpec};
use turnstile_store::{MatchRecord, MatchStatus, PutOutcome, SeatClaim};
use utoipa::IntoParams;

/// The hub, shared by every handler.
pub type AppState = Arc<Hub>;

fn viewer_dto(viewer: Viewer) -> ViewerDto {
    match viewer {
        Viewer::Seat(s) => ViewerDto {
            kind: "seat".into(),
            seat: Some(s.0),
        },
        Viewer::Spectator => ViewerDto {
            kind: "spectator".into(),
            seat: None,
        },
        Viewer::Referee => ViewerDto {
            kind: "referee".into(),
            seat: None,
        },
    }
}

fn kind_dto(kind: SeatKind) -> SeatKindDto {
    match kind {
        SeatKind::Human => SeatKindDto::Human,
        SeatKind::Bot => SeatKindDto::Bot,
    }
}

fn receipt_dto(value: Value) -> ApiResult<ReceiptDto> {
    serde_json::from_value(value).map_err(|e| {
        tracing::error!(error = %e, "a receipt does not have the documented shape");
        ApiError::internal("render a receipt")
    })
}

fn loaded_match(guard: &Option<Loaded>) -> ApiResult<&dyn ErasedMatch> {
    guard
        .as_ref()
        .map(|l| l.m.as_ref())
        .ok_or_else(|| ApiError::internal("load the match"))
}

async fn authenticated(hub: &Hub, id: &str, headers: &HeaderMap) -> ApiResult<(Arc<Slot>, Role)> {
    let slot = hub.slot(id).await?;
    let role = hub.authenticate(&slot, headers).await?;
    Ok((slot, role))
}

fn acting_seat(role: Role, claimed: Option<u16>) -> ApiResult<Seat> {
    let seat = role.seat().ok_or_else(|| {
        ApiError::forbidden("spectator", "a spectator token cannot act for a seat")
    })?;
    match claimed {
        Some(other) if other != seat.0 => Err(ApiError::forbidden(
            "seat_mismatch",
            format!("this token is seat {seat}'s; it cannot act for seat {other}"),
        )),
        _ => Ok(seat),
    }
}

/// `GET /api/v1/games`.
#[utoipa::path(get, path = "/api/v1/games", tag = "games",
    responses((status = 200, body = GamesResponse), (status = 503, body = ErrorBody)))]
pub async fn list_games(State(hub): State<AppState>) -> ApiResult<Json<GamesResponse>> {
    let mut games = Vec::new();
    for id in hub.registry.ids() {
        let Some(game) = hub.registry.get(id) else {
            continue;
        };
        let description = game.describe();
        let revision = hub.store.current_revision(id).await?;
        let mut seats = None;
        let mut options = None;
        if let Some(revision) = &revision {
            if let Ok(bundle) = hub.bundle(id, revision).await {
                if let Some(config) = &description.default_config {
                    if let Ok((min, max)) = game.seat_range(&bundle, config) {
                        seats = Some(SeatRange { min, max });
                    }
                }
                let o = game.config_options(&bundle);
                options = (!o.is_null()).then_some(o);
            }
        }
        games.push(GameInfo {
            id: id.to_owned(),
            revision,
            seats,
            hidden_information: description.hidden_information,
            bots: description.bots,
            timeouts: description.timeouts,
            clock_resumed: description.clock_resumed,
            resign: description.resign,
            default_config: description.default_config,
            config_schema: description.config_schema,
            config_options: options,
        });
    }
    Ok(Json(GamesResponse { games }))
}

/// `POST /api/v1/matches`.
#[utoipa::path(post, path = "/api/v1/matches", tag = "matches", request_body = CreateMatchRequest,
    responses((status = 201, body = CreateMatchResponse), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn create_match(
    State(hub): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    ApiJson(body): ApiJson<CreateMatchRequest>,
) -> ApiResult<Response> {
    let key = client_key(&hub, addr, &headers);
    hub.create_limiter.take(&key, hub.now()).map_err(|wait| {
        ApiError::rate_limited("too many matches created from this address", wait)
    })?;
    let game = hub.registry.get(&body.game).ok_or_else(|| {
        ApiError::not_found(
            "unknown_game",
            format!(
                "no game {:?}; this server has {}",
                body.game,
                hub.registry.ids().join(", ")
            ),
        )
    })?;
    let description = game.describe();
    let revision = match &body.revision {
        Some(r) => r.clone(),
        None => hub
            .store
            .current_revision(&body.game)
            .await?
            .ok_or_else(|| {
                ApiError::not_found("unknown_revision", "this game has no published content")
            })?,
    };
    let bundle = hub.bundle(&body.game, &revision).await?;
    let config = body
        .config
        .clone()
        .or(description.default_config.clone())
        .ok_or_else(|| ApiError::bad_request("config_required", "this game needs a config"))?;
    if body.seats.is_empty() || body.seats.len() > hub.config.max_seats {
        return Err(ApiError::bad_request(
            "invalid_seats",
            format!("a match has 1 to {} seats", hub.config.max_seats),
        ));
    }
    let tick_rate = body.tick_rate.unwrap_or(hub.config.default_tick_rate);
    if tick_rate == 0 || tick_rate > hub.config.max_tick_rate {
        return Err(ApiError::bad_request(
            "invalid_tick_rate",
            format!("the tick rate must be 1 to {}", hub.config.max_tick_rate),
        ));
    }
    let seed = match &body.seed {
        Some(seed) => {
            if seed.is_empty() || seed.len() > 256 || seed.chars().any(char::is_control) {
                return Err(ApiError::bad_request(
                    "invalid_seed",
                    "a seed is 1 to 256 characters without control characters",
                ));
            }
            seed.clone()
        }
        None => random_hex(hub.entropy.as_ref(), 16)
            .map_err(|_| ApiError::internal("draw a random seed"))?,
    };
    if let Some((index, seat)) = body
        .seats
        .iter()
        .enumerate()
        .find(|(_, s)| s.kind == SeatKindDto::Human && s.bot.is_some())
    {
        return Err(ApiError::bad_request(
            "invalid_seats",
            format!(
                "seat {index} is human but names the bot {:?}; make it `\"kind\": \"bot\"` or drop `bot`",
                seat.bot.as_deref().unwrap_or("")
            ),
        ));
    }
    if let Some((index, seat)) = body
        .seats
        .iter()
        .enumerate()
        .find(|(_, s)| s.kind == SeatKindDto::Open && s.bot.is_some())
    {
        return Err(ApiError::bad_request(
            "invalid_seats",
            format!(
                "seat {index} is open (for a person to join) but names the bot {:?}; drop `bot`",
                seat.bot.as_deref().unwrap_or("")
            ),
        ));
    }
    // Names are for people at the table now: an open seat's player names it on joining, and
    // a bot is called by its bot.
    let mut names = Vec::new();
    for (index, seat) in body.seats.iter().enumerate() {
        let Some(given) = seat.name.as_deref() else {
            continue;
        };
        if seat.kind != SeatKindDto::Human {
            return Err(ApiError::bad_request(
                "invalid_seats",
                format!(
                    "seat {index} is {} and cannot be named at creation; only a human seat takes a `name` (an open seat's player gives one when joining)",
                    if seat.kind == SeatKindDto::Bot { "a bot" } else { "open" }
                ),
            ));
        }
        let seat_number = u16::try_from(index)
            .map_err(|_| ApiError::bad_request("invalid_seats", "too many seats"))?;
        if let Some(name) = player_name(Some(given))? {
            names.push((seat_number, name));
        }
    }
    // An open seat is a human seat to the game; what makes it open is that it has no token
    // until someone claims it (`join_match`).
    let seats: Vec<SeatSpec> = body
        .seats
        .iter()
        .map(|s| SeatSpec {
            kind: match s.kind {
                SeatKindDto::Human | SeatKindDto::Open => SeatKind::Human,
                SeatKindDto::Bot => SeatKind::Bot,
            },
            bot: match s.kind {
                SeatKindDto::Human | SeatKindDto::Open => None,
                SeatKindDto::Bot => s.bot.clone(),
            },
        })
        .collect();
    let spec = ErasedSpec {
        config,
        seed: seed.clone(),
        seats: seats.clone(),
        tick_rate,
    };
    let m = game.new_match(&bundle, spec).map_err(|e| match e {
        ErasedError::InvalidConfig(msg) => ApiError::bad_request("invalid_config", msg),
        other => ApiError::rejected(other.code().to_owned(), other.to_string()),
    })?;
    let mut tickets = Vec::new();
    let mut hashes = Vec::new();
    for (index, (spec, asked)) in seats.iter().zip(&body.seats).enumerate() {
        let seat = u16::try_from(index)
            .map_err(|_| ApiError::bad_request("invalid_seats", "too many seats"))?;
        let token = match asked.kind {
            SeatKindDto::Human => Some(auth::new_token(hub.entropy.as_ref())?),
            SeatKindDto::Bot | SeatKindDto::Open => None,
        };
        hashes.push(token.as_deref().map(auth::hash_token));
        tickets.push(SeatTicket {
            seat,
            kind: asked.kind,
            bot: spec.bot.clone(),
            token,
            name: names
                .iter()
                .find(|(s, _)| *s == seat)
                .map(|(_, n)| n.clone()),
        });
    }
    let spectator = auth::new_token(hub.entropy.as_ref())?;
    let id = format!(
        "m_{}",
        random_hex(hub.entropy.as_ref(), 12).map_err(|_| ApiError::internal("draw a match id"))?
    );
    let now_ms = hub.wall_ms();
    let record = MatchRecord {
        id: id.clone(),
        game: body.game.clone(),
        config: m.spec().config.clone(),
        revision: revision.clone(),
        seed,
        seats: serde_json::to_value(&seats).map_err(|_| ApiError::internal("record the seats"))?,
        tick_rate,
        seat_token_hashes: hashes,
        spectator_token_hash: Some(auth::hash_token(&spectator)),
        created_at_ms: now_ms,
        status: MatchStatus::Active,
        outcome: None,
        last_activity_ms: now_ms,
    };
    hub.store.create_match_with_names(&record, &names).await?;
    let loaded = Loaded {
        clock: crate::clock::MatchClock::new(0, hub.now(), tick_rate),
        m,
        attempted_timeout: None,
    };
    let slot = hub.adopt(record, loaded);
    slot.set_claimed(Vec::new(), names.into_iter().collect());
    match hub.claim(&slot).await {
        Ok(true) => ensure_driver(&hub, &slot),
        Ok(false) => {}
        Err(e) => tracing::warn!(match_id = %id, code = %e.code, "no lease for a new match"),
    }
    let response = CreateMatchResponse {
        match_id: id,
        game: body.game,
        revision,
        tick_rate,
        sequence: 0,
        seats: tickets,
        spectator_token: spectator,
    };
    Ok((StatusCode::CREATED, Json(response)).into_response())
}

fn client_key(hub: &Hub, addr: Option<std::net::IpAddr>, headers: &HeaderMap) -> String {
    if hub.config.trust_forwarded_for {
        if let Some(first) = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
        {
            return first.trim().to_owned();
        }
    }
    addr.map(|a| a.to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// `POST /api/v1/matches/search`.
#[utoipa::path(post, path = "/api/v1/matches/search", tag = "matches", request_body = SearchRequest,
    responses((status = 200, body = SearchResponse), (status = 400, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn search_matches(
    State(hub): State<AppState>,
    ApiJson(body): ApiJson<SearchRequest>,
) -> ApiResult<Json<SearchResponse>> {
    if body.tokens.len() > 100 {
        return Err(ApiError::bad_request(
            "too_many_tokens",
            "at most 100 tokens per search",
        ));
    }
    let hashes: Vec<String> = body.tokens.iter().map(|t| auth::hash_token(t)).collect();
    let wanted: BTreeSet<&str> = hashes.iter().map(String::as_str).collect();
    let records = if hashes.is_empty() {
        Vec::new()
    } else {
        hub.store.find_matches_by_token_hashes(&hashes).await?
    };
    let matches = records
        .into_iter()
        .map(|r| {
            let seats = r
                .seat_token_hashes
                .iter()
                .enumerate()
                .filter(|(_, h)| h.as_deref().is_some_and(|h| wanted.contains(h)))
                .filter_map(|(i, _)| u16::try_from(i).ok())
                .collect();
            let spectator = r
                .spectator_token_hash
                .as_deref()
                .is_some_and(|h| wanted.contains(h));
            let (status, outcome) = match hub.loaded_slot(&r.id) {
                Some(slot) => {
                    let l = slot.lifecycle();
                    (l.status, l.outcome)
                }
                None => (r.status, r.outcome.clone()),
            };
            MatchSummary {
                match_id: r.id,
                game: r.game,
                revision: r.revision,
                status: status.as_str().to_owned(),
                outcome,
                created_at_ms: r.created_at_ms,
                seats,
                spectator,
            }
        })
        .collect();
    Ok(Json(SearchResponse { matches }))
}

/// `GET /api/v1/matches/{matchId}`.
#[utoipa::path(get, path = "/api/v1/matches/{matchId}", tag = "matches",
    params(("matchId" = String, Path, description = "The match id")),
    security(("bearer" = [])),
    responses((status = 200, body = MatchSnapshot), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn get_match(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<MatchSnapshot>> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    // Seats claimed on another node since this one loaded the match (names, `open` → `human`).
    hub.refresh_seats(&slot).await?;
    let guard = match hub.lock(&slot).await {
        Ok(guard) => guard,
        Err(e) if e.code == FORMAT_RETIRED => {
            return retired_snapshot(&hub, &slot, role, e).await.map(Json)
        }
        Err(e) => return Err(e),
    };
    // While the clock waits, the ready marks may have been taken on other nodes.
    if guard
        .as_ref()
        .and_then(|l| crate::fair_start::applies(&hub, &slot, l))
        .is_some()
    {
        hub.fair_start.refresh(&hub, &slot.id).await?;
    }
    let m = loaded_match(&guard)?;
    let viewer = role.viewer();
    let view = m
        .view(viewer)
        .map_err(|_| ApiError::internal("render the view"))?;
    let (status, outcome) = hub.status_of(&slot, m);
    let ended = status == "finished";
    let server_tick = guard
        .as_ref()
        .map(|l| l.clock.stamp(l.m.last_tick(), hub.now()))
        .unwrap_or_default();
    let seats = seat_infos(&slot);
    let clock_start = guard
        .as_ref()
        .and_then(|l| crate::fair_start::waiting(&hub, &slot, l))
        .map(clock_start_dto);
    Ok(Json(MatchSnapshot {
        match_id: slot.id.clone(),
        game: slot.record.game.clone(),
        revision: slot.record.revision.clone(),
        viewer: viewer_dto(viewer),
        status,
        outcome,
        sequence: m.sequence(),
        step: m.step(),
        tick_rate: slot.record.tick_rate,
        server_tick,
        deadline_tick: if clock_start.is_some() {
            None
        } else {
            m.deadline_tick()
        },
        view: view.view,
        view_fingerprint: view.fingerprint.to_string(),
        seats,
        seed: ended.then(|| slot.record.seed.clone()),
        clock_start,
        retired: None,
    }))
}

/// The snapshot of a match this build cannot re-execute (an older release wrote it): what the
/// stored record and log say — its status and outcome (for a live match closed at load, the
/// `aborted` outcome and its `format_retired` reason), its sequence and last tick — and no
/// view, which only the old rules could draw.
async fn retired_snapshot(
    hub: &Hub,
    slot: &Slot,
    role: Role,
    why: ApiError,
) -> ApiResult<MatchSnapshot> {
    let lifecycle = slot.lifecycle();
    let status = match lifecycle.status {
        MatchStatus::Active => "active",
        MatchStatus::Finished => "finished",
        MatchStatus::Archived => "archived",
    };
    let sequence = hub.store.last_sequence(&slot.id).await?;
    let last_tick = hub
        .store
        .log(&slot.id, sequence.saturating_sub(1), 1)
        .await?
        .first()
        .map_or(0, |r| r.tick);
    Ok(MatchSnapshot {
        match_id: slot.id.clone(),
        game: slot.record.game.clone(),
        revision: slot.record.revision.clone(),
        viewer: viewer_dto(role.viewer()),
        status: status.into(),
        outcome: lifecycle.outcome,
        sequence,
        step: 0,
        tick_rate: slot.record.tick_rate,
        server_tick: last_tick,
        deadline_tick: None,
        view: Value::Null,
        view_fingerprint: String::new(),
        seats: seat_infos(slot),
        seed: (lifecycle.status != MatchStatus::Active).then(|| slot.record.seed.clone()),
        clock_start: None,
        retired: Some(RetiredDto {
            code: why.code.into_owned(),
            message: why.message,
        }),
    })
}

/// The full replay of a match this build cannot re-execute, assembled from the store: the
/// stored content and log as the older release wrote them (receipt format 1, the only format
/// an older release wrote), the recorded outcome with its reason, and `retired` saying why.
/// It is given to everyone with a token, like any ended match's replay; `replay verify` reads
/// it and refuses what it cannot re-execute with a typed error, never a false ok.
async fn retired_replay(hub: &Hub, slot: &Slot, why: ApiError) -> ApiResult<Value> {
    let record = &slot.record;
    let content = hub
        .store
        .get_content(&record.game, &record.revision)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "unknown_revision",
                format!("no content revision {} of {}", record.revision, record.game),
            )
        })?;
    let log = hub.read_log(&slot.id, 0).await?;
    let file = turnstile_runtime::ReplayFile {
        format: 1,
        engine: env!("CARGO_PKG_VERSION").into(),
        game: record.game.clone(),
        config: record.config.clone(),
        seats: slot.seat_specs(),
        seed: record.seed.clone(),
        tick_rate: record.tick_rate,
        revision: record
            .revision
            .parse()
            .map_err(|_| ApiError::internal("read the match's revision"))?,
        // A retired match's rules are the older release's; which version that was is not
        // stored, so the file says none (0), as files written before versions did.
        rules: 0,
        bundle: content.bundle,
        entries: log.iter().map(crate::hub::entry_of).collect(),
        outcome: None,
    };
    let mut value =
        serde_json::to_value(file).map_err(|_| ApiError::internal("write the replay"))?;
    if let Some(object) = value.as_object_mut() {
        if let Some(outcome) = slot.lifecycle().outcome {
            object.insert("outcome".into(), outcome);
        }
        object.insert(
            "retired".into(),
            serde_json::json!({"code": why.code, "message": why.message}),
        );
    }
    Ok(value)
}

/// The seats as everyone may see them: an open seat nobody has claimed says `open`; a
/// claimed one `human`, with the name its player gave.
fn seat_infos(slot: &Slot) -> Vec<SeatInfo> {
    let open: BTreeSet<u16> = slot.open_seats().into_iter().collect();
    let names = slot.names();
    slot.seat_specs()
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let seat = u16::try_from(i).unwrap_or(u16::MAX);
            SeatInfo {
                seat,
                kind: if open.contains(&seat) {
                    SeatKindDto::Open
                } else {
                    kind_dto(s.kind)
                },
                bot: s.bot,
                name: names.get(&seat).cloned(),
            }
        })
        .collect()
}

/// The longest name a player may give a seat (at creation or when joining).
const MAX_NAME_CHARS: usize = 40;

/// A player's display name: spaces around it dropped, then 1–40 characters without control
/// characters; 400 `invalid_player_name` otherwise (never cut to fit).
fn player_name(name: Option<&str>) -> ApiResult<Option<String>> {
    let Some(name) = name else {
        return Ok(None);
    };
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "invalid_player_name",
            format!(
                "a player name is 1 to {MAX_NAME_CHARS} characters without control characters; this one has {chars}{}",
                if name.chars().any(char::is_control) { ", some of them control characters" } else { "" }
            ),
        ));
    }
    Ok(Some(name.to_owned()))
}

/// `POST /api/v1/matches/{matchId}/join`: claims the match's first open seat — one created as
/// `{"kind": "open"}`, e.g. a late seat of Duel (`lateSeats`) or a seat a player leaves for a
/// friend found through the lobby's list — and answers with its token. No token is needed;
/// rate-limited per address like match creation. The claim is one store transaction, so two
/// claimants (on any nodes) never get the same seat.
#[utoipa::path(post, path = "/api/v1/matches/{matchId}/join", tag = "matches",
    params(("matchId" = String, Path, description = "The match id")),
    request_body(content = JoinRequest, description = "Optional"),
    responses((status = 200, body = JoinResponse), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "`no_open_seat`: every seat is taken"),
        (status = 422, body = ErrorBody, description = "`match_over`"), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
pub async fn join_match(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    OptionalJson(body): OptionalJson<JoinRequest>,
) -> ApiResult<Json<JoinResponse>> {
    let key = client_key(&hub, addr, &headers);
    hub.create_limiter
        .take(&key, hub.now())
        .map_err(|wait| ApiError::rate_limited("too many joins from this address", wait))?;
    let name = player_name(body.name.as_deref())?;
    let slot = hub.slot(&id).await?;
    {
        let guard = hub.lock(&slot).await?;
        let m = loaded_match(&guard)?;
        if hub.has_ended(&slot, m) {
            return Err(ApiError::rejected(
                "match_over",
                "the match has already ended; there is no seat to join",
            ));
        }
    }
    if !slot.joinable() {
        return Err(no_open_seat());
    }
    let token = auth::new_token(hub.entropy.as_ref())?;
    let hash = auth::hash_token(&token);
    let claim = hub
        .store
        .claim_seat(&id, &hash, name.as_deref(), hub.wall_ms())
        .await?;
    match claim {
        SeatClaim::Claimed(seat) => {
            let mut hashes = slot.seat_hashes();
            if let Some(h) = hashes.get_mut(usize::from(seat)) {
                *h = Some(hash);
            }
            let names = name.iter().map(|n| (seat, n.clone())).collect();
            slot.set_claimed(hashes, names);
            Ok(Json(JoinResponse {
                match_id: id,
                game: slot.record.game.clone(),
                seat,
                token,
                name,
            }))
        }
        SeatClaim::NoOpenSeat => Err(no_open_seat()),
        SeatClaim::NotActive => Err(ApiError::rejected(
            "match_over",
            "the match has already ended; there is no seat to join",
        )),
    }
}

fn no_open_seat() -> ApiError {
    ApiError::new(
        ErrorKind::Conflict,
        "no_open_seat",
        "every seat of this match is taken: none was left open to join, or others joined first",
    )
}

/// The query of `list_open_matches`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Must be `true`: only matches with a seat to join are listed (one's own matches:
    /// `POST /api/v1/matches/search` with their tokens).
    pub open: bool,
    /// Only this game's matches.
    #[serde(default)]
    pub game: Option<String>,
    /// At most this many, 1–100 (default 50).
    #[serde(default)]
    pub limit: Option<u32>,
}

/// The most open matches one listing gives.
const MAX_OPEN_LISTED: u32 = 100;

/// `GET /api/v1/matches?open=true`: the running matches with a seat to join, newest first —
/// their game, config and seats (names of those who joined), never a token, a view or the
/// seed. No token is needed.
#[utoipa::path(get, path = "/api/v1/matches", tag = "matches", params(ListQuery),
    responses((status = 200, body = OpenMatchesResponse), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn list_open_matches(
    State(hub): State<AppState>,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<Json<OpenMatchesResponse>> {
    if !query.open {
        return Err(ApiError::bad_request(
            "open_only",
            "only open matches are listed (`?open=true`); find your own with POST /api/v1/matches/search",
        ));
    }
    let limit = query.limit.unwrap_or(50);
    if limit == 0 || limit > MAX_OPEN_LISTED {
        return Err(ApiError::bad_request(
            "invalid_limit",
            format!("limit must be 1 to {MAX_OPEN_LISTED}, not {limit}"),
        ));
    }
    if let Some(game) = &query.game {
        if hub.registry.get(game).is_none() {
            return Err(ApiError::not_found(
                "unknown_game",
                format!(
                    "no game {game:?}; this server has {}",
                    hub.registry.ids().join(", ")
                ),
            ));
        }
    }
    // A game filter reads past other games' matches: ask for the most, then filter.
    let fetch = if query.game.is_some() {
        MAX_OPEN_LISTED
    } else {
        limit
    };
    let mut matches = Vec::new();
    for open in hub.store.list_open_matches(fetch).await? {
        if query.game.as_ref().is_some_and(|g| *g != open.record.game) {
            continue;
        }
        // a match this node saw end is not listed while its new status is still being written
        if hub
            .loaded_slot(&open.record.id)
            .is_some_and(|slot| slot.lifecycle().status != MatchStatus::Active)
        {
            continue;
        }
        if matches.len() >= usize::try_from(limit).unwrap_or(usize::MAX) {
            break;
        }
        let names: std::collections::BTreeMap<u16, String> = hub
            .store
            .seat_names(&open.record.id)
            .await?
            .into_iter()
            .collect();
        let specs: Vec<SeatSpec> =
            serde_json::from_value(open.record.seats.clone()).unwrap_or_default();
        let seats = specs
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let seat = u16::try_from(i).unwrap_or(u16::MAX);
                SeatInfo {
                    seat,
                    kind: if open.open_seats.contains(&seat) {
                        SeatKindDto::Open
                    } else {
                        kind_dto(s.kind)
                    },
                    bot: s.bot,
                    name: names.get(&seat).cloned(),
                }
            })
            .collect();
        matches.push(OpenMatchSummary {
            match_id: open.record.id,
            game: open.record.game,
            config: open.record.config,
            created_at_ms: open.record.created_at_ms,
            seats,
            open_seats: open.open_seats,
        });
    }
    Ok(Json(OpenMatchesResponse { matches }))
}

fn clock_start_dto(w: crate::fair_start::Waiting) -> ClockStartDto {
    let waiting_for = w
        .humans
        .iter()
        .copied()
        .filter(|s| !w.ready.contains(s))
        .collect();
    ClockStartDto {
        humans: w.humans,
        ready: w.ready,
        waiting_for,
        starts_by_tick: w.starts_by_tick,
    }
}

/// `POST /api/v1/matches/{matchId}/ready`: this seat has opened the board. A timed match's
/// clock starts when every human seat has said so (a logged `ClockResumed` from the creation
/// tick, docs/turns.md), or by itself after the server's wait. Idempotent; a spectator is
/// refused (403 `spectator`, as for every seat-only request).
#[utoipa::path(post, path = "/api/v1/matches/{matchId}/ready", tag = "matches",
    params(("matchId" = String, Path, description = "The match id")), security(("bearer" = [])),
    responses((status = 200, body = ReadyResponse), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn ready(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<ReadyResponse>> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    let Role::Seat(seat) = role else {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            "spectator",
            "a spectator token cannot say it is ready; only seats start a fair clock",
        ));
    };
    let mut guard = hub.lock(&slot).await?;
    loaded_match(&guard)?;
    let was_waiting = guard
        .as_ref()
        .and_then(|l| crate::fair_start::waiting(&hub, &slot, l))
        .is_some();
    // marks are kept only for matches whose clock waits (no memory for every other match)
    if guard
        .as_ref()
        .and_then(|l| crate::fair_start::applies(&hub, &slot, l))
        .is_some()
    {
        hub.fair_start.mark(&hub, &slot.id, seat.0).await?;
    }
    let still = guard
        .as_ref()
        .and_then(|l| crate::fair_start::waiting(&hub, &slot, l));
    if was_waiting && still.is_none() {
        crate::fair_start::start_clock(&hub, &slot, &mut guard).await;
    }
    Ok(Json(ReadyResponse {
        seat: seat.0,
        clock_running: still.is_none(),
        clock_start: still.map(clock_start_dto),
    }))
}

/// Refuses a client-chosen command id in the server's own namespace (`timeout:`, `bot:`,
/// `clock-resumed:`, `resign:`): taken first by a player, such an id would make the system
/// command that needs it a "reused id", and so suppress a timeout, a bot move, a clock
/// resumption or another seat's resignation.
fn refuse_reserved_command_id(command_id: &str) -> ApiResult<()> {
    if turnstile_core::is_system_command_id(command_id) {
        return Err(ApiError::bad_request(
            "reserved_command_id",
            format!(
                "command id {command_id:?} is in the server's own namespace ({}); choose another",
                turnstile_core::SYSTEM_COMMAND_ID_PREFIXES.join(", ")
            ),
        ));
    }
    Ok(())
}

/// The `commandId` of a receipt's JSON text, read without building the rest of it.
fn command_id_of(text: &str) -> Option<std::borrow::Cow<'_, str>> {
    #[derive(Deserialize)]
    struct CommandIdOnly<'a> {
        #[serde(rename = "commandId", borrow)]
        command_id: std::borrow::Cow<'a, str>,
    }
    serde_json::from_str::<CommandIdOnly<'_>>(text)
        .ok()
        .map(|r| r.command_id)
}

/// A 200 whose body is JSON text already written (what `Json` would answer for its value).
fn json_text_response(text: String) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        text,
    )
        .into_response()
}

/// `POST /api/v1/matches/{matchId}/commands`.
#[utoipa::path(post, path = "/api/v1/matches/{matchId}/commands", tag = "commands",
    params(("matchId" = String, Path, description = "The match id")),
    request_body = CommandRequest, security(("bearer" = [])),
    responses((status = 200, body = ReceiptDto, description = "The receipt as the seat may see it (header `turnstile-repeat: true` for a repeated command id)"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn submit_command(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<CommandRequest>,
) -> ApiResult<Response> {
    let slot = hub.slot(&id).await?;
    let token_hash = auth::hash_token(auth::bearer(&headers)?);
    let role = hub.role(&slot, &token_hash).await?;
    let seat = acting_seat(role, body.seat)?;
    refuse_reserved_command_id(&body.command_id)?;
    hub.command_limiter
        .take(&token_hash, hub.now())
        .map_err(|wait| ApiError::rate_limited("too many commands for this token", wait))?;
    let mut guard = hub.lock(&slot).await?;
    // A commit of a preview is stamped with the tick its check previewed at, so the check and
    // the commit judge the same moment.
    let tick = match &body.preview {
        Some(claim) => {
            check_preview_claim(
                &hub,
                &slot,
                &mut guard,
                claim,
                &body.command_id,
                &body.action,
                seat,
            )
            .await?
        }
        None => None,
    };
    let command_id = body.command_id.clone();
    let submission = Submission {
        command_id: body.command_id,
        seat: Some(seat),
        expected_sequence: body.expected_sequence,
        expected_step: body.expected_step,
        action: body.action,
        tick,
        origin: Origin::Person,
    };
    let answered = hub.submit_locked(&slot, &mut guard, submission).await?;
    // Redact from the typed log when the match is loaded, straight to the canonical JSON the
    // answer carries (no `Value` built, parsed or serialized again on the hot path); otherwise
    // (a repeat answered from the store after a reload failed) from the stored receipt.
    let typed = guard
        .as_ref()
        .filter(|l| l.m.sequence() >= answered.sequence)
        .and_then(|l| l.m.receipt_json(answered.sequence, Viewer::Seat(seat)))
        // The answer (new or a repeat) is this command id's receipt: the one at that sequence.
        .filter(|text| command_id_of(text).is_some_and(|id| id == command_id));
    drop(guard);
    let mut response = match (typed, slot.redactor()) {
        (Some(text), _) => json_text_response(text),
        (None, Some(r)) => Json(
            r.redact(&answered.receipt_value()?, Viewer::Seat(seat))
                .map_err(|_| ApiError::internal("redact the receipt"))?,
        )
        .into_response(),
        (None, None) => return Err(ApiError::internal("redact the receipt")),
    };
    if answered.repeat {
        response.headers_mut().insert(
            "turnstile-repeat",
            axum::http::HeaderValue::from_static("true"),
        );
    }
    Ok(response)
}

/// `GET /api/v1/matches/{matchId}/legal-actions`.
#[utoipa::path(get, path = "/api/v1/matches/{matchId}/legal-actions", tag = "commands",
    params(("matchId" = String, Path, description = "The match id")), security(("bearer" = [])),
    responses((status = 200, body = LegalActionsResponse), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn legal_actions(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<LegalActionsResponse>> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    let guard = hub.lock(&slot).await?;
    let m = loaded_match(&guard)?;
    let actions = match role.seat() {
        Some(seat) => m.legal_actions(seat).map_err(|r| {
            refusal_error(
                &turnstile_runtime::ErasedRefusal::Refused(r),
                m.sequence(),
                m.step(),
            )
        })?,
        None => Vec::new(),
    };
    let actions = serde_json::from_value(serde_json::to_value(&actions).unwrap_or_default())
        .map_err(|_| ApiError::internal("render the legal actions"))?;
    Ok(Json(LegalActionsResponse {
        seat: role.seat().map(|s| s.0),
        sequence: m.sequence(),
        step: m.step(),
        actions,
    }))
}

/// `POST /api/v1/matches/{matchId}/preview`.
#[utoipa::path(post, path = "/api/v1/matches/{matchId}/preview", tag = "commands",
    params(("matchId" = String, Path, description = "The match id")), request_body = PreviewRequest,
    security(("bearer" = [])),
    responses((status = 200, body = PreviewResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn preview(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<PreviewRequest>,
) -> ApiResult<Json<PreviewResponse>> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    let seat = acting_seat(role, body.seat)?;
    let guard = hub.lock(&slot).await?;
    let loaded = guard
        .as_ref()
        .ok_or_else(|| ApiError::internal("load the match"))?;
    let m = loaded.m.as_ref();
    let tick = loaded.clock.stamp(m.last_tick(), hub.now());
    let p = m
        .preview(&body.action, seat, tick)
        .map_err(|r| refusal_error(&r, m.sequence(), m.step()))?;
    Ok(Json(preview_dto(m, tick, p)))
}

fn preview_dto(
    m: &dyn ErasedMatch,
    tick: u64,
    p: turnstile_runtime::ErasedPreview,
) -> PreviewResponse {
    PreviewResponse {
        sequence: m.sequence(),
        tick,
        view: p.view,
        view_fingerprint: p.view_fingerprint.to_string(),
        state_fingerprint: p.state_fingerprint.to_string(),
        events: p.events,
        fingerprint: p.fingerprint.to_string(),
    }
}

/// A commit that carries the preview it commits: previews the action again, now, at the tick
/// the commit will be stamped with. Returns that tick when the fresh preview is the claimed
/// one (the commit will then do exactly what was shown); otherwise 409 `preview_stale` with
/// the fresh preview, and nothing is committed. A command id already accepted skips the check:
/// its answer is the stored receipt, as for any repeat.
async fn check_preview_claim(
    hub: &Hub,
    slot: &Slot,
    guard: &mut tokio::sync::OwnedMutexGuard<Option<Loaded>>,
    claim: &PreviewClaim,
    command_id: &str,
    action: &Value,
    seat: Seat,
) -> ApiResult<Option<u64>> {
    let behind = guard
        .as_ref()
        .is_some_and(|l| claim.sequence > l.m.sequence() && !l.m.is_accepted(command_id));
    if behind {
        // Another node may have committed since this one loaded the match.
        hub.catch_up_locked(slot, guard).await?;
    }
    let loaded = guard
        .as_ref()
        .ok_or_else(|| ApiError::internal("load the match"))?;
    let m = loaded.m.as_ref();
    if m.is_accepted(command_id) {
        return Ok(None);
    }
    let tick = loaded.clock.stamp(m.last_tick(), hub.now());
    let fresh = m
        .preview(action, seat, tick)
        .map_err(|r| refusal_error(&r, m.sequence(), m.step()))?;
    if claim.sequence == m.sequence() && fresh.fingerprint.to_string() == claim.fingerprint {
        return Ok(Some(tick));
    }
    let why = if claim.sequence == m.sequence() {
        format!(
            "the action would now do something else than its preview at sequence {} showed (in a timed match, the turn clock moved: the preview held for its tick only); the fresh preview is in details.preview",
            claim.sequence
        )
    } else {
        format!(
            "the match moved on since the preview (previewed at sequence {}, now {}); the fresh preview is in details.preview",
            claim.sequence,
            m.sequence()
        )
    };
    let (sequence, step) = (m.sequence(), m.step());
    let fresh = serde_json::to_value(preview_dto(m, tick, fresh))
        .map_err(|_| ApiError::internal("render the preview"))?;
    Err(ApiError::new(ErrorKind::Conflict, "preview_stale", why).with_details(
        serde_json::json!({ "currentSequence": sequence, "currentStep": step, "preview": fresh }),
    ))
}

/// The query of `timeline`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct TimelineQuery {
    /// Receipts with sequence greater than this (default 0).
    #[serde(default)]
    pub after: u64,
    /// At most this many (default and maximum 500).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// `GET /api/v1/matches/{matchId}/timeline?after=N&limit=L`.
#[utoipa::path(get, path = "/api/v1/matches/{matchId}/timeline", tag = "timeline",
    params(("matchId" = String, Path, description = "The match id"), TimelineQuery), security(("bearer" = [])),
    responses((status = 200, body = TimelineResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn timeline(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<TimelineQuery>,
) -> ApiResult<Json<TimelineResponse>> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    let limit = query
        .limit
        .unwrap_or(hub.config.max_page)
        .clamp(1, hub.config.max_page);
    let guard = hub.lock(&slot).await?;
    let m = loaded_match(&guard)?;
    let receipts = m
        .timeline(query.after, limit, role.viewer())
        .into_iter()
        .map(receipt_dto)
        .collect::<ApiResult<Vec<_>>>()?;
    let last = receipts.last().map(|r| r.sequence);
    let next_after = last.filter(|l| *l < m.sequence());
    Ok(Json(TimelineResponse {
        after: query.after,
        receipts,
        next_after,
        sequence: m.sequence(),
    }))
}

/// `GET /api/v1/matches/{matchId}/resolutions/{commandId}`.
#[utoipa::path(get, path = "/api/v1/matches/{matchId}/resolutions/{commandId}", tag = "timeline",
    params(("matchId" = String, Path, description = "The match id"), ("commandId" = String, Path, description = "The command id")),
    security(("bearer" = [])),
    responses((status = 200, body = ResolutionResponse), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn resolution(
    State(hub): State<AppState>,
    Path((id, command_id)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Json<ResolutionResponse>> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    let guard = hub.lock(&slot).await?;
    let m = loaded_match(&guard)?;
    let receipt = m
        .receipt_by_command(&command_id, role.viewer())
        .ok_or_else(|| {
            ApiError::not_found("unknown_command", "no accepted command with this id")
        })?;
    let receipt = receipt_dto(receipt)?;
    let steps = receipt
        .events
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(i, event)| ResolutionStep {
            index: u32::try_from(i).unwrap_or(u32::MAX),
            event,
        })
        .collect();
    Ok(Json(ResolutionResponse {
        command_id,
        sequence: receipt.sequence,
        steps,
        receipt,
    }))
}

/// `POST /api/v1/matches/{matchId}/resign`.
#[utoipa::path(post, path = "/api/v1/matches/{matchId}/resign", tag = "commands",
    params(("matchId" = String, Path, description = "The match id")), request_body(content = ResignRequest, description = "Optional"),
    security(("bearer" = [])),
    responses((status = 200, body = ResignResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn resign(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    OptionalJson(body): OptionalJson<ResignRequest>,
) -> ApiResult<Json<ResignResponse>> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    let seat = acting_seat(role, None)?;
    if let Some(command_id) = &body.command_id {
        refuse_reserved_command_id(command_id)?;
    }
    let mut guard = hub.lock(&slot).await?;
    let (action, sequence) = {
        let m = loaded_match(&guard)?;
        if hub.has_ended(&slot, m) {
            return Err(ApiError::rejected(
                "match_over",
                "the match has already ended",
            ));
        }
        // Every registered game has a resign action (the server refuses to start without
        // one), so a resignation is always a receipt that replay verification re-derives.
        let action = m
            .resign_action(seat)
            .ok_or_else(|| ApiError::internal("find the game's resign action"))?;
        (action, m.sequence())
    };
    let submission = Submission {
        command_id: body.command_id.unwrap_or_else(|| format!("resign:{seat}")),
        seat: Some(seat),
        expected_sequence: sequence,
        expected_step: None,
        action,
        tick: None,
        origin: Origin::Person,
    };
    let answered = hub.submit_locked(&slot, &mut guard, submission).await?;
    let redactor = slot
        .redactor()
        .ok_or_else(|| ApiError::internal("redact the receipt"))?;
    let receipt = receipt_dto(
        redactor
            .redact(&answered.receipt_value()?, Viewer::Seat(seat))
            .map_err(|_| ApiError::internal("redact the receipt"))?,
    )?;
    let m = loaded_match(&guard)?;
    let (status, outcome) = hub.status_of(&slot, m);
    Ok(Json(ResignResponse {
        status,
        outcome,
        receipt,
    }))
}

/// `GET /api/v1/matches/{matchId}/replay`.
#[utoipa::path(get, path = "/api/v1/matches/{matchId}/replay", tag = "timeline",
    params(("matchId" = String, Path, description = "The match id")), security(("bearer" = [])),
    responses((status = 200, description = "Replay format 1: the full file (seed, every receipt) once the match has ended; before, the caller's redacted timeline without the seed (`redacted: true`)", body = Object),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn replay(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (slot, role) = authenticated(&hub, &id, &headers).await?;
    let guard = match hub.lock(&slot).await {
        Ok(guard) => guard,
        Err(e) if e.code == FORMAT_RETIRED => {
            return Ok(Json(retired_replay(&hub, &slot, e).await?).into_response())
        }
        Err(e) => return Err(e),
    };
    let m = loaded_match(&guard)?;
    let viewer = if hub.has_ended(&slot, m) {
        Viewer::Referee
    } else {
        role.viewer()
    };
    let file = m
        .replay(viewer)
        .map_err(|_| ApiError::internal("write the replay"))?;
    Ok(Json(file).into_response())
}

/// `GET /api/v1/matches/{matchId}/state`: the match's full state, for developers (the web
/// client's debug panel). Hidden information stays hidden while it matters: the state is
/// given once the match has ended, or at any time by a server started with `serve --dev`.
#[utoipa::path(get, path = "/api/v1/matches/{match_id}/state", tag = "matches",
    params(("match_id" = String, Path, description = "The match id")),
    responses((status = 200, description = "`{matchId, sequence, ended, state}`: the game's full state as JSON"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn full_state(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (slot, _role) = authenticated(&hub, &id, &headers).await?;
    let guard = hub.lock(&slot).await?;
    let m = loaded_match(&guard)?;
    let ended = hub.has_ended(&slot, m);
    if !ended && !hub.config.dev {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            "state_hidden",
            "the full state of a running match is hidden (it holds what seats may not see); it is given once the match has ended, or by a server started with `serve --dev`",
        ));
    }
    let state = m
        .snapshot()
        .map_err(|_| ApiError::internal("write the state"))?;
    Ok(Json(serde_json::json!({
        "matchId": id,
        "sequence": m.sequence(),
        "ended": ended,
        "state": state,
    }))
    .into_response())
}

/// `GET /api/v1/content/{game}/{revision}`.
#[utoipa::path(get, path = "/api/v1/content/{game}/{revision}", tag = "content",
    params(("game" = String, Path, description = "The game id"), ("revision" = String, Path, description = "`sha256:...`, or `current`")),
    responses((status = 200, body = ContentResponse), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn get_content(
    State(hub): State<AppState>,
    Path((game, revision)): Path<(String, String)>,
) -> ApiResult<Json<ContentResponse>> {
    if hub.registry.get(&game).is_none() {
        return Err(ApiError::not_found(
            "unknown_game",
            format!("no game {game:?}"),
        ));
    }
    let current = hub.store.current_revision(&game).await?;
    let revision = if revision == "current" {
        current
            .clone()
            .ok_or_else(|| ApiError::not_found("unknown_revision", "no current revision"))?
    } else {
        revision
    };
    let record = hub
        .store
        .get_content(&game, &revision)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "unknown_revision",
                format!("no revision {revision} of {game}"),
            )
        })?;
    Ok(Json(ContentResponse {
        current: current.as_deref() == Some(record.revision.as_str()),
        game: record.game,
        revision: record.revision,
        bundle: record.bundle,
    }))
}

/// Compiles a bundle of `game` from its files and stores it, making it the game's current
/// revision when asked; shared by the route and `turnstile content publish --database`.
pub async fn publish_bundle(
    registry: &turnstile_runtime::GameRegistry,
    store: &dyn turnstile_store::Store,
    game: &str,
    source: &BundleSource,
    make_current: bool,
    now_ms: i64,
) -> ApiResult<PublishResponse> {
    let registered = registry
        .get(game)
        .ok_or_else(|| ApiError::not_found("unknown_game", format!("no game {game:?}")))?;
    let compiled = registered.compile_content(source).map_err(|problems| {
        ApiError::rejected(
            "invalid_content",
            format!("the bundle has {} problem(s)", problems.len()),
        )
        .with_details(serde_json::json!({ "problems": problems }))
    })?;
    let revision = compiled.bundle.revision().to_string();
    let outcome = store
        .put_content(&turnstile_store::ContentRecord {
            game: game.to_owned(),
            revision: revision.clone(),
            bundle: compiled.json,
            created_at_ms: now_ms,
        })
        .await?;
    if make_current {
        store.set_current_revision(game, &revision).await?;
    }
    Ok(PublishResponse {
        game: game.to_owned(),
        revision,
        current: make_current,
        inserted: outcome == PutOutcome::Inserted,
    })
}

/// `POST /api/v1/content/{game}`.
#[utoipa::path(post, path = "/api/v1/content/{game}", tag = "content",
    params(("game" = String, Path, description = "The game id")), request_body = PublishRequest,
    security(("bearer" = [])),
    responses((status = 201, body = PublishResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "`invalid_content` with `details.problems`"), (status = 503, body = ErrorBody)))]
pub async fn publish_content(
    State(hub): State<AppState>,
    Path(game): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<PublishRequest>,
) -> ApiResult<Response> {
    auth::authenticate_admin(&headers, hub.config.admin_token.as_deref())?;
    if !body.files.contains_key(MANIFEST_FILE) {
        return Err(ApiError::bad_request(
            "no_manifest",
            "the files must include bundle.json",
        ));
    }
    let mut source = BundleSource::new();
    for (path, text) in body.files {
        source.insert(path, text.into_bytes());
    }
    let published = publish_bundle(
        &hub.registry,
        hub.store.as_ref(),
        &game,
        &source,
        body.current.unwrap_or(true),
        hub.wall_ms(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(published)).into_response())
}

/// `GET /healthz`.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, body = Health), (status = 503, body = Health)))]
pub async fn healthz(State(hub): State<AppState>) -> Response {
    let ok = hub.store.ping().await.is_ok();
    let body = Health {
        status: if ok { "ok" } else { "degraded" }.into(),
        backend: hub.store.backend().into(),
        store: if ok { "ok" } else { "unavailable" }.into(),
    };
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body)).into_response()
}

/// `GET /metrics`.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text exposition", content_type = "text/plain")))]
pub async fn metrics(State(hub): State<AppState>) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        hub.metrics
            .render(hub.store.commits(), crate::metrics::ProcessUsage::now()),
    )
        .into_response()
}

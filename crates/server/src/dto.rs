//! The JSON bodies of the API: requests (unknown fields refused) and answers, with their
//! OpenAPI schemas. Game-specific parts (configs, actions, views, events) are JSON objects
//! whose shape each game documents; everything around them is fixed here.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// `human`, `bot` or `open`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum SeatKindDto {
    /// A person, through a client holding the seat's token.
    Human,
    /// A bot the server runs.
    Bot,
    /// A person's seat left open at creation, with no token yet: the first caller of `POST
    /// /api/v1/matches/{matchId}/join` gets it (and its token). Once claimed it is `human`.
    Open,
}

/// One seat of a new match.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeatRequest {
    /// Who plays it.
    pub kind: SeatKindDto,
    /// For bots: `random` (every game) or a game's own (`strong`).
    #[serde(default)]
    pub bot: Option<String>,
    /// For human seats: the player's display name, shown to every seat (1–40 characters, no
    /// control characters; spaces around it are dropped). An open seat is named by whoever
    /// joins it (`POST …/join`), a bot by its bot.
    #[serde(default)]
    #[schema(example = "Ada")]
    pub name: Option<String>,
}

/// `POST /api/v1/matches`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateMatchRequest {
    /// The game id (`sokoban`, `connect4`, `tictactoe`, or a team's own).
    #[schema(example = "sokoban")]
    pub game: String,
    /// The game's own config; the game's default when absent.
    #[serde(default)]
    #[schema(value_type = Option<Object>, example = json!({"collection": "microban", "level": 1}))]
    pub config: Option<Value>,
    /// The match seed; a random one when absent (released when the match ends).
    #[serde(default)]
    pub seed: Option<String>,
    /// The content revision to pin; the game's current one when absent.
    #[serde(default)]
    pub revision: Option<String>,
    /// The seats, numbered from 0.
    pub seats: Vec<SeatRequest>,
    /// Ticks per second of the match clock (default 10).
    #[serde(default)]
    pub tick_rate: Option<u32>,
}

/// One seat of a created match, with its token (shown once).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatTicket {
    /// The seat number.
    pub seat: u16,
    /// Who plays it.
    pub kind: SeatKindDto,
    /// The bot, for bot seats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// The seat's bearer token (humans only). The server keeps only its hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The display name recorded for the seat, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The answer to `POST /api/v1/matches`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateMatchResponse {
    /// The match id.
    pub match_id: String,
    /// The game.
    pub game: String,
    /// The pinned revision.
    pub revision: String,
    /// Ticks per second.
    pub tick_rate: u32,
    /// The sequence of a new match: 0.
    pub sequence: u64,
    /// The seats and their tokens.
    pub seats: Vec<SeatTicket>,
    /// The spectator token.
    pub spectator_token: String,
}

/// `POST /api/v1/matches/search`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchRequest {
    /// Seat or spectator tokens (at most 100).
    pub tokens: Vec<String>,
}

/// One match found by search.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchSummary {
    /// The match id.
    pub match_id: String,
    /// The game.
    pub game: String,
    /// The pinned revision.
    pub revision: String,
    /// `active`, `finished` or `archived`.
    pub status: String,
    /// The outcome once ended.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
    /// Creation time, ms since the Unix epoch.
    pub created_at_ms: i64,
    /// The seats the given tokens hold in it (empty for a spectator token).
    pub seats: Vec<u16>,
    /// Whether a given token is its spectator token.
    pub spectator: bool,
}

/// The answer to search: newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse {
    /// The matches.
    pub matches: Vec<MatchSummary>,
}

/// Who is looking: `{"kind": "seat", "seat": 0}` or `{"kind": "spectator"}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ViewerDto {
    /// `seat` or `spectator`.
    pub kind: String,
    /// The seat, for seats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u16>,
}

/// A seat as everyone may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatInfo {
    /// The seat number.
    pub seat: u16,
    /// Who plays it (`open` while nobody has claimed it).
    pub kind: SeatKindDto,
    /// The bot, for bot seats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// The player's display name, if one was given: at creation (`seats[].name`) or when
    /// claiming the seat (`POST …/join`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `POST /api/v1/matches/{matchId}/join` (the body is optional).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JoinRequest {
    /// The player's name, shown to the other seats: 1–40 characters, no control characters
    /// (spaces around it are dropped).
    #[serde(default)]
    #[schema(example = "Ada")]
    pub name: Option<String>,
}

/// The answer to a join: the seat claimed and its token (shown once; the server keeps only
/// its hash).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JoinResponse {
    /// The match id.
    pub match_id: String,
    /// The game.
    pub game: String,
    /// The seat claimed.
    pub seat: u16,
    /// The seat's bearer token.
    pub token: String,
    /// The name recorded for the seat, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A match with a seat to claim, as anyone may see it (no tokens, no view, no seed).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenMatchSummary {
    /// The match id (join with `POST /api/v1/matches/{matchId}/join`).
    pub match_id: String,
    /// The game.
    pub game: String,
    /// The match's config (public: the rules it is played under).
    #[schema(value_type = Object)]
    pub config: Value,
    /// Creation time, ms since the Unix epoch.
    pub created_at_ms: i64,
    /// Every seat: who plays it, and the names given by those who joined.
    pub seats: Vec<SeatInfo>,
    /// The seats still open, in seat order (a join takes the first).
    pub open_seats: Vec<u16>,
}

/// The answer to `GET /api/v1/matches?open=true`: newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenMatchesResponse {
    /// The matches.
    pub matches: Vec<OpenMatchSummary>,
}

/// `GET /api/v1/matches/{matchId}`: the match as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchSnapshot {
    /// The match id.
    pub match_id: String,
    /// The game.
    pub game: String,
    /// The pinned revision.
    pub revision: String,
    /// Who the view is for.
    pub viewer: ViewerDto,
    /// `active`, `finished` or `archived`.
    pub status: String,
    /// The outcome once ended: `{kind, winners}`.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
    /// The last receipt's sequence.
    pub sequence: u64,
    /// The activation step (`expectedStep`).
    pub step: u64,
    /// Ticks per second.
    pub tick_rate: u32,
    /// The server's tick for this match now.
    pub server_tick: u64,
    /// When the current turn times out, if it can.
    pub deadline_tick: Option<u64>,
    /// The game's view for this viewer.
    #[schema(value_type = Object)]
    pub view: Value,
    /// Its fingerprint (equal to the receipt's `views.fingerprint` after the last command).
    pub view_fingerprint: String,
    /// The seats.
    pub seats: Vec<SeatInfo>,
    /// The seed, once the match has ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// While a timed match's clock waits for every human seat to open the board: for whom,
    /// and until when (`deadlineTick` is then null: no time counts yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_start: Option<ClockStartDto>,
    /// Set when this build cannot re-execute the match because an older release wrote it
    /// (docs/storage.md, "Matches an older release wrote"): `view` is then null,
    /// `viewFingerprint` empty, and the snapshot is read from the stored record and log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retired: Option<RetiredDto>,
}

/// Why a match is shown from its stored record only: the code (`format_retired`) and, for a
/// person, what this build could not do with it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RetiredDto {
    /// `format_retired`.
    pub code: String,
    /// What this build could not do with the match.
    pub message: String,
}

/// A timed match whose clock waits for its people (docs/turns.md, "Fair clocks"): the human
/// seats, those that have opened the board, and the tick by which it starts anyway.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClockStartDto {
    /// The human seats.
    pub humans: Vec<u16>,
    /// The human seats that have opened the board.
    pub ready: Vec<u16>,
    /// The human seats still awaited.
    pub waiting_for: Vec<u16>,
    /// The match tick at which the clock starts anyway.
    pub starts_by_tick: u64,
}

/// The answer to `POST /api/v1/matches/{matchId}/ready`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadyResponse {
    /// The seat that said ready.
    pub seat: u16,
    /// Whether the match's clock runs now (it started, or it never waited).
    pub clock_running: bool,
    /// While it still waits: for whom.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_start: Option<ClockStartDto>,
}

/// `POST /api/v1/matches/{matchId}/commands`: a command envelope as a client sends it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CommandRequest {
    /// The idempotency key, unique per match: 1–128 printable ASCII characters.
    #[schema(example = "c-0001")]
    pub command_id: String,
    /// The last sequence the client saw (the match's current sequence).
    pub expected_sequence: u64,
    /// The activation step the client saw, when it cares.
    #[serde(default)]
    pub expected_step: Option<u64>,
    /// The seat; must be the token's (403 otherwise). Optional.
    #[serde(default)]
    pub seat: Option<u16>,
    /// The game's action, e.g. `{"type": "move", "direction": "left"}`.
    #[schema(value_type = Object, example = json!({"type": "move", "direction": "left"}))]
    pub action: Value,
    /// The preview this command commits, when the client insists on exactly what it was
    /// shown: the command is refused with 409 `preview_stale` (and the fresh preview) unless,
    /// now, it would do exactly that.
    #[serde(default)]
    pub preview: Option<PreviewClaim>,
}

/// What a commit says about the preview it commits: the preview answer's `sequence` and
/// `fingerprint`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreviewClaim {
    /// The sequence the preview was made at.
    pub sequence: u64,
    /// The preview's `fingerprint` (action, events and state after).
    #[schema(example = "sha256:…")]
    pub fingerprint: String,
}

/// One viewer's view fingerprint after a command.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ViewForDto {
    /// Who.
    #[schema(value_type = Object)]
    pub viewer: Value,
    /// The fingerprint of that viewer's view after the command.
    pub fingerprint: String,
}

/// A receipt as the caller may see it. Seats and spectators get the events they may see and
/// only their own view fingerprint (`views: {viewer, fingerprint}`); the full replay of an
/// ended match has every receipt in full (`views: {seats: [...], spectator}`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptDto {
    /// Position in the log, from 1.
    pub sequence: u64,
    /// The command id.
    pub command_id: String,
    /// The seat, `null` for system commands (Timeout, ClockResumed).
    pub seat: Option<u16>,
    /// The tick the server stamped.
    pub tick: u64,
    /// The current turn's deadline after the command; left out when no turn can time out
    /// (and in format-1 receipts). Hashed with the receipt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_tick: Option<u64>,
    /// The action as accepted.
    #[schema(value_type = Object)]
    pub action: Value,
    /// What happened, in order (redacted for the caller).
    #[schema(value_type = Vec<Object>)]
    pub events: Value,
    /// State fingerprint before.
    pub before: String,
    /// State fingerprint after.
    pub after: String,
    /// The caller's view fingerprint after.
    pub views: ViewForDto,
    /// The previous receipt's hash.
    pub previous: Option<String>,
    /// This receipt's hash, over the unredacted receipt.
    pub hash: String,
}

/// One parameter of an action kind and the values it may take now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParamSpecDto {
    /// The field name.
    pub name: String,
    /// The values allowed now.
    pub range: ParamRangeDto,
}

/// The values a parameter may take, as `turnstile_core::ParamRange` writes them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ParamRangeDto {
    /// Any integer in `min..=max`.
    Integer {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// One of these values.
    OneOf {
        /// The choices.
        values: Vec<ParamValueDto>,
    },
    /// One of these board cells, `[x, y]` from 0.
    Cells {
        /// The cells.
        #[schema(value_type = Vec<Vec<u16>>)]
        cells: Vec<[u16; 2]>,
    },
    /// A subset of these items with `min..=max` members.
    SubsetOf {
        /// The items.
        items: Vec<ParamValueDto>,
        /// Fewest members.
        min: u32,
        /// Most members.
        max: u32,
    },
}

/// One listed value, typed as the action's field takes it — a JSON integer for an integer
/// field (Duel's `hand`: `[1, 3]`), a string for a string field — so it is sent back verbatim.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ParamValueDto {
    /// An integer (a hand index, a slot, a column, a seat).
    Int(i64),
    /// A string (a direction, an id).
    Text(String),
}

/// An action kind a seat may take now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActionKindDto {
    /// The action's `type`.
    pub kind: String,
    /// Its parameters with their ranges.
    pub params: Vec<ParamSpecDto>,
}

/// `GET .../legal-actions`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegalActionsResponse {
    /// The caller's seat (`null` for a spectator, who has none).
    pub seat: Option<u16>,
    /// The sequence they hold at.
    pub sequence: u64,
    /// The step.
    pub step: u64,
    /// The kinds.
    pub actions: Vec<ActionKindDto>,
}

/// `POST .../preview`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreviewRequest {
    /// The concrete action.
    #[schema(value_type = Object)]
    pub action: Value,
    /// The seat; must be the token's.
    #[serde(default)]
    pub seat: Option<u16>,
}

/// The answer to preview.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewResponse {
    /// The sequence previewed at.
    pub sequence: u64,
    /// The tick previewed at: committing the same action at this sequence and tick yields
    /// `stateFingerprint`.
    pub tick: u64,
    /// The caller's view after.
    #[schema(value_type = Object)]
    pub view: Value,
    /// Its fingerprint.
    pub view_fingerprint: String,
    /// The full state fingerprint after. In an untimed match the commit's `after` equals it
    /// at any later tick while the match is at `sequence`; in a timed match only at `tick`
    /// (the turn clock is part of the state; docs/server.md, "Preview, then commit").
    pub state_fingerprint: String,
    /// The events, as the caller may see them.
    #[schema(value_type = Vec<Object>)]
    pub events: Value,
    /// The preview's own fingerprint: canonical `{action, events, stateFingerprint}`. Send it
    /// back in the command's `preview` to commit exactly this or be told why not.
    pub fingerprint: String,
}

/// `GET .../timeline?after=N&limit=L`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimelineResponse {
    /// The `after` asked for.
    pub after: u64,
    /// Receipts with sequence > after, ascending.
    pub receipts: Vec<ReceiptDto>,
    /// The `after` of the next page, when there is more.
    pub next_after: Option<u64>,
    /// The match's sequence now.
    pub sequence: u64,
}

/// One step of a resolution.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResolutionStep {
    /// From 0, in the order things happened.
    pub index: u32,
    /// The event.
    #[schema(value_type = Object)]
    pub event: Value,
}

/// `GET .../resolutions/{commandId}`: one command's resolution, step by step.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResolutionResponse {
    /// The command id.
    pub command_id: String,
    /// Its sequence.
    pub sequence: u64,
    /// Its steps, for animation.
    pub steps: Vec<ResolutionStep>,
    /// Its receipt.
    pub receipt: ReceiptDto,
}

/// `POST .../resign` (the body is optional).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResignRequest {
    /// The command id of the game's Resign command (default `resign:<seat>`).
    #[serde(default)]
    pub command_id: Option<String>,
}

/// The answer to resign.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResignResponse {
    /// The match status now.
    pub status: String,
    /// The outcome.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
    /// The receipt of the game's Resign command: every game has one, and its receipt carries
    /// the outcome the replay re-derives.
    pub receipt: ReceiptDto,
}

/// A stored content bundle.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContentResponse {
    /// The game.
    pub game: String,
    /// The revision.
    pub revision: String,
    /// Whether it is the game's current revision (what new matches pin).
    pub current: bool,
    /// The typed bundle, `{"content": ..., "game": ...}`, as replays embed it.
    #[schema(value_type = Object)]
    pub bundle: Value,
}

/// `POST /api/v1/content/{game}`: a bundle's files.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishRequest {
    /// Path (relative, `/`-separated) → text content; must include `bundle.json`.
    pub files: BTreeMap<String, String>,
    /// Make it the current revision (default true).
    #[serde(default)]
    pub current: Option<bool>,
}

/// The answer to publishing.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishResponse {
    /// The game.
    pub game: String,
    /// The revision.
    pub revision: String,
    /// Whether it is now the current revision.
    pub current: bool,
    /// False when this revision was already stored.
    pub inserted: bool,
}

/// Seat counts.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatRange {
    /// Fewest.
    pub min: u16,
    /// Most.
    pub max: u16,
}

/// A registered game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    /// The id.
    pub id: String,
    /// The current content revision.
    pub revision: Option<String>,
    /// Seat counts with the default config.
    pub seats: Option<SeatRange>,
    /// Whether seats see different things.
    pub hidden_information: bool,
    /// Bots by name.
    pub bots: Vec<String>,
    /// Whether turns time out on the server.
    pub timeouts: bool,
    /// Whether the game records ClockResumed after an outage.
    pub clock_resumed: bool,
    /// Whether the game has a Resign action: true for every game served (the server will not
    /// start with one that lacks it).
    pub resign: bool,
    /// The default config.
    #[schema(value_type = Option<Object>)]
    pub default_config: Option<Value>,
    /// A JSON Schema of the config, when the game supplies one.
    #[schema(value_type = Option<Object>)]
    pub config_schema: Option<Value>,
    /// What the current content offers (collections and levels, turn configs).
    #[schema(value_type = Option<Object>)]
    pub config_options: Option<Value>,
}

/// `GET /api/v1/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GamesResponse {
    /// The games, by id.
    pub games: Vec<GameInfo>,
}

/// `GET /healthz`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    /// `ok`, or `degraded` when storage does not answer.
    pub status: String,
    /// `sqlite` or `postgres`.
    pub backend: String,
    /// `ok` or `unavailable`.
    pub store: String,
}

/// The answer of `POST /api/v1/matches/{matchId}/hint`: the game's hint for the seat's
/// position at `sequence`. No command was submitted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HintResponse {
    /// The sequence of the position the hint is for.
    pub sequence: u64,
    /// The most positions the search could expand.
    pub node_budget: u64,
    /// The game's hint (Sokoban: docs/sokoban.md, "Hints").
    #[schema(value_type = Object)]
    pub hint: Value,
}

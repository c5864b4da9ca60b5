//! The OpenAPI document of the API, generated from the handlers and bodies (`utoipa`) and
//! served at `/openapi.json`. A test compares it with the committed `crates/server/openapi.json`
//! so the published document never goes stale.

use crate::dto::*;
use crate::error::{ErrorBody, ErrorDetail};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Turnstile",
        description = "The authoritative server of Turnstile: matches of any registered game, commands in, receipts out, redacted for each seat. Seats are numbered from 0; a new match is at sequence 0. Every error is `{\"error\": {\"code\", \"message\", \"details\"}}`.",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        crate::api::list_games,
        crate::api::create_match,
        crate::api::search_matches,
        crate::api::get_match,
        crate::api::submit_command,
        crate::api::legal_actions,
        crate::api::preview,
        crate::api::timeline,
        crate::api::resolution,
        crate::stream::events,
        crate::api::resign,
        crate::api::replay,
        crate::api::full_state,
        crate::api::ready,
        crate::api::join_match,
        crate::api::list_open_matches,
        crate::hint::hint,
        crate::api::get_content,
        crate::api::publish_content,
        crate::api::healthz,
        crate::api::metrics,
    ),
    components(schemas(
        ErrorBody, ErrorDetail, SeatKindDto, SeatRequest, CreateMatchRequest, SeatTicket,
        CreateMatchResponse, SearchRequest, MatchSummary, SearchResponse, ViewerDto, SeatInfo,
        MatchSnapshot, CommandRequest, PreviewClaim, ViewForDto, ReceiptDto, ParamSpecDto,
        ParamRangeDto, ParamValueDto, ActionKindDto,
        LegalActionsResponse, PreviewRequest, PreviewResponse, TimelineResponse, ResolutionStep,
        ResolutionResponse, ResignRequest, ResignResponse, ContentResponse, PublishRequest,
        PublishResponse, SeatRange, GameInfo, GamesResponse, Health, HintResponse, JoinRequest,
        JoinResponse, OpenMatchSummary, OpenMatchesResponse, RetiredDto
    )),
    modifiers(&Bearer),
    tags(
        (name = "games", description = "What this server plays"),
        (name = "matches", description = "Creating and finding matches"),
        (name = "commands", description = "Acting: commands, legal actions, previews, resigning"),
        (name = "timeline", description = "What happened: timeline, resolutions, live events, replays"),
        (name = "content", description = "Content bundles by revision"),
        (name = "operations", description = "Health and metrics")
    )
)]
pub struct ApiDoc;

struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A seat's or the spectator's token from match creation; the admin token for publishing content",
                    ))
                    .build(),
            ),
        );
    }
}

/// The document as pretty JSON.
pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .unwrap_or_else(|_| "{}".to_owned())
}

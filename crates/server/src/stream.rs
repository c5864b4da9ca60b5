//! The live stream: `GET /api/v1/matches/{matchId}/events`, Server-Sent Events.
//!
//! Each event is one receipt, redacted for the caller, with its sequence as the event id. A
//! client that reconnects with `Last-Event-ID: N` (or `?after=N`) first gets every receipt
//! after `N` read back from the store, then the live ones — subscribing to the live channel
//! before reading the store, and skipping anything already sent, so nothing is lost or
//! doubled in between. A stream that falls behind the live channel refills from the store.
//! Without either, the stream starts at the match's current sequence.

use crate::api::AppState;
use crate::auth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::ApiQuery;
use crate::extract::Path;
use crate::hub::{Hub, Slot};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::channel::mpsc;
use futures::SinkExt;
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use turnstile_core::Viewer;
use turnstile_runtime::ReceiptRedactor;
use utoipa::IntoParams;

/// The query of the event stream.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// Resume after this sequence (like `Last-Event-ID`, which wins when both are given).
    #[serde(default)]
    pub after: Option<u64>,
}

/// `GET /api/v1/matches/{matchId}/events`.
#[utoipa::path(get, path = "/api/v1/matches/{matchId}/events", tag = "timeline",
    params(("matchId" = String, Path, description = "The match id"), EventsQuery,
        ("Last-Event-ID" = Option<u64>, Header, description = "Resume after this sequence")),
    security(("bearer" = [])),
    responses((status = 200, description = "`text/event-stream`: `event: receipt`, `id: <sequence>`, `data: <receipt as the caller may see it>`", content_type = "text/event-stream"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn events(
    State(hub): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<EventsQuery>,
) -> ApiResult<Response> {
    let slot = hub.slot(&id).await?;
    let role = hub.authenticate(&slot, &headers).await?;
    let viewer = role.viewer();
    let permit = hub.streams.open(
        &auth::hash_token(auth::bearer(&headers)?),
        hub.config.max_streams_per_token,
    )?;
    let last_event_id = match headers.get("last-event-id") {
        Some(v) => Some(
            v.to_str()
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "invalid_last_event_id",
                        "Last-Event-ID must be a sequence number",
                    )
                })?,
        ),
        None => None,
    };
    // Load the match (for its redactor and sequence) and subscribe before reading anything.
    let live = slot.live.subscribe();
    let (after, redactor) = {
        let guard = hub.lock(&slot).await?;
        let current = guard.as_ref().map(|l| l.m.sequence()).unwrap_or(0);
        let redactor = slot
            .redactor()
            .ok_or_else(|| ApiError::internal("load the match"))?;
        (last_event_id.or(query.after).unwrap_or(current), redactor)
    };
    let (tx, rx) = mpsc::channel::<Result<Event, Infallible>>(64);
    let gone = tx.clone();
    let pumping = pump(hub.clone(), slot, viewer, redactor, after, live, tx);
    tokio::spawn(async move {
        // The stream's place is held until its pump ends or the client goes away (noticed
        // within a second of the response being dropped, even on a quiet match).
        let _permit = permit;
        tokio::select! {
            () = pumping => {}
            () = async {
                while !gone.is_closed() {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            } => {}
        }
    });
    Ok(Sse::new(rx)
        .keep_alive(KeepAlive::new().interval(hub.config.stream_keep_alive()))
        .into_response())
}

fn event(
    redactor: &dyn ReceiptRedactor,
    sequence: u64,
    receipt: &serde_json::Value,
    viewer: Viewer,
) -> Option<Event> {
    let redacted = redactor.redact(receipt, viewer).ok()?;
    Event::default()
        .event("receipt")
        .id(sequence.to_string())
        .json_data(redacted)
        .ok()
}

/// Sends every receipt after `sent` from the store; returns the last sequence sent, or `None`
/// when the client went away.
async fn refill(
    hub: &Hub,
    slot: &Slot,
    viewer: Viewer,
    redactor: &dyn ReceiptRedactor,
    mut sent: u64,
    tx: &mut mpsc::Sender<Result<Event, Infallible>>,
) -> Option<u64> {
    loop {
        let page = match hub.store.log(&slot.id, sent, 500).await {
            Ok(page) => page,
            Err(e) => {
                tracing::warn!(match_id = %slot.id, error = %e, "stream refill failed");
                if tx.is_closed() || hub.stopping() {
                    return None;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if page.is_empty() {
            return Some(sent);
        }
        for record in page {
            if let Some(e) = event(redactor, record.sequence, &record.receipt, viewer) {
                tx.send(Ok(e)).await.ok()?;
            }
            sent = record.sequence;
        }
    }
}

async fn pump(
    hub: Arc<Hub>,
    slot: Arc<Slot>,
    viewer: Viewer,
    redactor: Arc<dyn ReceiptRedactor>,
    after: u64,
    mut live: tokio::sync::broadcast::Receiver<Arc<crate::hub::Committed>>,
    mut tx: mpsc::Sender<Result<Event, Infallible>>,
) {
    let mut shutdown = hub.shutdown.subscribe();
    let Some(mut sent) = refill(&hub, &slot, viewer, redactor.as_ref(), after, &mut tx).await
    else {
        return;
    };
    loop {
        let message = tokio::select! {
            m = live.recv() => m,
            _ = shutdown.changed() => return,
        };
        match message {
            Ok(committed) => {
                if committed.sequence <= sent {
                    continue;
                }
                if committed.sequence > sent + 1 {
                    match refill(&hub, &slot, viewer, redactor.as_ref(), sent, &mut tx).await {
                        Some(s) => sent = s,
                        None => return,
                    }
                    if committed.sequence <= sent {
                        continue;
                    }
                }
                if let Some(e) = event(
                    redactor.as_ref(),
                    committed.sequence,
                    &committed.receipt,
                    viewer,
                ) {
                    if tx.send(Ok(e)).await.is_err() {
                        return;
                    }
                }
                sent = committed.sequence;
            }
            Err(RecvError::Lagged(_)) => {
                match refill(&hub, &slot, viewer, redactor.as_ref(), sent, &mut tx).await {
                    Some(s) => sent = s,
                    None => return,
                }
            }
            Err(RecvError::Closed) => return,
        }
    }
}

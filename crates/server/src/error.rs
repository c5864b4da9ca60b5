//! Every error the server answers with, as one shape: `{"error": {"code", "message", "details"}}`.
//!
//! This is a domain error: a [`ErrorKind`] (what sort of refusal), a stable code, a message and
//! details. It knows nothing of HTTP; the API edge (`api_http.rs`) maps each kind to its status
//! once, so the hub, the driver and the extractors never choose status codes.
//!
//! Codes are stable snake_case strings clients switch on; messages are for people and may be
//! reworded; `details` carries the numbers a client needs (the current sequence and step of a
//! 409, the problems of a rejected bundle). Nothing internal leaks: store errors are logged
//! here and answered with a generic sentence, never a path or a backtrace.

use serde::Serialize;
use serde_json::{json, Value};
use std::borrow::Cow;
use turnstile_store::StoreError;
use utoipa::ToSchema;

/// What sort of refusal an error is; the API edge gives each kind its HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ErrorKind {
    /// The request is not what the route takes (400).
    BadRequest,
    /// No token, or a token that names nobody here (401).
    Unauthorized,
    /// A known caller asking for what it may not do (403).
    Forbidden,
    /// Nothing by that name (404).
    NotFound,
    /// The route does not take this method (405).
    MethodNotAllowed,
    /// The caller acted on a stale view, or on what another command already took (409).
    Conflict,
    /// The body is larger than the route takes (413).
    PayloadTooLarge,
    /// The body is not of the media type the route takes (415).
    UnsupportedMediaType,
    /// The rules (or the runtime's shared rules) refuse (422).
    Rejected,
    /// Too many requests or streams for this caller (429).
    RateLimited,
    /// A defect (500).
    Internal,
    /// Storage is down; retry later (503).
    Unavailable,
}

/// A server error: a kind, a stable code, a message and details.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// What sort of refusal this is.
    pub kind: ErrorKind,
    /// The stable code.
    pub code: Cow<'static, str>,
    /// For a person.
    pub message: String,
    /// Machine-readable details (an object, possibly empty).
    pub details: Value,
}

/// The JSON body of every error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// The error inside [`ErrorBody`].
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable snake_case code, e.g. `stale_sequence`, `bad_token`, or a game's legality code.
    #[schema(example = "stale_sequence")]
    pub code: String,
    /// What went wrong, for a person.
    pub message: String,
    /// Details: `currentSequence` and `currentStep` for a 409, `problems` for invalid content,
    /// `retryAfterSeconds` for a 429.
    #[schema(value_type = Object)]
    pub details: Value,
}

impl ApiError {
    /// An error with empty details.
    pub fn new(
        kind: ErrorKind,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        ApiError {
            kind,
            code: code.into(),
            message: message.into(),
            details: json!({}),
        }
    }

    /// The same error with details.
    pub fn with_details(mut self, details: Value) -> Self {
        self.details = details;
        self
    }

    /// 400: a body, path or query that is not what the route takes.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::BadRequest, code, message)
    }

    /// 401: no token, or a token that names nobody here.
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unauthorized, code, message)
    }

    /// 403: a known caller asking for what it may not do.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Forbidden, code, message)
    }

    /// 404.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound, code, message)
    }

    /// 409: the client acted on a stale view; details carry where the match is.
    pub fn conflict(
        code: &'static str,
        message: impl Into<String>,
        sequence: u64,
        step: u64,
    ) -> Self {
        Self::new(ErrorKind::Conflict, code, message)
            .with_details(json!({ "currentSequence": sequence, "currentStep": step }))
    }

    /// 422: the rules (or the runtime's shared rules) refused the action.
    pub fn rejected(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Rejected, code, message)
    }

    /// 429 with the seconds to wait.
    pub fn rate_limited(message: impl Into<String>, retry_after_seconds: u64) -> Self {
        Self::new(ErrorKind::RateLimited, "rate_limited", message)
            .with_details(json!({ "retryAfterSeconds": retry_after_seconds }))
    }

    /// 503: storage is down; retry later.
    pub fn unavailable() -> Self {
        Self::new(
            ErrorKind::Unavailable,
            "store_unavailable",
            "storage is unavailable; nothing was changed, retry later",
        )
    }

    /// 500 for a defect, with a message that names no internals.
    pub fn internal(what: &str) -> Self {
        Self::new(
            ErrorKind::Internal,
            "internal",
            format!("the server could not {what}; nothing was changed"),
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match &e {
            StoreError::Unavailable(detail) => {
                tracing::warn!(detail = %detail, "store unavailable");
                ApiError::unavailable()
            }
            StoreError::NotFound(_) => {
                ApiError::not_found("record_not_found", "what the request names is not stored")
            }
            StoreError::Conflict(c) => ApiError::new(
                ErrorKind::Conflict,
                "store_conflict",
                format!("a uniqueness rule refused the write ({})", c.uniqueness()),
            ),
            other => {
                tracing::error!(code = other.code(), detail = %other, "store error");
                ApiError::internal("read or write its storage")
            }
        }
    }
}

impl ApiError {
    /// Whether this is the server's fault (a defect or storage down) rather than the caller's.
    pub fn is_server_error(&self) -> bool {
        matches!(self.kind, ErrorKind::Internal | ErrorKind::Unavailable)
    }
}

/// The result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

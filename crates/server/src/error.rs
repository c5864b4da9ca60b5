//! Every error the API answers with, as one shape: `{"error": {"code", "message", "details"}}`.
//!
//! Codes are stable snake_case strings clients switch on; messages are for people and may be
//! reworded; `details` carries the numbers a client needs (the current sequence and step of a
//! 409, the problems of a rejected bundle). Nothing internal leaks: store errors are logged
//! here and answered with a generic sentence, never a path or a backtrace.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{json, Value};
use std::borrow::Cow;
use turnstile_store::StoreError;
use utoipa::ToSchema;

/// An API error: a status, a stable code, a message and details.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
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
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
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
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 401: no token, or a token that names nobody here.
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, message)
    }

    /// 403: a known caller asking for what it may not do.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }

    /// 404.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }

    /// 409: the client acted on a stale view; details carry where the match is.
    pub fn conflict(
        code: &'static str,
        message: impl Into<String>,
        sequence: u64,
        step: u64,
    ) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
            .with_details(json!({ "currentSequence": sequence, "currentStep": step }))
    }

    /// 422: the rules (or the runtime's shared rules) refused the action.
    pub fn rejected(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    /// 429 with the seconds to wait.
    pub fn rate_limited(message: impl Into<String>, retry_after_seconds: u64) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message)
            .with_details(json!({ "retryAfterSeconds": retry_after_seconds }))
    }

    /// 503: storage is down; retry later.
    pub fn unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "store_unavailable",
            "storage is unavailable; nothing was changed, retry later",
        )
    }

    /// 500 for a defect, with a message that names no internals.
    pub fn internal(what: &str) -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
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
            StoreError::NotFound(_) => ApiError::not_found("not_found", "not found"),
            StoreError::Conflict(c) => ApiError::new(
                StatusCode::CONFLICT,
                "conflict",
                format!("a uniqueness rule refused the write ({})", c.uniqueness()),
            ),
            other => {
                tracing::error!(code = other.code(), detail = %other, "store error");
                ApiError::internal("read or write its storage")
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            axum::Json(ErrorBody {
                error: ErrorDetail {
                    code: self.code.into_owned(),
                    message: self.message,
                    details: self.details.clone(),
                },
            }),
        )
            .into_response();
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            if let Some(seconds) = self
                .details
                .get("retryAfterSeconds")
                .and_then(Value::as_u64)
            {
                if let Ok(value) = seconds.to_string().parse() {
                    response.headers_mut().insert("retry-after", value);
                }
            }
        }
        response
    }
}

/// The result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

//! The API edge's HTTP mapping: the one place a server error becomes a status code. Everything
//! behind the edge (the hub, the driver, the extractors) speaks [`ErrorKind`]; keeping status
//! codes here means a refusal's status is decided once, and the catalogue in `docs/errors.md`
//! can be checked against it (see `tests/catalogue.rs`).

use crate::error::{ApiError, ErrorBody, ErrorDetail, ErrorKind};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

impl ErrorKind {
    /// The HTTP status of this kind.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
            ErrorKind::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorKind::Forbidden => StatusCode::FORBIDDEN,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorKind::Rejected => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let kind = self.kind;
        let retry_after = self
            .details
            .get("retryAfterSeconds")
            .and_then(Value::as_u64);
        let mut response = (
            kind.status(),
            axum::Json(ErrorBody {
                error: ErrorDetail {
                    code: self.code.into_owned(),
                    message: self.message,
                    details: self.details,
                },
            }),
        )
            .into_response();
        if kind == ErrorKind::RateLimited {
            if let Some(value) =
                retry_after.and_then(|s| HeaderValue::from_str(&s.to_string()).ok())
            {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
        }
        if kind == ErrorKind::PayloadTooLarge {
            // The rest of a refused body may still be on its way: say so and close, rather
            // than read it to find the next request (hyper closes after a `close` response).
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

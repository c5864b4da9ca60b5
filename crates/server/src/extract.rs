//! Request extractors that answer in the API's error shape: JSON bodies (400 malformed or
//! wrong fields, 413 too large, 415 not `application/json`), path segments (400 when not
//! UTF-8), query strings, and the client's address.

use crate::error::ApiError;
use crate::error::ErrorKind;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, FailedToBufferBody};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use serde::de::DeserializeOwned;
use std::net::{IpAddr, SocketAddr};

/// A JSON body, refused with the API's errors.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

/// A JSON body that may be empty (then `T::default()`).
#[derive(Debug)]
pub struct OptionalJson<T>(pub T);

/// Whether the request says its body is JSON: `application/json` (parameters such as
/// `charset` allowed) or a `+json` type. Requiring it keeps a plain HTML form on another site
/// from creating matches or sending commands: a form cannot send that type without a CORS
/// preflight, which the server only answers for configured origins.
fn declares_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

fn unsupported_media_type() -> ApiError {
    ApiError::new(
        ErrorKind::UnsupportedMediaType,
        "unsupported_media_type",
        "the request body must be JSON, sent with `Content-Type: application/json`",
    )
}

async fn body_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(req, state).await.map_err(|e| match e {
        BytesRejection::FailedToBufferBody(FailedToBufferBody::LengthLimitError(_)) => {
            ApiError::new(
                ErrorKind::PayloadTooLarge,
                "body_too_large",
                "the request body is larger than this route accepts",
            )
        }
        _ => ApiError::bad_request("unreadable_body", "the request body could not be read"),
    })
}

fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            ApiError::bad_request("malformed_json", format!("the body is not JSON: {e}"))
        } else {
            ApiError::bad_request(
                "invalid_body",
                format!("the body does not fit this route: {e}"),
            )
        }
    })
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        if !declares_json(req.headers()) {
            return Err(unsupported_media_type());
        }
        let bytes = body_bytes(req, state).await?;
        parse(&bytes).map(ApiJson)
    }
}

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let json = declares_json(req.headers());
        let bytes = body_bytes(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        if !json {
            return Err(unsupported_media_type());
        }
        parse(&bytes).map(OptionalJson)
    }
}

/// Path parameters, refused with the API's errors (axum's own answer is plain text): a
/// segment that is not UTF-8 after percent-decoding, such as `%ff`, is a 400 `invalid_path`.
/// Named `Path` so handlers read as with axum's.
#[derive(Debug)]
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Path(p.0))
            .map_err(|e| {
                ApiError::bad_request("invalid_path", format!("the request path is unusable: {e}"))
            })
    }
}

/// A query string, refused with the API's errors.
#[derive(Debug)]
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|q| ApiQuery(q.0))
            .map_err(|e| ApiError::bad_request("invalid_query", format!("bad query string: {e}")))
    }
}

/// The client's address (the TCP peer), if the server knows it.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Ok(ClientAddr(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

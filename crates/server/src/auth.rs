//! Who is calling: per-seat and spectator bearer tokens, and the admin token.
//!
//! A token is 32 random bytes from the operating system, written as `tsk_` and 64 hex digits.
//! The server hands each token out once, when the match is created, and keeps only its SHA-256
//! hash: a leaked database does not let anyone act for a seat. A request names its caller with
//! `Authorization: Bearer <token>`; the match's seat hashes say which seat (or the spectator)
//! that is. No token is a 401 `missing_token`, a token that names nobody in the match a 401
//! `bad_token`.

use crate::edge::{hex, Entropy};
use crate::error::ApiError;
use axum::http::HeaderMap;
use sha2::{Digest, Sha256};
use turnstile_core::{Seat, Viewer};

/// The prefix of every token, so they are recognizable in logs and scanners.
pub const TOKEN_PREFIX: &str = "tsk_";

/// A fresh token: 32 random bytes.
pub fn new_token(entropy: &dyn Entropy) -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    entropy.fill(&mut bytes).map_err(|e| {
        tracing::error!(error = %e, "no randomness for a token");
        ApiError::internal("draw a random token")
    })?;
    Ok(format!("{TOKEN_PREFIX}{}", hex(&bytes)))
}

/// The stored form of a token: `sha256:` and the hex digest.
pub fn hash_token(token: &str) -> String {
    format!("sha256:{}", hex(&Sha256::digest(token.as_bytes())))
}

/// Who a match's token names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A seat, which may act for itself.
    Seat(Seat),
    /// A spectator, who sees public information only.
    Spectator,
}

impl Role {
    /// The viewer this role sees as.
    pub fn viewer(self) -> Viewer {
        match self {
            Role::Seat(seat) => Viewer::Seat(seat),
            Role::Spectator => Viewer::Spectator,
        }
    }

    /// The seat, if the role is one.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Role::Seat(seat) => Some(seat),
            Role::Spectator => None,
        }
    }
}

/// The bearer token of a request, or 401 `missing_token`.
pub fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    let value = headers
        .get(axum::http::header::AUTHORIZATION)
        .ok_or_else(|| {
            ApiError::unauthorized(
                "missing_token",
                "this route needs `Authorization: Bearer <token>`",
            )
        })?;
    let text = value
        .to_str()
        .map_err(|_| ApiError::unauthorized("bad_token", "the Authorization header is not text"))?;
    let token = text
        .strip_prefix("Bearer ")
        .or_else(|| text.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            ApiError::unauthorized(
                "bad_token",
                "the Authorization header must be `Bearer <token>`",
            )
        })?;
    Ok(token)
}

/// Compares two strings in time independent of where they differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The role a token hash has among a match's seat hashes and spectator hash, if any (the
/// seat hashes include seats claimed after creation: `Hub::role`).
pub fn role_in(
    seat_hashes: &[Option<String>],
    spectator_hash: Option<&str>,
    token_hash: &str,
) -> Option<Role> {
    for (index, hash) in seat_hashes.iter().enumerate() {
        if let Some(hash) = hash {
            if constant_time_eq(hash, token_hash) {
                return Some(Role::Seat(Seat(u16::try_from(index).ok()?)));
            }
        }
    }
    match spectator_hash {
        Some(hash) if constant_time_eq(hash, token_hash) => Some(Role::Spectator),
        _ => None,
    }
}

/// Checks the admin token of content publishing.
pub fn authenticate_admin(headers: &HeaderMap, admin_token: Option<&str>) -> Result<(), ApiError> {
    let Some(expected) = admin_token else {
        return Err(ApiError::forbidden(
            "publishing_disabled",
            "this server has no admin token configured (`TURNSTILE_ADMIN_TOKEN`, `--admin-token-file` or `--admin-token`), so it accepts no content",
        ));
    };
    let token = bearer(headers)?;
    if constant_time_eq(&hash_token(token), &hash_token(expected)) {
        Ok(())
    } else {
        Err(ApiError::unauthorized(
            "bad_token",
            "the admin token is wrong",
        ))
    }
}

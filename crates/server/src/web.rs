//! The web client slot: the files of `web/` at the repository root, embedded in the binary and
//! served at `/`. The full client is a later issue; `web/index.html` lists the games through
//! the API so the route is real.

use axum::http::{header, Uri};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web");

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `uri`'s path (`/` is `index.html`), if any.
pub fn file(uri: &Uri) -> Option<Response> {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if path.split('/').any(|p| p == ".." || p.starts_with('.')) {
        return None;
    }
    let file = WEB.get_file(path)?;
    Some(
        (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            file.contents(),
        )
            .into_response(),
    )
}

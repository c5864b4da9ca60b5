//! The web client: the files of `web/` at the repository root, embedded in the binary and
//! served at `/`, plus `/web-files.json`, the list of those files, by which the client finds
//! the web module of each game (`web/<game id>.js`) without a shared file naming them.

use axum::http::{header, StatusCode, Uri};
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

/// The names of the embedded top-level files, sorted: the body of `/web-files.json`.
pub(crate) fn file_list() -> Vec<String> {
    let mut names: Vec<String> = WEB
        .files()
        .filter_map(|f| f.path().to_str().map(str::to_owned))
        .filter(|name| !name.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The embedded file at `uri`'s path (`/` is `index.html`), if any.
pub fn file(uri: &Uri) -> Option<Response> {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if path == "web-files.json" {
        let body = serde_json::json!({ "files": file_list() }).to_string();
        return Some(
            (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, "application/json"),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                body,
            )
                .into_response(),
        );
    }
    if path.split('/').any(|p| p == ".." || p.starts_with('.')) {
        return None;
    }
    let file = WEB.get_file(path)?;
    Some(
        (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            file.contents(),
        )
            .into_response(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_list_names_the_shell_and_every_game_module() {
        let names = file_list();
        for expected in [
            "index.html",
            "registry.js",
            "generic.js",
            "sokoban.js",
            "clover.js",
        ] {
            assert!(
                names.iter().any(|n| n == expected),
                "{expected} in {names:?}"
            );
        }
        assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted");
    }

    #[test]
    fn web_files_json_is_served_as_json() {
        let uri: Uri = "/web-files.json".parse().expect("uri");
        let response = file(&uri).expect("served");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        let hidden: Uri = "/.hidden".parse().expect("uri");
        assert!(file(&hidden).is_none());
    }
}

//! The committed OpenAPI document (`crates/server/openapi.json`) is the one the server serves;
//! regenerate it with `TURNSTILE_UPDATE_OPENAPI=1 cargo test -p turnstile-server --test openapi`.

#[test]
fn the_committed_openapi_document_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi.json");
    let generated = turnstile_server::openapi::document() + "\n";
    if std::env::var("TURNSTILE_UPDATE_OPENAPI").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "crates/server/openapi.json is stale; run TURNSTILE_UPDATE_OPENAPI=1 cargo test -p turnstile-server --test openapi"
    );
    let doc: serde_json::Value = serde_json::from_str(&generated).unwrap();
    for path in [
        "/api/v1/games",
        "/api/v1/matches",
        "/api/v1/matches/search",
        "/api/v1/matches/{matchId}",
        "/api/v1/matches/{matchId}/commands",
        "/api/v1/matches/{matchId}/legal-actions",
        "/api/v1/matches/{matchId}/preview",
        "/api/v1/matches/{matchId}/timeline",
        "/api/v1/matches/{matchId}/resolutions/{commandId}",
        "/api/v1/matches/{matchId}/events",
        "/api/v1/matches/{matchId}/resign",
        "/api/v1/matches/{matchId}/replay",
        "/api/v1/content/{game}",
        "/api/v1/content/{game}/{revision}",
        "/healthz",
        "/metrics",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is not documented");
    }
    for schema in ["CommandRequest", "ReceiptDto", "MatchSnapshot", "ErrorBody"] {
        assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
    }
}

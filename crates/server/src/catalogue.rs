//! The check that keeps `docs/errors.md` the one catalogue of error codes: every code the
//! server can emit is listed, with the status its kind maps to, once — and only the API edge
//! knows HTTP status codes. Tests only; nothing here ships.

#[cfg(test)]
mod tests {
    use crate::error::{ApiError, ErrorKind};
    use crate::hub::refusal_error;
    use crate::StartError;
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};
    use turnstile_core::{CommandRefusal, Rejection, Seat};
    use turnstile_runtime::{ErasedError, ErasedRefusal, MatchError};

    const CATALOGUE: &str = include_str!("../../../docs/errors.md");

    /// The catalogue: code → status ("—" for start-up codes). Duplicates fail here.
    fn catalogue() -> BTreeMap<String, String> {
        let mut codes = BTreeMap::new();
        for line in CATALOGUE.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // `| `code` | status | meaning |` → ["", "`code`", "status", "meaning", ""]
            if cells.len() < 5 || !cells[1].starts_with('`') {
                continue;
            }
            let code = cells[1].trim_matches('`').to_owned();
            assert!(
                code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code:?} is not snake_case"
            );
            assert!(!cells[3].is_empty(), "{code} has no sentence");
            let previous = codes.insert(code.clone(), cells[2].to_owned());
            assert!(
                previous.is_none(),
                "{code} is listed twice in docs/errors.md: a code has one meaning"
            );
        }
        assert!(codes.len() > 30, "the catalogue did not parse");
        codes
    }

    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') && name != "node_modules" {
                    sources(&path, out);
                }
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }

    fn kind_of(constructor: &str, explicit: Option<&str>) -> Option<ErrorKind> {
        Some(match (constructor, explicit) {
            ("bad_request", _) => ErrorKind::BadRequest,
            ("unauthorized", _) => ErrorKind::Unauthorized,
            ("forbidden", _) => ErrorKind::Forbidden,
            ("not_found", _) => ErrorKind::NotFound,
            ("conflict", _) => ErrorKind::Conflict,
            ("rejected", _) => ErrorKind::Rejected,
            ("new", Some(kind)) => match kind {
                "BadRequest" => ErrorKind::BadRequest,
                "Unauthorized" => ErrorKind::Unauthorized,
                "Forbidden" => ErrorKind::Forbidden,
                "NotFound" => ErrorKind::NotFound,
                "MethodNotAllowed" => ErrorKind::MethodNotAllowed,
                "Conflict" => ErrorKind::Conflict,
                "PayloadTooLarge" => ErrorKind::PayloadTooLarge,
                "UnsupportedMediaType" => ErrorKind::UnsupportedMediaType,
                "Rejected" => ErrorKind::Rejected,
                "RateLimited" => ErrorKind::RateLimited,
                "Internal" => ErrorKind::Internal,
                "Unavailable" => ErrorKind::Unavailable,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Every `ApiError::<constructor>(…, "literal"` in the server's sources, with its kind.
    fn literal_codes() -> Vec<(String, ErrorKind, String)> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let mut found = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let mut rest = text.as_str();
            while let Some(at) = rest.find("ApiError::") {
                rest = &rest[at + "ApiError::".len()..];
                let Some(open) = rest.find('(') else { break };
                let constructor = &rest[..open];
                if !constructor
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_')
                {
                    continue;
                }
                let args = rest[open + 1..].trim_start();
                let args = args.strip_prefix("crate::error::").unwrap_or(args);
                let (explicit, args) = match args.strip_prefix("ErrorKind::") {
                    Some(after) => {
                        let end = after.find(',').unwrap_or(0);
                        (Some(after[..end].trim()), after[end + 1..].trim_start())
                    }
                    None => (None, args),
                };
                let Some(literal) = args.strip_prefix('"') else {
                    continue;
                };
                let Some(end) = literal.find('"') else {
                    continue;
                };
                let code = &literal[..end];
                let Some(kind) = kind_of(constructor, explicit) else {
                    continue;
                };
                found.push((code.to_owned(), kind, file.display().to_string()));
            }
        }
        found
    }

    fn status(kind: ErrorKind) -> String {
        kind.status().as_u16().to_string()
    }

    fn assert_listed(codes: &BTreeMap<String, String>, code: &str, want: &str, from: &str) {
        match codes.get(code) {
            Some(status) => assert_eq!(
                status, want,
                "{code} (from {from}) is {want} but docs/errors.md says {status}"
            ),
            None => panic!("{code} (from {from}) is emitted but not in docs/errors.md"),
        }
    }

    #[test]
    fn every_literal_code_is_catalogued_with_its_status() {
        let codes = catalogue();
        let found = literal_codes();
        assert!(found.len() > 30, "the source scan found too little");
        for (code, kind, file) in &found {
            assert_listed(&codes, code, &status(*kind), file);
        }
        // The constructors that fix their own code.
        for e in [
            ApiError::rate_limited("x", 1),
            ApiError::unavailable(),
            ApiError::internal("x"),
        ] {
            assert_listed(&codes, &e.code, &status(e.kind), "a fixed constructor");
        }
        for e in [
            turnstile_store::StoreError::NotFound("x".into()),
            turnstile_store::StoreError::Unavailable("x".into()),
            turnstile_store::StoreError::Corrupt("x".into()),
            turnstile_store::StoreError::Conflict(turnstile_store::Conflict::CommandId {
                match_id: "m".into(),
                command_id: "c".into(),
            }),
        ] {
            let e = ApiError::from(e);
            assert_listed(&codes, &e.code, &status(e.kind), "a store error");
        }
    }

    /// A code is one situation: the same code is never emitted under two kinds (which would
    /// give it two statuses), and a spectator asking for a seat-only thing — a command, a
    /// preview, a hint, a ready mark — is one situation with one code (`not_a_seat` once meant
    /// the same thing as `spectator` for ready marks only).
    #[test]
    fn each_code_has_one_meaning() {
        let codes = catalogue();
        let mut kinds: BTreeMap<String, (ErrorKind, String)> = BTreeMap::new();
        for (code, kind, file) in literal_codes() {
            if let Some((first, at)) = kinds.get(&code) {
                assert_eq!(
                    *first, kind,
                    "{code} is emitted as {first:?} in {at} and as {kind:?} in {file}"
                );
            } else {
                kinds.insert(code, (kind, file));
            }
        }
        let spectator_sites: Vec<(String, String)> = spectator_refusals();
        assert!(
            spectator_sites.len() >= 2,
            "the scan found too few spectator refusals: {spectator_sites:?}"
        );
        for (code, file) in &spectator_sites {
            assert_eq!(
                code, "spectator",
                "a spectator refused a seat-only request in {file} with {code:?}; that situation's code is `spectator`"
            );
        }
        assert!(!codes.contains_key("not_a_seat"));
    }

    /// The code of every 403 whose message speaks of a spectator (the places that refuse a
    /// spectator token), with its file.
    fn spectator_refusals() -> Vec<(String, String)> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let mut found = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            // spelt in pieces so this scan (and the literal scan) does not find itself
            for opening in [
                concat!("ApiError", "::forbidden("),
                concat!("ErrorKind", "::Forbidden,"),
            ] {
                for (at, _) in text.match_indices(opening) {
                    // the code literal, then the message literal
                    let literals: Vec<&str> = text[at + opening.len()..]
                        .split('"')
                        .skip(1)
                        .step_by(2)
                        .take(2)
                        .collect();
                    if let [code, message] = literals[..] {
                        if message.contains("spectator") {
                            found.push((code.to_owned(), file.display().to_string()));
                        }
                    }
                }
            }
        }
        found
    }

    #[test]
    fn every_refusal_of_the_runtime_is_catalogued() {
        let codes = catalogue();
        let refusals = [
            ErasedRefusal::InvalidAction("x".into()),
            ErasedRefusal::Refused(CommandRefusal::StaleSequence {
                expected: 1,
                current: 2,
            }),
            ErasedRefusal::Refused(CommandRefusal::StaleStep {
                expected: 1,
                current: 2,
            }),
            ErasedRefusal::Refused(CommandRefusal::UnknownSeat {
                seat: Seat(3),
                seats: 2,
            }),
            ErasedRefusal::Refused(CommandRefusal::SeatRequired),
            ErasedRefusal::Refused(CommandRefusal::SystemOnly),
            ErasedRefusal::Refused(CommandRefusal::TickWentBackwards { tick: 1, last: 2 }),
            ErasedRefusal::Refused(CommandRefusal::CommandIdReused {
                command_id: "c".into(),
            }),
            ErasedRefusal::Refused(CommandRefusal::InvalidCommandId { reason: "x".into() }),
        ];
        for refusal in &refusals {
            let e = refusal_error(refusal, 1, 0);
            assert_eq!(
                e.code,
                refusal.code(),
                "the answer keeps the runtime's code"
            );
            assert_listed(&codes, &e.code, &status(e.kind), "a command refusal");
        }
        // A rule rejection keeps the game's own code (catalogued per game), always 422.
        let rule = ErasedRefusal::Refused(CommandRefusal::Rule(Rejection::new("wall", "x")));
        assert_eq!(refusal_error(&rule, 1, 0).kind, ErrorKind::Rejected);
    }

    #[test]
    fn every_match_creation_error_is_catalogued() {
        let codes = catalogue();
        let errors = [
            ErasedError::UnknownBot {
                seat: Seat(0),
                bot: "x".into(),
                known: "y".into(),
            },
            ErasedError::BotMissing(Seat(0)),
            ErasedError::BotFailed {
                seat: Seat(0),
                message: "x".into(),
            },
            ErasedError::Bundle("x".into()),
            ErasedError::Entry("x".into()),
            ErasedError::WrongGame {
                bundle: "a".into(),
                game: "b".into(),
            },
            ErasedError::Canonical("x".into()),
            ErasedError::Match(MatchError::TickRate),
            ErasedError::Match(MatchError::Canonical("x".into())),
            ErasedError::Match(MatchError::Restore("x".into())),
        ];
        // `create_match` answers these as 422 with the runtime's code; `invalid_config` is
        // the one 400 (checked by the literal scan).
        for e in &errors {
            assert_listed(&codes, e.code(), "422", "a match creation error");
        }
        assert_listed(&codes, "seat_count", "422", "a match creation error");
        assert_eq!(
            ErasedError::InvalidConfig("x".into()).code(),
            "invalid_config"
        );
    }

    #[test]
    fn start_codes_are_catalogued_and_differ_from_request_codes() {
        let codes = catalogue();
        let errors = [
            StartError::Config("x".into()),
            StartError::BuiltinContent {
                game: "g".into(),
                problems: "p".into(),
            },
            StartError::Store(turnstile_store::StoreError::Corrupt("x".into())),
            StartError::NoResignAction { game: "g".into() },
        ];
        for e in &errors {
            assert_listed(&codes, e.code(), "—", "a start error");
        }
        // A store that is down at start means what a 503 means later: one code.
        let down = StartError::Store(turnstile_store::StoreError::Unavailable("x".into()));
        assert_eq!(down.code(), "store_unavailable");
        assert_eq!(
            codes.get("store_unavailable").map(String::as_str),
            Some("503")
        );
        // The server's settings and a match's config are different things with different codes.
        assert_ne!(StartError::Config("x".into()).code(), "invalid_config");
    }

    #[test]
    fn replay_file_codes_are_catalogued() {
        use turnstile_runtime::ReplayError;
        let codes = catalogue();
        let errors = [
            ReplayError::Malformed("x".into()),
            ReplayError::UnknownFormat(9),
            ReplayError::UnknownGame("g".into(), "h".into()),
            ReplayError::Bundle("x".into()),
            ReplayError::Entry("x".into()),
            ReplayError::Setup(MatchError::Canonical("x".into())),
            ReplayError::RulesRetired {
                game: "g".into(),
                file: 0,
                oldest: 1,
                current: 1,
            },
            ReplayError::RulesUnknown {
                game: "g".into(),
                file: 2,
                current: 1,
            },
        ];
        for e in &errors {
            // The three shared with the server keep its status; the rest are the file's own.
            let want = match e.code() {
                "unknown_game" => "404",
                "invalid_bundle" | "invalid_entry" => "422",
                _ => "—",
            };
            assert_listed(&codes, e.code(), want, "a replay file error");
        }
    }

    #[test]
    fn only_the_api_edge_knows_http_status_codes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        for dir in ["crates", "games", "tests", "fuzz", "bench"] {
            sources(&root.join(dir), &mut files);
        }
        let needle = concat!("Status", "Code");
        let edge = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offenders = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            if !text.contains(needle) {
                continue;
            }
            let at_the_edge = file.parent().map(|p| p.canonicalize().ok())
                == Some(edge.canonicalize().ok())
                && file
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("api"));
            if !at_the_edge {
                offenders.push(file.display().to_string());
            }
        }
        assert!(
            offenders.is_empty(),
            "HTTP status codes outside crates/server/src/api*: {offenders:?}"
        );
        assert!(files.len() > 50, "the workspace scan found too little");
    }
}

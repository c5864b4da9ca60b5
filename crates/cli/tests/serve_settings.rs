//! `turnstile serve` refuses a wrong setting before it creates anything: a CORS origin that is
//! not one, an empty node id, an address it cannot listen on, a creation rate below one a
//! second, connection limits of zero (or timeouts over a day), and an admin token given two
//! ways, empty or unreadable. Each exits 3 with a message naming the flag, and no database file
//! appears. The admin token from `TURNSTILE_ADMIN_TOKEN` or `--admin-token-file` is the one the
//! server then checks.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "turnstile-serve-settings-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `serve` with `args` on a fresh database path (and `env`), expects exit 3 with every
/// needle in its output, and checks the database file was never created.
fn refused(name: &str, args: &[&str], env: &[(&str, &str)], needles: &[&str]) {
    let dir = temp_dir(name);
    let db = dir.join("t.db");
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnstile"));
    command
        .arg("serve")
        .arg("--database")
        .arg(&db)
        .env_remove("TURNSTILE_ADMIN_TOKEN");
    if !args.contains(&"--addr") {
        command.args(["--addr", "127.0.0.1:0"]);
    }
    command.args(args);
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().expect("the binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(3), "serve {args:?}\n{text}");
    for needle in needles {
        assert!(
            text.contains(needle),
            "serve {args:?}: no {needle:?} in\n{text}"
        );
    }
    assert!(
        !text.contains("listening on"),
        "serve {args:?} listened:\n{text}"
    );
    assert!(
        !db.exists(),
        "serve {args:?} created the database before refusing"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_are_refused_before_the_database_is_created() {
    refused(
        "cors",
        &["--cors-origin", "not a url"],
        &[],
        &["CORS origin", "not a url"],
    );
    refused("node", &["--node-id", ""], &[], &["node id is empty"]);
    refused(
        "addr",
        &["--addr", "not-an-address"],
        &[],
        &["cannot listen on not-an-address"],
    );
    refused(
        "rate",
        &["--create-rate", "30"],
        &[],
        &["--create-rate 30", "multiple of 60"],
    );
    for flag in [
        "--header-timeout",
        "--idle-timeout",
        "--max-connections",
        "--streams-per-token",
    ] {
        refused(
            &flag[2..],
            &[flag, "0"],
            &[],
            &[&format!("{flag} 0"), "at least 1"],
        );
    }
    refused(
        "long",
        &["--idle-timeout", "90000"],
        &[],
        &["--idle-timeout 90000", "at most 86400"],
    );
}

#[test]
fn a_bad_admin_token_is_refused_naming_its_source() {
    let dir = temp_dir("tokens");
    let empty = dir.join("empty");
    std::fs::write(&empty, "\n").unwrap();
    let two_lines = dir.join("two");
    std::fs::write(&two_lines, "a\nb\n").unwrap();
    let missing = dir.join("missing");
    refused(
        "two-ways",
        &["--admin-token", "a"],
        &[("TURNSTILE_ADMIN_TOKEN", "b")],
        &["given 2 ways", "--admin-token", "TURNSTILE_ADMIN_TOKEN"],
    );
    refused(
        "empty-env",
        &[],
        &[("TURNSTILE_ADMIN_TOKEN", " ")],
        &["from TURNSTILE_ADMIN_TOKEN is empty"],
    );
    refused(
        "empty-file",
        &["--admin-token-file", empty.to_str().unwrap()],
        &[],
        &["from --admin-token-file is empty"],
    );
    refused(
        "two-lines",
        &["--admin-token-file", two_lines.to_str().unwrap()],
        &[],
        &["more than one line"],
    );
    refused(
        "missing",
        &["--admin-token-file", missing.to_str().unwrap()],
        &[],
        &["--admin-token-file", "cannot read the admin token"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `serve` with `args`/`env` and answers what `POST /api/v1/content/sokoban` says to
/// `token`: the status line's code and the body.
fn publish_answer(name: &str, args: &[&str], env: &[(&str, &str)], token: &str) -> (u16, String) {
    let dir = temp_dir(name);
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnstile"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--database"])
        .arg(dir.join("t.db"))
        .args(args)
        .env_remove("TURNSTILE_ADMIN_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("the binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let base = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| {
            l.split("listening on http://")
                .nth(1)
                .map(|r| r.split_whitespace().next().unwrap_or("").to_owned())
        })
        .expect("the server says where it listens");
    // Files that are no bundle: the admin check comes first, then the bundle is judged.
    let answer = raw_post(
        &base,
        "/api/v1/content/sokoban",
        token,
        r#"{"files": {"bundle.json": "{}"}}"#,
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    answer
}

/// One HTTP/1.1 POST over a plain socket (the test crate has no HTTP client).
fn raw_post(addr: &str, path: &str, token: &str, body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

#[test]
fn the_admin_token_comes_from_the_environment_or_a_file() {
    let dir = temp_dir("token-file");
    let file = dir.join("token");
    std::fs::write(&file, "from-a-file\n").unwrap();
    let file = file.to_str().unwrap().to_owned();
    for (name, args, env, token) in [
        (
            "env",
            vec![],
            vec![("TURNSTILE_ADMIN_TOKEN", "from-the-env")],
            "from-the-env",
        ),
        (
            "file",
            vec!["--admin-token-file", file.as_str()],
            vec![],
            "from-a-file",
        ),
    ] {
        let (status, body) = publish_answer(name, &args, &env, "wrong");
        assert!(
            status == 401 && body.contains("bad_token"),
            "{name}: a wrong token is refused: {body}"
        );
        let (status, body) = publish_answer(name, &args, &env, token);
        assert!(
            status != 401 && status != 403,
            "{name}: the token from the {name} is the admin token: {body}"
        );
    }
    // No token at all: publishing is off.
    let (status, body) = publish_answer("none", &[], &[], "anything");
    assert!(
        status == 403 && body.contains("publishing_disabled"),
        "{body}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

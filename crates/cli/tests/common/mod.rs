//! What the tests that run `turnstile serve` share: the real binary on a SQLite file, on a
//! loopback port it prints, and an HTTP client whose requests fail instead of hanging.

#![allow(dead_code)] // each test file uses its own part

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `turnstile serve` and the base URL it listens on.
pub struct Serving {
    pub child: Child,
    pub base: String,
}

/// Starts `turnstile serve` on `db` with no rate limits; returns once it listens.
pub fn serve(db: &Path) -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--command-rate",
            "0",
            "--create-rate",
            "0",
        ])
        .arg("--database")
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let mut base = None;
    let mut printed = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        printed.push(line.clone());
        if let Some(rest) = line.split("listening on ").nth(1) {
            base = Some(rest.split_whitespace().next().unwrap().to_owned());
            break;
        }
    }
    assert!(
        printed
            .iter()
            .any(|l| l.contains("database") && l.contains("sqlite")),
        "the database path is printed: {printed:?}"
    );
    // Keep draining stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Serving {
        child,
        base: base.expect("the address is printed"),
    }
}

/// The tests' HTTP client: a request that takes over 10 s fails the test instead of hanging it.
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

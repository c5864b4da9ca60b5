//! A golden file's text, written first from the fresh text when `TURNSTILE_BLESS=1`: the I/O
//! half of the golden replay tests of both games (Connect Four's includes this file by path).

use std::path::Path;

/// Reads `relative` under `manifest_dir`, after writing `fresh` to it when blessing.
pub fn read_or_bless(manifest_dir: &str, relative: &str, fresh: &str) -> String {
    let path = Path::new(manifest_dir).join(relative);
    if std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, fresh).unwrap();
    }
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; bless it with TURNSTILE_BLESS=1", path.display()))
}

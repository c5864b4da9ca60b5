//! Rebuilds the server when the embedded web client changes: `include_dir!` reads `web/` at
//! compile time, and cargo does not watch that folder by itself.
fn main() {
    println!("cargo:rerun-if-changed=../../web");
}

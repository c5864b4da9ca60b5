//! `turnstile content publish DIR [--server URL --admin-token T | --database PATH|URL]`:
//! validates a bundle folder and publishes it as its game's current revision, either through a
//! running server's API or straight into a database. Running matches keep the revision they
//! pinned.

use crate::exit::Outcome;
use std::collections::BTreeMap;
use std::path::Path;
use turnstile_runtime::read_bundle_dir;

/// Where to publish.
pub enum Target {
    /// A running server, with its admin token.
    Server {
        /// Its base URL (`http://127.0.0.1:8080`).
        url: String,
        /// The admin token.
        admin_token: String,
    },
    /// A database, directly.
    Database(String),
}

/// Publishes the bundle in `dir`.
pub fn run(dir: &Path, target: Target) -> Outcome {
    let source = match read_bundle_dir(dir) {
        Ok(source) => source,
        Err(e) => return Outcome::input(e.to_string()),
    };
    let registry = turnstile_samples::registry();
    let game = match registry.validate_content(&source) {
        Ok((game, _)) => game,
        Err(problems) => {
            for p in &problems {
                println!("{}/{p}", dir.display());
            }
            return Outcome::check_failed(format!(
                "{}: {} problem(s) in the bundle; nothing was published",
                dir.display(),
                problems.len()
            ));
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return Outcome::input(format!("cannot start the async runtime: {e}")),
    };
    runtime.block_on(async move {
        match target {
            Target::Database(database) => {
                let store = match turnstile_store::open(&database).await {
                    Ok(s) => s,
                    Err(e) => return Outcome::input(format!("cannot open {database}: {e}")),
                };
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
                    .unwrap_or(0);
                match turnstile_server::publish(&registry, store.as_ref(), game, &source, true, now)
                    .await
                {
                    Ok(published) => {
                        println!("{}", serde_json::to_string(&published).unwrap_or_default());
                        Outcome::ok()
                    }
                    Err(e) => Outcome::input(format!("{} ({})", e.message, e.code)),
                }
            }
            Target::Server { url, admin_token } => {
                let mut files = BTreeMap::new();
                for (path, bytes) in &source.files {
                    match String::from_utf8(bytes.clone()) {
                        Ok(text) => {
                            files.insert(path.clone(), text);
                        }
                        Err(_) => {
                            return Outcome::input(format!(
                                "{path} is not UTF-8 text; publish it with --database"
                            ))
                        }
                    }
                }
                let client = reqwest::Client::new();
                let endpoint = format!("{}/api/v1/content/{game}", url.trim_end_matches('/'));
                let response = client
                    .post(&endpoint)
                    .bearer_auth(admin_token)
                    .json(&serde_json::json!({ "files": files }))
                    .send()
                    .await;
                match response {
                    Ok(r) => {
                        let status = r.status();
                        let text = r.text().await.unwrap_or_default();
                        println!("{text}");
                        if status.is_success() {
                            Outcome::ok()
                        } else {
                            Outcome::input(format!("the server answered {status}"))
                        }
                    }
                    Err(e) => Outcome::input(format!("cannot reach {endpoint}: {e}")),
                }
            }
        }
    })
}

//! How many live streams each token holds open: a stream is an open connection and a task on
//! this node, so one token (a seat's, or a match's shared spectator token) may hold at most
//! `ServerConfig::max_streams_per_token` at once; beyond that the stream is refused with 429
//! `too_many_streams` instead of piling up until the process runs out of files.

use crate::error::{ApiError, ErrorKind};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Open streams per token hash.
#[derive(Debug, Default)]
pub(crate) struct StreamCounts {
    open: Mutex<BTreeMap<String, usize>>,
}

/// One open stream; dropping it (the stream ended) frees its place.
#[derive(Debug)]
pub(crate) struct StreamPermit {
    counts: Arc<StreamCounts>,
    key: String,
}

impl StreamCounts {
    /// Takes a place for `key` (a token hash) if it holds fewer than `cap` streams.
    pub(crate) fn open(self: &Arc<Self>, key: &str, cap: usize) -> Result<StreamPermit, ApiError> {
        let mut open = match self.open.lock() {
            Ok(o) => o,
            Err(poisoned) => poisoned.into_inner(),
        };
        let held = open.get(key).copied().unwrap_or(0);
        if held >= cap {
            return Err(ApiError::new(
                ErrorKind::RateLimited,
                "too_many_streams",
                format!("this token already holds {held} live streams, the most one token may hold; close one first"),
            )
            .with_details(serde_json::json!({ "retryAfterSeconds": 1, "limit": cap })));
        }
        open.insert(key.to_owned(), held + 1);
        Ok(StreamPermit {
            counts: self.clone(),
            key: key.to_owned(),
        })
    }

    /// Streams held by `key` now.
    #[cfg(test)]
    pub(crate) fn held(&self, key: &str) -> usize {
        self.open
            .lock()
            .map(|o| o.get(key).copied().unwrap_or(0))
            .unwrap_or(0)
    }
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut open = match self.counts.open.lock() {
            Ok(o) => o,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(n) = open.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_holds_at_most_the_cap_and_closing_frees_a_place() {
        let counts = Arc::new(StreamCounts::default());
        let a = counts.open("t", 2).expect("first");
        let _b = counts.open("t", 2).expect("second");
        let refused = counts.open("t", 2).expect_err("third");
        assert_eq!(refused.code, "too_many_streams");
        assert!(counts.open("other", 2).is_ok(), "the cap is per token");
        drop(a);
        assert_eq!(counts.held("t"), 1);
        assert!(counts.open("t", 2).is_ok());
    }
}

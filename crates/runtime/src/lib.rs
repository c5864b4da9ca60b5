//! turnstile-runtime (being written).

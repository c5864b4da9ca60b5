//! turnstile-determinism (being written).

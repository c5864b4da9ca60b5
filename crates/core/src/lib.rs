//! turnstile-core (being written).

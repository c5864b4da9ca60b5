//! turnstile-turns (being written).

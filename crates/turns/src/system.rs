//! Command ids of the system commands: `timeout:<turn index>` and `clock-resumed:<sequence>`.
//!
//! The ids are idempotency keys: two nodes racing to time out the same turn, or to resume the
//! same match, produce the same id, so only one command is ever applied.

/// The id of the system `Timeout` command for the turn with this match-wide index:
/// `timeout:<turn index>`.
pub fn timeout_command_id(turn_index: u64) -> String {
    format!("timeout:{turn_index}")
}

/// The turn index named by a `Timeout` command id, if `id` is exactly one
/// ([`timeout_command_id`] round-trips; `timeout:007` and `timeout:+7` do not parse).
pub fn parse_timeout_command_id(id: &str) -> Option<u64> {
    parse_canonical(id, "timeout:")
}

/// The id of the system `ClockResumed` command recorded by the node that took the match over,
/// naming the match sequence it observed at takeover: `clock-resumed:<sequence>`.
pub fn clock_resumed_command_id(sequence: u64) -> String {
    format!("clock-resumed:{sequence}")
}

/// The sequence named by a `ClockResumed` command id, if `id` is exactly one.
pub fn parse_clock_resumed_command_id(id: &str) -> Option<u64> {
    parse_canonical(id, "clock-resumed:")
}

fn parse_canonical(id: &str, prefix: &str) -> Option<u64> {
    let digits = id.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_only_canonical_forms_parse() {
        assert_eq!(timeout_command_id(7), "timeout:7");
        assert_eq!(parse_timeout_command_id("timeout:7"), Some(7));
        assert_eq!(parse_timeout_command_id("timeout:0"), Some(0));
        assert_eq!(
            parse_timeout_command_id(&timeout_command_id(u64::MAX)),
            Some(u64::MAX)
        );
        for bad in [
            "timeout:",
            "timeout:007",
            "timeout:+7",
            "timeout:-1",
            "timeout:7 ",
            "Timeout:7",
        ] {
            assert_eq!(parse_timeout_command_id(bad), None, "{bad}");
        }
        assert_eq!(
            parse_timeout_command_id("timeout:18446744073709551616"),
            None
        );
        assert_eq!(clock_resumed_command_id(12), "clock-resumed:12");
        assert_eq!(parse_clock_resumed_command_id("clock-resumed:12"), Some(12));
        assert_eq!(parse_clock_resumed_command_id("timeout:12"), None);
    }
}

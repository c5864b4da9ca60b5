//! How clover turns list lengths and positions into the integers that commands, events and
//! stream draws speak: the one place that decides it, so no call site picks a fallback of its
//! own (a length that "fails" to fit and quietly becomes 0 was the old way, and it was wrong
//! whenever it happened).
//!
//! Must never invent a value: a length saturates only where no list can reach the bound (the
//! reason is written beside each function), and a position that a command cannot name is
//! `None`, never a neighbouring position.

/// A list's length (a pool of catalog entries, the hand, the jokers, the deck, the cards of a
/// command) as the `u32` a stream draw bounds by or an event counts in. No list of the run
/// reaches `u32::MAX` entries — each entry is at least 16 bytes, so such a list would not fit
/// the memory of this process — so the saturation at `u32::MAX` is never taken.
pub(crate) fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A list's length as the `i64` the rules compare it with (joker slots, consumable slots) and
/// formula variables hold. Exact: no list reaches `i64::MAX` entries, for the reason
/// [`len_u32`] gives.
pub(crate) fn len_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A position (a hand card, a shop offer, a pack, a joker slot, a card of an open pack) as the
/// `u8` a command names it by; `None` from 256 on, which no command can name. The legal-action
/// lists and the bot offer only the positions commands can name.
pub(crate) fn position(i: usize) -> Option<u8> {
    u8::try_from(i).ok()
}

/// The positions `0..n` that commands can name (at most 256).
pub(crate) fn positions(n: usize) -> impl Iterator<Item = u8> {
    (0..n).map_while(position)
}

/// A rank from a uniform draw below 13: 2 to 14 (ace).
pub(crate) fn rank_of_draw(draw: u32) -> u8 {
    // `draw % 13` is below 13, so it fits a `u8` and the sum is at most 14.
    (draw % 13) as u8 + 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_stop_at_what_a_command_can_name() {
        assert_eq!(positions(3).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(positions(300).count(), 256);
        assert_eq!(position(256), None);
        assert_eq!(position(255), Some(255));
    }

    #[test]
    fn ranks_of_draws_cover_two_to_ace() {
        assert_eq!(rank_of_draw(0), 2);
        assert_eq!(rank_of_draw(12), 14);
        assert_eq!(rank_of_draw(13), 2);
        assert_eq!(len_u32(7), 7);
    }
}

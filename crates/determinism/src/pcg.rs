//! PCG32, exactly the PCG reference C implementation's `pcg32_random_t`: the only source of
//! randomness in rules, small enough (some 25 lines) to own, so no release of another crate
//! can change an output.
//!
//! ```text
//! multiplier = 6364136223846793005
//! seed(initstate, initseq): state = 0; inc = (initseq << 1) | 1; step(); state += initstate; step()
//! step():                   state = state * multiplier + inc            (wrapping u64)
//! next_u32():               old = state; step();
//!                           xorshifted = (u32)(((old >> 18) ^ old) >> 27); rot = (u32)(old >> 59)
//!                           return rotate_right(xorshifted, rot)
//! below(n), n >= 1:         threshold = (2^32 - n) mod n; loop { r = next_u32(); if r >= threshold return r mod n }
//! shuffle:                  for i in (1..len).rev() { j = below(i + 1); swap(i, j) }
//! ```
//!
//! ```
//! use turnstile_determinism::Pcg32;
//! let mut rng = Pcg32::new(42, 54);
//! assert_eq!(rng.next_u32(), 0xa15c02b7);
//! ```

use core::fmt;
use core::num::NonZeroU32;

use serde::{Deserialize, Serialize};

/// The PCG32 multiplier.
pub const MULTIPLIER: u64 = 6364136223846793005;

/// A PCG32 (XSH-RR, 64-bit state, 32-bit output) generator.
///
/// Serialized as `{"inc": "<16 hex>", "state": "<16 hex>"}` (lowercase, exactly 16 digits);
/// deserializing rejects an even increment, which no seeding can produce.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Pcg32Parts")]
pub struct Pcg32 {
    #[serde(with = "crate::canonical::hex_u64")]
    state: u64,
    #[serde(with = "crate::canonical::hex_u64")]
    inc: u64,
}

/// The serialized fields of a [`Pcg32`], before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Pcg32Parts {
    #[serde(with = "crate::canonical::hex_u64")]
    state: u64,
    #[serde(with = "crate::canonical::hex_u64")]
    inc: u64,
}

impl TryFrom<Pcg32Parts> for Pcg32 {
    type Error = RandomError;
    fn try_from(parts: Pcg32Parts) -> Result<Pcg32, RandomError> {
        Pcg32::from_parts(parts.state, parts.inc)
    }
}

/// Why a draw could not be made. Every variant has a stable [`code`](RandomError::code).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RandomError {
    /// `below(0)`: there is no integer in `0..0`.
    #[error("below(0): the bound of a draw must be at least 1")]
    ZeroBound,
    /// A slice too long for 32-bit draws to shuffle.
    #[error("cannot shuffle {len} items: at most 4294967295 are supported")]
    SliceTooLong {
        /// The slice length.
        len: u64,
    },
    /// A generator state with an even increment.
    #[error("a PCG32 increment must be odd (got {inc:#018x})")]
    EvenIncrement {
        /// The rejected increment.
        inc: u64,
    },
}

impl RandomError {
    /// The stable, documented code of this error (`random.*`).
    pub const fn code(&self) -> &'static str {
        match self {
            RandomError::ZeroBound => "random.zero_bound",
            RandomError::SliceTooLong { .. } => "random.slice_too_long",
            RandomError::EvenIncrement { .. } => "random.even_increment",
        }
    }
}

impl Pcg32 {
    /// Seeds a generator as `pcg32_srandom_r(initstate, initseq)` does.
    pub const fn new(initstate: u64, initseq: u64) -> Pcg32 {
        let mut rng = Pcg32 {
            state: 0,
            inc: (initseq << 1) | 1,
        };
        rng.step();
        rng.state = rng.state.wrapping_add(initstate);
        rng.step();
        rng
    }

    /// A generator with exactly this state and increment (as stored in a match state).
    /// The increment must be odd.
    pub const fn from_parts(state: u64, inc: u64) -> Result<Pcg32, RandomError> {
        if inc & 1 == 0 {
            return Err(RandomError::EvenIncrement { inc });
        }
        Ok(Pcg32 { state, inc })
    }

    /// The current LCG state.
    pub const fn state(&self) -> u64 {
        self.state
    }

    /// The (odd) LCG increment, which selects the stream.
    pub const fn inc(&self) -> u64 {
        self.inc
    }

    #[inline]
    const fn step(&mut self) {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
    }

    /// The next 32-bit output (`pcg32_random_r`).
    #[inline]
    pub const fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.step();
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A uniform draw from `0..n` (`pcg32_boundedrand_r`), drawing as many outputs as
    /// rejection sampling needs. `n = 0` is [`RandomError::ZeroBound`] and draws nothing.
    #[inline]
    pub fn below(&mut self, n: u32) -> Result<u32, RandomError> {
        match NonZeroU32::new(n) {
            Some(n) => Ok(self.below_nonzero(n)),
            None => Err(RandomError::ZeroBound),
        }
    }

    /// [`Pcg32::below`] for a bound known to be non-zero.
    #[inline]
    pub fn below_nonzero(&mut self, n: NonZeroU32) -> u32 {
        let n = n.get();
        let threshold = n.wrapping_neg() % n;
        loop {
            let r = self.next_u32();
            if r >= threshold {
                return r % n;
            }
        }
    }

    /// Shuffles `items` in place: Fisher–Yates from the last index down,
    /// `for i in (1..len).rev() { j = below(i + 1); swap(i, j) }`.
    ///
    /// A slice longer than `u32::MAX` is [`RandomError::SliceTooLong`] and draws nothing.
    pub fn shuffle<T>(&mut self, items: &mut [T]) -> Result<(), RandomError> {
        let len = u32::try_from(items.len()).map_err(|_| RandomError::SliceTooLong {
            len: u64::try_from(items.len()).unwrap_or(u64::MAX),
        })?;
        for i in (1..len).rev() {
            // i + 1 <= len <= u32::MAX: the saturation never happens.
            let bound = NonZeroU32::MIN.saturating_add(i);
            let j = self.below_nonzero(bound);
            items.swap(i as usize, j as usize);
        }
        Ok(())
    }
}

impl fmt::Debug for Pcg32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Pcg32 {{ state: {:#018x}, inc: {:#018x} }}",
            self.state, self.inc
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_first_six() {
        let mut rng = Pcg32::new(42, 54);
        let got: Vec<u32> = (0..6).map(|_| rng.next_u32()).collect();
        assert_eq!(
            got,
            [0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e]
        );
    }

    #[test]
    fn below_zero_is_error_and_draws_nothing() {
        let mut rng = Pcg32::new(1, 2);
        let before = rng.clone();
        assert_eq!(rng.below(0), Err(RandomError::ZeroBound));
        assert_eq!(rng, before);
        assert_eq!(rng.below(1), Ok(0));
        assert_ne!(rng, before, "below(1) still draws once");
    }

    #[test]
    fn below_rejects_under_threshold() {
        // n = 2^31 + 1: threshold = (2^32 - n) mod n = 2^31 - 1.
        let n = (1u32 << 31) + 1;
        let mut a = Pcg32::new(7, 9);
        let mut b = a.clone();
        for _ in 0..64 {
            let got = a.below(n).unwrap();
            let want = loop {
                let r = b.next_u32();
                if r >= (1 << 31) - 1 {
                    break r % n;
                }
            };
            assert_eq!(got, want);
        }
    }

    #[test]
    fn shuffle_short_slices_draw_nothing() {
        let mut rng = Pcg32::new(3, 4);
        let before = rng.clone();
        let mut empty: [u8; 0] = [];
        rng.shuffle(&mut empty).unwrap();
        let mut one = [1];
        rng.shuffle(&mut one).unwrap();
        assert_eq!(rng, before);
        let mut two = [1, 2];
        rng.shuffle(&mut two).unwrap();
        assert_ne!(rng, before);
    }

    #[test]
    fn serde_form() {
        let rng = Pcg32::from_parts(u64::MAX, 1).unwrap();
        assert_eq!(
            crate::canonical::to_canonical_string(&rng).unwrap(),
            r#"{"inc":"0000000000000001","state":"ffffffffffffffff"}"#
        );
        assert_eq!(
            Pcg32::from_parts(0, 2),
            Err(RandomError::EvenIncrement { inc: 2 })
        );
    }
}

//! Connect Four as an m,n,k-game: the 7,6,4-game with gravity. A seat drops a disc into a
//! column; it lands on the lowest open cell; four in a row — across, down or either diagonal —
//! wins; a full board without a line is a draw.

use turnstile_core::{BundleSource, ParamRange, ParamSpec, ParamValue};
use turnstile_mnk::{Action, Board, Cell, Mnk, RuleError, Variant};

/// An action of Connect Four: the kit's one action type, a drop being
/// `{"type": "drop", "column": 3}` (`column` from 0 at the left).
pub type ConnectFourAction = Action<Mnk<ConnectFourRules>>;

/// The rules that make an m,n,k-game Connect Four.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectFourRules;

impl Variant for ConnectFourRules {
    const ID: &'static str = "connect4";
    const WIDTH: u16 = 7;
    const HEIGHT: u16 = 6;
    const LINE: u16 = 4;
    const PLAY_KIND: &'static str = "drop";
    const PLAY_FIELD: &'static str = "column";

    /// A column.
    fn bundled_source() -> BundleSource {
        crate::bundled_source()
    }

    type Move = u16;

    /// Where the disc comes to rest: the lowest open cell of the column.
    fn target(board: &Board, column: &u16) -> Result<Cell, RuleError> {
        if *column >= board.width() {
            return Err(RuleError::ColumnOutOfRange {
                column: *column,
                last: board.width().saturating_sub(1),
            });
        }
        board
            .landing_cell(*column)
            .ok_or(RuleError::ColumnFull { column: *column })
    }

    fn moves(board: &Board) -> impl Iterator<Item = u16> {
        board.open_columns()
    }

    /// `column`: an `Integer` range when the open columns are contiguous (always at the start),
    /// otherwise `OneOf` the open columns, as integers.
    fn play_params(board: &Board) -> Vec<ParamSpec> {
        let open: Vec<u16> = board.open_columns().collect();
        let range = match (open.first(), open.last()) {
            (Some(&min), Some(&max)) if usize::from(max - min) + 1 == open.len() => {
                ParamRange::Integer {
                    min: i64::from(min),
                    max: i64::from(max),
                }
            }
            _ => ParamRange::OneOf {
                values: open.iter().copied().map(ParamValue::from).collect(),
            },
        };
        vec![ParamSpec {
            name: "column".into(),
            range,
        }]
    }
}

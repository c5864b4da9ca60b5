//! Exit codes, the same for every subcommand (DESIGN.md, "The command line").

use std::process::ExitCode;

/// Success.
pub const OK: u8 = 0;
/// A check failed: an invalid level, a divergent replay, an unsolved solution.
pub const CHECK_FAILED: u8 = 1;
/// Usage error (clap also exits with 2).
pub const USAGE: u8 = 2;
/// Input or I/O error: a file that can't be read or parsed.
pub const INPUT: u8 = 3;

/// The outcome of a subcommand: an exit code, with the message to print on standard error for
/// failures.
pub struct Outcome {
    /// The exit code.
    pub code: u8,
    /// Printed on standard error when present.
    pub message: Option<String>,
}

impl Outcome {
    /// Success, nothing more to say.
    pub fn ok() -> Self {
        Outcome {
            code: OK,
            message: None,
        }
    }

    /// A failed check.
    pub fn check_failed(message: impl Into<String>) -> Self {
        Outcome {
            code: CHECK_FAILED,
            message: Some(message.into()),
        }
    }

    /// An input or I/O error.
    pub fn input(message: impl Into<String>) -> Self {
        Outcome {
            code: INPUT,
            message: Some(message.into()),
        }
    }

    /// A usage error found after parsing (a level number out of range).
    pub fn usage(message: impl Into<String>) -> Self {
        Outcome {
            code: USAGE,
            message: Some(message.into()),
        }
    }

    /// Prints the message and turns the code into the process's exit code.
    pub fn finish(self) -> ExitCode {
        if let Some(message) = self.message {
            eprintln!("turnstile: {message}");
        }
        ExitCode::from(self.code)
    }
}

/// Writes to standard output without the panic `println!` raises when stdout is closed: a
/// reader that went away (`turnstile … --json | head`) ends the program quietly with success,
/// as a pipeline expects; any other write error ends it with the input/I/O code. Use it
/// through [`outln!`](crate::outln) and [`out!`](crate::out).
pub fn write_stdout(args: std::fmt::Arguments<'_>, newline: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(i32::from(OK));
        }
        eprintln!("turnstile: standard output: {e}");
        std::process::exit(i32::from(INPUT));
    }
}

/// `println!` for the CLI: see [`write_stdout`].
#[macro_export]
macro_rules! outln {
    () => { $crate::exit::write_stdout(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::exit::write_stdout(format_args!($($arg)*), true) };
}

/// `print!` for the CLI: see [`write_stdout`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::exit::write_stdout(format_args!($($arg)*), false) };
}

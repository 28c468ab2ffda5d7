//! The one error type shared by every quiver library crate.

/// Result alias used throughout quiver.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in quiver's libraries.
///
/// Context (which column, which buffer, which index) is part of the message: errors are never
/// wrapped in each other, the layer that knows more adds it with [`Error::context`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An I/O error from the underlying reader or writer.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// Input that does not follow the specification (malformed, truncated or inconsistent data).
    #[error("{}{message}", fmt_context(context))]
    OutOfSpec {
        /// Where the problem is, outermost first (e.g. `column "a"`, `child 0`).
        context: String,
        /// What is wrong, with the numbers involved.
        message: String,
    },
    /// Valid input using a feature quiver does not (yet) support.
    #[error("not supported: {0}")]
    NotSupported(String),
    /// A caller passed an argument that cannot be honoured.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A size or offset computation overflowed.
    #[error("overflow: {0}")]
    Overflow(String),
    /// A compression codec failed.
    #[error("codec error: {0}")]
    Codec(String),
}

fn fmt_context(context: &str) -> String {
    if context.is_empty() {
        String::new()
    } else {
        format!("{context}: ")
    }
}

impl Error {
    /// An [`Error::OutOfSpec`] without context.
    pub fn oos(message: impl Into<String>) -> Self {
        Error::OutOfSpec {
            context: String::new(),
            message: message.into(),
        }
    }

    /// An [`Error::InvalidArgument`].
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::InvalidArgument(message.into())
    }

    /// Prefixes `outer` to the context of an [`Error::OutOfSpec`]; other variants are returned
    /// unchanged.
    ///
    /// ```
    /// use quiver_arrow::Error;
    /// let e = Error::oos("offset 3 is 7, below offset 2 (9)").context("child 0").context("column \"a\"");
    /// assert_eq!(e.to_string(), "column \"a\", child 0: offset 3 is 7, below offset 2 (9)");
    /// ```
    pub fn context(self, outer: impl AsRef<str>) -> Self {
        match self {
            Error::OutOfSpec { context, message } => {
                let context = if context.is_empty() {
                    outer.as_ref().to_string()
                } else {
                    format!("{}, {context}", outer.as_ref())
                };
                Error::OutOfSpec { context, message }
            }
            other => other,
        }
    }
}

/// Returns early with an [`Error::OutOfSpec`] built from a format string.
#[macro_export]
macro_rules! oos {
    ($($arg:tt)*) => {
        return Err($crate::Error::oos(format!($($arg)*)))
    };
}

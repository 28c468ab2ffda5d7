//! The one error type shared by every quiver library crate.

/// Result alias used throughout quiver.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in quiver's libraries.
///
/// Every variant carries a *context*: where the problem is, outermost first (`message 3,
/// record batch 0, column "a", buffer 5`). Errors are never wrapped in each other; the layer
/// that knows more adds to the context with [`Error::context`], whatever the variant. The
/// message says what is wrong, with the numbers involved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An I/O error from the underlying reader or writer.
    #[error("{}I/O error: {source}", fmt_context(context))]
    Io {
        /// Where (see [`Error::context`]).
        context: String,
        /// The error of the reader or writer.
        source: std::io::Error,
    },
    /// Input that does not follow the specification (malformed, truncated or inconsistent data).
    #[error("{}{message}", fmt_context(context))]
    OutOfSpec {
        /// Where (see [`Error::context`]).
        context: String,
        /// What is wrong.
        message: String,
    },
    /// Valid input using a feature quiver does not (yet) support.
    #[error("{}not supported: {message}", fmt_context(context))]
    NotSupported {
        /// Where (see [`Error::context`]).
        context: String,
        /// What is not supported.
        message: String,
    },
    /// A caller passed an argument that cannot be honoured.
    #[error("{}invalid argument: {message}", fmt_context(context))]
    InvalidArgument {
        /// Where (see [`Error::context`]).
        context: String,
        /// What is wrong with the argument.
        message: String,
    },
    /// A size or offset computation overflowed.
    #[error("{}overflow: {message}", fmt_context(context))]
    Overflow {
        /// Where (see [`Error::context`]).
        context: String,
        /// What overflowed.
        message: String,
    },
    /// A compression codec failed.
    #[error("{}codec error: {message}", fmt_context(context))]
    Codec {
        /// Where (see [`Error::context`]).
        context: String,
        /// The codec's complaint.
        message: String,
    },
}

fn fmt_context(context: &str) -> String {
    if context.is_empty() {
        String::new()
    } else {
        format!("{context}: ")
    }
}

impl From<std::io::Error> for Error {
    fn from(source: std::io::Error) -> Self {
        Error::Io {
            context: String::new(),
            source,
        }
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

    /// An [`Error::InvalidArgument`] without context.
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::InvalidArgument {
            context: String::new(),
            message: message.into(),
        }
    }

    /// An [`Error::NotSupported`] without context.
    pub fn not_supported(message: impl Into<String>) -> Self {
        Error::NotSupported {
            context: String::new(),
            message: message.into(),
        }
    }

    /// An [`Error::Overflow`] without context.
    pub fn overflow(message: impl Into<String>) -> Self {
        Error::Overflow {
            context: String::new(),
            message: message.into(),
        }
    }

    /// An [`Error::Codec`] without context.
    pub fn codec(message: impl Into<String>) -> Self {
        Error::Codec {
            context: String::new(),
            message: message.into(),
        }
    }

    /// Prefixes `outer` to the context, whatever the variant: the layer that knows where the
    /// problem is (which message, batch, column, buffer) says so on the way out.
    ///
    /// ```
    /// use quiver_arrow::Error;
    /// let e = Error::oos("offset 3 is 7, below offset 2 (9)").context("child 0").context("column \"a\"");
    /// assert_eq!(e.to_string(), "column \"a\", child 0: offset 3 is 7, below offset 2 (9)");
    /// let e = Error::codec("zstd: Unknown frame descriptor").context("buffer 5").context("record batch 0");
    /// assert_eq!(e.to_string(), "record batch 0, buffer 5: codec error: zstd: Unknown frame descriptor");
    /// ```
    pub fn context(mut self, outer: impl AsRef<str>) -> Self {
        let context = match &mut self {
            Error::Io { context, .. }
            | Error::OutOfSpec { context, .. }
            | Error::NotSupported { context, .. }
            | Error::InvalidArgument { context, .. }
            | Error::Overflow { context, .. }
            | Error::Codec { context, .. } => context,
        };
        *context = if context.is_empty() {
            outer.as_ref().to_string()
        } else {
            format!("{}, {context}", outer.as_ref())
        };
        self
    }

    /// The error as the input's fault: an [`Error::InvalidArgument`] (a constructor refusing
    /// what a reader passed it) becomes [`Error::OutOfSpec`], context kept; others are
    /// returned as they are.
    pub fn into_input_error(self) -> Self {
        match self {
            Error::InvalidArgument { context, message } => Error::OutOfSpec { context, message },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_takes_context() {
        let io = std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "short read");
        let cases = [
            (Error::from(io), "I/O error: short read"),
            (Error::oos("bad"), "bad"),
            (Error::not_supported("x"), "not supported: x"),
            (Error::invalid("y"), "invalid argument: y"),
            (Error::overflow("z"), "overflow: z"),
            (Error::codec("w"), "codec error: w"),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
            let e = e.context("buffer 2").context("message 1");
            assert_eq!(e.to_string(), format!("message 1, buffer 2: {text}"));
        }
    }

    #[test]
    fn input_errors_keep_their_context() {
        let e = Error::invalid("3 values for 4 slots")
            .context("column \"a\"")
            .into_input_error();
        assert!(matches!(e, Error::OutOfSpec { .. }));
        assert_eq!(e.to_string(), "column \"a\": 3 values for 4 slots");
    }
}

//! How Parquet data becomes Arrow data: the reader's choices.

use quiver_arrow::datatype::TimeUnit;
use quiver_arrow::parallel::ThreadPool;

/// The layout of BYTE_ARRAY columns read as strings or binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StringLayout {
    /// `Utf8` / `Binary` (32-bit offsets), unless `ARROW:schema` says otherwise.
    #[default]
    Default,
    /// `LargeUtf8` / `LargeBinary`.
    Large,
    /// `Utf8View` / `BinaryView`.
    View,
}

/// Options of the Parquet → Arrow conversion.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// The unit of INT96 timestamps (nanoseconds by default, as pyarrow).
    pub int96_unit: TimeUnit,
    /// The layout of string and binary columns.
    pub strings: StringLayout,
    /// Whether the `ARROW:schema` key restores the writer's Arrow types (on by default).
    pub use_arrow_schema: bool,
    /// Column paths (dotted, as in the Parquet schema: `a.list.element`) of string and binary
    /// leaves to read as Arrow dictionaries with `int32` keys, like pyarrow's `read_dictionary`
    /// (other leaves named here are read as usual); `ARROW:schema` dictionaries are read as
    /// dictionaries too.
    pub dictionary: Vec<String>,
    /// Whether page CRCs are verified where present (on by default).
    pub verify_crc: bool,
    /// The threads column chunks are decoded on (the process-wide pool by default;
    /// [`ThreadPool::sequential`] for one thread). The result does not depend on it.
    pub threads: ThreadPool,
    /// The most bytes of values one binary or string column may hold in a batch: a batch that
    /// would hold more is cut into several at record boundaries. The default, 2³¹ − 1, is what
    /// 32-bit offsets address, so that column chunks of any size read as `Utf8`/`Binary`;
    /// smaller limits bound the memory of a batch of long values.
    pub byte_array_limit: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            int96_unit: TimeUnit::Nanosecond,
            strings: StringLayout::Default,
            use_arrow_schema: true,
            dictionary: Vec::new(),
            verify_crc: true,
            threads: ThreadPool::global(),
            byte_array_limit: i32::MAX as usize,
        }
    }
}

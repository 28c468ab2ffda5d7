//! What a merge did, input by input: plain data for the caller to print or serialize.

/// What happened to one dictionary id when an input was merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictionaryAction {
    /// The first dictionary with this id: written in full (a non-delta dictionary batch).
    First,
    /// Equal to the dictionary merged so far, or a prefix of it: nothing written.
    Same,
    /// Extends the dictionary merged so far (which is its prefix): the new values written
    /// as a delta dictionary batch; the input's record batches stay as they are.
    Delta,
    /// Differs from the dictionary merged so far: its values not yet in it written as a
    /// delta, and the input's record batches whose indices change re-encoded.
    Unified,
}

impl DictionaryAction {
    /// A lowercase name: `first`, `same`, `delta`, `unified`.
    pub fn name(self) -> &'static str {
        match self {
            DictionaryAction::First => "first",
            DictionaryAction::Same => "same",
            DictionaryAction::Delta => "delta",
            DictionaryAction::Unified => "unified",
        }
    }
}

/// One dictionary id of one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DictionaryMerge {
    /// The dictionary id in the output (the first input's).
    pub id: i64,
    /// The first field using it: names from the root joined by `.`.
    pub field: String,
    /// What was done.
    pub action: DictionaryAction,
    /// Values the input's dictionary added to the merged one.
    pub values_added: usize,
}

/// Whose metadata a [`MetadataConflict`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataScope {
    /// The schema's custom metadata.
    Schema,
    /// The file footer's custom metadata.
    Footer,
}

/// A metadata key whose value in an input differs from the first input's. The output keeps
/// the first input's metadata as it is: its value, or no key when it has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataConflict {
    /// The input whose value was not kept.
    pub input: String,
    /// Schema or footer metadata.
    pub scope: MetadataScope,
    /// The key.
    pub key: String,
    /// The first input's value (kept), `None` when it has no such key.
    pub kept: Option<String>,
    /// This input's value (dropped), `None` when it has no such key.
    pub dropped: Option<String>,
}

/// One input of a merge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputReport {
    /// The input's name.
    pub name: String,
    /// Size of the input file.
    pub bytes: u64,
    /// Record batches.
    pub batches: usize,
    /// Rows.
    pub rows: u64,
    /// Record batches copied byte for byte.
    pub batches_verbatim: usize,
    /// Record batches re-encoded with remapped dictionary indices.
    pub batches_reencoded: usize,
    /// Dictionary ids this input extended (written as deltas).
    pub dictionaries_delta: usize,
    /// Dictionary ids this input's dictionary had to be unified with.
    pub dictionaries_unified: usize,
    /// Every dictionary id the input has a dictionary for (none when it has no record
    /// batch: such an input adds no values), nested dictionaries first.
    pub dictionaries: Vec<DictionaryMerge>,
}

/// The totals over all inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeTotals {
    /// Input files.
    pub inputs: usize,
    /// Bytes of all inputs.
    pub input_bytes: u64,
    /// Record batches.
    pub batches: usize,
    /// Rows.
    pub rows: u64,
    /// Record batches copied byte for byte.
    pub batches_verbatim: usize,
    /// Record batches re-encoded.
    pub batches_reencoded: usize,
    /// Dictionary batches written (full and delta).
    pub dictionary_batches: usize,
}

/// What [`merge`](super::merge) did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IpcMergeReport {
    /// One entry per input, in order.
    pub inputs: Vec<InputReport>,
    /// Sums over the inputs.
    pub totals: MergeTotals,
    /// Size of the merged file.
    pub output_bytes: u64,
    /// Schema and footer metadata not kept, input by input.
    pub metadata_conflicts: Vec<MetadataConflict>,
}

impl IpcMergeReport {
    /// Fills [`IpcMergeReport::totals`] from the inputs (`dictionary_batches` is counted
    /// while writing).
    pub(super) fn sum(&mut self) {
        let t = &mut self.totals;
        t.inputs = self.inputs.len();
        for i in &self.inputs {
            t.input_bytes += i.bytes;
            t.batches += i.batches;
            t.rows += i.rows;
            t.batches_verbatim += i.batches_verbatim;
            t.batches_reencoded += i.batches_reencoded;
        }
    }
}

//! Parquet ↔ Arrow: the only part of the crate that knows Arrow types and arrays.
//!
//! - [`options`]: the reader's choices (string layout, INT96 unit, `ARROW:schema`).
//! - `types`: a leaf's Arrow type from its physical, logical and converted types.
//! - [`plan`]: the Arrow shape of the schema tree and where each array's parts come from.
//! - [`restore`]: the `ARROW:schema` key.
//! - [`shred`]: an Arrow column into each leaf's definition and repetition levels (writing).
//! - [`write_schema`]: an Arrow schema as a Parquet schema (and the `ARROW:schema` value).
//! - [`physical`]: Arrow leaf values as the physical type holds them; statistics' sort order.
//! - [`distinct`]: exact distinct counts of dictionary-encoded column chunks.

pub mod build;
mod column_dict;
mod column_options;
mod column_pages;
mod column_source;
pub mod column_writer;
mod dense;
pub mod distinct;
pub mod leaf;
pub mod options;
mod page_state;
pub mod physical;
pub mod plan;
pub mod restore;
pub mod shred;
pub(crate) mod split;
pub(crate) mod types;
mod values;
pub mod write_schema;
pub mod write_stats;

use crate::format::SchemaElement;
use crate::schema::SchemaDescriptor;
use options::ReadOptions;
use plan::{Plan, Planner};
use quiver_arrow::Result;
use quiver_arrow::datatype::{Field, Metadata, Schema};

/// The Arrow schema of a Parquet file, and one [`Plan`] per top-level field.
#[derive(Debug, Clone)]
pub struct ArrowSchema {
    /// The schema batches have.
    pub schema: Schema,
    /// How to build each top-level field.
    pub plans: Vec<Plan>,
}

/// Maps a Parquet schema (its tree, its elements and the file's key-value metadata) to Arrow.
pub fn arrow_schema(
    schema: &SchemaDescriptor,
    elements: &[SchemaElement<'_>],
    key_value: &[(&[u8], Option<&[u8]>)],
    options: &ReadOptions,
) -> Result<ArrowSchema> {
    let planner = Planner {
        schema,
        elements,
        options,
    };
    let mut fields = Vec::with_capacity(schema.fields().len());
    let mut plans = Vec::with_capacity(schema.fields().len());
    for &i in schema.fields() {
        let (f, p) = planner.node(i)?;
        fields.push(f);
        plans.push(p);
    }
    let mut metadata = Metadata::new();
    let mut origin = None;
    for &(k, v) in key_value {
        let value = v.unwrap_or_default();
        if k == restore::ARROW_SCHEMA_KEY.as_bytes() {
            if options.use_arrow_schema {
                origin = Some(restore::decode_arrow_schema(value)?);
            }
            continue;
        }
        metadata.insert(
            String::from_utf8_lossy(k).into_owned(),
            String::from_utf8_lossy(value).into_owned(),
        );
    }
    if let Some(origin) = origin {
        // With the writer's schema, its metadata is the schema's (as Arrow C++ does); the
        // file's other keys stay in the Parquet metadata.
        metadata = origin.metadata.clone();
        if origin.fields.len() == fields.len() {
            fields = fields
                .iter()
                .zip(origin.fields.iter())
                .map(|(f, o)| restore::restore(f, o))
                .collect::<Vec<Field>>();
        }
    }
    Ok(ArrowSchema {
        schema: Schema::new(fields).with_metadata(metadata),
        plans,
    })
}

#[cfg(test)]
mod tests;

//! Encryption metadata, enough to recognise encrypted files and columns:
//! `union EncryptionAlgorithm` and `struct FileCryptoMetaData`.
//!
//! ```thrift
//! struct AesGcmV1 { 1: optional binary aad_prefix  2: optional binary aad_file_unique  3: optional bool supply_aad_prefix }
//! struct AesGcmCtrV1 { 1: optional binary aad_prefix  2: optional binary aad_file_unique  3: optional bool supply_aad_prefix }
//! union EncryptionAlgorithm { 1: AesGcmV1 AES_GCM_V1  2: AesGcmCtrV1 AES_GCM_CTR_V1 }
//! struct FileCryptoMetaData { 1: required EncryptionAlgorithm encryption_algorithm  2: optional binary key_metadata }
//! ```

use super::union::{read_union, write_union};
use crate::thrift::{CompactReader, CompactWriter, ThriftRead, ThriftWrite, ValueType};
use quiver_arrow::{Error, Result};

/// The fields of `AesGcmV1` and `AesGcmCtrV1` (the two have the same fields).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AesGcm<'a> {
    /// `1: optional binary aad_prefix`.
    pub aad_prefix: Option<&'a [u8]>,
    /// `2: optional binary aad_file_unique`.
    pub aad_file_unique: Option<&'a [u8]>,
    /// `3: optional bool supply_aad_prefix`.
    pub supply_aad_prefix: Option<bool>,
}

impl<'a> ThriftRead<'a> for AesGcm<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let mut a = AesGcm::default();
        r.read_struct("AesGcmV1", |r, f| {
            match f.id {
                1 => a.aad_prefix = r.value(f)?,
                2 => a.aad_file_unique = r.value(f)?,
                3 => a.supply_aad_prefix = r.bool_field(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        Ok(a)
    }
}

impl ThriftWrite for AesGcm<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field_opt(1, &self.aad_prefix);
        w.field_opt(2, &self.aad_file_unique);
        w.field_bool_opt(3, self.supply_aad_prefix);
        w.struct_end();
    }
}

/// `union EncryptionAlgorithm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncryptionAlgorithm<'a> {
    /// `1: AesGcmV1 AES_GCM_V1`.
    AesGcmV1(AesGcm<'a>),
    /// `2: AesGcmCtrV1 AES_GCM_CTR_V1`.
    AesGcmCtrV1(AesGcm<'a>),
    /// A variant this version does not know: its field id.
    Unknown(i16),
}

impl<'a> ThriftRead<'a> for EncryptionAlgorithm<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        read_union(r, "EncryptionAlgorithm", Self::Unknown, |r, id| match id {
            1 => AesGcm::read(r).map(Self::AesGcmV1),
            2 => AesGcm::read(r).map(Self::AesGcmCtrV1),
            other => r.skip_struct().map(|()| Self::Unknown(other)),
        })
    }
}

impl ThriftWrite for EncryptionAlgorithm<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        write_union(w, |w| match self {
            Self::AesGcmV1(a) => w.field(1, a),
            Self::AesGcmCtrV1(a) => w.field(2, a),
            Self::Unknown(id) => w.field_empty_struct(*id),
        });
    }
}

/// `struct FileCryptoMetaData`: what a file with an encrypted footer (`PARE`) stores in clear
/// before its footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileCryptoMetaData<'a> {
    /// `1: required EncryptionAlgorithm encryption_algorithm`.
    pub encryption_algorithm: EncryptionAlgorithm<'a>,
    /// `2: optional binary key_metadata`.
    pub key_metadata: Option<&'a [u8]>,
}

impl<'a> ThriftRead<'a> for FileCryptoMetaData<'a> {
    const TYPE: ValueType = ValueType::Struct;
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (mut alg, mut key_metadata) = (None, None);
        r.read_struct("FileCryptoMetaData", |r, f| {
            match f.id {
                1 => alg = r.value(f)?,
                2 => key_metadata = r.value(f)?,
                _ => r.skip_field(f)?,
            }
            Ok(())
        })?;
        let encryption_algorithm = alg.ok_or_else(|| {
            Error::oos("FileCryptoMetaData lacks required field encryption_algorithm")
        })?;
        Ok(FileCryptoMetaData {
            encryption_algorithm,
            key_metadata,
        })
    }
}

impl ThriftWrite for FileCryptoMetaData<'_> {
    const TYPE: ValueType = ValueType::Struct;
    fn write(&self, w: &mut CompactWriter) {
        w.struct_begin();
        w.field(1, &self.encryption_algorithm);
        w.field_opt(2, &self.key_metadata);
        w.struct_end();
    }
}

//! Hadoop-framed LZO Parquet files, which no common writer produces: pyarrow-written files
//! (uncompressed, `tests/write_matrix.py`) have every page body compressed with python-lzo in
//! Hadoop's block framing (`tests/lzo_hadoop.py`) and their headers and footer re-encoded with
//! quiver's own Thrift encoder; quiver reads each equal to pyarrow's reading of the original.

use crate::common::{python_writes, writer_available};
use crate::read_values::assert_read_as_pyarrow;
use quiver_parquet::format::{
    ColumnChunk, ColumnChunks, CompressionCodec, FileMetaData, PageHeader, PageType,
};
use quiver_parquet::metadata::parse_file;
use quiver_parquet::thrift::{CompactWriter, ThriftWrite};
use std::io::Write;
use std::path::Path;

/// One page: its header, the bytes kept as they are (v2 levels), the bytes to compress.
struct Page<'a> {
    header: PageHeader<'a>,
    levels: &'a [u8],
    body: &'a [u8],
}

/// The pages of a column chunk, in file order.
fn pages<'a>(file: &'a [u8], chunk: &ColumnChunk<'a>) -> Vec<Page<'a>> {
    let m = chunk.meta_data.as_ref().unwrap();
    let start = m.dictionary_page_offset.unwrap_or(m.data_page_offset) as usize;
    let end = start + m.total_compressed_size as usize;
    let mut pos = start;
    let mut out = Vec::new();
    while pos < end {
        let (header, len) = PageHeader::decode(&file[pos..end]).unwrap();
        let data = &file[pos + len..pos + len + header.compressed_page_size as usize];
        pos += len + data.len();
        let kept = header.data_page_header_v2.as_ref().map_or(0, |v2| {
            (v2.definition_levels_byte_length + v2.repetition_levels_byte_length) as usize
        });
        let (levels, body) = data.split_at(kept);
        out.push(Page {
            header,
            levels,
            body,
        });
    }
    out
}

/// Each of `bodies` compressed in Hadoop-framed LZO blocks of `block` bytes.
fn hadoop_lzo(bodies: &[&[u8]], block: usize) -> Vec<Vec<u8>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lzo_hadoop.py");
    let mut child = std::process::Command::new("python3")
        .arg(script)
        .arg(block.to_string())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = Vec::new();
    for b in bodies {
        input.extend_from_slice(&(b.len() as u32).to_le_bytes());
        input.extend_from_slice(b);
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success());
    let (mut rest, mut framed) = (&out.stdout[..], Vec::new());
    while !rest.is_empty() {
        let n = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        framed.push(rest[4..4 + n].to_vec());
        rest = &rest[4 + n..];
    }
    assert_eq!(framed.len(), bodies.len());
    framed
}

fn thrift(value: &impl ThriftWrite) -> Vec<u8> {
    let mut w = CompactWriter::new();
    value.write(&mut w);
    w.into_bytes()
}

/// `file` (uncompressed) with every page LZO-compressed in Hadoop framing.
fn to_lzo(file: &[u8], block: usize) -> Vec<u8> {
    let mut meta: FileMetaData = parse_file(file).unwrap().into_inner();
    let chunks: Vec<Vec<ColumnChunk>> = meta
        .row_groups
        .iter()
        .map(|g| g.columns.decode_all().unwrap())
        .collect();
    let all: Vec<Vec<Page>> = chunks.iter().flatten().map(|c| pages(file, c)).collect();
    let bodies: Vec<&[u8]> = all.iter().flatten().map(|p| p.body).collect();
    let mut framed = hadoop_lzo(&bodies, block).into_iter();
    let mut out = b"PAR1".to_vec();
    let mut all = all.into_iter();
    for (group, mut chunks) in meta.row_groups.iter_mut().zip(chunks) {
        let group_start = out.len() as i64;
        for chunk in &mut chunks {
            let start = out.len() as i64;
            let m = chunk.meta_data.as_mut().unwrap();
            let mut data_page_offset = None;
            for mut page in all.next().unwrap() {
                let body = framed.next().unwrap();
                if page.header.type_ != PageType::DICTIONARY_PAGE {
                    data_page_offset.get_or_insert(out.len() as i64);
                }
                page.header.compressed_page_size = (page.levels.len() + body.len()) as i32;
                page.header.crc = None;
                if let Some(v2) = page.header.data_page_header_v2.as_mut() {
                    v2.is_compressed = Some(true);
                }
                out.extend_from_slice(&thrift(&page.header));
                out.extend_from_slice(page.levels);
                out.extend_from_slice(&body);
            }
            m.codec = CompressionCodec::LZO;
            m.dictionary_page_offset = m.dictionary_page_offset.map(|_| start);
            m.data_page_offset = data_page_offset.unwrap_or(start);
            m.total_compressed_size = out.len() as i64 - start;
            chunk.file_offset = start;
        }
        group.file_offset = Some(group_start);
        group.total_compressed_size = Some(out.len() as i64 - group_start);
        group.columns = ColumnChunks::from_decoded(chunks);
    }
    let footer = meta.encode();
    out.extend_from_slice(&footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

#[test]
fn hadoop_framed_lzo_files_read_as_their_uncompressed_originals() {
    if !writer_available("python-lzo", "import lzo") {
        return;
    }
    let (dir, files) = python_writes("write_matrix.py");
    let mut oracles = serde_json::Map::new();
    let mut lzo_files = Vec::new();
    for f in files.iter().filter(|f| {
        let name = f.file_name().unwrap().to_str().unwrap();
        name.starts_with("none-") || name == "empty.parquet"
    }) {
        let name = f.file_name().unwrap().to_str().unwrap();
        // Small blocks in one file (a page spans many), Hadoop's 256 KiB in the others.
        let block = if name.contains("plain") {
            700
        } else {
            256 << 10
        };
        let lzo = dir.path().join(format!("lzo-{name}"));
        std::fs::write(&lzo, to_lzo(&std::fs::read(f).unwrap(), block)).unwrap();
        let meta = std::fs::read(&lzo).unwrap();
        let codecs: Vec<_> = parse_file(&meta)
            .unwrap()
            .decode_all()
            .unwrap()
            .into_iter()
            .flatten()
            .map(|c| c.meta_data.unwrap().codec)
            .collect();
        assert!(
            codecs.iter().all(|&c| c == CompressionCodec::LZO),
            "{codecs:?}"
        );
        oracles.insert(format!("lzo-{name}"), name.into());
        lzo_files.push(lzo);
    }
    std::fs::write(
        dir.path().join("oracles.json"),
        serde_json::Value::Object(oracles).to_string(),
    )
    .unwrap();
    assert_eq!(lzo_files.len(), 5);
    assert_eq!(assert_read_as_pyarrow(&lzo_files, &[]), 5);
}

use super::*;
use crate::format::PageHeader;

#[test]
fn page_blocks_keep_the_bytes_in_full_blocks() {
    let mut blocks = PageBlocks::new();
    let mut model = Vec::new();
    let pattern = |i: usize| (i * 131 % 251) as u8;
    for size in [10, 700_000, 600_000, 3 * PAGE_BLOCK + 5, 0, 1, PAGE_BLOCK] {
        let bytes: Vec<u8> = (model.len()..model.len() + size).map(pattern).collect();
        blocks.append(&bytes);
        model.extend_from_slice(&bytes);
        assert_eq!(blocks.len(), model.len());
    }
    let parts: Vec<&[u8]> = blocks.blocks().collect();
    assert_eq!(parts.concat(), model);
    let (last, full) = parts.split_last().unwrap();
    assert!(full.iter().all(|b| b.len() == PAGE_BLOCK));
    assert!(!last.is_empty() && last.len() <= PAGE_BLOCK);
    assert!(PageBlocks::new().is_empty() && PageBlocks::new().blocks().next().is_none());
}

/// Blocks given back to a pool are the next chunk's blocks, emptied: the bytes read back are
/// only the new ones, and no new block is mapped while spare ones are left.
#[test]
fn pooled_blocks_are_reused_emptied() {
    let pool = BlockPool::new();
    let mut a = PageBlocks::with_pool(pool.clone());
    let first: Vec<u8> = (0..3 * PAGE_BLOCK + 10).map(|i| (i % 251) as u8).collect();
    a.append(&first);
    let full: Vec<*const u8> = a.blocks().skip(1).map(<[u8]>::as_ptr).collect();
    a.recycle();
    // The three blocks after the first (the first grew on its own and is freed).
    let spare = pool.spare();
    assert_eq!(spare, 3);
    let mut b = PageBlocks::with_pool(pool.clone());
    let second: Vec<u8> = (0..2 * PAGE_BLOCK + 5).map(|i| (i % 13) as u8).collect();
    b.append(&second);
    assert_eq!(b.blocks().collect::<Vec<_>>().concat(), second);
    // The first block grows on its own (a small chunk takes no whole block); the two after it
    // are spare ones.
    let reused: Vec<*const u8> = b.blocks().skip(1).map(<[u8]>::as_ptr).collect();
    assert_eq!(reused.len(), 2);
    assert!(reused.iter().all(|p| full.contains(p)));
    assert_eq!(pool.spare(), spare - 2);
    // Without a pool, recycling frees.
    let mut c = PageBlocks::new();
    c.append(&first);
    c.recycle();
    assert_eq!(pool.spare(), spare - 2);
}

/// An uncompressed v1 page appended part by part is the page of its body written whole: the
/// header's sizes and the CRC of the stored bytes (parquet.thrift: the bytes after the header).
#[test]
fn uncompressed_v1_pages_are_their_body() {
    let values: Vec<u8> = (0..5000u32).flat_map(|i| (i * 7).to_le_bytes()).collect();
    let (rep, def) = (vec![3u8, 1, 4, 1, 5], vec![9u8, 2, 6]);
    for (rep, def) in [
        (&rep[..], &def[..]),
        (&[][..], &def[..]),
        (&[][..], &[][..]),
    ] {
        let page = DataPage {
            num_values: 5000,
            num_nulls: 0,
            num_rows: 5000,
            encoding: Encoding::PLAIN,
            rep,
            def,
            values: &values,
            statistics: None,
        };
        let mut w = PageWriter::new(Codec::Uncompressed, None, true).unwrap();
        let mut parts = PageBlocks::new();
        let written = w.data_v1(&page, &mut parts).unwrap();
        let got = parts.blocks().collect::<Vec<_>>().concat();

        let mut body = Vec::new();
        for levels in [rep, def] {
            if !levels.is_empty() {
                body.extend_from_slice(&(levels.len() as u32).to_le_bytes());
                body.extend_from_slice(levels);
            }
        }
        body.extend_from_slice(&values);
        let header = DataPageHeader {
            num_values: 5000,
            encoding: Encoding::PLAIN,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let mut whole = Vec::new();
        w.data_v1_body(&header, &body, &mut whole).unwrap();
        assert_eq!(got, whole);

        let (h, header_len) = PageHeader::decode(&got).unwrap();
        assert_eq!(&got[header_len..], &body[..]);
        assert_eq!(written.header_len, header_len);
        assert_eq!(written.stored_len(), got.len());
        assert_eq!(h.compressed_page_size as usize, body.len());
        assert_eq!(h.uncompressed_page_size as usize, body.len());
        assert_eq!(h.crc, Some(crc32fast::hash(&body) as i32));
    }
}

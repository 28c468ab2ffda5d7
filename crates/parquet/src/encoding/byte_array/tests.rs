use super::*;
use crate::encoding::test_util::{Rng, delta_naive};

fn words(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    // Few distinct stems so neighbours share prefixes; some empty values.
    let stems: [&[u8]; 4] = [b"", b"apple", b"application", b"banana split"];
    (0..n)
        .map(|_| {
            let mut w = stems[rng.below(4) as usize].to_vec();
            for _ in 0..rng.below(4) {
                w.push(b'a' + rng.below(26) as u8);
            }
            w
        })
        .collect()
}

fn expect(sink: &OffsetsSink<i64>, values: &[Vec<u8>]) {
    assert_eq!(sink.len(), values.len());
    let offs = sink.offsets.typed::<i64>();
    for (i, v) in values.iter().enumerate() {
        assert_eq!(
            &sink.values.as_slice()[offs[i] as usize..offs[i + 1] as usize],
            &v[..],
            "value {i}"
        );
    }
}

fn plain_naive(values: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        out.extend_from_slice(&(v.len() as u32).to_le_bytes());
        out.extend_from_slice(v);
    }
    out
}

fn delta_length_naive(values: &[Vec<u8>]) -> Vec<u8> {
    let lens: Vec<i64> = values.iter().map(|v| v.len() as i64).collect();
    let mut out = delta_naive(&lens, 128, 4);
    for v in values {
        out.extend_from_slice(v);
    }
    out
}

fn delta_byte_array_naive(values: &[Vec<u8>]) -> Vec<u8> {
    let mut prefixes = Vec::new();
    let mut suffixes = Vec::new();
    let mut prev: &[u8] = &[];
    for v in values {
        let p = prev.iter().zip(v).take_while(|(a, b)| a == b).count();
        prefixes.push(p as i64);
        suffixes.push(v[p..].to_vec());
        prev = v;
    }
    let mut out = delta_naive(&prefixes, 128, 4);
    out.extend(delta_length_naive(&suffixes));
    out
}

#[test]
fn all_three_encodings_match_the_oracle() {
    let mut rng = Rng::new(3);
    let mut lens = MutableBuffer::new();
    let mut dba = DeltaByteArrayScratch::default();
    for case in 0..100 {
        let n = rng.below(700) as usize;
        let values = words(&mut rng, n);
        let mut tail = b"TAIL".to_vec();

        let mut page = plain_naive(&values);
        let len = page.len();
        page.append(&mut tail.clone());
        let mut sink = OffsetsSink::<i64>::new();
        assert_eq!(plain(&page, n, &mut sink).unwrap(), len, "case {case}");
        expect(&sink, &values);

        let mut page = delta_length_naive(&values);
        let len = page.len();
        page.append(&mut tail.clone());
        let mut sink = OffsetsSink::<i64>::new();
        assert_eq!(
            delta_length(&page, n, &mut sink, &mut lens).unwrap(),
            len,
            "case {case}"
        );
        expect(&sink, &values);

        let mut page = delta_byte_array_naive(&values);
        let len = page.len();
        page.append(&mut tail);
        let mut sink = OffsetsSink::<i64>::new();
        assert_eq!(
            delta_byte_array(&page, n, &mut sink, &mut dba).unwrap(),
            len,
            "case {case}"
        );
        expect(&sink, &values);
    }
}

#[test]
fn truncated_and_lying_pages_are_errors() {
    let mut rng = Rng::new(5);
    let values = words(&mut rng, 50);
    let mut lens = MutableBuffer::new();
    let mut dba = DeltaByteArrayScratch::default();
    let p = plain_naive(&values);
    let l = delta_length_naive(&values);
    let d = delta_byte_array_naive(&values);
    for cut in 0..p.len() {
        assert!(plain(&p[..cut], 50, &mut OffsetsSink::<i32>::new()).is_err());
    }
    for cut in 0..l.len() {
        assert!(delta_length(&l[..cut], 50, &mut OffsetsSink::<i32>::new(), &mut lens).is_err());
    }
    for cut in 0..d.len() {
        let r = delta_byte_array(&d[..cut], 50, &mut OffsetsSink::<i32>::new(), &mut dba);
        assert!(r.is_err());
    }
    // More values asked than the page holds.
    assert!(plain(&p, 51, &mut OffsetsSink::<i32>::new()).is_err());
    assert!(delta_length(&l, 51, &mut OffsetsSink::<i32>::new(), &mut lens).is_err());
    // A huge declared count in a tiny page is refused before any allocation.
    assert!(plain(&[0; 8], usize::MAX / 2, &mut OffsetsSink::<i32>::new()).is_err());
    // A negative length.
    let neg = delta_length_naive(&[]);
    let mut s = delta_naive(&[-1], 128, 4);
    s.extend_from_slice(&neg[..0]);
    let e = delta_length(&s, 1, &mut OffsetsSink::<i32>::new(), &mut lens).unwrap_err();
    assert!(e.to_string().contains("length -1"), "{e}");
    // A prefix longer than the previous value.
    let mut s = delta_naive(&[0, 5], 128, 4);
    s.extend(delta_length_naive(&[b"ab".to_vec(), b"c".to_vec()]));
    let e = delta_byte_array(&s, 2, &mut OffsetsSink::<i32>::new(), &mut dba).unwrap_err();
    assert!(e.to_string().contains("prefix of 5 bytes"), "{e}");
}

/// Values of 0..=40 bytes, so that both the 16-byte block copy and the plain copy run, and the
/// last values sit within 16 bytes of the page's end.
fn mixed(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    mixed_upto(rng, n, 40)
}

/// Values of 0..=`longest` bytes.
fn mixed_upto(rng: &mut Rng, n: usize, longest: u64) -> Vec<Vec<u8>> {
    (0..n)
        .map(|_| {
            (0..rng.below(longest + 1))
                .map(|_| rng.next() as u8)
                .collect()
        })
        .collect()
}

#[test]
fn extend_plain_matches_the_oracle() {
    let mut rng = Rng::new(11);
    for case in 0..300 {
        let n = rng.below(100) as usize;
        // Short values (copied by length class), values of a dozen bytes and more on average
        // (copied as 64-byte blocks), and values past 64 bytes among those.
        let values = mixed_upto(&mut rng, n, [7, 40, 150][case % 3]);
        let page = plain_naive(&values);
        // Appended to what the sinks already hold, page after page.
        let first = mixed(&mut rng, 3);
        let mut all = first.clone();
        all.extend(values.iter().cloned());

        let mut wide = OffsetsSink::<i64>::new();
        wide.extend_plain(&plain_naive(&first), 3).unwrap();
        assert_eq!(wide.extend_plain(&page, n).unwrap(), page.len(), "{case}");
        expect(&wide, &all);

        let mut narrow = FlexOffsets::default();
        narrow.extend_plain(&plain_naive(&first), 3).unwrap();
        assert_eq!(narrow.extend_plain(&page, n).unwrap(), page.len());
        assert!(matches!(narrow, FlexOffsets::Narrow(_)));
        let FlexOffsets::Narrow(s) = &narrow else {
            unreachable!()
        };
        let want: Vec<i32> = wide
            .offsets
            .typed::<i64>()
            .iter()
            .map(|&o| o as i32)
            .collect();
        assert_eq!(s.offsets.typed::<i32>(), &want[..]);
        expect(&narrow.into_wide(), &all);

        // Every truncation is an error and leaves the sink as it was.
        for cut in 0..page.len() {
            let mut s = OffsetsSink::<i32>::new();
            if rng.below(8) == 0 {
                assert!(s.extend_plain(&page[..cut], n).is_err(), "{case} cut {cut}");
                assert_eq!((s.len(), s.values.len()), (0, 0));
            }
        }
    }
}

#[test]
fn flex_offsets_as_a_sink_match_the_oracle() {
    let mut rng = Rng::new(12);
    let values = mixed(&mut rng, 500);
    let mut lens = MutableBuffer::new();
    let mut flex = FlexOffsets::default();
    delta_length(&delta_length_naive(&values), 500, &mut flex, &mut lens).unwrap();
    plain(&plain_naive(&values), 500, &mut flex).unwrap();
    assert_eq!(flex.len(), 1000);
    let mut want = values.clone();
    want.extend(values);
    expect(&flex.into_wide(), &want);
}

#[test]
fn extend_gather_matches_indexing() {
    let mut rng = Rng::new(13);
    let values = mixed(&mut rng, 60);
    let mut dict = OffsetsSink::<i64>::new();
    dict.extend_plain(&plain_naive(&values), 60).unwrap();
    for _ in 0..50 {
        let idx: Vec<u32> = (0..rng.below(200)).map(|_| rng.below(60) as u32).collect();
        let want: Vec<Vec<u8>> = idx.iter().map(|&i| values[i as usize].clone()).collect();
        let mut narrow = FlexOffsets::default();
        narrow.extend_gather(&dict, &idx[..idx.len() / 2]).unwrap();
        narrow.extend_gather(&dict, &idx[idx.len() / 2..]).unwrap();
        expect(&narrow.into_wide(), &want);
        let mut wide = OffsetsSink::<i64>::new();
        wide.extend_gather(&dict, &idx).unwrap();
        expect(&wide, &want);
    }
    let mut sink = OffsetsSink::<i32>::new();
    assert!(sink.extend_gather(&dict, &[0, 60]).is_err());
    assert_eq!(sink.len(), 0);
}

#[test]
fn short_value_gathers_from_a_padded_dictionary_match_indexing() {
    let mut rng = Rng::new(14);
    // Longest values of 16 and 32 bytes take the whole-word copies, 60 the copy by length.
    for longest in [1u64, 9, 16, 17, 32, 60] {
        let n = 1 + rng.below(20) as usize;
        let mut values = mixed_upto(&mut rng, n, longest);
        values.push(vec![7; longest as usize]);
        let mut dict = OffsetsSink::<i64>::new();
        dict.extend_plain(&plain_naive(&values), values.len())
            .unwrap();
        // As the column reader pads a dictionary's bytes.
        dict.values.extend_zeros(64);
        for _ in 0..20 {
            let idx: Vec<u32> = (0..rng.below(300))
                .map(|_| rng.below(values.len() as u64) as u32)
                .collect();
            let want: Vec<Vec<u8>> = idx.iter().map(|&i| values[i as usize].clone()).collect();
            let mut narrow = FlexOffsets::default();
            narrow
                .extend_gather_bounded(&dict, &idx[..idx.len() / 3], longest as usize)
                .unwrap();
            narrow
                .extend_gather_bounded(&dict, &idx[idx.len() / 3..], longest as usize)
                .unwrap();
            expect(&narrow.into_wide(), &want);
        }
        // A longest value understated, so that the values overrun the bound: an error,
        // nothing kept.
        if longest > 1 {
            let last = values.len() as u32 - 1;
            let mut sink = FlexOffsets::default();
            assert!(
                sink.extend_gather_bounded(&dict, &[last; 4], longest as usize - 1)
                    .is_err(),
                "longest {longest}"
            );
            assert_eq!(sink.len(), 0);
        }
    }
}

use super::*;
use crate::encoding::byte_array::{
    DeltaByteArrayScratch, OffsetsSink, delta_byte_array, delta_length,
};
use crate::encoding::test_util::{Rng, delta_naive_absent};
use quiver_arrow::buffer::MutableBuffer;

/// Values sharing prefixes of every length (including past eight bytes), some empty.
fn words(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    let stems: [&[u8]; 5] = [
        b"",
        b"apple",
        b"application",
        b"applications/x",
        b"banana split",
    ];
    (0..n)
        .map(|_| {
            let mut w = stems[rng.below(5) as usize].to_vec();
            for _ in 0..rng.below(12) {
                w.push(rng.next() as u8 % 3 + b'a');
            }
            w
        })
        .collect()
}

fn delta_length_naive(values: &[Vec<u8>]) -> Vec<u8> {
    let lens: Vec<i64> = values.iter().map(|v| v.len() as i64).collect();
    let mut out = delta_naive_absent(&lens, 128, 4, 0);
    values.iter().for_each(|v| out.extend_from_slice(v));
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
    let mut out = delta_naive_absent(&prefixes, 128, 4, 0);
    out.extend(delta_length_naive(&suffixes));
    out
}

fn expect(sink: &OffsetsSink<i64>, values: &[Vec<u8>]) {
    let offs = sink.offsets.typed::<i64>();
    let got: Vec<&[u8]> = offs
        .windows(2)
        .map(|w| &sink.values.as_slice()[w[0] as usize..w[1] as usize])
        .collect();
    let want: Vec<&[u8]> = values.iter().map(|v| &v[..]).collect();
    assert_eq!(got, want);
}

#[test]
fn both_encodings_match_the_oracle_and_decode_back() {
    let mut rng = Rng::new(51);
    let mut lens = MutableBuffer::new();
    let mut scratch = DeltaByteArrayScratch::default();
    for case in 0..100 {
        let n = rng.below(600) as usize;
        let values = words(&mut rng, n);
        let refs: Vec<&[u8]> = values.iter().map(|v| &v[..]).collect();

        let mut out = b"kept".to_vec();
        encode_delta_length(&refs, &mut out);
        assert_eq!(out[4..], delta_length_naive(&values), "case {case}");
        let mut sink = OffsetsSink::<i64>::new();
        let used = delta_length(&out[4..], n, &mut sink, &mut lens).unwrap();
        assert_eq!(used, out.len() - 4);
        expect(&sink, &values);

        let mut out = b"kept".to_vec();
        encode_delta_byte_array(&refs, &mut out);
        assert_eq!(out[4..], delta_byte_array_naive(&values), "case {case}");
        let mut sink = OffsetsSink::<i64>::new();
        let used = delta_byte_array(&out[4..], n, &mut sink, &mut scratch).unwrap();
        assert_eq!(used, out.len() - 4);
        expect(&sink, &values);
    }
}

#[test]
fn common_prefix_matches_the_bytewise_count() {
    let mut rng = Rng::new(52);
    for _ in 0..2000 {
        let a: Vec<u8> = (0..rng.below(40)).map(|_| rng.below(2) as u8).collect();
        let mut b = a.clone();
        b.truncate(rng.below(a.len() as u64 + 1) as usize);
        if !b.is_empty() && rng.below(2) == 0 {
            let i = rng.below(b.len() as u64) as usize;
            b[i] ^= 1 << rng.below(8);
        }
        b.extend((0..rng.below(20)).map(|_| rng.below(2) as u8));
        let want = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        assert_eq!(common_prefix(&a, &b), want);
        assert_eq!(common_prefix(&b, &a), want);
    }
}

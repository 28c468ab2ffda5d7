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

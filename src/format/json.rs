//! The pieces of a JSON Lines record that the formats and the jobs write straight into a chunk's output buffer: a
//! `,"key":value` field, a key alone, a string. serde_json writes every key and value; only the braces and commas
//! around them are written by hand.

/// Appends `,"key":value` to a JSON object being written (serde_json writes the key and the value).
pub(crate) fn json_field<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, key: &str, value: &T) {
    json_key(out, key);
    serde_json::to_writer(&mut *out, value).expect("a Vec takes any JSON value");
}

/// Appends `,"key":` to a JSON object being written; the caller writes the value.
pub(crate) fn json_key(out: &mut Vec<u8>, key: &str) {
    out.push(b',');
    json_str(out, key.as_bytes());
    out.push(b':');
}

/// Appends `text` as a JSON string (invalid UTF-8 replaced by U+FFFD). Text of printable ASCII without `"` or `\`
/// (every puzzle, every key) needs no escape and is copied between quotes; anything else goes through serde_json,
/// whose escaper and UTF-8 check would otherwise cost a `solve --json` run a tenth of its time, for the same
/// bytes.
pub(crate) fn json_str(out: &mut Vec<u8>, text: &[u8]) {
    // Branch-free over the bytes, so the compiler vectorizes it.
    let plain = text.iter().fold(true, |ok, &b| {
        ok & (b.wrapping_sub(0x20) < 0x5f) & (b != b'"') & (b != b'\\')
    });
    if plain {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text);
        out.push(b'"');
    } else {
        serde_json::to_writer(&mut *out, &String::from_utf8_lossy(text))
            .expect("a Vec takes any JSON string");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped_only_when_needed() {
        let mut out = Vec::new();
        json_str(&mut out, b"..3.2");
        assert_eq!(out, b"\"..3.2\"");
        for text in [&b"a\"b\\c"[..], b"tab\there", b"bad \xff byte", b"\x7f"] {
            let mut out = Vec::new();
            json_str(&mut out, text);
            let back: String = serde_json::from_slice(&out).unwrap();
            assert_eq!(back, String::from_utf8_lossy(text), "{text:?}");
        }
    }
}

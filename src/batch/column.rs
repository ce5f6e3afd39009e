//! Text columns of a table: which Arrow types hold puzzles (plain strings, or a dictionary of strings as pandas'
//! `category` writes them), their values read as bytes row by row, and a column type named the way users know it
//! (`list<utf8>`, not the Rust reader's `List(Field { .. })`).

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;

/// True for a column whose values are strings: `utf8`, `large_utf8`, `utf8_view`, or a dictionary of one of them
/// (any integer indices).
pub(crate) fn is_text(t: &DataType) -> bool {
    match t {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => true,
        DataType::Dictionary(_, values) => {
            matches!(
                **values,
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            )
        }
        _ => false,
    }
}

/// The values of a text column ([`is_text`]) as bytes.
pub(crate) enum Texts<'a> {
    Utf8(&'a arrow_array::StringArray),
    Large(&'a arrow_array::LargeStringArray),
    View(&'a arrow_array::StringViewArray),
    /// A dictionary: row `i` is `values[keys[i]]`, null where the key is null (or the value is). `keys` is empty
    /// when there are no values (every key is then null).
    Dictionary {
        array: &'a dyn Array,
        keys: Vec<usize>,
        values: Box<Texts<'a>>,
    },
}

impl<'a> Texts<'a> {
    /// The values of `a`, whose type [`is_text`] accepted.
    pub(crate) fn of(a: &'a ArrayRef) -> Texts<'a> {
        match a.data_type() {
            DataType::Utf8 => Texts::Utf8(a.as_string::<i32>()),
            DataType::LargeUtf8 => Texts::Large(a.as_string::<i64>()),
            DataType::Utf8View => Texts::View(a.as_string_view()),
            DataType::Dictionary(..) => {
                let d = a.as_any_dictionary();
                // The keys are clamped to the values (never out of bounds), and read only where valid.
                let keys = if d.values().is_empty() {
                    Vec::new()
                } else {
                    d.normalized_keys()
                };
                Texts::Dictionary {
                    array: a.as_ref(),
                    keys,
                    values: Box::new(Texts::of(d.values())),
                }
            }
            t => unreachable!("the plan checked the type, not {t}"),
        }
    }

    /// Row `i`'s text, `None` when null.
    pub(crate) fn get(&self, i: usize) -> Option<&'a [u8]> {
        let (valid, text) = match self {
            Texts::Utf8(a) => (a.is_valid(i), a.value(i)),
            Texts::Large(a) => (a.is_valid(i), a.value(i)),
            Texts::View(a) => (a.is_valid(i), a.value(i)),
            Texts::Dictionary {
                array,
                keys,
                values,
            } => {
                return match keys.get(i) {
                    Some(&k) if array.is_valid(i) => values.get(k),
                    _ => None,
                }
            }
        };
        valid.then_some(text.as_bytes())
    }
}

/// A column type as Arrow's own documents and pyarrow's messages name it: `float64`, `utf8`, `list<utf8>`,
/// `dictionary<values=utf8, indices=int32>`, `struct<a: int64, b: utf8>`.
pub(crate) fn type_name(t: &DataType) -> String {
    use DataType as T;
    let plain = match t {
        T::Null => "null",
        T::Boolean => "bool",
        T::Int8 => "int8",
        T::Int16 => "int16",
        T::Int32 => "int32",
        T::Int64 => "int64",
        T::UInt8 => "uint8",
        T::UInt16 => "uint16",
        T::UInt32 => "uint32",
        T::UInt64 => "uint64",
        T::Float16 => "float16",
        T::Float32 => "float32",
        T::Float64 => "float64",
        T::Utf8 => "utf8",
        T::LargeUtf8 => "large_utf8",
        T::Utf8View => "utf8_view",
        T::Binary => "binary",
        T::LargeBinary => "large_binary",
        T::BinaryView => "binary_view",
        T::Date32 => "date32",
        T::Date64 => "date64",
        _ => "",
    };
    if !plain.is_empty() {
        return plain.to_string();
    }
    match t {
        T::List(f) => format!("list<{}>", type_name(f.data_type())),
        T::LargeList(f) => format!("large_list<{}>", type_name(f.data_type())),
        T::ListView(f) => format!("list_view<{}>", type_name(f.data_type())),
        T::LargeListView(f) => format!("large_list_view<{}>", type_name(f.data_type())),
        T::FixedSizeList(f, n) => format!("fixed_size_list<{}>[{n}]", type_name(f.data_type())),
        T::FixedSizeBinary(n) => format!("fixed_size_binary[{n}]"),
        T::Struct(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|f| format!("{}: {}", f.name(), type_name(f.data_type())))
                .collect();
            format!("struct<{}>", inner.join(", "))
        }
        T::Map(f, _) => match f.data_type() {
            T::Struct(kv) if kv.len() == 2 => format!(
                "map<{}, {}>",
                type_name(kv[0].data_type()),
                type_name(kv[1].data_type())
            ),
            other => format!("map<{}>", type_name(other)),
        },
        T::Dictionary(keys, values) => format!(
            "dictionary<values={}, indices={}>",
            type_name(values),
            type_name(keys)
        ),
        T::RunEndEncoded(ends, values) => format!(
            "run_end_encoded<run_ends={}, values={}>",
            type_name(ends.data_type()),
            type_name(values.data_type())
        ),
        T::Union(..) => "union".to_string(),
        T::Timestamp(unit, None) => format!("timestamp[{}]", unit_name(unit)),
        T::Timestamp(unit, Some(tz)) => format!("timestamp[{}, tz={tz}]", unit_name(unit)),
        T::Time32(unit) => format!("time32[{}]", unit_name(unit)),
        T::Time64(unit) => format!("time64[{}]", unit_name(unit)),
        T::Duration(unit) => format!("duration[{}]", unit_name(unit)),
        T::Decimal128(p, s) => format!("decimal128({p}, {s})"),
        T::Decimal256(p, s) => format!("decimal256({p}, {s})"),
        // Intervals (the only types left) print plainly in the reader's own words.
        other => other.to_string().to_ascii_lowercase(),
    }
}

fn unit_name(unit: &arrow_schema::TimeUnit) -> &'static str {
    match unit {
        arrow_schema::TimeUnit::Second => "s",
        arrow_schema::TimeUnit::Millisecond => "ms",
        arrow_schema::TimeUnit::Microsecond => "us",
        arrow_schema::TimeUnit::Nanosecond => "ns",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::{Field, Fields, TimeUnit};
    use std::sync::Arc;

    #[test]
    fn types_are_named_as_users_know_them_never_as_a_field_dump() {
        let item = |t| Arc::new(Field::new("item", t, true));
        let cases = [
            (DataType::Float64, "float64"),
            (DataType::List(item(DataType::Utf8)), "list<utf8>"),
            (
                DataType::LargeList(item(DataType::List(item(DataType::Int32)))),
                "large_list<list<int32>>",
            ),
            (
                DataType::FixedSizeList(item(DataType::UInt8), 81),
                "fixed_size_list<uint8>[81]",
            ),
            (
                DataType::Struct(Fields::from(vec![
                    Field::new("a", DataType::Int64, true),
                    Field::new("b", DataType::Utf8, true),
                ])),
                "struct<a: int64, b: utf8>",
            ),
            (
                DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Binary)),
                "dictionary<values=binary, indices=int8>",
            ),
            (
                DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
                "timestamp[ms, tz=UTC]",
            ),
        ];
        for (t, name) in cases {
            assert_eq!(type_name(&t), name);
            assert!(!type_name(&t).contains("Field"), "{t}");
        }
    }

    #[test]
    fn dictionary_columns_read_as_the_strings_they_stand_for() {
        use arrow_array::types::Int16Type;
        use arrow_array::DictionaryArray;
        let d: DictionaryArray<Int16Type> = vec![Some("b"), None, Some("a"), Some("b")]
            .into_iter()
            .collect();
        assert!(is_text(d.data_type()));
        let a: ArrayRef = Arc::new(d);
        let t = Texts::of(&a);
        let got: Vec<Option<&[u8]>> = (0..4).map(|i| t.get(i)).collect();
        assert_eq!(got, [Some(&b"b"[..]), None, Some(b"a"), Some(b"b")]);
        // No values at all: every row is null.
        let empty: DictionaryArray<Int16Type> = vec![None::<&str>, None].into_iter().collect();
        let a: ArrayRef = Arc::new(empty);
        let t = Texts::of(&a);
        assert_eq!((t.get(0), t.get(1)), (None, None));
        assert!(!is_text(&DataType::Dictionary(
            Box::new(DataType::Int32),
            Box::new(DataType::Int32)
        )));
    }
}

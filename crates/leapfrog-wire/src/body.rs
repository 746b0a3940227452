//! A request body read as its form, the same way by every front end: an
//! object, whole numbers written as floats (`16.0`, `1e2`) taken as the
//! integers JSON Schema counts them, and on failure the field at fault
//! named (`rules.rows`), as the HTTP API's 400 and the bindings' problems
//! say it.

use serde::de::DeserializeOwned;

/// A body that does not read as the request: what was wrong, and the
/// field at fault as a dotted path when one is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct BadBody {
    /// What was wrong.
    pub detail: String,
    /// Where.
    pub field: Option<String>,
}

impl BadBody {
    /// The slug of its problem's `type`.
    pub const SLUG: &'static str = "invalid-request";
    /// The title of its problem.
    pub const TITLE: &'static str = "Malformed request";
}

/// Writes every whole number of `value` held as a float (`16.0`, `1e2`)
/// as an integer; returns whether there was one.
fn whole_numbers_as_integers(value: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            // Integers of either sign that f64 holds exactly and i64/u64 can take.
            let whole = if f.fract() != 0.0 || f.abs() > 9_007_199_254_740_992.0 {
                None
            } else if f < 0.0 {
                Some(serde_json::Number::from(f as i64))
            } else {
                Some(serde_json::Number::from(f as u64))
            };
            whole.map(|w| *n = w).is_some()
        }
        Value::Array(items) => items.iter_mut().fold(false, |any, v| whole_numbers_as_integers(v) | any),
        Value::Object(fields) => fields.values_mut().fold(false, |any, v| whole_numbers_as_integers(v) | any),
        _ => false,
    }
}

/// Parses JSON into `T`, naming the field at fault.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, BadBody> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(BadBody { detail: "the request body is empty; send a JSON object".into(), field: None });
    }
    // Every body is an object: serde would also read a struct from an
    // array of its fields in order (`[null, null]`), which no schema allows.
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(BadBody {
            detail: "the request body is not a JSON object; send one ({...})".into(),
            field: None,
        });
    }
    // The plain parser first; only a body that fails is read again with the
    // path tracked, to name the field.
    let plain = match serde_json::from_slice(body) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    // JSON Schema counts `16.0` and `1e2` as integers: a body holding such
    // numbers is read again with them as integers (and its errors are then
    // those of that reading).
    let normalized = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|mut value| whole_numbers_as_integers(&mut value).then_some(value));
    let normalized = normalized.and_then(|value| serde_json::to_vec(&value).ok());
    let body = match &normalized {
        Some(bytes) => match serde_json::from_slice(bytes) {
            Ok(value) => return Ok(value),
            Err(_) => bytes.as_slice(),
        },
        None => body,
    };
    let de = &mut serde_json::Deserializer::from_slice(body);
    match serde_path_to_error::deserialize::<_, T>(de) {
        // The value reads, but more follows it.
        Ok(_) => Err(BadBody { detail: format!("malformed JSON: {plain}"), field: None }),
        Err(e) => {
            let path = e.path().to_string();
            let field = (path != ".").then_some(path);
            let inner = e.into_inner();
            let detail = match &field {
                Some(f) if !inner.is_syntax() && !inner.is_eof() => format!("{f}: {inner}"),
                _ => format!("malformed JSON: {inner}"),
            };
            Err(BadBody { detail, field })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Sized {
        rows: u32,
        scores: Vec<u32>,
    }

    #[test]
    fn whole_numbers_written_as_floats_read_as_integers() {
        let read: Sized = parse(br#"{"rows": 16.0, "scores": [1e1, 0.0]}"#).unwrap();
        assert_eq!(read, Sized { rows: 16, scores: vec![10, 0] });
        for bad in [
            r#"{"rows": 16.5, "scores": []}"#,
            r#"{"rows": -1.0, "scores": []}"#,
            r#"{"rows": 1e30, "scores": []}"#,
        ] {
            let e = parse::<Sized>(bad.as_bytes()).unwrap_err();
            assert!(matches!(&e, BadBody { field: Some(f), .. } if f == "rows"), "{bad}: {e:?}");
        }
    }
}

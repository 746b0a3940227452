//! `JsonBody<T>`: the request body extractor. It reads at most the
//! configured number of bytes (413 past it) and names the field at fault
//! when the JSON does not fit the schema (400).

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use super::problem::ApiError;

/// The largest request body accepted, in bytes, unless configured.
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;

/// The body limit, as app data.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// A JSON request body, checked against `T`.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for JsonBody<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let limit = req.app_data::<web::Data<BodyLimit>>().map_or(DEFAULT_BODY_LIMIT, |l| l.0);
        let declared = req
            .headers()
            .get(actix_web::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        let mut payload = payload.take();
        Box::pin(async move {
            if declared.is_some_and(|n| n > limit) {
                return Err(ApiError::PayloadTooLarge { limit });
            }
            let mut body = web::BytesMut::with_capacity(declared.unwrap_or(0));
            while let Some(chunk) = payload.next().await {
                let chunk = chunk.map_err(|e| ApiError::BadRequest {
                    detail: format!("the request body could not be read: {e}"),
                    field: None,
                })?;
                if body.len() + chunk.len() > limit {
                    return Err(ApiError::PayloadTooLarge { limit });
                }
                body.extend_from_slice(&chunk);
            }
            parse(&body).map(JsonBody)
        })
    }
}

/// Parses JSON into `T`, naming the field at fault.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::BadRequest {
            detail: "the request body is empty; send a JSON object".into(),
            field: None,
        });
    }
    // The plain parser first; only a body that fails is read again with the
    // path tracked, to name the field.
    let plain = match serde_json::from_slice(body) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    let de = &mut serde_json::Deserializer::from_slice(body);
    match serde_path_to_error::deserialize::<_, T>(de) {
        // The value reads, but more follows it.
        Ok(_) => Err(ApiError::BadRequest { detail: format!("malformed JSON: {plain}"), field: None }),
        Err(e) => {
            let path = e.path().to_string();
            let field = (path != ".").then_some(path);
            let inner = e.into_inner();
            let detail = match &field {
                Some(f) if !inner.is_syntax() && !inner.is_eof() => format!("{f}: {inner}"),
                _ => format!("malformed JSON: {inner}"),
            };
            Err(ApiError::BadRequest { detail, field })
        }
    }
}

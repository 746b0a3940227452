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
        let body = read_body(req, payload);
        Box::pin(async move { parse(&body.await?).map(JsonBody) })
    }
}

/// Reads the request body: at most the configured number of bytes (413
/// past it, before reading when `Content-Length` says so).
fn read_body(
    req: &HttpRequest,
    payload: &mut Payload,
) -> impl Future<Output = Result<web::BytesMut, ApiError>> + use<> {
    let limit = req.app_data::<web::Data<BodyLimit>>().map_or(DEFAULT_BODY_LIMIT, |l| l.0);
    let declared = req
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    let mut payload = payload.take();
    async move {
        if declared.is_some_and(|n| n > limit) {
            leapfrog_process::meter::refused("body_size");
            return Err(ApiError::PayloadTooLarge { limit });
        }
        let mut body = web::BytesMut::with_capacity(declared.unwrap_or(0).min(limit));
        while let Some(chunk) = payload.next().await {
            let chunk = chunk.map_err(|e| ApiError::BadRequest {
                detail: format!("the request body could not be read: {e}"),
                field: None,
            })?;
            if body.len() + chunk.len() > limit {
                leapfrog_process::meter::refused("body_size");
                return Err(ApiError::PayloadTooLarge { limit });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

/// The body read as `T`, or a 400 naming what was wrong and where
/// (`leapfrog_wire::body::parse`, which every front end shares).
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    leapfrog_wire::body::parse(body).map_err(|e| ApiError::BadRequest { detail: e.detail, field: e.field })
}

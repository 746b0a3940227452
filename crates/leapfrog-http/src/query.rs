//! `QueryParams<T>`: the query-string extractor. Like `web::Query`, but a
//! parameter that does not fit `T` is a 400 problem naming the parameter.

use std::future::{Ready, ready};

use actix_web::{FromRequest, HttpRequest, dev::Payload};
use serde::de::DeserializeOwned;

use super::problem::ApiError;

/// Query parameters, checked against `T`.
#[derive(Debug)]
pub struct QueryParams<T>(pub T);

impl<T> std::ops::Deref for QueryParams<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned> FromRequest for QueryParams<T> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(parse(req.query_string()).map(QueryParams))
    }
}

/// Parses a query string into `T`, naming the parameter at fault.
pub fn parse<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let field = (path != ".").then_some(path);
        let inner = e.into_inner();
        let detail = match &field {
            Some(f) => format!("query parameter {f}: {inner}"),
            None => format!("bad query string: {inner}"),
        };
        ApiError::BadRequest { detail, field }
    })
}

/// The most items of a page of any listing.
pub const MAX_LISTING_PAGE: usize = 100;

/// A listing's page size: `limit` if given (1 to [`MAX_LISTING_PAGE`]), else 50.
///
/// # Errors
///
/// A 422 naming `limit` out of range.
pub fn page_limit(limit: Option<usize>) -> Result<usize, ApiError> {
    let limit = limit.unwrap_or(50);
    if !(1..=MAX_LISTING_PAGE).contains(&limit) {
        let detail = format!("limit {limit} is not from 1 to {MAX_LISTING_PAGE}");
        return Err(ApiError::refuse(leapfrog_wire::Refusal::InvalidValue, detail, "limit"));
    }
    Ok(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Q {
        limit: Option<u32>,
        from: Option<String>,
    }

    #[test]
    fn a_bad_parameter_is_named() {
        let e = parse::<Q>("limit=many").unwrap_err();
        assert!(matches!(&e, ApiError::BadRequest { field: Some(f), .. } if f == "limit"), "{e:?}");
        assert!(e.to_string().starts_with("query parameter limit: "), "{e}");
        let e = parse::<Q>("colour=red").unwrap_err();
        assert!(e.to_string().contains("unknown field `colour`"), "{e}");
        assert!(parse::<Q>("limit=3&from=c3").is_ok());
        assert!(parse::<Q>("").is_ok());
    }
}

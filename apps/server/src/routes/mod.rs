//! One file per domain; each handler extracts the caller, calls one service
//! and returns a DTO.

pub mod admin;
pub mod assistant;
pub mod auth;
pub mod billing;
pub mod campaigns;
pub mod conversations;
pub mod customers;
pub mod health;
pub mod live_demo;
pub mod meta;
pub mod payments;
pub mod push;
pub mod test_widget;
pub mod tests;
pub mod webhooks;
pub mod widget;

use serde::Serialize;
use utoipa::ToSchema;

/// `{success, message}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageOut {
    pub success: bool,
    pub message: String,
}

impl MessageOut {
    pub fn ok(message: impl Into<String>) -> Self {
        Self {
            success: true,
            message: message.into(),
        }
    }
}

/// The only export format; anything else is a 400 `unsupported_format`.
pub fn csv_format(format: Option<&str>) -> Result<(), crate::error::ApiError> {
    match format.map(str::trim).filter(|f| !f.is_empty()) {
        None | Some("csv") => Ok(()),
        Some(_) => Err(crate::error::ApiError::new(
            ca_core::ErrorKind::Validation,
            "unsupported_format",
            "Only the csv format is available",
        )),
    }
}

/// A CSV file download streamed page by page in constant memory, in two
/// stages that overlap: `read(after)` gives a page of rows (`after` is the
/// cursor `next` found on the page before, `None` for the first), and
/// `encode(rows, header)` writes it as CSV on a blocking thread while the
/// next page is read. An error ends the download (the
/// client sees a broken transfer, never a partial file that looks whole).
pub fn csv_pipeline<R, Fut, Rows, E, N, W>(
    filename: &str,
    read: R,
    next: N,
    encode: W,
) -> actix_web::HttpResponse
where
    R: Fn(Option<String>) -> Fut + 'static,
    Fut: std::future::Future<Output = Result<Rows, E>> + 'static,
    N: Fn(&Rows) -> Option<String> + 'static,
    W: Fn(Rows, bool) -> Result<Vec<u8>, E> + Send + Sync + 'static,
    Rows: Send + 'static,
    E: std::fmt::Display + Send + 'static,
{
    let read = std::rc::Rc::new(read);
    let next = std::rc::Rc::new(next);
    let encode = std::sync::Arc::new(encode);
    // State: the next page's rows (read while the page before was written),
    // whether the header is still to come, and whether it ended.
    let first: Option<Result<Rows, E>> = None;
    let body =
        futures_util::stream::unfold((first, true, false), move |(pending, header, finished)| {
            let (read, next, encode) = (read.clone(), next.clone(), encode.clone());
            async move {
                if finished {
                    return None;
                }
                let failed = |err: &dyn std::fmt::Display| {
                    tracing::error!(%err, "CSV export failed");
                    Some((
                        Err(actix_web::error::ErrorInternalServerError("export failed")),
                        (None, false, true),
                    ))
                };
                let rows = match pending {
                    Some(rows) => rows,
                    None => read(None).await,
                };
                let rows = match rows {
                    Ok(rows) => rows,
                    Err(err) => return failed(&err),
                };
                let after = next(&rows);
                let encoded = tokio::task::spawn_blocking(move || encode(rows, header));
                let (bytes, pending) = match after {
                    Some(after) => {
                        let (bytes, rows) = tokio::join!(encoded, read(Some(after)));
                        (bytes, Some(rows))
                    }
                    None => (encoded.await, None),
                };
                let bytes = match bytes {
                    Ok(Ok(bytes)) => bytes,
                    Ok(Err(err)) => return failed(&err),
                    Err(err) => return failed(&err),
                };
                let finished = pending.is_none();
                Some((
                    Ok(actix_web::web::Bytes::from(bytes)),
                    (pending, false, finished),
                ))
            }
        });
    csv_response(filename, body)
}

/// A CSV file download of `body`'s chunks.
pub fn csv_response<S>(filename: &str, body: S) -> actix_web::HttpResponse
where
    S: futures_util::Stream<Item = Result<actix_web::web::Bytes, actix_web::Error>> + 'static,
{
    use actix_web::http::header;
    actix_web::HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{filename}\""),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .streaming(body)
}

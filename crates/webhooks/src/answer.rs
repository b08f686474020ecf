//! How one delivery attempt ended, read from the receiver's answer: shared
//! by signed webhooks and the Mailchimp push, which retry the same answers.

/// The most of an answer's body kept in the log.
pub const EXCERPT_BYTES: usize = 4096;

/// How one attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// 2xx.
    Delivered { status: u16, body: String },
    /// Worth another try: no answer, a timeout, 429 or 5xx.
    Retry { status: Option<u16>, body: String },
    /// Not worth another try (another 4xx, or a refused destination).
    Refused { status: Option<u16>, body: String },
}

impl Answer {
    /// Reads the status and at most the first [`EXCERPT_BYTES`] of the body:
    /// 2xx is delivered, 429 and 5xx are tried again, any other status is not.
    pub(crate) async fn of(res: reqwest::Response) -> Self {
        let status = res.status().as_u16();
        let body = excerpt(res).await;
        match status {
            200..=299 => Self::Delivered { status, body },
            429 | 500..=599 => Self::Retry {
                status: Some(status),
                body,
            },
            _ => Self::Refused {
                status: Some(status),
                body,
            },
        }
    }
}

/// The first [`EXCERPT_BYTES`] of an answer's body (as text); the rest is
/// never read.
async fn excerpt(mut res: reqwest::Response) -> String {
    let mut kept: Vec<u8> = Vec::new();
    while kept.len() < EXCERPT_BYTES {
        match res.chunk().await {
            Ok(Some(chunk)) => {
                let room = EXCERPT_BYTES - kept.len();
                kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            _ => break,
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

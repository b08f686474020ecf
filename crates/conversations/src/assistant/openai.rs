//! The OpenAI-compatible provider: `POST {base}/v1/chat/completions` with
//! `stream: true`, relaying `choices[0].delta.content` tokens as they arrive
//! (OpenAI, Groq, Ollama, vLLM, llama.cpp and other compatible servers).

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn new(role: &str, content: &str) -> Self {
        Self {
            role: role.into(),
            content: content.into(),
        }
    }
}

/// Where and how to reach the model.
#[derive(Debug, Clone)]
pub struct ProviderConfig {
    /// e.g. `https://api.openai.com` or `http://127.0.0.1:11434` (Ollama); `/v1/chat/completions` is appended.
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
    /// Longest wait for the answer to start, and between two chunks.
    pub idle_timeout: Duration,
    pub max_tokens: u32,
    pub temperature: f32,
}

/// Why a streamed answer failed.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("could not reach the model server: {0}")]
    Connect(String),
    #[error("the model server answered {status}: {message}")]
    Status { status: u16, message: String },
    #[error("the model server stopped sending for longer than the timeout")]
    Timeout,
    #[error("the model server sent something unreadable: {0}")]
    Protocol(String),
}

/// Timing of one reply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplyTiming {
    pub first_token: Duration,
    pub total: Duration,
}

#[derive(Deserialize)]
struct Chunk {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    delta: Delta,
}

#[derive(Deserialize, Default)]
struct Delta {
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct ErrorEnvelope {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    message: String,
}

/// A client for one configured model server.
#[derive(Clone)]
pub struct OpenAiCompatible {
    http: reqwest::Client,
    config: ProviderConfig,
}

impl OpenAiCompatible {
    pub fn new(config: ProviderConfig) -> Result<Self, ProviderError> {
        let http = reqwest::Client::builder()
            .connect_timeout(config.idle_timeout)
            .build()
            .map_err(|e| ProviderError::Connect(e.to_string()))?;
        Ok(Self { http, config })
    }

    /// Streams the model's answer to `messages`, calling `on_token` for each piece
    /// in order. A connection error before anything arrived is retried once.
    pub async fn stream(
        &self,
        messages: &[ChatMessage],
        on_token: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ReplyTiming, ProviderError> {
        match self.stream_once(messages, on_token).await {
            Err(ProviderError::Connect(_)) => self.stream_once(messages, on_token).await,
            other => other,
        }
    }

    async fn stream_once(
        &self,
        messages: &[ChatMessage],
        on_token: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ReplyTiming, ProviderError> {
        let started = Instant::now();
        let url = format!(
            "{}/v1/chat/completions",
            self.config.base_url.trim_end_matches('/')
        );
        let body = serde_json::json!({
            "model": self.config.model,
            "messages": messages,
            "stream": true,
            "max_tokens": self.config.max_tokens,
            "temperature": self.config.temperature,
        });
        let mut request = self.http.post(url).json(&body);
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key);
        }
        let response = tokio::time::timeout(self.config.idle_timeout, request.send())
            .await
            .map_err(|_| ProviderError::Timeout)?
            .map_err(|e| {
                if e.is_connect() {
                    ProviderError::Connect(e.to_string())
                } else {
                    ProviderError::Protocol(e.to_string())
                }
            })?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            let message = serde_json::from_str::<ErrorEnvelope>(&text)
                .map(|e| e.error.message)
                .unwrap_or_else(|_| text.chars().take(200).collect());
            return Err(ProviderError::Status {
                status: status.as_u16(),
                message,
            });
        }
        let mut stream = response.bytes_stream();
        // Bytes, not text: a chunk may end inside a multi-byte character
        // (Devanagari is three bytes each); a line is decoded once whole (a
        // newline byte is never part of one).
        let mut buffer: Vec<u8> = Vec::new();
        let mut first_token: Option<Duration> = None;
        loop {
            let next = tokio::time::timeout(self.config.idle_timeout, stream.next())
                .await
                .map_err(|_| ProviderError::Timeout)?;
            let Some(chunk) = next else { break };
            let chunk = chunk.map_err(|e| ProviderError::Protocol(e.to_string()))?;
            buffer.extend_from_slice(&chunk);
            while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
                let line = String::from_utf8_lossy(&buffer[..end])
                    .trim_end_matches('\r')
                    .to_string();
                buffer.drain(..=end);
                let Some(data) = line.strip_prefix("data:") else {
                    continue;
                };
                let data = data.trim();
                if data == "[DONE]" {
                    return Ok(ReplyTiming {
                        first_token: first_token.unwrap_or_else(|| started.elapsed()),
                        total: started.elapsed(),
                    });
                }
                let parsed: Chunk = serde_json::from_str(data)
                    .map_err(|e| ProviderError::Protocol(e.to_string()))?;
                if let Some(text) = parsed
                    .choices
                    .first()
                    .and_then(|c| c.delta.content.as_deref())
                    && !text.is_empty()
                {
                    first_token.get_or_insert_with(|| started.elapsed());
                    on_token(text);
                }
            }
        }
        Err(ProviderError::Protocol(
            "the stream ended without [DONE]".into(),
        ))
    }
}

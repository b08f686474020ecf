//! A fake OpenAI-compatible model server for tests and benchmarks: it speaks
//! `POST /v1/chat/completions` with `stream: true` as a script says.
#![allow(clippy::expect_used)]

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// How the fake model server behaves.
#[derive(Clone)]
pub enum Script {
    /// Stream these tokens, `gap` apart, then `[DONE]`.
    Tokens(Vec<&'static str>, Duration),
    /// Wait `delay`, then stream these tokens at once.
    Delayed(Duration, Vec<&'static str>),
    /// Answer with this status and body.
    Status(u16, &'static str),
    /// Send one token, then nothing more.
    Stall(&'static str),
    /// Stream these tokens with the body cut into 1 to 3 byte pieces, `gap`
    /// apart, so multi-byte characters arrive split across reads.
    Split(Vec<&'static str>, Duration),
}

/// Starts the server; answers its base URL and the raw requests it receives.
pub async fn fake_server(script: Script) -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let script = script.clone();
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                // Read headers and the JSON body (Content-Length).
                loop {
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&request).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let len = text
                            .lines()
                            .find_map(|l| {
                                l.to_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if request.len() >= end + 4 + len {
                            let _ = tx.send(text);
                            break;
                        }
                    }
                }
                match script {
                    Script::Status(code, body) => {
                        let head = format!(
                            "HTTP/1.1 {code} Error\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                            body.len()
                        );
                        let _ = socket.write_all(head.as_bytes()).await;
                    }
                    Script::Tokens(tokens, gap) => {
                        let _ = socket
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
                            .await;
                        for t in tokens {
                            tokio::time::sleep(gap).await;
                            let line = format!(
                                "data: {{\"choices\":[{{\"delta\":{{\"content\":{}}}}}]}}\n\n",
                                serde_json::json!(t)
                            );
                            let _ = socket.write_all(line.as_bytes()).await;
                        }
                        let _ = socket.write_all(b"data: [DONE]\n\n").await;
                    }
                    Script::Delayed(delay, tokens) => {
                        tokio::time::sleep(delay).await;
                        let _ = socket
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
                            .await;
                        for t in tokens {
                            let line = format!(
                                "data: {{\"choices\":[{{\"delta\":{{\"content\":{}}}}}]}}\n\n",
                                serde_json::json!(t)
                            );
                            let _ = socket.write_all(line.as_bytes()).await;
                        }
                        let _ = socket.write_all(b"data: [DONE]\n\n").await;
                    }
                    Script::Split(tokens, gap) => {
                        let _ = socket
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
                            .await;
                        let mut body = String::new();
                        for t in tokens {
                            body.push_str(&format!(
                                "data: {{\"choices\":[{{\"delta\":{{\"content\":{}}}}}]}}\n\n",
                                serde_json::json!(t)
                            ));
                        }
                        body.push_str("data: [DONE]\n\n");
                        let bytes = body.as_bytes();
                        let mut at = 0;
                        let mut size = 1;
                        while at < bytes.len() {
                            let end = (at + size).min(bytes.len());
                            let _ = socket.write_all(&bytes[at..end]).await;
                            let _ = socket.flush().await;
                            tokio::time::sleep(gap).await;
                            at = end;
                            size = size % 3 + 1;
                        }
                    }
                    Script::Stall(token) => {
                        let _ = socket
                            .write_all(
                                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n",
                            )
                            .await;
                        let line = format!(
                            "data: {{\"choices\":[{{\"delta\":{{\"content\":\"{token}\"}}}}]}}\n\n"
                        );
                        let _ = socket.write_all(line.as_bytes()).await;
                        tokio::time::sleep(Duration::from_secs(30)).await;
                    }
                }
            });
        }
    });
    (base, rx)
}

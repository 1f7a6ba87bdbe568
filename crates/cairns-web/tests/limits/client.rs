//! A minimal HTTP/1.1 client over tokio: enough to send whole, half-sent,
//! oversized and pipelined requests on one connection and read the answers.

use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// One response.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    /// Names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The `error` of a JSON error body; panics if the body is not one.
    pub fn error(&self) -> String {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "{self:?}"
        );
        let value: Value = serde_json::from_slice(&self.body).expect("a JSON body");
        value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {value}"))
            .to_string()
    }

    /// Asserts that the answer is `status` with a JSON error containing
    /// `text`, showing the answer when not.
    #[track_caller]
    pub fn assert_refused(&self, status: u16, text: &str) {
        assert_eq!(self.status, status, "{self:?}");
        let error = self.error();
        assert!(error.contains(text), "no {text:?} in {error:?}");
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

/// The bytes of a request with a JSON body (or none when `body` is empty).
pub fn request(method: &str, path: &str, body: &str) -> Vec<u8> {
    format!(
        "{method} {path} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// One keep-alive connection.
#[derive(Debug)]
pub struct Conn {
    stream: TcpStream,
    /// Bytes read past the last answer.
    buf: Vec<u8>,
}

impl Conn {
    pub async fn open(addr: SocketAddr) -> Conn {
        Conn {
            stream: TcpStream::connect(addr).await.expect("connecting"),
            buf: Vec::new(),
        }
    }

    pub fn from_stream(stream: TcpStream) -> Conn {
        Conn {
            stream,
            buf: Vec::new(),
        }
    }

    /// A connection whose receive buffer is `bytes` small, so that a
    /// server's writes stall soon when it is not read.
    pub async fn open_small(addr: SocketAddr, bytes: u32) -> Conn {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(bytes).unwrap();
        Conn {
            stream: socket.connect(addr).await.expect("connecting"),
            buf: Vec::new(),
        }
    }

    pub async fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.stream.write_all(bytes).await
    }

    /// Sends a request and reads its answer.
    pub async fn send(&mut self, method: &str, path: &str, body: &str) -> Answer {
        self.write(&request(method, path, body))
            .await
            .expect("sending");
        self.answer().await.expect("an answer")
    }

    async fn fill(&mut self) -> io::Result<()> {
        self.buf.reserve(16 << 10);
        if self.stream.read_buf(&mut self.buf).await? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(())
    }

    /// Reads one answer (with a `content-length`).
    pub async fn answer(&mut self) -> io::Result<Answer> {
        let head_end = loop {
            if let Some(i) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await?;
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| io::Error::other(format!("bad status line in {head:?}")))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let len: usize = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        while self.buf.len() < head_end + len {
            self.fill().await?;
        }
        let body = self.buf[head_end..head_end + len].to_vec();
        self.buf.drain(..head_end + len);
        Ok(Answer {
            status,
            headers,
            body,
        })
    }

    /// Whether the server closes the connection within `limit`, reading
    /// (and dropping) whatever it still sends.
    pub async fn closed_within(&mut self, limit: Duration) -> bool {
        let until = Instant::now() + limit;
        let mut chunk = vec![0u8; 16 << 10];
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.stream.read(&mut chunk)).await {
                Err(_) => return false,
                Ok(Ok(0) | Err(_)) => return true,
                Ok(Ok(_)) => {}
            }
        }
    }
}

/// A `POST /api/search` of `body` on a new connection.
pub async fn search(addr: SocketAddr, body: &str) -> Answer {
    call(addr, "POST", "/api/search", body).await
}

/// One request on a new connection.
pub async fn call(addr: SocketAddr, method: &str, path: &str, body: &str) -> Answer {
    Conn::open(addr).await.send(method, path, body).await
}

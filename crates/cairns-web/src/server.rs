//! The HTTP server around the router: the accept loop with its connection
//! cap, the connection timeouts, and the request deadline.
//!
//! Each bound comes from [`Limits`]:
//!
//! - at most `max_connections` connections are served at once; one past the
//!   cap is answered `503` with a JSON error and closed;
//! - a failing `accept` (out of file descriptors, say) is logged at most
//!   every few seconds and retried after a short sleep, never fatal;
//! - a client has `header_read_timeout` to send a request's headers, and an
//!   idle keep-alive connection is closed after as long (hyper's timer);
//! - a response the client reads none of for `write_timeout` closes the
//!   connection ([`WriteDeadline`]);
//! - each request has `request_timeout` from its headers to its response,
//!   its body read within it ([`deadline`]).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::Sleep;

use crate::limits::Limits;
use crate::state::AppState;
use crate::wire::ApiError;

/// How long to wait before accepting again after `accept` failed for lack
/// of descriptors or memory.
const ACCEPT_RETRY: Duration = Duration::from_millis(100);

/// How often, at most, accept failures are reported.
const ACCEPT_REPORT_EVERY: Duration = Duration::from_secs(5);

/// Connections past the cap being answered `503` at once; past this they
/// are closed without an answer.
const REFUSALS_AT_ONCE: usize = 32;

/// How long answering and closing a connection past the cap may take.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// The most a connection buffers of a request's headers (and of its body
/// at a time). Hyper's default is about 400 KB, which `max_connections`
/// slow clients could hold each; the page's requests have headers of a few
/// hundred bytes.
const READ_BUFFER: usize = 64 << 10;

/// Serves `app` on `listener` with the connection limits of `limits`, until
/// the future is dropped (which closes every connection).
pub(crate) async fn serve_on(listener: TcpListener, app: Router, limits: &Limits) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let refusing = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(READ_BUFFER);
    // Owning the connections' tasks ends them when this future is dropped.
    let mut tasks = JoinSet::new();
    let mut failures = AcceptFailures::default();
    loop {
        while tasks.try_join_next().is_some() {}
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                failures.report(&e);
                tokio::time::sleep(ACCEPT_RETRY).await;
                continue;
            }
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            if let Ok(turn) = Arc::clone(&refusing).try_acquire_owned() {
                let max = limits.max_connections;
                tasks.spawn(async move {
                    refuse(stream, max).await;
                    drop(turn);
                });
            }
            continue;
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(WriteDeadline::new(stream, limits.write_timeout));
        let conn = http.serve_connection(io, TowerToHyperService::new(app.clone()));
        tasks.spawn(async move {
            // A client that goes away or times out is no error of ours.
            let _ = conn.await;
            drop(slot);
        });
    }
}

/// Errors of one incoming connection (gone before it was accepted), not of
/// the listener: accept the next one at once.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Reports accept failures on stderr, the first at once and then at most
/// one line every [`ACCEPT_REPORT_EVERY`] with a count.
#[derive(Debug, Default)]
struct AcceptFailures {
    unreported: u64,
    last_report: Option<Instant>,
}

impl AcceptFailures {
    fn report(&mut self, e: &io::Error) {
        self.unreported += 1;
        if self
            .last_report
            .is_some_and(|t| t.elapsed() < ACCEPT_REPORT_EVERY)
        {
            return;
        }
        eprintln!(
            "cairns-web: accepting a connection failed: {e} ({} time(s) since the last report); \
             retrying every {} ms",
            self.unreported,
            ACCEPT_RETRY.as_millis()
        );
        self.unreported = 0;
        self.last_report = Some(Instant::now());
    }
}

/// Answers a connection past the cap with `503` and a JSON error, without
/// reading its request, and closes it.
async fn refuse(mut stream: TcpStream, max: usize) {
    let body = format!(
        r#"{{"error":"the server has {max} connections open, its limit; try again shortly"}}"#
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        // Read what the client sends until it closes: closing with unread
        // data would reset the connection, and the client could lose the
        // answer before reading it.
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        io::Result::Ok(())
    })
    .await;
}

/// A TCP stream whose writes fail with `TimedOut` once the client has taken
/// none of the bytes offered for `limit`, so that a client that stops
/// reading a response cannot hold its connection (and the response) for
/// ever.
#[derive(Debug)]
pub(crate) struct WriteDeadline {
    inner: TcpStream,
    limit: Duration,
    /// Running while a write waits for the client.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl WriteDeadline {
    fn new(inner: TcpStream, limit: Duration) -> WriteDeadline {
        WriteDeadline {
            inner,
            limit,
            stalled: None,
        }
    }

    /// Passes on a write's result, timing how long it has been pending.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let limit = self.limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read none of the response in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for WriteDeadline {
    fn poll_read(
        mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteDeadline {
    fn poll_write(
        mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.watch(cx, poll)
    }
}

/// The request deadline, as middleware of every route: reads the body
/// (`413` past [`Limits::max_body_bytes`], `408` if it has not arrived by
/// the deadline), then runs the handler (`503` if it has not answered by
/// the deadline; its blocking work finishes on its own, keeping its turn
/// until then).
pub(crate) async fn deadline(
    State(state): State<Arc<AppState>>, req: Request, next: Next,
) -> Response {
    let limits = state.limits();
    let timeout = limits.request_timeout;
    let until = tokio::time::Instant::now() + timeout;
    let max = limits.max_body_bytes;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than the {max} bytes the server accepts"),
        )
        .into_response()
    };
    let (parts, body) = req.into_parts();
    if content_length(&parts.headers).is_some_and(|n| n > max) {
        return too_large();
    }
    let bytes = match tokio::time::timeout_at(until, Limited::new(body, max).collect()).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => return too_large(),
        Ok(Err(e)) => {
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("reading the request body failed: {e}"),
            )
            .into_response();
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {}",
                    seconds(timeout)
                ),
            )
            .into_response();
        }
    };
    let req = Request::from_parts(parts, Body::from(bytes));
    match tokio::time::timeout_at(until, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server did not finish the request within {}; it is busy, try again shortly",
                seconds(timeout)
            ),
        )
        .into_response(),
    }
}

fn content_length(headers: &HeaderMap) -> Option<usize> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

//! The listener: accepts TCP connections and serves HTTP/1.1 on them with limits that keep a
//! flood of slow or idle clients from taking the node down — a header-read timeout (a client
//! that does not finish a request head in time, or sits idle on a keep-alive connection that
//! long, is disconnected), an idle timeout (a connection on which no byte moved either way for
//! that long is closed — a client that stops in the middle of a body, or never reads its
//! answer; live streams send a keep-alive comment well within it), and a cap on open
//! connections (beyond it a new connection is closed at once, so the process never runs out of
//! file descriptors and `/healthz` answers again as soon as the flood's connections time out).
//! axum's own `serve` has none of these.

use crate::config::ServerConfig;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tower_service::Service;

/// How long open connections may take to finish after shutdown was asked for.
const DRAIN: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `shutdown` completes, then lets open connections finish
/// (up to [`DRAIN`]).
pub(crate) async fn serve<F>(
    listener: tokio::net::TcpListener,
    router: Router,
    config: &ServerConfig,
    shutdown: F,
) -> std::io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout)
        .keep_alive(true);
    let slots = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors or a connection reset before accept: keep serving.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            // Over the cap: close at once rather than hold a descriptor for it.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(
            move |mut request: hyper::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                let mut router = router.clone();
                router.call(request)
            },
        );
        let activity = Activity::new();
        let watched = Watched {
            inner: stream,
            activity: activity.clone(),
        };
        let connection = graceful.watch(http.serve_connection(TokioIo::new(watched), service));
        let idle_timeout = config.idle_timeout;
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            loop {
                let idle = activity.idle_for();
                if idle >= idle_timeout {
                    // Dropping the connection closes the socket.
                    tracing::debug!(%peer, "connection idle too long; closed");
                    break;
                }
                tokio::select! {
                    ended = &mut connection => {
                        if let Err(e) = ended {
                            tracing::debug!(error = %e, %peer, "connection ended with an error");
                        }
                        break;
                    }
                    () = tokio::time::sleep(idle_timeout - idle) => {}
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("connections still open after the drain period; closing them");
    }
    Ok(())
}

/// When bytes last moved on one connection, in milliseconds since it was accepted.
#[derive(Clone)]
struct Activity {
    since: Instant,
    last_ms: Arc<AtomicU64>,
}

impl Activity {
    fn new() -> Self {
        Activity {
            since: Instant::now(),
            last_ms: Arc::new(AtomicU64::new(0)),
        }
    }

    fn touch(&self) {
        let ms = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.fetch_max(ms, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        let last = Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
        self.since.elapsed().saturating_sub(last)
    }
}

/// A socket that notes every read and write that moved bytes in its [`Activity`].
struct Watched<T> {
    inner: T,
    activity: Activity,
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

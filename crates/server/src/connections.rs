//! The listener: accepts TCP connections and serves HTTP/1.1 on them with limits that keep a
//! flood of slow or idle clients from taking the node down — a header-read timeout (a client
//! that does not finish a request head in time, or sits idle on a keep-alive connection that
//! long, is disconnected), and a cap on open connections (beyond it a new connection is closed
//! at once, so the process never runs out of file descriptors and `/healthz` answers again as
//! soon as the flood's connections time out). axum's own `serve` has neither.

use crate::config::ServerConfig;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
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
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, %peer, "connection ended with an error");
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

//! PostgreSQL-only behaviour, against the real server: two nodes (two `Store` instances on one
//! database) race and hear each other's commits; a dead server is `unavailable` and the store
//! recovers when it returns; nodes starting together migrate once.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use tokio::task::JoinSet;
use turnstile_store::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_race_with_exactly_one_winner() {
    let Some(schema) = PgSchema::new("t").await else {
        return;
    };
    let (a, b) = (schema.open().await, schema.open().await);
    seed_match(&*a, "m").await;
    let mut rounds = Vec::new();
    for s in 1..=40u64 {
        let (a2, b2) = (Arc::clone(&a), Arc::clone(&b));
        let barrier = Arc::new(tokio::sync::Barrier::new(2));
        let (ba, bb) = (Arc::clone(&barrier), Arc::clone(&barrier));
        let ta = tokio::spawn(async move {
            ba.wait().await;
            a2.append("m", &record(s, &format!("a{s}"))).await
        });
        let tb = tokio::spawn(async move {
            bb.wait().await;
            b2.append("m", &record(s, &format!("b{s}"))).await
        });
        let (ra, rb) = (ta.await.unwrap(), tb.await.unwrap());
        assert!(ra.is_ok() != rb.is_ok(), "round {s}: {ra:?} {rb:?}");
        let loser = ra.as_ref().err().or(rb.as_ref().err()).unwrap();
        assert_eq!(loser.conflict().unwrap().uniqueness(), "match_sequence");
        rounds.push(if ra.is_ok() {
            format!("a{s}")
        } else {
            format!("b{s}")
        });
    }
    let log: Vec<String> = b
        .log("m", 0, 1000)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.command_id)
        .collect();
    assert_eq!(log, rounds);

    // The same command id from both nodes at once: one receipt, the other is told it exists.
    let (a2, b2) = (Arc::clone(&a), Arc::clone(&b));
    let ta = tokio::spawn(async move { a2.append("m", &record(41, "same")).await });
    let tb = tokio::spawn(async move { b2.append("m", &record(41, "same")).await });
    let (ra, rb) = (ta.await.unwrap(), tb.await.unwrap());
    assert!(ra.is_ok() != rb.is_ok(), "{ra:?} {rb:?}");
    let loser = ra.err().or(rb.err()).unwrap();
    assert_eq!(loser.code(), "conflict");
    assert_eq!(a.last_sequence("m").await.unwrap(), 41);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_hears_the_other_nodes_commits() {
    let Some(schema) = PgSchema::new("t").await else {
        return;
    };
    let (a, b) = (schema.open().await, schema.open().await);
    seed_match(&*a, "m").await;
    let mut rx_b = b.subscribe();
    let mut rx_a = a.subscribe();
    for s in 1..=3 {
        a.append("m", &record(s, &format!("c{s}"))).await.unwrap();
    }
    for s in 1..=3 {
        assert_eq!(next_commit(&mut rx_b, "m").await.sequence, s);
        assert_eq!(next_commit(&mut rx_a, "m").await.sequence, s);
    }
    b.append_many(&[("m".to_owned(), record(4, "c4"))])
        .await
        .unwrap()
        .remove(0)
        .unwrap();
    assert_eq!(next_commit(&mut rx_a, "m").await.sequence, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_from_two_nodes_over_the_same_matches_do_not_deadlock() {
    let Some(schema) = PgSchema::new("t").await else {
        return;
    };
    let (a, b) = (schema.open().await, schema.open().await);
    let ids: Vec<String> = (0..6).map(|i| format!("m{i}")).collect();
    for m in &ids {
        seed_match(&*a, m).await;
    }
    // Each node batches one command per match, in opposite orders, for the same sequences.
    let run = |store: Arc<dyn Store>, ids: Vec<String>, tag: &'static str| async move {
        let mut accepted = 0usize;
        for round in 0..30 {
            let mut entries = Vec::new();
            for m in &ids {
                let next = store.last_sequence(m).await.unwrap() + 1;
                entries.push((m.clone(), record(next, &format!("{tag}-{round}-{m}"))));
            }
            let outcomes = store
                .append_many(&entries)
                .await
                .expect("a whole batch failed");
            for o in outcomes {
                match o {
                    Ok(()) => accepted += 1,
                    Err(e) => assert_eq!(e.code(), "conflict", "{e}"),
                }
            }
        }
        accepted
    };
    let mut reversed = ids.clone();
    reversed.reverse();
    let ta = tokio::spawn(run(Arc::clone(&a), ids.clone(), "a"));
    let tb = tokio::spawn(run(Arc::clone(&b), reversed, "b"));
    let total = ta.await.unwrap() + tb.await.unwrap();
    let mut stored = 0usize;
    for m in &ids {
        let log = a.log(m, 0, 10_000).await.unwrap();
        for (j, r) in log.iter().enumerate() {
            assert_eq!(r.sequence, j as u64 + 1);
        }
        stored += log.len();
    }
    assert_eq!(stored, total);
}

#[tokio::test]
async fn a_closed_port_is_unavailable() {
    let err = match open_with(
        "postgres://postgres@127.0.0.1:1/test",
        OpenOptions {
            postgres: PostgresOptions {
                connect_timeout: Duration::from_secs(2),
                ..PostgresOptions::default()
            },
            ..OpenOptions::default()
        },
    )
    .await
    {
        Ok(_) => panic!("opened a store on a closed port"),
        Err(e) => e,
    };
    assert_eq!(err.code(), "unavailable", "{err}");
    let err = match open("postgres://postgres@127.0.0.1:5432/test?bogus_param=1").await {
        Ok(_) => panic!("accepted a bad URL"),
        Err(e) => e,
    };
    assert_eq!(err.code(), "invalid", "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_starting_together_migrate_once() {
    let Some(schema) = PgSchema::new("t").await else {
        return;
    };
    let mut opens = JoinSet::new();
    for _ in 0..4 {
        let (url, options) = (schema.url.clone(), schema.options());
        opens.spawn(async move { open_with(&url, options).await });
    }
    let mut stores = Vec::new();
    while let Some(r) = opens.join_next().await {
        stores.push(r.unwrap().unwrap());
    }
    seed_match(&*stores[0], "m").await;
    stores[3].append("m", &record(1, "c1")).await.unwrap();

    // A schema from a newer build is refused.
    let (client, conn) = tokio_postgres::connect(&schema.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let driver = tokio::spawn(conn);
    client
        .batch_execute(&format!(
            "INSERT INTO {}.turnstile_schema_version (version) VALUES (99)",
            schema.schema
        ))
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    let err = match open_with(&schema.url, schema.options()).await {
        Ok(_) => panic!("opened a schema from the future"),
        Err(e) => e,
    };
    assert_eq!(err.code(), "migration", "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_is_unavailable_and_the_store_recovers() {
    let Some(schema) = PgSchema::new("t").await else {
        return;
    };
    if !OutageProxy::usable() {
        eprintln!("the outage test proxies 127.0.0.1:5432 only; skipped for another URL");
        return;
    }
    let mut proxy = OutageProxy::start(0).await;
    let url = proxy.url(&schema.url);
    let proxied = open_with(&url, schema.options()).await.unwrap();
    let direct = schema.open().await;
    seed_match(&*proxied, "m").await;
    proxied.append("m", &record(1, "c1")).await.unwrap();
    let mut rx = proxied.subscribe();

    proxy.cut().await;
    // Every kind of call fails as unavailable, quickly, without a panic.
    let err = proxied.append("m", &record(2, "c2")).await.unwrap_err();
    assert_eq!(err.code(), "unavailable", "{err}");
    assert_eq!(proxied.ping().await.unwrap_err().code(), "unavailable");
    assert_eq!(
        proxied.log("m", 0, 10).await.unwrap_err().code(),
        "unavailable"
    );
    assert_eq!(
        proxied
            .try_acquire_lease("m", "n", 0, 1, 0)
            .await
            .unwrap_err()
            .code(),
        "unavailable"
    );
    // Meanwhile another node commits: the proxied node's listener is down and misses it.
    direct.append("m", &record(2, "c2-direct")).await.unwrap();

    // The database "returns" on the same address.
    let _proxy = OutageProxy::start(proxy.port).await;
    let mut recovered = false;
    for _ in 0..100 {
        if proxied.ping().await.is_ok() {
            recovered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        recovered,
        "the store did not recover after the database returned"
    );
    assert_eq!(proxied.last_sequence("m").await.unwrap(), 2);
    // The listener reconnected: it says it may have missed commits, then hears new ones.
    let gap = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match rx.recv().await {
                Ok(Notification::Gap) => return,
                Ok(_) => continue,
                Err(e) => panic!("{e}"),
            }
        }
    })
    .await;
    assert!(gap.is_ok(), "no Gap after the listener reconnected");
    direct.append("m", &record(3, "c3")).await.unwrap();
    assert_eq!(next_commit(&mut rx, "m").await.sequence, 3);
    proxied.append("m", &record(4, "c4")).await.unwrap();
}

#[test]
fn the_schema_parameter_is_taken_out_of_the_url() {
    let split = |u: &str| split_schema(u).map_err(|e| e.code());
    assert_eq!(
        split("postgres://u@h/db?schema=game_a&sslmode=disable"),
        Ok((
            "postgres://u@h/db?sslmode=disable".to_owned(),
            Some("game_a".to_owned())
        ))
    );
    assert_eq!(
        split("postgres://u@h/db?schema=b"),
        Ok(("postgres://u@h/db".to_owned(), Some("b".to_owned())))
    );
    assert_eq!(
        split("postgres://u@h/db"),
        Ok(("postgres://u@h/db".to_owned(), None))
    );
    assert_eq!(split("postgres://u@h/db?schema="), Err("invalid"));
    assert_eq!(split("postgres://u@h/db?schema=a&schema=b"), Err("invalid"));
}

/// `?schema=NAME` in the URL (what `turnstile serve --database` takes) puts every table in that
/// schema, created on first use; a bad name is `invalid` before anything is touched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_named_in_the_url_is_created_and_used() {
    let Some(existing) = PgSchema::new("t").await else {
        return;
    };
    // A fresh name beside the test's own schema, dropped with it below.
    let fresh = format!("{}_url", existing.schema);
    let store = open(&format!("{}?schema={fresh}", existing.url))
        .await
        .unwrap();
    seed_match(&*store, "m").await;
    store.append("m", &record(1, "c1")).await.unwrap();
    let (client, conn) = tokio_postgres::connect(&existing.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    let driver = tokio::spawn(conn);
    let tables: i64 = client
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1",
            &[&fresh],
        )
        .await
        .unwrap()
        .get(0);
    let rows: i64 = client
        .query_one(&format!("SELECT count(*) FROM {fresh}.command_log"), &[])
        .await
        .map(|r| r.get(0))
        .unwrap_or(-1);
    client
        .batch_execute(&format!("DROP SCHEMA IF EXISTS {fresh} CASCADE"))
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    assert!(tables >= 5, "the tables live in {fresh}: {tables}");
    assert_eq!(rows, 1, "the command went into {fresh}.command_log");
    let err = match open(&format!("{}?schema=no-dashes", existing.url)).await {
        Ok(_) => panic!("accepted a bad schema name"),
        Err(e) => e,
    };
    assert_eq!(err.code(), "invalid", "{err}");
}

/// High availability (docs/deploy.md): a multi-host URL with `target_session_attrs=read-write`
/// names every server of a cluster; when the one in use goes away, the store carries on with
/// the next one by itself — queries, appends and the commit listener — without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multi_host_url_fails_over_to_the_next_server_by_itself() {
    let Some(schema) = PgSchema::new("t").await else {
        return;
    };
    if !OutageProxy::usable() {
        eprintln!("the failover test proxies 127.0.0.1:5432 only; skipped for another URL");
        return;
    }
    // Two "servers" of one cluster: two proxies in front of the same database.
    let mut first = OutageProxy::start(0).await;
    let second = OutageProxy::start(0).await;
    let url = format!(
        "{}?target_session_attrs=read-write",
        schema.url.replace(
            "127.0.0.1:5432",
            &format!("127.0.0.1:{},127.0.0.1:{}", first.port, second.port)
        )
    );
    let node = open_with(&url, schema.options()).await.unwrap();
    let other = schema.open().await;
    seed_match(&*node, "m").await;
    node.append("m", &record(1, "c1")).await.unwrap();
    let mut rx = node.subscribe();

    // The first server dies for good: whatever was in flight on it fails as unavailable (never
    // as another error), and the store reaches the second one on its own.
    first.cut().await;
    let mut sequence = 2;
    let mut failures = 0;
    for _ in 0..100 {
        match node
            .append("m", &record(sequence, &format!("c{sequence}")))
            .await
        {
            Ok(()) => break,
            Err(e) => {
                assert_eq!(e.code(), "unavailable", "{e}");
                failures += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    assert!(failures < 100, "the store never reached the second server");
    assert_eq!(node.last_sequence("m").await.unwrap(), 2);
    sequence += 1;
    node.append("m", &record(sequence, "c3")).await.unwrap();

    // The listener moved too: it reports the gap, then hears another node's commits.
    let gap = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match rx.recv().await {
                Ok(Notification::Gap) => return,
                Ok(_) => continue,
                Err(e) => panic!("{e}"),
            }
        }
    })
    .await;
    assert!(
        gap.is_ok(),
        "no Gap after the listener moved to the second server"
    );
    other.append("m", &record(4, "c4")).await.unwrap();
    // (The node's own c2 and c3 may be heard first, if they committed after the listener moved.)
    let heard = tokio::time::timeout(Duration::from_secs(10), async {
        while next_commit(&mut rx, "m").await.sequence != 4 {}
    })
    .await;
    assert!(
        heard.is_ok(),
        "the moved listener never heard the other node's commit"
    );
    let log: Vec<String> = node
        .log("m", 0, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.command_id)
        .collect();
    assert_eq!(log, ["c1", "c2", "c3", "c4"]);
}

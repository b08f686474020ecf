//! `/metrics`: the HTTP figures of `actix-web-prom`, plus the event writer's
//! totals, how often widget configurations were built, the process's memory
//! and the SQLite log's size, read at each scrape.

use std::sync::atomic::Ordering;

use actix_web_prom::{PrometheusMetrics, PrometheusMetricsBuilder};
use prometheus::core::{Collector, Desc};
use prometheus::proto::MetricFamily;
use prometheus::{IntCounter, IntGauge, Opts, Registry};

use crate::state::AppState;

/// Builds the `/metrics` middleware with the server's own figures registered.
pub fn middleware(state: &AppState) -> anyhow::Result<PrometheusMetrics> {
    let registry = Registry::new();
    registry
        .register(Box::new(ServerFigures::new(state)?))
        .map_err(|e| anyhow::anyhow!("metrics: {e}"))?;
    PrometheusMetricsBuilder::new("convertassist")
        .registry(registry)
        .endpoint("/metrics")
        // One label for every path no route matched: scanners, old links and
        // the dashboard's own pages would otherwise add a series each, for ever.
        .mask_unmatched_patterns("UNMATCHED")
        .build()
        .map_err(|e| anyhow::anyhow!("metrics: {e}"))
}

/// Counters and gauges read from the running server when scraped.
struct ServerFigures {
    tracking: ca_tracking::TrackingService,
    sqlite_file: Option<std::path::PathBuf>,
    stored: IntCounter,
    batches: IntCounter,
    write_failures: IntCounter,
    refused_busy: IntCounter,
    not_stored: IntCounter,
    config_builds: IntCounter,
    queued: IntGauge,
    journalled: IntGauge,
    retrying: IntGauge,
    resident: IntGauge,
    wal: IntGauge,
}

fn counter(name: &str, help: &str) -> anyhow::Result<IntCounter> {
    IntCounter::with_opts(Opts::new(name, help).namespace("convertassist"))
        .map_err(|e| anyhow::anyhow!("metrics: {e}"))
}

fn gauge(name: &str, help: &str) -> anyhow::Result<IntGauge> {
    IntGauge::with_opts(Opts::new(name, help).namespace("convertassist"))
        .map_err(|e| anyhow::anyhow!("metrics: {e}"))
}

impl ServerFigures {
    fn new(state: &AppState) -> anyhow::Result<Self> {
        Ok(Self {
            tracking: state.tracking.clone(),
            sqlite_file: ca_core::db::sqlite_file(&state.config.database_url),
            stored: counter(
                "widget_events_stored_total",
                "Widget events (page views, impressions, engaged time) stored and acknowledged",
            )?,
            batches: counter(
                "widget_event_batches_total",
                "Transactions the event writer committed",
            )?,
            write_failures: counter(
                "widget_event_write_failures_total",
                "Failed attempts to store a batch of widget events (each retried)",
            )?,
            refused_busy: counter(
                "widget_events_busy_total",
                "Widget events answered 503 busy because the writer's queue was full",
            )?,
            not_stored: counter(
                "widget_events_not_stored_total",
                "Widget events answered 503 because their batch could not be stored in time (or, on SQLite, journalled)",
            )?,
            config_builds: counter(
                "widget_config_builds_total",
                "Widget configurations built from the database; every other configuration request was answered from memory",
            )?,
            queued: gauge(
                "widget_events_queued",
                "Widget events waiting for the writer, plus the batch being written",
            )?,
            journalled: gauge(
                "widget_events_journalled",
                "Widget events answered and kept in the event journal (SQLite) but not yet stored in the database",
            )?,
            retrying: gauge(
                "widget_event_writer_retrying",
                "1 while the event writer is retrying a batch the database refused",
            )?,
            resident: gauge(
                "process_resident_memory_bytes",
                "Resident memory of the server process",
            )?,
            wal: gauge(
                "sqlite_wal_bytes",
                "Size of the SQLite write-ahead log (0 on PostgreSQL)",
            )?,
        })
    }

    fn counters(&self) -> [&IntCounter; 6] {
        [
            &self.stored,
            &self.batches,
            &self.write_failures,
            &self.refused_busy,
            &self.not_stored,
            &self.config_builds,
        ]
    }

    fn gauges(&self) -> [&IntGauge; 5] {
        [
            &self.queued,
            &self.journalled,
            &self.retrying,
            &self.resident,
            &self.wal,
        ]
    }
}

/// Brings a counter up to a running total.
fn catch_up(counter: &IntCounter, total: u64) {
    let now = counter.get();
    if total > now {
        counter.inc_by(total - now);
    }
}

/// Resident memory of this process, from `/proc` (0 where there is none).
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

impl Collector for ServerFigures {
    fn desc(&self) -> Vec<&Desc> {
        self.counters()
            .into_iter()
            .flat_map(Collector::desc)
            .chain(self.gauges().into_iter().flat_map(Collector::desc))
            .collect()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        let writer = self.tracking.writer();
        let stats = writer.stats();
        catch_up(&self.stored, stats.stored.load(Ordering::Relaxed));
        catch_up(&self.batches, stats.batches.load(Ordering::Relaxed));
        catch_up(
            &self.write_failures,
            stats.write_failures.load(Ordering::Relaxed),
        );
        catch_up(
            &self.refused_busy,
            stats.refused_busy.load(Ordering::Relaxed),
        );
        catch_up(&self.not_stored, stats.not_stored.load(Ordering::Relaxed));
        catch_up(&self.config_builds, self.tracking.config_builds());
        let (waiting, _) = writer.queue();
        let writing = stats.writing.load(Ordering::Relaxed);
        self.queued
            .set(i64::try_from(waiting + writing).unwrap_or(i64::MAX));
        self.journalled
            .set(i64::try_from(stats.journalled.load(Ordering::Relaxed)).unwrap_or(i64::MAX));
        self.retrying
            .set(i64::from(stats.retrying.load(Ordering::Relaxed)));
        self.resident
            .set(i64::try_from(resident_bytes()).unwrap_or(i64::MAX));
        self.wal.set(self.sqlite_file.as_deref().map_or(0, |f| {
            i64::try_from(ca_core::db::wal_bytes(f)).unwrap_or(i64::MAX)
        }));
        self.counters()
            .into_iter()
            .flat_map(Collector::collect)
            .chain(self.gauges().into_iter().flat_map(Collector::collect))
            .collect()
    }
}

//! Fixed-window rate limits, counted in process or, when `CA_REDIS_URL` is set,
//! in Redis so that every server instance shares the counters.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use redis::AsyncCommands;
use redis::aio::ConnectionManager;

/// At most `max` counted events per `window`.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub max: u32,
    pub window: Duration,
}

impl Limit {
    pub const fn new(max: u32, window_secs: u64) -> Self {
        Self {
            max,
            window: Duration::from_secs(window_secs),
        }
    }
}

/// Where the counters live.
pub enum RateLimiter {
    /// Counters in this process only.
    Memory(Mutex<Windows>),
    /// Counters in Redis, shared by every instance.
    Redis(ConnectionManager),
}

/// The in-process counters: per key, when its window started, how long it
/// lasts and the count so far. Windows that have ended are dropped whenever
/// the map has doubled since the last clean-up, so it holds about as many
/// keys as are active at once (one per visitor IP in the busiest minute).
#[derive(Default)]
pub struct Windows {
    map: HashMap<String, (Instant, Duration, u32)>,
    prune_at: usize,
    /// Per key, when its window started, how long it lasts, and the
    /// distinct members admitted in it (see [`RateLimiter::admit_member`]).
    members: HashMap<String, (Instant, Duration, HashSet<String>)>,
}

/// Keys of distinct members held in process before ended windows are
/// dropped; past twice this many live ones, they all start again (admitting
/// too much for a while rather than holding memory without bound).
const MEMBER_KEYS: usize = 100_000;

const PRUNE_ABOVE: usize = 10_000;

impl Windows {
    fn prune(&mut self) {
        if self.map.len() >= self.prune_at.max(PRUNE_ABOVE) {
            self.map
                .retain(|_, (start, window, _)| start.elapsed() < *window);
            self.map.shrink_to_fit();
            self.prune_at = self.map.len() * 2;
        }
    }

    /// Keys held now.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl RateLimiter {
    /// In-process counters.
    pub fn memory() -> Self {
        Self::Memory(Mutex::new(Windows::default()))
    }

    /// Counters in Redis at `url`.
    pub async fn redis(url: &str) -> anyhow::Result<Self> {
        let client = redis::Client::open(url)?;
        let manager = ConnectionManager::new(client).await?;
        Ok(Self::Redis(manager))
    }

    /// From configuration: Redis when a URL is given, else in process.
    pub async fn from_config(redis_url: Option<&str>) -> anyhow::Result<Self> {
        match redis_url {
            Some(url) => Self::redis(url).await,
            None => Ok(Self::memory()),
        }
    }

    /// `Err(retry_after)` when `key` has already used up `limit`; counts nothing.
    pub async fn check(&self, key: &str, limit: Limit) -> Result<(), Duration> {
        let (count, remaining) = self.current(key, limit).await;
        if count >= limit.max {
            Err(remaining)
        } else {
            Ok(())
        }
    }

    /// Counts one event for `key`; `Err(retry_after)` when this event goes over `limit`.
    pub async fn hit(&self, key: &str, limit: Limit) -> Result<(), Duration> {
        let (count, remaining) = self.increment(key, limit).await;
        if count > limit.max {
            Err(remaining)
        } else {
            Ok(())
        }
    }

    /// Whether `member` is one of the first `max` distinct members seen
    /// under `key` in the window: a member already admitted is admitted
    /// again; a new one only while fewer than `max` are. An unreachable
    /// Redis admits (fails open).
    pub async fn admit_member(&self, key: &str, member: &str, limit: Limit) -> bool {
        match self {
            Self::Memory(windows) => {
                let Ok(mut w) = windows.lock() else {
                    return true;
                };
                if w.members.len() >= MEMBER_KEYS {
                    w.members
                        .retain(|_, (start, window, _)| start.elapsed() < *window);
                    if w.members.len() >= 2 * MEMBER_KEYS {
                        w.members.clear();
                    }
                }
                let entry = w
                    .members
                    .entry(key.to_string())
                    .or_insert_with(|| (Instant::now(), limit.window, HashSet::new()));
                if entry.0.elapsed() >= entry.1 {
                    *entry = (Instant::now(), limit.window, HashSet::new());
                }
                if entry.2.contains(member) {
                    return true;
                }
                if entry.2.len() < limit.max as usize {
                    entry.2.insert(member.to_string());
                    return true;
                }
                false
            }
            Self::Redis(manager) => {
                let mut conn = manager.clone();
                let script = redis::Script::new(
                    r"if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
                      if redis.call('SCARD', KEYS[1]) < tonumber(ARGV[2]) then
                        redis.call('SADD', KEYS[1], ARGV[1])
                        if redis.call('TTL', KEYS[1]) < 0 then
                          redis.call('EXPIRE', KEYS[1], ARGV[3])
                        end
                        return 1
                      end
                      return 0",
                );
                let result: redis::RedisResult<i64> = script
                    .key(format!("ca:set:{key}"))
                    .arg(member)
                    .arg(limit.max)
                    .arg(limit.window.as_secs().max(1))
                    .invoke_async(&mut conn)
                    .await;
                match result {
                    Ok(admitted) => admitted == 1,
                    Err(err) => {
                        tracing::warn!(%err, "distinct-member check failed; admitting");
                        true
                    }
                }
            }
        }
    }

    /// Forgets `key`'s count (after a successful login, say).
    pub async fn reset(&self, key: &str) {
        match self {
            Self::Memory(map) => {
                if let Ok(mut map) = map.lock() {
                    map.map.remove(key);
                }
            }
            Self::Redis(manager) => {
                let mut conn = manager.clone();
                let result: redis::RedisResult<()> = conn.del(redis_key(key)).await;
                if let Err(err) = result {
                    tracing::warn!(%err, "rate limit reset failed");
                }
            }
        }
    }

    async fn current(&self, key: &str, limit: Limit) -> (u32, Duration) {
        match self {
            Self::Memory(map) => {
                let Ok(map) = map.lock() else {
                    return (0, limit.window);
                };
                match map.map.get(key) {
                    Some((start, _, count)) if start.elapsed() < limit.window => {
                        (*count, limit.window.saturating_sub(start.elapsed()))
                    }
                    _ => (0, limit.window),
                }
            }
            Self::Redis(manager) => {
                let mut conn = manager.clone();
                let key = redis_key(key);
                let result: redis::RedisResult<(Option<u32>, i64)> = redis::pipe()
                    .get(&key)
                    .ttl(&key)
                    .query_async(&mut conn)
                    .await;
                match result {
                    Ok((count, ttl)) => (count.unwrap_or(0), ttl_or_window(ttl, limit)),
                    Err(err) => {
                        // Fail open: an unreachable cache must not lock everyone out.
                        tracing::warn!(%err, "rate limit check failed; allowing");
                        (0, limit.window)
                    }
                }
            }
        }
    }

    async fn increment(&self, key: &str, limit: Limit) -> (u32, Duration) {
        match self {
            Self::Memory(map) => {
                let Ok(mut map) = map.lock() else {
                    return (0, limit.window);
                };
                map.prune();
                let entry =
                    map.map
                        .entry(key.to_string())
                        .or_insert((Instant::now(), limit.window, 0));
                if entry.0.elapsed() >= limit.window {
                    *entry = (Instant::now(), limit.window, 0);
                }
                entry.2 += 1;
                (entry.2, limit.window.saturating_sub(entry.0.elapsed()))
            }
            Self::Redis(manager) => {
                let mut conn = manager.clone();
                let key = redis_key(key);
                let window = limit.window.as_secs().max(1);
                // SET NX starts the window once; INCR counts within it.
                let result: redis::RedisResult<((), u32, i64)> = redis::pipe()
                    .cmd("SET")
                    .arg(&key)
                    .arg(0)
                    .arg("EX")
                    .arg(window)
                    .arg("NX")
                    .incr(&key, 1)
                    .ttl(&key)
                    .query_async(&mut conn)
                    .await;
                match result {
                    Ok(((), count, ttl)) => (count, ttl_or_window(ttl, limit)),
                    Err(err) => {
                        tracing::warn!(%err, "rate limit count failed; allowing");
                        (0, limit.window)
                    }
                }
            }
        }
    }
}

fn redis_key(key: &str) -> String {
    format!("ca:rl:{key}")
}

fn ttl_or_window(ttl: i64, limit: Limit) -> Duration {
    if ttl > 0 {
        Duration::from_secs(ttl as u64)
    } else {
        limit.window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn exercise(limiter: &RateLimiter, key: &str) {
        let limit = Limit::new(3, 60);
        for _ in 0..3 {
            assert!(limiter.check(key, limit).await.is_ok());
            assert!(limiter.hit(key, limit).await.is_ok());
        }
        let retry = limiter.check(key, limit).await.expect_err("limit reached");
        assert!(retry <= Duration::from_secs(60) && retry > Duration::from_secs(50));
        assert!(limiter.hit(key, limit).await.is_err());
        limiter.reset(key).await;
        assert!(limiter.check(key, limit).await.is_ok());
    }

    #[tokio::test]
    async fn memory_counts_and_resets() {
        exercise(&RateLimiter::memory(), "test:memory").await;
    }

    #[tokio::test]
    async fn memory_window_expires() {
        let limiter = RateLimiter::memory();
        let limit = Limit {
            max: 1,
            window: Duration::from_millis(50),
        };
        assert!(limiter.hit("k", limit).await.is_ok());
        assert!(limiter.hit("k", limit).await.is_err());
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert!(limiter.hit("k", limit).await.is_ok());
    }

    /// Keys whose window ended are dropped: a stream of new visitor IPs
    /// does not grow the counters without bound.
    #[tokio::test]
    async fn memory_forgets_ended_windows() {
        let limiter = RateLimiter::memory();
        let short = Limit {
            max: 5,
            window: Duration::from_millis(20),
        };
        for i in 0..PRUNE_ABOVE {
            limiter.hit(&format!("old:{i}"), short).await.ok();
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
        let long = Limit::new(5, 60);
        for i in 0..3 * PRUNE_ABOVE {
            limiter.hit(&format!("new:{i}"), long).await.ok();
        }
        let RateLimiter::Memory(map) = &limiter else {
            unreachable!()
        };
        let held = map.lock().expect("lock").len();
        // Only the live keys (and the ones added since the last clean-up) stay.
        assert!(
            held <= 3 * PRUNE_ABOVE + 1,
            "{held} keys held, the ended ones were kept"
        );
        assert!(held >= 3 * PRUNE_ABOVE, "live keys were dropped: {held}");
        // Live windows keep counting.
        for _ in 0..4 {
            limiter.hit("new:0", long).await.ok();
        }
        assert!(limiter.hit("new:0", long).await.is_err());
    }

    async fn admit_members(limiter: &RateLimiter, key: &str) {
        let limit = Limit::new(2, 60);
        assert!(limiter.admit_member(key, "a", limit).await);
        assert!(limiter.admit_member(key, "b", limit).await);
        // Members already admitted stay admitted; a third is refused.
        assert!(limiter.admit_member(key, "a", limit).await);
        assert!(!limiter.admit_member(key, "c", limit).await);
        assert!(limiter.admit_member(key, "b", limit).await);
        // Another key has its own members.
        assert!(
            limiter
                .admit_member(&format!("{key}:other"), "c", limit)
                .await
        );
    }

    #[tokio::test]
    async fn memory_admits_the_first_distinct_members() {
        admit_members(&RateLimiter::memory(), "members:memory").await;
    }

    #[tokio::test]
    async fn redis_admits_the_first_distinct_members() {
        let url = std::env::var("CA_TEST_REDIS_URL")
            .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_string());
        let limiter = RateLimiter::redis(&url).await.expect("redis reachable");
        admit_members(&limiter, &format!("members:{}", crate::ids::new_id())).await;
    }

    /// Runs against the machine's Redis (`CA_TEST_REDIS_URL`, default the local server).
    #[tokio::test]
    async fn redis_counts_and_resets() {
        let url = std::env::var("CA_TEST_REDIS_URL")
            .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_string());
        let limiter = RateLimiter::redis(&url).await.expect("redis reachable");
        let key = format!("test:{}", crate::ids::new_id());
        exercise(&limiter, &key).await;
        limiter.reset(&key).await;
    }
}

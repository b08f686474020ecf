//! Fixed-window rate limits, counted in process or, when `CA_REDIS_URL` is set,
//! in Redis so that every server instance shares the counters.
//!
//! Limits that guard sign-ins and payments are counted in Redis on every
//! attempt ([`RateLimiter::hit`]). The widget's limits are met on every page
//! view, so they are counted in the process at once and added to Redis in one
//! round trip for all keys every [`SYNC_EVERY`] ([`RateLimiter::hit_shared`]):
//! a widget request waits for no round trip, and every instance still sees
//! the others' counts within that time.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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
    Redis(Arc<Shared>),
}

/// How often the widget's counts are added to Redis and the other
/// instances' counts read back.
pub const SYNC_EVERY: Duration = Duration::from_millis(50);

/// Members already admitted by [`RateLimiter::admit_member`] remembered in
/// process before the oldest are forgotten (they are asked of Redis again).
const REMEMBERED_MEMBERS: usize = 200_000;

/// The Redis connection and this instance's view of the widget's counters.
pub struct Shared {
    conn: ConnectionManager,
    counts: Mutex<HashMap<String, SharedCount>>,
    /// Members admitted per key, and when their window ends: admitted once,
    /// a member stays admitted for the window, so asking again is not needed.
    admitted: Mutex<HashMap<(String, String), Instant>>,
}

/// One widget counter as this instance knows it: the window it counts in
/// (windows are aligned to the clock, so every instance agrees on them),
/// the total Redis last gave, and the hits not yet added there.
struct SharedCount {
    slot: u64,
    window: u64,
    total: u32,
    sending: u32,
    pending: u32,
    touched: bool,
}

impl SharedCount {
    /// A counter for the window `slot` of `window` seconds, with nothing counted.
    fn new(slot: u64, window: u64) -> Self {
        Self {
            slot,
            window,
            total: 0,
            sending: 0,
            pending: 0,
            touched: false,
        }
    }
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

    /// Counters in Redis at `url`; the widget's counters are synced by a
    /// task that ends when the limiter is dropped.
    pub async fn redis(url: &str) -> anyhow::Result<Self> {
        Self::connect(url, true).await
    }

    /// Counters in Redis at `url`, synced in the background or only when
    /// [`Self::sync_shared`] is called.
    async fn connect(url: &str, background: bool) -> anyhow::Result<Self> {
        let client = redis::Client::open(url)?;
        let conn = ConnectionManager::new(client).await?;
        let shared = Arc::new(Shared {
            conn,
            counts: Mutex::new(HashMap::new()),
            admitted: Mutex::new(HashMap::new()),
        });
        if background {
            tokio::spawn(sync_loop(Arc::downgrade(&shared)));
        }
        Ok(Self::Redis(shared))
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

    /// Counts one widget request for `key`; `Err(retry_after)` when it would
    /// go over `limit` (a refused request is not counted). With Redis the
    /// count is decided from this instance's view, which takes in the other
    /// instances' counts every [`SYNC_EVERY`]: together, n instances may
    /// admit up to what the other n - 1 admit in that time past the limit.
    /// An unreachable Redis counts in process only (fails open).
    pub async fn hit_shared(&self, key: &str, limit: Limit) -> Result<(), Duration> {
        let Self::Redis(shared) = self else {
            return self.hit(key, limit).await;
        };
        let window = limit.window.as_secs().max(1);
        let now = unix_now();
        let slot = now / window;
        let remaining = Duration::from_secs((slot + 1) * window - now);
        let Ok(mut counts) = shared.counts.lock() else {
            return Ok(());
        };
        let count = counts
            .entry(key.to_string())
            .or_insert_with(|| SharedCount::new(slot, window));
        if count.slot != slot || count.window != window {
            *count = SharedCount::new(slot, window);
        }
        count.touched = true;
        let seen = count
            .total
            .saturating_add(count.sending)
            .saturating_add(count.pending);
        if seen >= limit.max {
            return Err(remaining);
        }
        count.pending += 1;
        Ok(())
    }

    /// Adds this instance's widget counts to Redis now and reads back the
    /// totals (the sync task does this every [`SYNC_EVERY`]).
    pub async fn sync_shared(&self) {
        if let Self::Redis(shared) = self {
            shared.sync().await;
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
            Self::Redis(shared) => {
                let remembered = (key.to_string(), member.to_string());
                if let Ok(admitted) = shared.admitted.lock()
                    && admitted
                        .get(&remembered)
                        .is_some_and(|until| *until > Instant::now())
                {
                    return true;
                }
                let mut conn = shared.conn.clone();
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
                    Ok(1) => {
                        if let Ok(mut admitted) = shared.admitted.lock() {
                            if admitted.len() >= REMEMBERED_MEMBERS {
                                let now = Instant::now();
                                admitted.retain(|_, until| *until > now);
                                if admitted.len() >= REMEMBERED_MEMBERS / 2 {
                                    admitted.clear();
                                }
                            }
                            admitted.insert(remembered, Instant::now() + limit.window);
                        }
                        true
                    }
                    Ok(_) => false,
                    Err(err) => {
                        tracing::warn!(%err, "distinct-member check failed; admitting");
                        true
                    }
                }
            }
        }
    }

    /// Takes back one event counted by [`Self::hit`] for `key`, if its
    /// window still holds one. Sign-ins count every attempt before the
    /// password is checked (so parallel guesses cannot all slip under the
    /// limit) and give the count back when the password was right: only
    /// failures stay counted.
    pub async fn give_back(&self, key: &str) {
        match self {
            Self::Memory(map) => {
                if let Ok(mut map) = map.lock()
                    && let Some(entry) = map.map.get_mut(key)
                    && entry.0.elapsed() < entry.1
                {
                    entry.2 = entry.2.saturating_sub(1);
                }
            }
            Self::Redis(shared) => {
                let mut conn = shared.conn.clone();
                // Never below zero, and never a key without its expiry (a
                // window that ended in between is left alone).
                let script = redis::Script::new(
                    r"local n = tonumber(redis.call('GET', KEYS[1]) or '0')
                      if n > 0 and redis.call('TTL', KEYS[1]) > 0 then
                        redis.call('DECR', KEYS[1])
                      end
                      return 0",
                );
                let result: redis::RedisResult<i64> =
                    script.key(redis_key(key)).invoke_async(&mut conn).await;
                if let Err(err) = result {
                    tracing::warn!(%err, "rate limit give-back failed");
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
            Self::Redis(shared) => {
                let mut conn = shared.conn.clone();
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
            Self::Redis(shared) => {
                let mut conn = shared.conn.clone();
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
            Self::Redis(shared) => {
                let mut conn = shared.conn.clone();
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

impl Shared {
    /// One round trip: adds the hits counted since the last sync to each
    /// touched counter's key for its window and reads back the totals, which
    /// include the other instances' hits. Windows that have ended and were
    /// not touched since are forgotten.
    async fn sync(&self) {
        let now = unix_now();
        let mut sent: Vec<(String, u64, u32)> = Vec::new();
        let mut pipe = redis::pipe();
        {
            let Ok(mut counts) = self.counts.lock() else {
                return;
            };
            counts.retain(|_, c| c.touched || c.slot == now / c.window);
            for (key, c) in counts.iter_mut() {
                if !c.touched || c.sending > 0 {
                    continue;
                }
                let redis_key = format!("ca:rlw:{key}:{}", c.slot);
                pipe.incr(&redis_key, c.pending)
                    .expire(&redis_key, (2 * c.window) as i64)
                    .ignore();
                sent.push((key.clone(), c.slot, c.pending));
                c.sending = c.pending;
                c.pending = 0;
                c.touched = false;
            }
        }
        if sent.is_empty() {
            return;
        }
        let mut conn = self.conn.clone();
        let result: redis::RedisResult<Vec<u32>> = pipe.query_async(&mut conn).await;
        let Ok(mut counts) = self.counts.lock() else {
            return;
        };
        match result {
            Ok(totals) if totals.len() == sent.len() => {
                for ((key, slot, _), total) in sent.iter().zip(totals) {
                    if let Some(c) = counts.get_mut(key)
                        && c.slot == *slot
                    {
                        c.total = total;
                        c.sending = 0;
                    }
                }
            }
            other => {
                if let Err(err) = other {
                    tracing::warn!(%err, "rate limit sync failed; counting in process");
                }
                // Keep the hits in this instance's view and offer them again.
                for (key, slot, n) in &sent {
                    if let Some(c) = counts.get_mut(key)
                        && c.slot == *slot
                    {
                        c.pending += n;
                        c.sending = 0;
                        c.touched = true;
                    }
                }
            }
        }
    }
}

/// Syncs the widget's counters every [`SYNC_EVERY`] while the limiter lives.
async fn sync_loop(shared: Weak<Shared>) {
    let mut tick = tokio::time::interval(SYNC_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        shared.sync().await;
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
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
        // A count given back frees one event again, never below zero.
        for _ in 0..3 {
            assert!(limiter.hit(key, limit).await.is_ok());
        }
        limiter.give_back(key).await;
        assert!(limiter.hit(key, limit).await.is_ok());
        assert!(limiter.hit(key, limit).await.is_err());
        limiter.reset(key).await;
        limiter.give_back(key).await;
        limiter.give_back(key).await;
        for _ in 0..3 {
            assert!(limiter.hit(key, limit).await.is_ok());
        }
        assert!(limiter.hit(key, limit).await.is_err());
        limiter.reset(key).await;
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
        let limiter = RateLimiter::redis(&redis_url())
            .await
            .expect("redis reachable");
        admit_members(&limiter, &format!("members:{}", crate::ids::new_id())).await;
    }

    /// Runs against the machine's Redis (`CA_TEST_REDIS_URL`, default the local server).
    #[tokio::test]
    async fn redis_counts_and_resets() {
        let limiter = RateLimiter::redis(&redis_url())
            .await
            .expect("redis reachable");
        let key = format!("test:{}", crate::ids::new_id());
        exercise(&limiter, &key).await;
        limiter.reset(&key).await;
    }

    /// What Redis holds for the widget counter `key` in the window `slot`.
    async fn stored(key: &str, slot: u64) -> Option<u32> {
        let client = redis::Client::open(redis_url()).expect("url");
        let mut conn = client
            .get_multiplexed_async_connection()
            .await
            .expect("connect");
        conn.get(format!("ca:rlw:{key}:{slot}"))
            .await
            .expect("count")
    }

    /// The machine's Redis (`CA_TEST_REDIS_URL`, default the local server).
    fn redis_url() -> String {
        std::env::var("CA_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_string())
    }

    /// Two instances share the widget's counts through Redis: each decides
    /// from its own view, which takes in the other's hits at each sync, and
    /// once the total is reached both refuse (refusals are not counted).
    #[tokio::test]
    async fn redis_shared_counts_reach_every_instance() {
        // Synced only where the test says, so each instance's view is known.
        let a = RateLimiter::connect(&redis_url(), false)
            .await
            .expect("redis reachable");
        let b = RateLimiter::connect(&redis_url(), false)
            .await
            .expect("redis reachable");
        // A window of about eleven days, so the test never straddles two.
        let limit = Limit::new(10, 1_000_000);
        let key = format!("test:shared:{}", crate::ids::new_id());
        for _ in 0..6 {
            assert!(a.hit_shared(&key, limit).await.is_ok());
        }
        a.sync_shared().await;
        assert!(b.hit_shared(&key, limit).await.is_ok());
        b.sync_shared().await;
        // B now knows of A's six and its own one: three more, then no.
        for _ in 0..3 {
            assert!(b.hit_shared(&key, limit).await.is_ok());
        }
        let retry = b.hit_shared(&key, limit).await.expect_err("limit reached");
        assert!(retry <= limit.window && retry > Duration::ZERO);
        b.sync_shared().await;
        // Until its next sync A still sees its own six: it admits one more
        // (the overshoot one sync interval allows), then learns of B's four
        // and refuses too.
        assert!(a.hit_shared(&key, limit).await.is_ok());
        a.sync_shared().await;
        assert!(a.hit_shared(&key, limit).await.is_err());
        assert!(b.hit_shared(&key, limit).await.is_err());
        // Redis holds the eleven admitted, not the refusals.
        let slot = unix_now() / limit.window.as_secs();
        a.sync_shared().await;
        b.sync_shared().await;
        assert_eq!(stored(&key, slot).await, Some(11));
    }

    /// The sync task adds this instance's counts to Redis by itself, within
    /// a few sync intervals, without anyone asking.
    #[tokio::test]
    async fn redis_shared_counts_are_synced_in_the_background() {
        let a = RateLimiter::redis(&redis_url())
            .await
            .expect("redis reachable");
        let limit = Limit::new(100, 1_000_000);
        let key = format!("test:background:{}", crate::ids::new_id());
        for _ in 0..3 {
            assert!(a.hit_shared(&key, limit).await.is_ok());
        }
        let slot = unix_now() / limit.window.as_secs();
        let mut seen = None;
        for _ in 0..40 {
            tokio::time::sleep(SYNC_EVERY).await;
            seen = stored(&key, slot).await;
            if seen == Some(3) {
                break;
            }
        }
        assert_eq!(seen, Some(3));
    }

    /// Without Redis the widget's limits are the in-process ones.
    #[tokio::test]
    async fn memory_shared_counts_are_the_in_process_ones() {
        let limiter = RateLimiter::memory();
        let limit = Limit::new(2, 60);
        assert!(limiter.hit_shared("k", limit).await.is_ok());
        assert!(limiter.hit_shared("k", limit).await.is_ok());
        assert!(limiter.hit_shared("k", limit).await.is_err());
    }

    /// A member remembered by one instance is still one of the key's
    /// members for another: the distinct count stays shared.
    #[tokio::test]
    async fn redis_admitted_members_are_shared_between_instances() {
        let a = RateLimiter::redis(&redis_url())
            .await
            .expect("redis reachable");
        let b = RateLimiter::redis(&redis_url())
            .await
            .expect("redis reachable");
        let limit = Limit::new(2, 60);
        let key = format!("members:shared:{}", crate::ids::new_id());
        assert!(a.admit_member(&key, "a", limit).await);
        assert!(a.admit_member(&key, "b", limit).await);
        assert!(a.admit_member(&key, "a", limit).await);
        assert!(!b.admit_member(&key, "c", limit).await);
        assert!(b.admit_member(&key, "b", limit).await);
        assert!(!a.admit_member(&key, "c", limit).await);
    }
}

//! Limits of a hosted project or token: a request rate (a token bucket),
//! requests at once, response bytes and a deadline.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::ProjectsError;

/// What one project may take.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectLimits {
    /// Sustained requests per second.
    pub requests_per_second: u32,
    /// Requests that may arrive at once after a quiet spell.
    pub burst: u32,
    /// Tool calls running at once.
    pub max_concurrent: u32,
    /// Largest answer, in bytes (its text and structured content together).
    pub max_response_bytes: usize,
    /// Time budget of one tool call.
    pub request_timeout: Duration,
}

impl Default for ProjectLimits {
    fn default() -> Self {
        ProjectLimits {
            requests_per_second: 100,
            burst: 1000,
            max_concurrent: 64,
            max_response_bytes: 4 << 20,
            request_timeout: crate::DEFAULT_REQUEST_TIMEOUT,
        }
    }
}

impl ProjectLimits {
    /// Refuse limits no request could pass.
    pub fn check(&self) -> Result<(), ProjectsError> {
        let zero = |field: &'static str| Err(ProjectsError::Limit { field });
        if self.requests_per_second == 0 {
            return zero("requests_per_second");
        }
        if self.burst == 0 {
            return zero("burst");
        }
        if self.max_concurrent == 0 {
            return zero("max_concurrent");
        }
        if self.max_response_bytes < 1024 {
            return Err(ProjectsError::Limit {
                field: "max_response_bytes",
            });
        }
        if self.request_timeout.is_zero() {
            return zero("request_timeout_ms");
        }
        Ok(())
    }
}

/// A request rate: GCRA (the token bucket's arithmetic without a timer),
/// `burst` requests at once refilled at `per_second`.
pub struct Rate {
    limiter: DefaultDirectRateLimiter,
}

impl Rate {
    pub fn new(per_second: u32, burst: u32) -> Self {
        let one = NonZeroU32::MIN;
        let quota = Quota::per_second(NonZeroU32::new(per_second).unwrap_or(one))
            .allow_burst(NonZeroU32::new(burst).unwrap_or(one));
        Rate {
            limiter: RateLimiter::direct(quota),
        }
    }

    /// Take one request, or say how long until one would be allowed.
    pub fn take(&self) -> Result<(), Duration> {
        self.limiter
            .check()
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }
}

/// Calls running at once in one project.
pub struct Concurrency {
    slots: Arc<Semaphore>,
    limit: u32,
}

impl Concurrency {
    pub fn new(limit: u32) -> Self {
        Concurrency {
            slots: Arc::new(Semaphore::new(limit as usize)),
            limit,
        }
    }

    /// A slot, held until the permit is dropped; `None` when all are taken.
    pub fn enter(&self) -> Option<OwnedSemaphorePermit> {
        self.slots.clone().try_acquire_owned().ok()
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_rate_says_when_to_retry() {
        let rate = Rate::new(1, 3);
        for _ in 0..3 {
            assert!(rate.take().is_ok());
        }
        let wait = rate
            .take()
            .expect_err("the fourth request is over the burst");
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
    }

    #[test]
    fn slots_are_given_back_when_dropped() {
        let concurrency = Concurrency::new(1);
        let held = concurrency.enter().expect("one slot");
        assert!(concurrency.enter().is_none());
        drop(held);
        assert!(concurrency.enter().is_some());
    }

    #[test]
    fn limits_no_request_could_pass_are_refused() {
        let limits = ProjectLimits {
            max_concurrent: 0,
            ..ProjectLimits::default()
        };
        assert!(matches!(
            limits.check(),
            Err(ProjectsError::Limit {
                field: "max_concurrent"
            })
        ));
    }
}

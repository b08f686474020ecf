//! A process-wide count of changes to what the widget's public calls keep in
//! memory for a few seconds (campaigns, owners' plans and statuses).
//!
//! A service that changes one of those calls [`changed`]; a cache remembers
//! [`version`] with each entry and treats the entry as gone once the version
//! has moved, so on one server an owner's change is seen by the next visitor.
//! Other servers of a scaled-out install see it when their entries age out.

use std::sync::atomic::{AtomicU64, Ordering};

static VERSION: AtomicU64 = AtomicU64::new(0);

/// Marks every cached campaign and owner fact as out of date.
pub fn changed() {
    VERSION.fetch_add(1, Ordering::AcqRel);
}

/// The current version; an entry made at another version is out of date.
pub fn version() -> u64 {
    VERSION.load(Ordering::Acquire)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_moves_the_version() {
        let before = version();
        changed();
        assert!(version() > before);
    }
}

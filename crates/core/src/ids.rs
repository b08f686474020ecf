//! Identifiers: every stored object gets a time-ordered UUID v7.

use uuid::Uuid;

/// A new time-ordered identifier (UUID v7).
pub fn new_id() -> Uuid {
    Uuid::now_v7()
}

/// Parses an id taken from a path or body; `None` when it is not a UUID, which
/// callers answer with 404 (an id that cannot exist names nothing).
pub fn parse_id(raw: &str) -> Option<Uuid> {
    Uuid::parse_str(raw.trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_v7_and_ordered() {
        let a = new_id();
        let b = new_id();
        assert_eq!(a.get_version_num(), 7);
        assert!(a < b);
    }

    #[test]
    fn parse_rejects_garbage() {
        assert!(parse_id("not-a-uuid").is_none());
        let id = new_id();
        assert_eq!(parse_id(&id.to_string()), Some(id));
    }
}

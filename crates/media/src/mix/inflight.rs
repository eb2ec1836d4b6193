//! The burns and sound beds under way in this process, by key: a second render needing the same
//! piece (or bed) waits for the first instead of making it again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The map of keys to their locks.
type InFlight = Mutex<Option<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>;

fn in_flight_map() -> &'static InFlight {
    static MAP: InFlight = Mutex::new(None);
    &MAP
}

pub(super) fn in_flight(key: &str) -> Arc<tokio::sync::Mutex<()>> {
    let mut map = in_flight_map().lock().unwrap_or_else(|e| e.into_inner());
    let map = map.get_or_insert_with(HashMap::new);
    // Forget finished burns (only the map holds them) so the map stays small.
    map.retain(|_, m| Arc::strong_count(m) > 1);
    map.entry(key.to_string()).or_default().clone()
}

/// Whether another render of this process is burning (or waiting to burn) the piece `key` now.
pub(super) fn burning_elsewhere(key: &str) -> bool {
    let map = in_flight_map().lock().unwrap_or_else(|e| e.into_inner());
    map.as_ref()
        .and_then(|m| m.get(key))
        .is_some_and(|m| Arc::strong_count(m) > 1)
}

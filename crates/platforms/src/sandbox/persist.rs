//! The sandbox's state on disk: `<state_dir>/state.json`, loaded at start and rewritten (a temp
//! file, then a rename) after every request that changed it. A platform remembers its tokens
//! across restarts; without this, a restarted server's accounts would all look expired.

use super::{S, State};
use axum::extract::{Request, State as St};
use axum::middleware::Next;
use axum::response::Response;
use std::path::PathBuf;
use std::sync::Mutex;

pub(crate) struct Store {
    dir: PathBuf,
    /// Hash of the last bytes written; held while writing, so snapshots land in order.
    last: Mutex<Option<[u8; 32]>>,
}

impl Store {
    pub fn new(dir: PathBuf) -> Store {
        Store {
            dir,
            last: Mutex::new(None),
        }
    }

    fn file(&self) -> PathBuf {
        self.dir.join("state.json")
    }

    /// The saved state, if any. A file that does not parse is set aside (`state.json.bad`) rather
    /// than overwritten, and the sandbox starts empty.
    pub fn load(&self) -> Option<State> {
        let path = self.file();
        let bytes = std::fs::read(&path).ok()?;
        match serde_json::from_slice::<State>(&bytes) {
            Ok(st) => {
                *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(digest(&bytes));
                Some(st)
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "sandbox state unreadable; starting empty");
                let _ = std::fs::rename(&path, self.dir.join("state.json.bad"));
                None
            }
        }
    }

    /// Takes a snapshot (`snap` serializes under the state lock) and writes it when it differs from
    /// the last one written.
    pub fn save(&self, snap: impl FnOnce() -> serde_json::Result<Vec<u8>>) {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        let bytes = match snap() {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "sandbox state not serializable");
                return;
            }
        };
        let d = digest(&bytes);
        if *last == Some(d) {
            return;
        }
        let tmp = self.dir.join("state.json.tmp");
        let res = std::fs::create_dir_all(&self.dir)
            .and_then(|_| std::fs::write(&tmp, &bytes))
            .and_then(|_| std::fs::rename(&tmp, self.file()));
        match res {
            Ok(()) => *last = Some(d),
            Err(e) => {
                tracing::warn!(dir = %self.dir.display(), error = %e, "sandbox state not saved")
            }
        }
    }
}

fn digest(b: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    Sha256::digest(b).into()
}

/// Middleware: after each request, save what it changed.
pub(crate) async fn after(St(s): St<S>, req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    s.save();
    res
}

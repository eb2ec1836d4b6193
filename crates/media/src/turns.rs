//! Turns at something only one request may use at a time (the built-in speech engine), handed out
//! round-robin between tenants instead of in arrival order: a merchant who queues a dozen requests
//! makes another merchant wait for one of them, not for all.

use std::collections::VecDeque;
use std::sync::Mutex;
use tokio::sync::oneshot;

/// The queue in front of the resource.
#[derive(Default)]
pub struct FairTurns {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    busy: bool,
    /// Tenants with requests waiting, in the order their next turn comes; each with its requests in
    /// arrival order.
    ring: VecDeque<(i64, VecDeque<oneshot::Sender<()>>)>,
}

/// A turn: the resource is this request's until the turn is dropped.
pub struct Turn<'a> {
    turns: &'a FairTurns,
    tenant: i64,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.turns.pass(self.tenant);
    }
}

/// A request waiting for its turn; dropped while waiting (the caller gave up), it leaves the queue,
/// and a turn handed to it just then goes on to the next.
struct Waiting<'a> {
    turns: &'a FairTurns,
    tenant: i64,
    rx: Option<oneshot::Receiver<()>>,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Some(mut rx) = self.rx.take() {
            rx.close();
            if rx.try_recv().is_ok() {
                self.turns.pass(self.tenant);
            }
        }
    }
}

impl FairTurns {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for `tenant`'s turn.
    pub async fn enter(&self, tenant: i64) -> Turn<'_> {
        let rx = {
            let mut s = self.lock();
            if !s.busy {
                s.busy = true;
                return Turn {
                    turns: self,
                    tenant,
                };
            }
            let (tx, rx) = oneshot::channel();
            match s.ring.iter_mut().find(|(t, _)| *t == tenant) {
                Some((_, q)) => q.push_back(tx),
                None => s.ring.push_back((tenant, VecDeque::from([tx]))),
            }
            rx
        };
        let mut w = Waiting {
            turns: self,
            tenant,
            rx: Some(rx),
        };
        // The sender lives in the queue until it is used: the wait ends with the turn.
        let _ = w.rx.as_mut().expect("set above").await;
        w.rx = None;
        Turn {
            turns: self,
            tenant,
        }
    }

    /// Requests waiting for a turn.
    pub fn waiting(&self) -> usize {
        self.lock()
            .ring
            .iter()
            .map(|(_, q)| q.iter().filter(|tx| !tx.is_closed()).count())
            .sum()
    }

    /// `from`'s turn ended: it goes to the back of the ring (it was just served), and the tenant now
    /// at the front gets the next turn for its oldest request.
    fn pass(&self, from: i64) {
        let mut s = self.lock();
        if let Some(at) = s.ring.iter().position(|(t, _)| *t == from) {
            let mine = s.ring.remove(at).expect("in range");
            s.ring.push_back(mine);
        }
        while let Some((tenant, mut queue)) = s.ring.pop_front() {
            let next = queue.pop_front();
            if !queue.is_empty() {
                s.ring.push_back((tenant, queue));
            }
            if let Some(tx) = next
                && tx.send(()).is_ok()
            {
                return;
            }
        }
        s.busy = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn tenants_take_turns_whatever_their_queue() {
        let turns = Arc::new(FairTurns::default());
        let order = Arc::new(Mutex::new(Vec::new()));
        let first = turns.enter(1).await;
        let mut waiting = vec![];
        for tenant in [1, 1, 1, 1, 2, 3, 2] {
            let (t, o) = (turns.clone(), order.clone());
            waiting.push(tokio::spawn(async move {
                let _turn = t.enter(tenant).await;
                o.lock().unwrap().push(tenant);
                tokio::task::yield_now().await;
            }));
            while turns.waiting() < waiting.len() {
                tokio::task::yield_now().await;
            }
        }
        drop(first);
        for w in waiting {
            w.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), vec![2, 3, 1, 2, 1, 1, 1]);
        // Free again: the next request goes at once.
        drop(turns.enter(4).await);
    }

    #[tokio::test]
    async fn a_request_that_gives_up_leaves_the_queue() {
        let turns = FairTurns::default();
        let first = turns.enter(1).await;
        let gave_up = tokio::time::timeout(std::time::Duration::from_millis(10), turns.enter(2));
        assert!(gave_up.await.is_err());
        assert_eq!(turns.waiting(), 0);
        drop(first);
        drop(turns.enter(3).await);
    }
}

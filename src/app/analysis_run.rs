//! The loop that runs hints and reviews ([`super::analysis`]) on the thinking pool: each due
//! request is claimed (one process of those sharing the storage does it), searched, and its
//! result raised as an event through the router.

use std::sync::{Arc, PoisonError};
use std::time::Duration;

use super::analysis::Work;
use super::service::Service;

impl Service {
    /// Mark every review asked for and not done due (after a restart, or when a process
    /// sharing the storage died with reviews in hand).
    pub(crate) fn resume_reviews(&self) {
        match self.storage().pending_reviews() {
            Ok(pending) => {
                for r in pending {
                    self.analysis.due(Work::Review(r.channel, r.game));
                }
            }
            Err(e) => tracing::error!(error = %e, "cannot list the reviews to resume"),
        }
    }

    /// Run hints and reviews forever: first the reviews stored before a restart (the hints
    /// are found by [`Service::run_bot`]'s pass over the active games), then each one a
    /// handler marks due. Started by [`Service::run_bot`].
    pub(crate) async fn run_analysis(self: Arc<Self>) {
        self.resume_reviews();
        loop {
            let due = std::mem::take(
                &mut *self
                    .analysis
                    .due
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner),
            );
            for w in due {
                if !self.analysis.claim(&w) {
                    continue;
                }
                let svc = Arc::clone(&self);
                tokio::spawn(async move {
                    // Processes sharing the storage: one of them does it.
                    let claim = svc
                        .storage()
                        .claim_work(&format!("work:{w:?}"))
                        .await
                        .unwrap_or_else(|e| {
                            tracing::error!(work = ?w, error = %e, "analysis: storage failure");
                            None
                        });
                    let Some(claim) = claim else {
                        svc.analysis.release(&w);
                        return;
                    };
                    let result = match &w {
                        Work::Hint(channel, game) => svc.hint_job(channel, *game).await,
                        Work::Review(channel, game) => svc.review_job(channel, *game).await,
                    };
                    svc.analysis.release(&w);
                    drop(claim);
                    if let Err(e) = result {
                        tracing::error!(work = ?w, error = %e, "analysis: storage failure, tried again shortly");
                        svc.analysis.retry_later(w);
                    }
                });
            }
            tokio::select! {
                () = self.analysis.wake.notified() => {}
                () = tokio::time::sleep(Duration::from_secs(60)) => {}
            }
        }
    }
}

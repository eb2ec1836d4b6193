//! States of a material: its ingest (`media_files.state`) and its subtitle recognition
//! (`media_files.asr_state`).

/// Where a stored file is: being ingested (mezzanine, poster, strip), ready to use, or failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IngestState {
    Processing,
    Ready,
    Failed,
}

impl IngestState {
    pub fn as_str(self) -> &'static str {
        match self {
            IngestState::Processing => "processing",
            IngestState::Ready => "ready",
            IngestState::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<IngestState> {
        Some(match s {
            "processing" => IngestState::Processing,
            "ready" => IngestState::Ready,
            "failed" => IngestState::Failed,
            _ => return None,
        })
    }

    /// Ingest runs once: it moves on (progress, retries) and ends ready or failed.
    pub fn can_become(self, next: IngestState) -> bool {
        matches!((self, next), (IngestState::Processing, _))
    }
}

/// A material's subtitle recognition: never run, running, done (or edited by hand), failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsrState {
    None,
    Processing,
    Success,
    Failed,
}

impl AsrState {
    pub fn as_str(self) -> &'static str {
        match self {
            AsrState::None => "",
            AsrState::Processing => "processing",
            AsrState::Success => "success",
            AsrState::Failed => "failed",
        }
    }

    /// Unknown text reads as never run.
    pub fn parse(s: &str) -> AsrState {
        match s {
            "processing" => AsrState::Processing,
            "success" => AsrState::Success,
            "failed" => AsrState::Failed,
            _ => AsrState::None,
        }
    }

    /// A recognition starts when none runs; a running one ends in success or failure; lines saved by
    /// hand make a material that is not being recognized count as recognized.
    pub fn can_become(self, next: AsrState) -> bool {
        use AsrState::*;
        match next {
            Processing => self != Processing,
            Success => true,
            Failed => self == Processing,
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ingest_names_and_transitions() {
        use IngestState::*;
        for s in [Processing, Ready, Failed] {
            assert_eq!(IngestState::parse(s.as_str()), Some(s));
        }
        assert!(Processing.can_become(Processing));
        assert!(Processing.can_become(Ready));
        assert!(Processing.can_become(Failed));
        assert!(!Ready.can_become(Processing));
        assert!(!Ready.can_become(Failed));
        assert!(!Failed.can_become(Ready));
    }

    #[test]
    fn asr_names_and_transitions() {
        use AsrState::*;
        for s in [None, Processing, Success, Failed] {
            assert_eq!(AsrState::parse(s.as_str()), s);
        }
        assert_eq!(AsrState::parse("whatever"), None);
        assert!(None.can_become(Processing));
        assert!(Failed.can_become(Processing));
        assert!(Success.can_become(Processing));
        assert!(Processing.can_become(Success));
        assert!(Processing.can_become(Failed));
        assert!(None.can_become(Success));
        // Not twice at once; a failure is a recognition's; nothing goes back to never run.
        assert!(!Processing.can_become(Processing));
        assert!(!None.can_become(Failed));
        assert!(!Success.can_become(Failed));
        assert!(!Failed.can_become(None));
    }
}

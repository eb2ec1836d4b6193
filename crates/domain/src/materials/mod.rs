//! States of a material: its ingest (`media_files.state`) and its subtitle recognition
//! (`media_files.asr_state`).

crate::text_enum! {
    /// Where a stored file is: being ingested (mezzanine, poster, strip), ready to use, or failed.
    #[derive(Default)]
    pub enum IngestState {
        Processing = "processing",
        #[default]
        Ready = "ready",
        Failed = "failed",
    }
}
impl IngestState {
    /// Ingest runs once: it moves on (progress, retries) and ends ready or failed.
    pub fn can_become(self, next: IngestState) -> bool {
        matches!((self, next), (IngestState::Processing, _))
    }
}

crate::text_enum! {
    /// A material's subtitle recognition: never run, running, done (or edited by hand), failed.
    pub enum AsrState {
        None = "",
        Processing = "processing",
        Success = "success",
        Failed = "failed",
    }
}
impl AsrState {
    /// Unknown text reads as never run.
    pub fn read(s: &str) -> AsrState {
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

crate::text_enum! {
    /// What a stored file is (`media_files.kind`), from its contents.
    #[derive(Default)]
    pub enum MediaKind {
        #[default]
        Video = "video",
        Image = "image",
        Audio = "audio",
        Font = "font",
        Other = "other",
    }
}

crate::text_enum! {
    /// The kind of material a file type sorts (`file_types.kind`).
    pub enum FileTypeKind {
        Audio = "audio",
        Video = "video",
        Image = "image",
    }
}

crate::text_enum! {
    /// A material group (`shot_groups.kind`): a shot group of clips, or a voice-over group; `image`
    /// is never stored (the group one-touch video makes of a project's images in memory).
    pub enum GroupKind {
        Video = "video",
        Broadcast = "broadcast",
        Image = "image",
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
            assert_eq!(AsrState::read(s.as_str()), s);
        }
        assert_eq!(AsrState::read("whatever"), None);
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

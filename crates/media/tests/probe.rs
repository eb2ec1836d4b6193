//! ffprobe parsing on saved fixtures (no ffmpeg needed).

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn landscape_h264_with_audio() {
    let i = media::probe::parse(&fixture("land")).unwrap();
    assert_eq!(
        (i.width, i.height, i.fps, i.duration_ms),
        (1920, 1080, 25.0, 2000)
    );
    assert_eq!(i.video_codec.as_deref(), Some("h264"));
    assert_eq!(i.audio_codec.as_deref(), Some("aac"));
    assert_eq!((i.audio_rate, i.audio_channels), (Some(44100), Some(1)));
    assert!(i.has_audio && i.has_video);
}

#[test]
fn vertical_60fps_without_audio() {
    let i = media::probe::parse(&fixture("noaudio")).unwrap();
    assert_eq!((i.width, i.height, i.fps), (720, 1280, 60.0));
    assert!(!i.has_audio);
}

#[test]
fn hevc() {
    let i = media::probe::parse(&fixture("hevc")).unwrap();
    assert_eq!(i.video_codec.as_deref(), Some("hevc"));
    assert_eq!((i.width, i.height, i.fps), (1080, 1920, 30.0));
}

#[test]
fn rotated_phone_video_reports_its_display_size() {
    let i = media::probe::parse(&fixture("rot")).unwrap();
    assert_eq!(i.rotation % 180, 90);
    assert_eq!((i.width, i.height), (1080, 1920));
}

#[test]
fn audio_only() {
    let i = media::probe::parse(&fixture("tone")).unwrap();
    assert!(!i.has_video && i.has_audio);
    assert_eq!(i.audio_codec.as_deref(), Some("mp3"));
    assert_eq!(i.duration_ms / 100, 10);
}

#[test]
fn garbage_is_unreadable_not_a_panic() {
    assert!(media::probe::parse(b"{}").is_err());
    assert!(media::probe::parse(b"not json").is_err());
    assert!(media::probe::parse(br#"{"streams":[],"format":{"format_name":"x"}}"#).is_err());
}

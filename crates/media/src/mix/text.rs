//! Text burned into a variant: one ASS script (subtitles, title, shot captions) drawn by libass, its
//! geometry ([`text_band`]), its checks, and the fonts (a font file is copied into the prep folder).

use super::spec::{ass_colour, check_style};
use super::{
    Font, Label, MixError, Position, SubtitleLine, Subtitles, TITLE_MAX_CHARS, TextStyle, Title,
    invalid, must_exist, unique,
};
use crate::ffmpeg::{self, args};
use crate::ingest::{HEIGHT, WIDTH};
use std::path::Path;
use std::time::Duration;

/// A style of an ASS script: its name and the font family libass should ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssStyle<'a> {
    pub name: &'a str,
    pub family: &'a str,
    pub style: &'a TextStyle,
}

/// One ASS event in a named style; `pos` pins the centre of the text (alignment 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssEvent {
    pub style: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    pub pos: (i64, i64),
}

/// An ASS time for an event edge at `ms`, made safe for the frame grid. An edge belongs to the first
/// frame at or after it (a line shows on frame k when start ≤ k/30 s < end). ffmpeg's subtitles filter
/// hands libass each frame's time in floating point, truncated to whole milliseconds, so an edge exactly
/// on a frame (7.90 s is frame 237) may land on either side of it: the same line would appear a frame
/// apart in a one-pass burn and in a pre-burned piece. The time written is a little before that first
/// frame (≥ 3 ms, never as far back as the frame before), so every render agrees.
fn ass_time(ms: i64) -> String {
    let fps = crate::ingest::FPS;
    let cs = if ms <= 0 {
        0
    } else {
        // The first frame at or after `ms`, then its time less 1 ms, down to centiseconds.
        let k = (ms * fps + 999) / 1000;
        (k * 1000 - fps).div_euclid(10 * fps)
    };
    format!(
        "{}:{:02}:{:02}.{:02}",
        cs / 360_000,
        cs / 6000 % 60,
        cs / 100 % 60,
        cs % 100
    )
}

/// Text as ASS event text: override braces and backslashes cannot be escaped in ASS, so they become their
/// full-width forms; line breaks become `\N`; other control characters are dropped.
pub fn ass_text(t: &str) -> String {
    let mut out = String::new();
    for c in t.trim().chars() {
        match c {
            '{' => out.push('｛'),
            '}' => out.push('｝'),
            '\\' => out.push('＼'),
            '\n' => out.push_str("\\N"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// An ASS script of `width` x `height` (black outline, no shadow, 60 px side margins for wrapping).
pub fn ass_script(
    width: i64,
    height: i64,
    styles: &[AssStyle<'_>],
    events: &[AssEvent],
) -> Result<String, MixError> {
    let mut s = format!(
        "[Script Info]\nScriptType: v4.00+\nPlayResX: {width}\nPlayResY: {height}\nWrapStyle: 0\n\
ScaledBorderAndShadow: yes\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, \
SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, \
Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
    );
    for st in styles {
        let colour = ass_colour(&st.style.colour)?;
        let outline = (st.style.size as f64 / 16.0).clamp(2.0, 8.0).round();
        s.push_str(&format!(
            "Style: {},{},{},{colour},&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,{outline},0,5,\
60,60,0,1\n",
            st.name.replace(',', " "),
            st.family.replace(',', " "),
            st.style.size
        ));
    }
    s.push_str(
        "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n",
    );
    for e in events {
        s.push_str(&format!(
            "Dialogue: 0,{},{},{},,0,0,0,,{{\\an5\\pos({},{})}}{}\n",
            ass_time(e.start_ms),
            ass_time(e.end_ms),
            e.style,
            e.pos.0,
            e.pos.1,
            ass_text(&e.text)
        ));
    }
    Ok(s)
}

/// The part of a 9:16 frame the short-video apps leave uncovered, px of the 1080x1920 frame: above
/// `SAFE_TOP` sit the status bar and Douyin's top bar (直播 / 关注 / 推荐 tabs, search), below
/// `HEIGHT - SAFE_BOTTOM` the account name, caption, music line and progress bar. 15 % and 20 %:
/// TikTok's creative-center safe-zone overlay for 1080x1920 marks about the top 250 px and the bottom
/// 380–420 px as covered; Meta's Reels guidance keeps text out of the top 14 %. (A title centred at 12 %
/// sat under Douyin's tabs.)
pub const SAFE_TOP: i64 = HEIGHT * 15 / 100;
pub const SAFE_BOTTOM: i64 = HEIGHT * 20 / 100;

/// The band a text of this style occupies in the 1080x1920 frame, with room for `lines` wrapped lines:
/// `(top, height)`, both even. It is kept inside the safe area ([`SAFE_TOP`], [`SAFE_BOTTOM`]), so a
/// title at the top starts below the apps' top bar and subtitles at the bottom end above the caption;
/// only a band taller than the safe area is merely kept inside the frame. The text is centred in it.
pub fn text_band(style: &TextStyle, lines: u32) -> (i64, i64) {
    let size = style.size as f64;
    let h = ((size * 1.25 * lines as f64 + size * 0.6).ceil() as i64 + 1) & !1;
    let h = h.clamp(2, HEIGHT);
    let centre = match style.position {
        Position::Top => HEIGHT * 12 / 100,
        Position::Middle => HEIGHT / 2,
        Position::Bottom => HEIGHT * 80 / 100,
        Position::Percent(p) => HEIGHT * i64::from(p.min(100)) / 100,
    };
    let (lo, hi) = if h <= HEIGHT - SAFE_TOP - SAFE_BOTTOM {
        (SAFE_TOP, HEIGHT - SAFE_BOTTOM)
    } else {
        (0, HEIGHT)
    };
    let top = (centre - h / 2).clamp(lo, hi - h) & !1;
    (top, h)
}

/// Lines of room in a subtitle band and a title band.
pub const SUBTITLE_LINES: u32 = 3;
pub const TITLE_LINES: u32 = 2;

pub(super) fn check_title(title: &Title) -> Result<(), MixError> {
    let n = title.text.trim().chars().count();
    if n == 0 {
        return invalid("title is empty");
    }
    if n > TITLE_MAX_CHARS {
        return invalid(format!(
            "title is {n} characters; at most {TITLE_MAX_CHARS}"
        ));
    }
    if title.until_ms.is_some_and(|u| u <= 0) {
        return invalid("a title shows for a positive time");
    }
    check_style(&title.style)
}

pub(super) fn subtitle_lines(subs: &Subtitles) -> Vec<&SubtitleLine> {
    let mut lines: Vec<&SubtitleLine> = subs
        .lines
        .iter()
        .filter(|l| l.end_ms > l.start_ms.max(0) && !l.text.trim().is_empty())
        .collect();
    lines.sort_by_key(|l| (l.start_ms, l.end_ms));
    lines
}

/// The full-frame (1080x1920) script that burns the subtitles and the title of a variant: each text is
/// centred in its [`text_band`]; the title shows from start to end. `*_family` is the font family libass
/// asks for (see [`Font`]).
pub fn burn_script(
    subtitles: Option<(&Subtitles, &str)>,
    title: Option<(&Title, &str)>,
) -> Result<String, MixError> {
    text_script(subtitles, title, None)
}

/// [`burn_script`] plus the shot captions (see [`shot_captions`]) in a style of their own, "Shot", centred
/// in a two-line band.
pub fn text_script(
    subtitles: Option<(&Subtitles, &str)>,
    title: Option<(&Title, &str)>,
    shots: Option<(&[SubtitleLine], &TextStyle, &str)>,
) -> Result<String, MixError> {
    text_layer(subtitles, title, shots)?.script()
}

/// A style of a [`TextLayer`]: its name in the script, the family libass asks for, the style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerStyle {
    pub name: &'static str,
    pub family: String,
    pub style: TextStyle,
}

/// The text of a variant before it becomes a script: its styles and its events on the variant's
/// timeline. A [`window`](TextLayer::window) of it is what one pre-burned segment shows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TextLayer {
    pub styles: Vec<LayerStyle>,
    pub events: Vec<AssEvent>,
}

impl TextLayer {
    /// The full-frame ASS script of the layer.
    pub fn script(&self) -> Result<String, MixError> {
        let styles: Vec<AssStyle<'_>> = self
            .styles
            .iter()
            .map(|s| AssStyle {
                name: s.name,
                family: &s.family,
                style: &s.style,
            })
            .collect();
        ass_script(WIDTH, HEIGHT, &styles, &self.events)
    }

    /// What shows during `[start_ms, end_ms)` of the variant, on a timeline of its own that starts at 0:
    /// the events overlapping the window, shifted and cut to it (a line spanning the window's edge keeps
    /// the part inside). Every style stays, so the script's header is the same in every window.
    pub fn window(&self, start_ms: i64, end_ms: i64) -> TextLayer {
        TextLayer {
            styles: self.styles.clone(),
            events: self
                .events
                .iter()
                .filter(|e| e.start_ms < end_ms && e.end_ms > start_ms)
                .map(|e| AssEvent {
                    start_ms: e.start_ms.max(start_ms) - start_ms,
                    end_ms: e.end_ms.min(end_ms) - start_ms,
                    ..e.clone()
                })
                .collect(),
        }
    }
}

impl TextLayer {
    /// [`window`](TextLayer::window) by output frames `[first, end)`, for pieces that start between
    /// seconds (a composed render's). An event edge belongs to the first frame at or after it (as
    /// [`ass_time`] writes it); edges are moved by whole frames and written at the floor millisecond of
    /// their frame, which `ass_time` maps back to that same frame, so no rounding of the piece's start
    /// can move a line by a frame.
    pub fn window_frames(&self, first: i64, end: i64) -> TextLayer {
        let fps = crate::ingest::FPS;
        let frame = |ms: i64| (ms.max(0) * fps + 999) / 1000;
        let ms = |k: i64| k * 1000 / fps;
        TextLayer {
            styles: self.styles.clone(),
            events: self
                .events
                .iter()
                .filter_map(|e| {
                    let (a, b) = (frame(e.start_ms).max(first), frame(e.end_ms).min(end));
                    (a < b).then(|| AssEvent {
                        start_ms: ms(a - first),
                        end_ms: ms(b - first),
                        ..e.clone()
                    })
                })
                .collect(),
        }
    }
}

impl TextLayer {
    /// Adds the visible label of generated content (`domain::clip::aigc`): style "Label", the default
    /// font at [`label_font_px`](domain::clip::aigc::label_font_px) of the frame's shorter side, white
    /// with the black outline, from the first frame until the label's end, in the top-left corner of
    /// the safe area ([`label_pos`]). Drawn last, so it stays on top of any other text.
    pub fn add_label(&mut self, label: &Label) {
        let size = domain::clip::aigc::label_font_px(WIDTH.min(HEIGHT));
        self.styles.push(LayerStyle {
            name: "Label",
            family: super::DEFAULT_FONT_FAMILY.into(),
            style: TextStyle::new(Position::Top, size as u32),
        });
        self.events.push(AssEvent {
            style: "Label".into(),
            start_ms: 0,
            end_ms: label.until_ms,
            text: label.text.clone(),
            pos: label_pos(&label.text, size),
        });
    }
}

/// The left margin of the label: the subtitles' side margin.
pub const LABEL_MARGIN: i64 = 60;

/// The centre of a label of `text` at font size `size`: its left edge at [`LABEL_MARGIN`], its top a
/// little below [`SAFE_TOP`] (the apps' top bar never covers it). Widths are estimated (a CJK
/// character one em, others 0.6 em): the label only needs to stay in its corner.
pub fn label_pos(text: &str, size: i64) -> (i64, i64) {
    let em10: i64 = text
        .chars()
        .map(|c| if c.is_ascii() { 6 } else { 10 })
        .sum();
    let width = em10 * size / 10;
    (LABEL_MARGIN + width / 2, SAFE_TOP + size * 3 / 4)
}

/// The [`TextLayer`] of [`text_script`]: subtitles, the title (from 0 to its `until_ms`, or to the end)
/// and the shot captions, each centred in its band.
pub fn text_layer(
    subtitles: Option<(&Subtitles, &str)>,
    title: Option<(&Title, &str)>,
    shots: Option<(&[SubtitleLine], &TextStyle, &str)>,
) -> Result<TextLayer, MixError> {
    let mut layer = TextLayer::default();
    let mut add = |name: &'static str, family: &str, style: &TextStyle, lines: u32| {
        layer.styles.push(LayerStyle {
            name,
            family: family.to_string(),
            style: style.clone(),
        });
        let (y, h) = text_band(style, lines);
        (WIDTH / 2, y + h / 2)
    };
    let mut events = Vec::new();
    if let Some((subs, family)) = subtitles {
        check_style(&subs.style)?;
        let pos = add("Subtitle", family, &subs.style, SUBTITLE_LINES);
        for l in subtitle_lines(subs) {
            events.push(AssEvent {
                style: "Subtitle".into(),
                start_ms: l.start_ms.max(0),
                end_ms: l.end_ms,
                text: l.text.clone(),
                pos,
            });
        }
    }
    if let Some((t, family)) = title {
        check_title(t)?;
        let pos = add("Title", family, &t.style, TITLE_LINES);
        events.push(AssEvent {
            style: "Title".into(),
            start_ms: 0,
            end_ms: t.until_ms.unwrap_or(WHOLE_VIDEO_MS),
            text: t.text.clone(),
            pos,
        });
    }
    if let Some((lines, style, family)) = shots {
        check_style(style)?;
        let pos = add("Shot", family, style, TITLE_LINES);
        for l in lines {
            events.push(AssEvent {
                style: "Shot".into(),
                start_ms: l.start_ms.max(0),
                end_ms: l.end_ms,
                text: l.text.clone(),
                pos,
            });
        }
    }
    layer.events = events;
    Ok(layer)
}

/// "To the end of the video" for a title without `until_ms` (ten hours).
pub(super) const WHOLE_VIDEO_MS: i64 = 36_000_000;

/// The folder of the prep directory holding the font files the project's texts use (libass scans it).
const FONTS: &str = "fonts";

/// The filter drawing the ASS script `name` of the prep folder. ffmpeg runs there, so the filter names only
/// our own relative paths (nothing to escape).
pub(super) async fn subtitles_filter(prep_dir: &Path, name: &str) -> String {
    let fonts = if tokio::fs::metadata(prep_dir.join(FONTS)).await.is_ok() {
        format!(":fontsdir={FONTS}")
    } else {
        String::new()
    };
    format!("subtitles={name}{fonts}")
}

/// The family name libass should ask for. A font file is copied into the prep folder's `fonts/` (the only
/// folder libass scans besides fontconfig's) and its family read with `fc-scan`.
pub(super) async fn font_family(style: &TextStyle, dir: &Path) -> Result<String, MixError> {
    match &style.font {
        Font::Family(f) => Ok(f.clone()),
        Font::File(path) => {
            must_exist(path).await?;
            let out = ffmpeg::run(
                "fc-scan",
                &args(["--format", "%{family[0]}\n"])
                    .into_iter()
                    .chain([path.display().to_string()])
                    .collect::<Vec<_>>(),
                Duration::from_secs(30),
            )
            .await?;
            let family = String::from_utf8_lossy(&out)
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(str::to_string)
                .ok_or_else(|| {
                    MixError::Invalid(format!("{} is not a font file", path.display()))
                })?;
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("ttf")
                .to_ascii_lowercase();
            let fonts = dir.join(FONTS);
            tokio::fs::create_dir_all(&fonts).await?;
            let dst = fonts.join(format!(
                "{:016x}.{ext}",
                fnv(path.display().to_string().as_bytes())
            ));
            if tokio::fs::metadata(&dst).await.is_err() {
                // Two variants may copy the same font at once: a private name, then an atomic rename.
                let tmp = fonts.join(format!(".{}.{}.tmp", std::process::id(), unique()));
                tokio::fs::copy(path, &tmp).await?;
                tokio::fs::rename(&tmp, &dst).await?;
            }
            Ok(family)
        }
    }
}

/// FNV-1a: a stable key (std's hasher may change between Rust versions).
pub(super) fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The caption events of the shots on the output timeline: caption i runs from the start of segment i to
/// the start of segment i+1 (the last one to `end_ms`). In a composed render a segment starts where the
/// transition into it begins, so during a transition the incoming shot's caption already shows and the
/// outgoing one is gone: a caption never overlaps another. Empty texts make no event.
pub fn shot_captions(starts_ms: &[i64], end_ms: i64, texts: &[String]) -> Vec<SubtitleLine> {
    starts_ms
        .iter()
        .enumerate()
        .filter_map(|(i, &start)| {
            let text = texts.get(i)?.trim();
            let end = starts_ms.get(i + 1).copied().unwrap_or(end_ms);
            (!text.is_empty() && end > start).then(|| SubtitleLine {
                start_ms: start,
                end_ms: end,
                text: text.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::{default_shot_style, timeline};

    #[test]
    fn text_is_made_safe_for_ass() {
        assert_eq!(ass_text(" a{b}\\c\nd\u{7}"), "a｛b｝＼c\\Nd");
        assert_eq!(ass_colour("#FF8000").unwrap(), "&H000080FF");
        assert!(ass_colour("red").is_err());
        // Just before the first frame at or after the time: 3,723,456 ms is frame 111,704 (3,723,466.7).
        assert_eq!(ass_time(3_723_456), "1:02:03.46");
        // 7.90 s is exactly frame 237: written 7.89 s, after frame 236 (7.867 s).
        assert_eq!(ass_time(7900), "0:00:07.89");
        assert_eq!(ass_time(7899), "0:00:07.89");
        assert_eq!(ass_time(7901), "0:00:07.93");
        assert_eq!(
            (ass_time(0), ass_time(1)),
            ("0:00:00.00".into(), "0:00:00.03".into())
        );
        let sub = Subtitles {
            lines: vec![
                SubtitleLine {
                    start_ms: 2000,
                    end_ms: 3000,
                    text: "第二".into(),
                },
                SubtitleLine {
                    start_ms: 500,
                    end_ms: 2000,
                    text: "你好".into(),
                },
                SubtitleLine {
                    start_ms: 900,
                    end_ms: 900,
                    text: "empty".into(),
                },
                SubtitleLine {
                    start_ms: 900,
                    end_ms: 1000,
                    text: "  ".into(),
                },
            ],
            style: TextStyle::new(Position::Bottom, 64),
        };
        let title = Title::new(
            "标题{x}",
            TextStyle {
                colour: "#FFE000".into(),
                ..TextStyle::new(Position::Top, 80)
            },
        );
        let s = burn_script(
            Some((&sub, "WenQuanYi Zen Hei")),
            Some((&title, "Noto Sans")),
        )
        .unwrap();
        assert!(s.contains("PlayResX: 1080\nPlayResY: 1920\n"));
        assert!(s.contains("Style: Subtitle,WenQuanYi Zen Hei,64,&H00FFFFFF,"));
        assert!(s.contains("Style: Title,Noto Sans,80,&H0000E0FF,"));
        let (y, h) = text_band(&sub.style, SUBTITLE_LINES);
        let first = format!(
            "Dialogue: 0,0:00:00.49,0:00:01.99,Subtitle,,0,0,0,,{{\\an5\\pos(540,{})}}你好\n",
            y + h / 2
        );
        assert!(s.contains(&first), "{s}");
        assert_eq!(s.matches("Dialogue:").count(), 3, "empty lines are dropped");
        assert!(s.find("你好").unwrap() < s.find("第二").unwrap());
        assert!(s.contains(",Title,,0,0,0,,{\\an5\\pos(540,") && s.contains("标题｛x｝"));
        // The title rule of SPEC §5.
        let long = Title {
            text: "一二三四五六七八九十一二三四五六七八九十一".into(),
            ..title.clone()
        };
        assert!(
            burn_script(None, Some((&long, "x")))
                .unwrap_err()
                .to_string()
                .contains("at most 20")
        );
        assert!(
            burn_script(
                None,
                Some((
                    &Title {
                        text: " ".into(),
                        ..title
                    },
                    "x"
                ))
            )
            .is_err()
        );
    }

    const POSITIONS: [Position; 5] = [
        Position::Top,
        Position::Middle,
        Position::Bottom,
        Position::Percent(0),
        Position::Percent(100),
    ];

    #[test]
    fn bands_stay_inside_the_frame() {
        for p in POSITIONS {
            for size in [8, 64, 300] {
                let (y, h) = text_band(&TextStyle::new(p, size), 3);
                assert!(
                    y >= 0 && y + h <= HEIGHT && h % 2 == 0 && y % 2 == 0,
                    "{p:?} {size}"
                );
                assert!(h >= (size as i64) * 3 || h == HEIGHT);
            }
        }
        let (y, h) = text_band(&TextStyle::new(Position::Bottom, 64), 3);
        assert_eq!(y + h, HEIGHT - SAFE_BOTTOM);
    }

    /// Titles, subtitles and captions are drawn inside the apps' safe area: the quick-mix title (top,
    /// 56 px, two lines) starts below Douyin's top bar, bottom subtitles end above the caption, in the
    /// ASS script the engine burns (its `\pos` is the band's centre). Sizes up to 160 px (the form's
    /// largest) fit.
    #[test]
    fn text_stays_inside_the_safe_area() {
        assert_eq!((SAFE_TOP, HEIGHT - SAFE_BOTTOM), (288, 1536));
        for p in POSITIONS {
            for size in [16, 56, 100, 160] {
                for lines in [TITLE_LINES, SUBTITLE_LINES] {
                    let (y, h) = text_band(&TextStyle::new(p, size), lines);
                    assert!(
                        y >= SAFE_TOP && y + h <= HEIGHT - SAFE_BOTTOM,
                        "{p:?} {size} px x{lines}: {y}..{}",
                        y + h
                    );
                }
            }
        }
        let title = Title::new("夏季新款防晒帽", TextStyle::new(Position::Top, 56));
        let sub = Subtitles {
            lines: vec![SubtitleLine {
                start_ms: 0,
                end_ms: 1000,
                text: "赶紧点击下方链接".into(),
            }],
            style: TextStyle::new(Position::Bottom, 56),
        };
        let s = burn_script(Some((&sub, "WenQuanYi Zen Hei")), Some((&title, "x"))).unwrap();
        let y_of = |style: &str| -> i64 {
            let line = s
                .lines()
                .find(|l| l.contains(&format!(",{style},,")))
                .unwrap();
            let at = line.find("\\pos(540,").unwrap() + "\\pos(540,".len();
            line[at..].split(')').next().unwrap().parse().unwrap()
        };
        // The text's centre, half its band below the safe top and above the safe bottom.
        let (_, th) = text_band(&title.style, TITLE_LINES);
        let (_, sh) = text_band(&sub.style, SUBTITLE_LINES);
        assert!(y_of("Title") - th / 2 >= SAFE_TOP, "{s}");
        assert!(y_of("Subtitle") + sh / 2 <= HEIGHT - SAFE_BOTTOM, "{s}");
    }

    #[test]
    fn shot_captions_follow_the_composed_timeline() {
        let tl = timeline(&[60, 90, 57], &[Some(500), None]);
        let texts = vec![
            "一".to_string(),
            "  ".to_string(),
            " three ".to_string(),
            "x".into(),
        ];
        let c = shot_captions(&tl.starts_ms(), 6400, &texts);
        assert_eq!(
            c,
            vec![
                SubtitleLine {
                    start_ms: 0,
                    end_ms: 1500,
                    text: "一".into()
                },
                SubtitleLine {
                    start_ms: 4500,
                    end_ms: 6400,
                    text: "three".into()
                },
            ]
        );
        // Fewer texts than shots: the rest show none.
        assert_eq!(shot_captions(&[0, 1000], 2000, &["a".into()]).len(), 1);
        // In the script: a style of their own, centred in a two-line band.
        let style = default_shot_style();
        let s = text_script(None, None, Some((&c, &style, "WenQuanYi Zen Hei"))).unwrap();
        assert!(
            s.contains("Style: Shot,WenQuanYi Zen Hei,64,&H00FFFFFF,"),
            "{s}"
        );
        let (y, h) = text_band(&style, TITLE_LINES);
        assert!(s.contains(&format!(
            "Dialogue: 0,0:00:04.49,0:00:06.39,Shot,,0,0,0,,{{\\an5\\pos(540,{})}}three\n",
            y + h / 2
        )));
        assert_eq!(s.matches("Dialogue:").count(), 2);
        // burn_script is the same script without shots.
        assert_eq!(
            burn_script(None, None).unwrap(),
            text_script(None, None, None).unwrap()
        );
    }
}

//! The built-in music a fresh install starts with: short loops synthesized by ffmpeg (`aevalsrc`) from
//! the expressions below, so no third-party recording is shipped and the licence is the project's own
//! (docs/builtin-music.md). Each loop is a whole number of bars, so the mix engine's looping is seamless.

use crate::ffmpeg::{self, ToolError, args};
use std::path::Path;
use std::time::Duration;

pub struct Track {
    /// Stable, part of the storage key.
    pub slug: &'static str,
    /// The English name (music notation and a word), stored when the set is seeded…
    pub name: &'static str,
    /// …and the Chinese one: lists show the caller's (`name_in`).
    pub name_zh: &'static str,
    /// Length in seconds: whole bars.
    pub secs: &'static str,
    /// An `aevalsrc` expression of `t` (mono; the file is stereo).
    pub expr: &'static str,
}

pub const TRACKS: &[Track] = &[
    Track {
        slug: "chords-90",
        name: "C–G–Am–F · 90 BPM",
        name_zh: "和弦 C–G–Am–F · 90 BPM",
        // Four chords a bar each (8/3 s at 90 BPM), a soft swell on every beat, twice round.
        secs: "21.333",
        expr: "st(0,mod(floor(t*3/8),4));\
               st(1,if(eq(ld(0),0),261.63,if(eq(ld(0),1),196,if(eq(ld(0),2),220,174.61))));\
               st(2,if(eq(ld(0),0),329.63,if(eq(ld(0),1),246.94,if(eq(ld(0),2),261.63,220))));\
               st(3,if(eq(ld(0),0),392,if(eq(ld(0),1),293.66,if(eq(ld(0),2),329.63,261.63))));\
               (0.55+0.45*exp(-5*mod(t,2/3)))*0.16*(sin(2*PI*ld(1)*t)+sin(2*PI*ld(2)*t)+sin(2*PI*ld(3)*t)+0.5*sin(PI*ld(1)*t))",
    },
    Track {
        slug: "arpeggio-120",
        name: "Arpeggio Am–F–C–G · 120 BPM",
        name_zh: "琶音 Am–F–C–G · 120 BPM",
        // Plucked eighths (root, fifth, octave, fifth) over a bass root, a chord every 2 s.
        secs: "16",
        expr: "st(0,floor(t*4));st(3,mod(floor(t/2),4));\
               st(1,if(eq(ld(3),0),220,if(eq(ld(3),1),174.61,if(eq(ld(3),2),261.63,196))));\
               st(2,if(eq(mod(ld(0),4),0),1,if(eq(mod(ld(0),4),1),1.5,if(eq(mod(ld(0),4),2),2,1.5))));\
               0.35*exp(-7*mod(t,0.25))*sin(2*PI*ld(1)*ld(2)*t)+0.18*sin(PI*ld(1)*t)",
    },
    Track {
        slug: "pulse-100",
        name: "Pulse · 100 BPM",
        name_zh: "律动 · 100 BPM",
        // A kick on the beat, a noise hat off the beat, a bass moving A–C every 2.4 s.
        secs: "14.4",
        expr: "st(0,mod(t,0.6));st(1,mod(t+0.3,0.6));st(2,if(lt(mod(t,4.8),2.4),55,65.41));\
               0.6*exp(-14*ld(0))*sin(2*PI*(45+60*exp(-30*ld(0)))*ld(0))\
               +0.08*exp(-45*ld(1))*(random(4)*2-1)\
               +0.22*(0.6+0.4*exp(-6*ld(0)))*sin(2*PI*ld(2)*t)",
    },
    Track {
        slug: "bells-72",
        name: "Bells · 72 BPM",
        name_zh: "钟声 · 72 BPM",
        // A pentatonic bell figure (three partials each) over a low C drone.
        secs: "16.667",
        expr: "st(0,mod(floor(t*1.2),5));\
               st(1,if(eq(ld(0),0),523.25,if(eq(ld(0),1),659.25,if(eq(ld(0),2),587.33,if(eq(ld(0),3),783.99,880)))));\
               st(2,mod(t,1/1.2));\
               exp(-3.5*ld(2))*(0.28*sin(2*PI*ld(1)*t)+0.1*sin(2*PI*2.76*ld(1)*t)+0.05*sin(2*PI*5.4*ld(1)*t))\
               +0.1*sin(2*PI*130.81*t)",
    },
];

/// The storage key a track is seeded under.
pub fn key_of(track: &Track) -> String {
    format!("system/builtin-{}.m4a", track.slug)
}

/// A seeded track's name in the caller's language (`zh`: Chinese), found by its storage key and the
/// name it was stored with; `None` for the operator's own uploads.
pub fn name_in(storage_key: &str, stored: &str, zh: bool) -> Option<&'static str> {
    TRACKS
        .iter()
        .find(|t| stored == t.name && storage_key == key_of(t))
        .map(|t| if zh { t.name_zh } else { t.name })
}

/// Renders a track as AAC 48 kHz stereo in MP4 (`.m4a`).
pub async fn render(track: &Track, dst: &Path) -> Result<(), ToolError> {
    let mut a = args(["-v", "error", "-y", "-f", "lavfi", "-i"]);
    a.push(format!(
        "aevalsrc='{}':s=48000:d={}",
        track.expr, track.secs
    ));
    a.extend(args([
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-ac",
        "2",
        "-f",
        "mp4",
        "-movflags",
        "+faststart",
    ]));
    a.push(dst.display().to_string());
    ffmpeg::run("ffmpeg", &a, Duration::from_secs(300))
        .await
        .map(|_| ())
}

//! `/embed/video_library`: the merchant's finished videos, read-only, as the console frames them.

use maud::{DOCTYPE, PreEscaped, html};

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:12px;background:#f5f5f5}\
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:12px}\
figure{margin:0;background:#fff;border-radius:8px;padding:8px}\
video{width:100%;aspect-ratio:9/16;background:#000;border-radius:4px}\
figcaption{color:#555;margin-top:6px;word-break:break-all}.empty{color:#888}";

/// One finished video of the page.
pub struct Card {
    pub id: i64,
    pub src: String,
    /// The cover's link; none before the cover is made.
    pub poster: Option<String>,
    pub project: String,
    pub duration_ms: i64,
    pub used: bool,
}

fn t(en: bool, zh: &'static str, e: &'static str) -> &'static str {
    if en { e } else { zh }
}

/// The page for an expired or made-up token.
pub fn expired(en: bool) -> String {
    html! {
        (DOCTYPE)
        meta charset="utf-8";
        p { (t(en, "链接已失效，请刷新页面", "This link has expired; reload the page")) }
    }
    .into_string()
}

pub fn page(en: bool, cards: &[Card]) -> String {
    html! {
        (DOCTYPE)
        html lang=(if en { "en" } else { "zh-CN" }) {
            head {
                meta charset="utf-8";
                title { (t(en, "成片库", "Finished videos")) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                main data-count=(cards.len()) {
                    @for c in cards {
                        figure data-id=(c.id) {
                            video controls preload="none" src=(c.src) poster=[c.poster.as_deref()] {}
                            figcaption {
                                (c.project) " #" (c.id) " · " (format!("{:.1}", c.duration_ms as f64 / 1000.0)) "s"
                                @if c.used { (t(en, " · 已使用", " · used")) }
                            }
                        }
                    }
                    @if cards.is_empty() {
                        p.empty { (t(en, "还没有成片", "No finished videos yet")) }
                    }
                }
            }
        }
    }
    .into_string()
}

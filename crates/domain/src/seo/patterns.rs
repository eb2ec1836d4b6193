//! The title pattern library: categories and the patterns of each language, parsed once from the text
//! files beside this module (`patterns_zh.txt`, `patterns_en.txt`).

use crate::i18n::Lang;
use std::sync::LazyLock;

/// A kind of title. The code is stable (stored in requests and shown to the console).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Number,
    Question,
    PainPoint,
    Offer,
    Local,
    HowTo,
    Comparison,
    Urgency,
    Story,
    Review,
}

/// (category, code, zh name, en name)
const NAMES: &[(Category, &str, &str, &str)] = &[
    (Category::Number, "number", "数字型", "Numbers"),
    (Category::Question, "question", "疑问型", "Questions"),
    (Category::PainPoint, "pain_point", "痛点型", "Pain points"),
    (Category::Offer, "offer", "优惠型", "Offers"),
    (Category::Local, "local", "探店/本地型", "Local store"),
    (Category::HowTo, "how_to", "教程型", "How-to"),
    (Category::Comparison, "comparison", "对比型", "Comparison"),
    (Category::Urgency, "urgency", "紧迫型", "Urgency"),
    (Category::Story, "story", "故事型", "Story"),
    (Category::Review, "review", "测评型", "Review"),
];

impl Category {
    pub const ALL: [Category; 10] = [
        Category::Number,
        Category::Question,
        Category::PainPoint,
        Category::Offer,
        Category::Local,
        Category::HowTo,
        Category::Comparison,
        Category::Urgency,
        Category::Story,
        Category::Review,
    ];

    fn row(self) -> &'static (Category, &'static str, &'static str, &'static str) {
        // NAMES is in the order of ALL (a test checks), so the discriminant indexes it.
        &NAMES[self as usize]
    }

    pub fn code(self) -> &'static str {
        self.row().1
    }

    pub fn name(self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.row().2,
            Lang::En => self.row().3,
        }
    }

    pub fn parse(code: &str) -> Option<Category> {
        NAMES.iter().find(|r| r.1 == code).map(|r| r.0)
    }
}

/// What a `{slot}` is filled with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Product,
    Brand,
    Region,
    /// A selling point (a keyword or long-tail word).
    Point,
    /// A second selling point, different from `Point`.
    Point2,
    Num,
    Price,
}

impl Slot {
    fn parse(name: &str) -> Option<Slot> {
        Some(match name {
            "product" => Slot::Product,
            "brand" => Slot::Brand,
            "region" => Slot::Region,
            "point" => Slot::Point,
            "point2" => Slot::Point2,
            "num" => Slot::Num,
            "price" => Slot::Price,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(&'static str),
    Slot(Slot),
}

/// One pattern, split into literal text and slots.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub category: Category,
    pub source: &'static str,
    pub pieces: Vec<Piece>,
    /// Characters of the literal text (what the slots add comes on top).
    pub fixed_chars: usize,
}

impl Pattern {
    pub fn has(&self, slot: Slot) -> bool {
        self.pieces.contains(&Piece::Slot(slot))
    }
}

static ZH: LazyLock<Vec<Pattern>> = LazyLock::new(|| parse(include_str!("patterns_zh.txt")));
static EN: LazyLock<Vec<Pattern>> = LazyLock::new(|| parse(include_str!("patterns_en.txt")));

/// The pattern library of a language.
pub fn library(lang: Lang) -> &'static [Pattern] {
    match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    }
}

/// Reads the data files. They ship inside the binary, so a malformed line is a programming error: it
/// is skipped here and the library tests fail on the count and the parse check.
fn parse(data: &'static str) -> Vec<Pattern> {
    let mut out = vec![];
    let mut category = None;
    for line in data.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(code) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            category = Category::parse(code);
            continue;
        }
        if let (Some(category), Some(pieces)) = (category, split(line)) {
            let fixed_chars = pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => t.chars().count(),
                    Piece::Slot(_) => 0,
                })
                .sum();
            out.push(Pattern {
                category,
                source: line,
                pieces,
                fixed_chars,
            });
        }
    }
    out
}

/// "a{product}b" -> [Text("a"), Slot(Product), Text("b")]; None on an unknown or unclosed slot.
pub(crate) fn split(line: &'static str) -> Option<Vec<Piece>> {
    let mut pieces = vec![];
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Text(&rest[..open]));
        }
        let close = open + rest[open..].find('}')?;
        pieces.push(Piece::Slot(Slot::parse(&rest[open + 1..close])?));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest));
    }
    Some(pieces)
}

//! A narration's text made ready for the engine: split into sentences (the subtitle lines), long ones
//! at their commas; in a Chinese sentence numbers, percentages, dates, times and prices spelled out in
//! Chinese (`99%` -> 百分之九十九) and runs of Latin letters marked as English so the English path
//! reads them; an English sentence goes whole to the English path (its reader spells numbers out).

use super::Lang;
use serde::{Deserialize, Serialize};

/// A piece of a sentence in one language, as the engine reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub lang: Lang,
    pub text: String,
}

/// One subtitle line: what it shows (`display`, as written) and what is read (`parts`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sentence {
    pub display: String,
    pub parts: Vec<Part>,
}

/// Longest subtitle line before a sentence is cut at a comma (characters; Chinese, then English).
const LINE_ZH: usize = 24;
const LINE_EN: usize = 72;

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{3400}'..='\u{4dbf}').contains(&c)
}

/// Full-width digits, letters and signs as their ASCII forms (a Chinese keyboard types both).
fn narrow(c: char) -> char {
    match c {
        '\u{ff10}'..='\u{ff19}' | '\u{ff21}'..='\u{ff3a}' | '\u{ff41}'..='\u{ff5a}' => {
            char::from_u32(c as u32 - 0xfee0).unwrap_or(c)
        }
        '％' => '%',
        '￥' => '¥',
        '＄' => '$',
        '．' => '.',
        '／' => '/',
        '－' => '-',
        '\u{3000}' | '\t' | '\r' => ' ',
        c => c,
    }
}

fn ends_sentence(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '!' | '?' | '；' | ';' | '…' | '\n')
}

fn is_comma(c: char) -> bool {
    matches!(c, '，' | ',' | '、' | '：' | ':')
}

/// The text's sentences, in order; pieces with nothing to read are left out.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let text: String = text.chars().map(narrow).collect();
    let chars: Vec<char> = text.chars().collect();
    let mut raw = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        cur.push(c);
        // A full stop ends an English sentence when a space or the end follows (not 3.5, not e.g.x).
        let stop = c == '.'
            && chars.get(i + 1).is_none_or(|n| n.is_whitespace())
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_ascii_digit());
        if ends_sentence(c) || stop || (c == '.' && i + 1 == chars.len()) {
            raw.push(std::mem::take(&mut cur));
        }
    }
    raw.push(cur);
    let mut out = Vec::new();
    for s in raw {
        for piece in cut_long(&s) {
            if let Some(sentence) = sentence(&piece) {
                out.push(sentence);
            }
        }
    }
    out
}

/// A long sentence in comma-separated pieces of at most a subtitle line each (a piece without commas
/// stays whole).
fn cut_long(s: &str) -> Vec<String> {
    let s = s.trim();
    let limit = if s.chars().any(is_cjk) {
        LINE_ZH
    } else {
        LINE_EN
    };
    if s.chars().count() <= limit {
        return vec![s.to_string()];
    }
    let mut clauses = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        cur.push(c);
        if is_comma(c) {
            clauses.push(std::mem::take(&mut cur));
        }
    }
    clauses.push(cur);
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for c in clauses {
        if !line.is_empty() && line.chars().count() + c.chars().count() > limit {
            out.push(std::mem::take(&mut line));
        }
        line.push_str(&c);
    }
    out.push(line);
    out
}

const TRAILING: &[char] = &[
    '。', '，', ',', '；', ';', '、', '：', ':', '.', ' ', '\n', '…',
];

fn sentence(piece: &str) -> Option<Sentence> {
    let display = piece.trim().trim_end_matches(TRAILING).trim().to_string();
    if !display.chars().any(|c| c.is_alphanumeric()) {
        return None;
    }
    let spoken = piece.trim().replace('\n', " ");
    let parts = if spoken.chars().any(is_cjk) {
        mixed(&spoken)
    } else {
        vec![Part {
            lang: Lang::En,
            text: spoken,
        }]
    };
    Some(Sentence { display, parts })
}

/// A Chinese sentence's Latin runs (letters, then letters, digits, spaces, `'-.&+`, ending on a letter
/// or digit) as English parts, the rest as Chinese with its numbers spelled out.
fn mixed(s: &str) -> Vec<Part> {
    let chars: Vec<char> = s.chars().collect();
    let mut parts: Vec<Part> = Vec::new();
    let mut zh = String::new();
    let mut i = 0;
    let push = |parts: &mut Vec<Part>, lang: Lang, text: String| {
        if text.trim().is_empty() {
            return;
        }
        match parts.last_mut() {
            Some(p) if p.lang == lang => p.text.push_str(&text),
            _ => parts.push(Part { lang, text }),
        }
    };
    while i < chars.len() {
        if chars[i].is_ascii_alphabetic() {
            let start = i;
            let mut end = i;
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_alphanumeric() || " '-.&+".contains(chars[j]))
            {
                if chars[j].is_ascii_alphanumeric() {
                    end = j + 1;
                }
                j += 1;
            }
            push(&mut parts, Lang::Zh, numbers_zh(&std::mem::take(&mut zh)));
            let run: String = chars[start..end].iter().collect();
            push(&mut parts, Lang::En, run);
            i = end;
        } else {
            zh.push(chars[i]);
            i += 1;
        }
    }
    push(&mut parts, Lang::Zh, numbers_zh(&zh));
    parts
}

const DIGITS: [char; 10] = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Digit by digit: years, phone numbers, codes (二零二四).
pub fn digits_zh(s: &str) -> String {
    s.chars()
        .filter_map(|c| c.to_digit(10).map(|d| DIGITS[d as usize]))
        .collect()
}

fn section(n: u64) -> String {
    let mut out = String::new();
    let mut zero = false;
    for (p, unit) in [(1000, "千"), (100, "百"), (10, "十"), (1, "")] {
        let d = (n / p % 10) as usize;
        if d == 0 {
            zero = !out.is_empty();
        } else {
            if zero {
                out.push('零');
                zero = false;
            }
            out.push(DIGITS[d]);
            out.push_str(unit);
        }
    }
    out
}

/// A whole number read out in Chinese: 105 -> 一百零五, 10005 -> 一万零五, 12 -> 十二.
pub fn cardinal_zh(n: u64) -> String {
    if n == 0 {
        return "零".into();
    }
    let mut out = String::new();
    let parts = [
        (n / 100_000_000, "亿"),
        (n / 10_000 % 10_000, "万"),
        (n % 10_000, ""),
    ];
    let mut zero = false;
    for (i, (part, unit)) in parts.into_iter().enumerate() {
        if part == 0 {
            zero = !out.is_empty();
            continue;
        }
        if !out.is_empty() && (zero || part < 1000) {
            out.push('零');
        }
        zero = false;
        if i == 0 && part >= 10_000 {
            out.push_str(&cardinal_zh(part));
        } else {
            out.push_str(&section(part));
        }
        out.push_str(unit);
    }
    match out.strip_prefix("一十") {
        Some(rest) => format!("十{rest}"),
        None => out,
    }
}

/// A number as written (`1,299.50`) read out: whole part, then 点 and the decimals digit by digit.
fn number_zh(int: &str, frac: &str) -> String {
    let whole: String = int.chars().filter(|c| c.is_ascii_digit()).collect();
    let mut out = match whole.parse::<u64>() {
        Ok(n) if whole.len() <= 16 => cardinal_zh(n),
        _ => digits_zh(&whole),
    };
    if !frac.is_empty() {
        out.push('点');
        out.push_str(&digits_zh(frac));
    }
    out
}

/// A number token: (integer part with any thousands commas, decimals, length in chars).
fn scan_number(c: &[char], i: usize) -> Option<(String, String, usize)> {
    let mut j = i;
    let mut int = String::new();
    while j < c.len() {
        if c[j].is_ascii_digit() {
            int.push(c[j]);
            j += 1;
        } else if c[j] == ','
            && !int.is_empty()
            && c.len() >= j + 4
            && c[j + 1..j + 4].iter().all(|d| d.is_ascii_digit())
            && c.get(j + 4).is_none_or(|d| !d.is_ascii_digit())
        {
            j += 1; // a thousands separator: exactly three digits follow
        } else {
            break;
        }
    }
    if int.is_empty() {
        return None;
    }
    let mut frac = String::new();
    if c.get(j) == Some(&'.') && c.get(j + 1).is_some_and(|d| d.is_ascii_digit()) {
        j += 1;
        while j < c.len() && c[j].is_ascii_digit() {
            frac.push(c[j]);
            j += 1;
        }
    }
    Some((int, frac, j - i))
}

/// Numbers in a Chinese text spelled out: percentages, prices (¥ and $ before, 元 after), dates
/// (2024年, 2024-03-05, 2024/3/5), times (10:30), ranges (3-5), long digit strings (phone numbers,
/// digit by digit) and plain numbers.
pub fn numbers_zh(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        let currency = match c[i] {
            '¥' => Some("元"),
            '$' => Some("美元"),
            _ => None,
        };
        let at = if currency.is_some() { i + 1 } else { i };
        let Some((int, frac, len)) = scan_number(&c, at) else {
            out.push(c[i]);
            i += 1;
            continue;
        };
        let mut j = at + len;
        let next = c.get(j).copied();
        // A date written with - or /: Y-M-D or Y/M/D.
        if int.len() == 4 && frac.is_empty() && matches!(next, Some('-') | Some('/')) {
            let sep = next.unwrap_or('-');
            if let Some((m, mf, ml)) = scan_number(&c, j + 1)
                && mf.is_empty()
                && m.len() <= 2
                && c.get(j + 1 + ml) == Some(&sep)
                && let Some((d, df, dl)) = scan_number(&c, j + 2 + ml)
                && df.is_empty()
                && d.len() <= 2
            {
                out.push_str(&format!(
                    "{}年{}月{}日",
                    digits_zh(&int),
                    number_zh(&m, ""),
                    number_zh(&d, "")
                ));
                i = j + 2 + ml + dl;
                continue;
            }
        }
        if let Some(unit) = currency {
            out.push_str(&number_zh(&int, &frac));
            out.push_str(unit);
            if unit == "元" && c.get(j) == Some(&'元') {
                j += 1;
            }
            i = j;
            continue;
        }
        match next {
            Some('%') => {
                out.push_str("百分之");
                out.push_str(&number_zh(&int, &frac));
                i = j + 1;
            }
            Some('‰') => {
                out.push_str("千分之");
                out.push_str(&number_zh(&int, &frac));
                i = j + 1;
            }
            Some('年') if frac.is_empty() && int.len() == 4 => {
                out.push_str(&digits_zh(&int));
                i = j;
            }
            Some(':') if frac.is_empty() && int.len() <= 2 => match scan_number(&c, j + 1) {
                Some((mm, mf, ml)) if mf.is_empty() && mm.len() == 2 => {
                    out.push_str(&number_zh(&int, ""));
                    out.push('点');
                    match mm.parse::<u64>().unwrap_or(0) {
                        0 => out.push('整'),
                        m => {
                            if m < 10 {
                                out.push('零');
                            }
                            out.push_str(&cardinal_zh(m));
                            out.push('分');
                        }
                    }
                    i = j + 1 + ml;
                }
                _ => {
                    out.push_str(&number_zh(&int, &frac));
                    i = j;
                }
            },
            Some('-') | Some('~') | Some('～')
                if c.get(j + 1).is_some_and(|d| d.is_ascii_digit()) =>
            {
                out.push_str(&number_zh(&int, &frac));
                out.push('到');
                i = j + 1;
            }
            _ => {
                // Eleven-digit phones, order numbers, codes with a leading zero: digit by digit.
                let code = frac.is_empty()
                    && !int.contains(',')
                    && (int.len() >= 7 || (int.len() > 1 && int.starts_with('0')));
                if code {
                    out.push_str(&digits_zh(&int));
                } else {
                    out.push_str(&number_zh(&int, &frac));
                }
                i = j;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zh(s: &str) -> String {
        numbers_zh(s)
    }

    #[test]
    fn numbers_read_as_chinese() {
        assert_eq!(cardinal_zh(0), "零");
        assert_eq!(cardinal_zh(10), "十");
        assert_eq!(cardinal_zh(12), "十二");
        assert_eq!(cardinal_zh(99), "九十九");
        assert_eq!(cardinal_zh(105), "一百零五");
        assert_eq!(cardinal_zh(1005), "一千零五");
        assert_eq!(cardinal_zh(10005), "一万零五");
        assert_eq!(cardinal_zh(110_000), "十一万");
        assert_eq!(cardinal_zh(1_000_500), "一百万零五百");
        assert_eq!(cardinal_zh(300_000_000), "三亿");
        assert_eq!(cardinal_zh(120_000_034), "一亿二千万零三十四");
    }

    #[test]
    fn percentages_prices_dates_times() {
        assert_eq!(zh("好评率99%"), "好评率百分之九十九");
        assert_eq!(zh("降价12.5%"), "降价百分之十二点五");
        assert_eq!(zh("只要¥1,299"), "只要一千二百九十九元");
        assert_eq!(zh("只要99.9元"), "只要九十九点九元");
        assert_eq!(zh("¥59元"), "五十九元");
        assert_eq!(zh("售价$20"), "售价二十美元");
        assert_eq!(zh("2024年3月5日"), "二零二四年三月五日");
        assert_eq!(zh("2024-03-05开业"), "二零二四年三月五日开业");
        assert_eq!(zh("2024/3/15"), "二零二四年三月十五日");
        assert_eq!(zh("10:30开门"), "十点三十分开门");
        assert_eq!(zh("9:05"), "九点零五分");
        assert_eq!(zh("8:00"), "八点整");
        assert_eq!(zh("3-5天"), "三到五天");
        assert_eq!(zh("电话13812345678"), "电话一三八一二三四五六七八");
        assert_eq!(zh("第1名"), "第一名");
        assert_eq!(zh("没有数字"), "没有数字");
    }

    #[test]
    fn sentences_split_and_keep_what_they_show() {
        let s = sentences("今天全场九折！欢迎光临。Welcome to our store. See you soon");
        let shown: Vec<_> = s.iter().map(|s| s.display.as_str()).collect();
        assert_eq!(
            shown,
            [
                "今天全场九折！",
                "欢迎光临",
                "Welcome to our store",
                "See you soon"
            ]
        );
        assert_eq!(
            s[2].parts,
            [Part {
                lang: Lang::En,
                text: "Welcome to our store.".into()
            }]
        );
        assert!(sentences("。。！？ ").is_empty());
        // 3.5 is not a full stop.
        assert_eq!(sentences("价格是3.5元。").len(), 1);
    }

    #[test]
    fn latin_inside_chinese_goes_the_english_way() {
        let s = sentences("新款iPhone 15只要999元，好评99%。");
        assert_eq!(s.len(), 1);
        assert_eq!(
            s[0].parts,
            [
                Part {
                    lang: Lang::Zh,
                    text: "新款".into()
                },
                Part {
                    lang: Lang::En,
                    text: "iPhone 15".into()
                },
                Part {
                    lang: Lang::Zh,
                    text: "只要九百九十九元，好评百分之九十九。".into()
                },
            ]
        );
        assert_eq!(s[0].display, "新款iPhone 15只要999元，好评99%");
    }

    #[test]
    fn long_sentences_are_cut_at_commas() {
        let long = "我们的门店位于市中心最繁华的商业街，交通十分便利，周边有三个大型停车场，欢迎大家开车过来体验。";
        let s = sentences(long);
        assert!(s.len() >= 2, "{s:?}");
        assert!(s.iter().all(|s| s.display.chars().count() <= LINE_ZH));
        let joined: String = s
            .iter()
            .map(|s| s.display.clone())
            .collect::<Vec<_>>()
            .join("，");
        assert_eq!(format!("{joined}。"), long);
    }

    #[test]
    fn full_width_forms_are_read() {
        assert_eq!(
            zh(&"９９％".chars().map(narrow).collect::<String>()),
            "百分之九十九"
        );
    }
}

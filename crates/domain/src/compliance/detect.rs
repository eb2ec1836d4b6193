//! The patterns no word list can hold: phone numbers, links and e-mail addresses, as byte ranges.

crate::text_enum! {
    /// What a detector finds; a rule file names them in `detect`.
    pub enum Detector {
        /// A run of 7 or more digits (blanks and dashes between them allowed): phone, QQ or
        /// WeChat numbers.
        Phone = "phone",
        /// `http://`, `https://`, `www.` or a host with a common top-level domain (`shop88.cn`).
        Link = "link",
        /// `name@host.tld`.
        Email = "email",
    }
}

impl Detector {
    /// Every match in `text`, as byte ranges.
    pub fn find(self, text: &str) -> Vec<(usize, usize)> {
        match self {
            Detector::Phone => digit_runs(text),
            Detector::Link => links(text),
            Detector::Email => emails(text),
        }
    }
}

fn digit_runs(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let (start, mut end, mut digits) = (i, i, 0);
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'-' || b[i] == b' ') {
            if b[i].is_ascii_digit() {
                digits += 1;
                end = i + 1;
            }
            i += 1;
        }
        if digits >= 7 && !is_date(&text[start..end]) {
            out.push((start, end));
        }
    }
    out
}

/// `2026-12-01`: a date, not a number to call.
fn is_date(run: &str) -> bool {
    let parts: Vec<&str> = run.split('-').map(str::trim).collect();
    parts.len() == 3 && parts[0].len() == 4 && parts[1..].iter().all(|p| (1..=2).contains(&p.len()))
}

/// Top-level domains a link in a caption ends with.
const TLDS: &[&str] = &[
    "com", "cn", "net", "org", "top", "xyz", "cc", "vip", "shop", "me", "io", "co", "tv",
];

fn host_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

fn links(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let mut out: Vec<(usize, usize)> = vec![];
    let url_end = |from: usize| {
        let mut e = from;
        while e < b.len() && b[e].is_ascii_graphic() {
            e += 1;
        }
        e
    };
    for mark in ["http://", "https://", "www."] {
        let mut from = 0;
        while let Some(p) = lower[from..].find(mark) {
            let s = from + p;
            let e = url_end(s + mark.len());
            if !out.iter().any(|&(a, z)| s < z && a < e) {
                out.push((s, e));
            }
            from = s + mark.len();
        }
    }
    // A bare host: letters or digits, a dot, a known top-level domain, then no letter.
    for (dot, _) in lower.match_indices('.') {
        let mut s = dot;
        while s > 0 && host_byte(b[s - 1]) {
            s -= 1;
        }
        if s == dot || out.iter().any(|&(a, z)| dot >= a && dot < z) {
            continue;
        }
        let rest = &lower[dot + 1..];
        let Some(tld) = TLDS.iter().find(|t| {
            rest.starts_with(**t)
                && !rest
                    .as_bytes()
                    .get(t.len())
                    .is_some_and(u8::is_ascii_alphabetic)
        }) else {
            continue;
        };
        let e = url_end(dot + 1 + tld.len());
        out.push((s, e));
    }
    out.sort_unstable();
    out
}

fn emails(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = vec![];
    for (at, _) in text.match_indices('@') {
        let mut s = at;
        while s > 0 && (host_byte(b[s - 1]) || b[s - 1] == b'.') {
            s -= 1;
        }
        let mut e = at + 1;
        while e < b.len() && (host_byte(b[e]) || b[e] == b'.') {
            e += 1;
        }
        let host = &text[at + 1..e];
        let dotted = host
            .rsplit_once('.')
            .is_some_and(|(h, tld)| !h.is_empty() && tld.len() >= 2);
        if s < at && dotted {
            out.push((s, e));
        }
    }
    out
}

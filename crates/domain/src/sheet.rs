//! Imports of spreadsheets (issue 44): a sheet read as text cells, its columns named in Chinese or
//! English, and the errors of its rows. A sheet is checked as a whole; every bad row is reported
//! with its row number (as the spreadsheet numbers it: the header is row 1) and its column, and
//! nothing is stored unless no row is bad.

use crate::i18n::Msg;
use serde_json::{Map, Value, json};

/// The most data rows one import takes.
pub const ROWS_MAX: usize = 2000;
/// The largest sheet file (bytes) an import takes.
pub const FILE_MAX: usize = 5 * 1024 * 1024;

/// A column of an import: its key (what the console and the API call it) and its header names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub key: &'static str,
    pub zh: &'static str,
    pub en: &'static str,
}

pub const fn col(key: &'static str, zh: &'static str, en: &'static str) -> Column {
    Column { key, zh, en }
}

/// What is wrong with one cell (or row): its message with both languages' words of its column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// The spreadsheet's row number (the header is row 1, the first data row 2).
    pub row: usize,
    pub column: Column,
    pub msg: Msg,
    pub args: Vec<(&'static str, String)>,
}

impl RowError {
    pub fn new(row: usize, column: Column, msg: Msg, args: Vec<(&'static str, String)>) -> Self {
        RowError {
            row,
            column,
            msg,
            args,
        }
    }

    /// As an error's argument carries it (`errors`, a JSON list), for the API to render in the
    /// reader's language: the column's words and a message's `{field}` as `name.zh`/`name.en`.
    pub fn to_json(&self) -> Value {
        let mut args = Map::new();
        for (k, v) in &self.args {
            args.insert(k.to_string(), Value::from(v.clone()));
        }
        args.insert("field.zh".into(), self.column.zh.into());
        args.insert("field.en".into(), self.column.en.into());
        json!({
            "row": self.row,
            "column": self.column.key,
            "column.zh": self.column.zh,
            "column.en": self.column.en,
            "msg": self.msg.key(),
            "args": args,
        })
    }
}

/// The errors as the `errors` argument of an `ImportRowsInvalid` error.
pub fn errors_arg(errors: &[RowError]) -> String {
    Value::Array(errors.iter().map(RowError::to_json).collect()).to_string()
}

/// A sheet's data rows keyed by column: which cell of a row holds which column, found by the
/// header's names (Chinese, English or the key; case and spaces ignored).
#[derive(Debug, Clone, Default)]
pub struct Sheet {
    /// Column key -> index in a row.
    pub index: Vec<(&'static str, usize)>,
    /// Data rows (the header left out), each with its spreadsheet row number.
    pub rows: Vec<(usize, Vec<String>)>,
}

fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
}

impl Sheet {
    /// The sheet of `cells` (the first row the header), with the columns it names of `columns`.
    /// Blank rows are left out (they keep their numbers for the rows after them).
    pub fn of(cells: Vec<Vec<String>>, columns: &[Column]) -> Sheet {
        let mut it = cells.into_iter().enumerate();
        let header = it.next().map(|(_, h)| h).unwrap_or_default();
        let mut index = vec![];
        for (i, h) in header.iter().enumerate() {
            let h = norm(h);
            if let Some(c) = columns
                .iter()
                .find(|c| [c.key, c.zh, c.en].iter().any(|n| norm(n) == h))
            {
                if !index.iter().any(|(k, _)| *k == c.key) {
                    index.push((c.key, i));
                }
            }
        }
        let rows = it
            .filter(|(_, r)| r.iter().any(|c| !c.trim().is_empty()))
            .map(|(i, r)| (i + 1, r))
            .collect();
        Sheet { index, rows }
    }

    pub fn has(&self, key: &str) -> bool {
        self.index.iter().any(|(k, _)| *k == key)
    }

    /// A row's cell of a column, trimmed; empty when the sheet has no such column or cell.
    pub fn cell<'a>(&self, row: &'a [String], key: &str) -> &'a str {
        self.index
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, i)| row.get(*i))
            .map_or("", |s| s.trim())
    }
}

/// A cell holding several values (topics, @-mentions): split on commas, semicolons, spaces,
/// new lines and (Chinese) enumeration commas.
pub fn list(cell: &str) -> Vec<String> {
    cell.split([',', '，', ';', '；', '、', ' ', '\u{3000}', '\n', '\t'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A time cell in China time: `YYYY-MM-DD HH:mm[:ss]` (also with `/` or a `T`) or a spreadsheet's
/// date serial (days since 1899-12-30, the fraction the time of day) -> unix ms.
pub fn china_time(cell: &str) -> Option<i64> {
    let s = cell.trim();
    if let Ok(serial) = s.parse::<f64>() {
        // 1 = 1900-01-01; serials below 1 or past 9999 are no dates.
        if !(1.0..2_958_466.0).contains(&serial) {
            return None;
        }
        let minutes = (serial * 1440.0).round() as i64;
        // Days from 1899-12-30 to 1970-01-01: 25569.
        let local = (minutes - 25_569 * 1440) * 60_000;
        return Some(local - crate::matrix::TZ_OFFSET_MS);
    }
    let s = s.replace('/', "-").replace('T', " ");
    let (date, time) = s.split_once(' ').unwrap_or((s.as_str(), ""));
    let day = crate::matrix::parse_day(date)?;
    let time = time.trim();
    let hhmm = match time.matches(':').count() {
        2 => time.rsplit_once(':').map(|(hm, sec)| (hm, sec))?,
        1 => (time, "0"),
        _ => return None,
    };
    let sec: u32 = hhmm.1.parse().ok().filter(|s| *s < 60)?;
    let minute = crate::matrix::parse_hhmm(hhmm.0)?;
    Some(crate::matrix::at(day, minute) + sec as i64 * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: [Column; 2] = [
        col("video", "视频编号", "Video ID"),
        col("title", "标题", "Title"),
    ];

    #[test]
    fn columns_are_found_by_either_languages_name() {
        let cells = vec![
            vec!["标题".into(), "x".into(), "video id".into()],
            vec!["a".into(), "".into(), "1".into()],
            vec!["".into(), " ".into()],
            vec!["b".into(), "".into(), "2".into()],
        ];
        let s = Sheet::of(cells, &COLS);
        assert!(s.has("video") && s.has("title"));
        assert_eq!(s.rows.len(), 2);
        assert_eq!(s.rows[1].0, 4);
        assert_eq!(s.cell(&s.rows[1].1, "video"), "2");
        assert_eq!(s.cell(&s.rows[1].1, "title"), "b");
    }

    #[test]
    fn times_are_china_time() {
        let at = china_time("2026-12-01 09:30").unwrap();
        assert_eq!(crate::matrix::fmt_minute(at), "2026-12-01 09:30");
        assert_eq!(china_time("2026/12/01 09:30:00"), Some(at));
        // Excel's serial of 2026-12-01 09:30.
        assert_eq!(china_time("46357.395833333336"), Some(at));
        for bad in [
            "",
            "tomorrow",
            "2026-13-01 09:00",
            "2026-12-01",
            "2026-12-01 25:00",
        ] {
            assert_eq!(china_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn lists_split_on_any_separator() {
        assert_eq!(list("#a, b，c、d  e"), ["#a", "b", "c", "d", "e"]);
        assert!(list(" ").is_empty());
    }
}

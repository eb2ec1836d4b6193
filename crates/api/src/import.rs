//! Reading an uploaded sheet (the imports of issue 44), the counterpart of `export.rs`: an XLSX's
//! first worksheet or a CSV (UTF-8, with or without a byte-order mark, quoted fields), as rows of
//! text cells (the header first; rows the sheet skips are blank, so row numbers stay the
//! spreadsheet's). A small reader on crates already in the tree — the zip's central directory,
//! `flate2` for deflated parts, `quick-xml` for the parts — rather than a spreadsheet crate: an
//! import needs only cell texts (shared and inline strings, numbers; dates stay Excel serials,
//! `domain::sheet::china_time` reads them), and every part is read with a size bound.

use domain::sheet::{FILE_MAX, ROWS_MAX};
use quick_xml::Reader;
use quick_xml::events::Event;
use std::io::Read;

/// The most one part of an XLSX may inflate to (a zip bomb stops here).
const PART_MAX: u64 = 64 * 1024 * 1024;
/// The widest sheet read (columns past it are ignored).
const COLS_MAX: usize = 64;

/// Why a file could not be read (shown inside `Msg::ImportUnreadable`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    TooLarge,
    TooManyRows(usize),
    Broken(String),
}

fn broken<T>(why: impl Into<String>) -> Result<T, Unreadable> {
    Err(Unreadable::Broken(why.into()))
}

/// The sheet's rows of cells, header first: an XLSX (a zip) or else a CSV.
pub fn read(bytes: &[u8]) -> Result<Vec<Vec<String>>, Unreadable> {
    if bytes.len() > FILE_MAX {
        return Err(Unreadable::TooLarge);
    }
    let mut rows = if bytes.starts_with(b"PK\x03\x04") {
        xlsx(bytes)?
    } else {
        csv(bytes)?
    };
    // Our exports neutralise a cell that would run as a formula with a leading apostrophe
    // (`export::safe`); read back, it is the text that was written ("@用户", "-3 件").
    for cell in rows.iter_mut().flatten() {
        if cell.starts_with('\'') && cell[1..].starts_with(['=', '+', '-', '@', '\t', '\r']) {
            cell.remove(0);
        }
    }
    // The header and at most ROWS_MAX data rows (blank ones not counted).
    let filled = rows
        .iter()
        .skip(1)
        .filter(|r| r.iter().any(|c| !c.trim().is_empty()))
        .count();
    if filled > ROWS_MAX {
        return Err(Unreadable::TooManyRows(filled));
    }
    Ok(rows)
}

/// A CSV in UTF-8 (a leading byte-order mark dropped): fields separated by commas, quoted with `"`
/// (`""` inside), rows by CRLF or LF; quoted fields may hold separators and new lines.
pub fn csv(bytes: &[u8]) -> Result<Vec<Vec<String>>, Unreadable> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return broken("not UTF-8 text (save the sheet as xlsx or CSV UTF-8)");
    };
    let mut rows = vec![];
    let mut row: Vec<String> = vec![];
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n' | '\r') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
                if rows.len() > ROWS_MAX * 2 + 1 {
                    return Err(Unreadable::TooManyRows(rows.len() - 1));
                }
            }
            (false, c) => cell.push(c),
        }
    }
    if quoted {
        return broken("a quoted field is not closed");
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    Ok(rows)
}

fn le16(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}

fn le32(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

/// The entries of a zip by its central directory: name -> (method, compressed size, local header).
fn entries(zip: &[u8]) -> Result<Vec<(String, usize, usize, usize)>, Unreadable> {
    // The end-of-central-directory record, searched from the end (it may carry a comment).
    let from = zip.len().saturating_sub(22 + 65_535);
    let Some(end) = (from..zip.len().saturating_sub(21))
        .rev()
        .find(|i| zip[*i..].starts_with(b"PK\x05\x06"))
    else {
        return broken("not a zip: no central directory");
    };
    let (count, mut at) = match (le16(zip, end + 10), le32(zip, end + 16)) {
        (Some(n), Some(o)) => (n, o),
        _ => return broken("a broken central directory"),
    };
    let mut out = vec![];
    for _ in 0..count {
        if !zip.get(at..).is_some_and(|b| b.starts_with(b"PK\x01\x02")) {
            return broken("a broken central directory");
        }
        let field = |o: usize| le16(zip, at + o);
        let (Some(method), Some(size), Some(n), Some(x), Some(c), Some(local)) = (
            field(10),
            le32(zip, at + 20),
            field(28),
            field(30),
            field(32),
            le32(zip, at + 42),
        ) else {
            return broken("a broken central directory");
        };
        let Some(name) = zip.get(at + 46..at + 46 + n) else {
            return broken("a broken central directory");
        };
        out.push((
            String::from_utf8_lossy(name).into_owned(),
            method,
            size,
            local,
        ));
        at += 46 + n + x + c;
    }
    Ok(out)
}

/// One part of the zip, inflated (stored or deflated), or None when the zip has no such part.
fn part(
    zip: &[u8],
    list: &[(String, usize, usize, usize)],
    name: &str,
) -> Result<Option<String>, Unreadable> {
    let Some((_, method, size, local)) = list.iter().find(|e| e.0 == name) else {
        return Ok(None);
    };
    let (Some(n), Some(x)) = (le16(zip, local + 26), le16(zip, local + 28)) else {
        return broken(format!("{name}: a broken entry"));
    };
    let start = local + 30 + n + x;
    let Some(data) = zip.get(start..start + size) else {
        return broken(format!("{name}: a broken entry"));
    };
    let mut out = vec![];
    let read = match method {
        0 => {
            out.extend_from_slice(data);
            Ok(0)
        }
        8 => flate2::read::DeflateDecoder::new(data)
            .take(PART_MAX + 1)
            .read_to_end(&mut out),
        m => return broken(format!("{name}: compression method {m} is not supported")),
    };
    if read.is_err() || out.len() as u64 > PART_MAX {
        return broken(format!("{name}: cannot be inflated"));
    }
    match String::from_utf8(out) {
        Ok(s) => Ok(Some(s)),
        Err(_) => broken(format!("{name}: not UTF-8")),
    }
}

/// An attribute's value by its (qualified) name.
fn attr(e: &quick_xml::events::BytesStart<'_>, name: &[u8]) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == name)
        .map(|a| unescape(&String::from_utf8_lossy(&a.value)))
}

fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find(';') {
            Some(j) => {
                out.push_str(&entity(&after[..j]).unwrap_or_default());
                rest = &after[j + 1..];
            }
            None => {
                out.push_str(&rest[i..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text of an entity reference's name (`amp`, `#x41`, `#65`).
fn entity(name: &str) -> Option<String> {
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        n => {
            let code = match n.strip_prefix("#x").or_else(|| n.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => n.strip_prefix('#')?.parse().ok()?,
            };
            char::from_u32(code)?
        }
    };
    Some(c.to_string())
}

/// The text of the events inside one element: text, CDATA and references.
fn text_of(e: &Event<'_>) -> Option<String> {
    match e {
        Event::Text(t) => t.xml10_content().ok().map(|s| s.into_owned()),
        Event::CData(t) => Some(String::from_utf8_lossy(t).into_owned()),
        Event::GeneralRef(r) => entity(&r.decode().ok()?),
        _ => None,
    }
}

/// The shared strings: each `<si>`'s `<t>` texts joined (rich-text runs), phonetic runs left out.
fn shared_strings(xml: &str) -> Result<Vec<String>, Unreadable> {
    let mut r = Reader::from_str(xml);
    let mut out = vec![];
    let (mut si, mut t, mut phonetic) = (false, false, false);
    let mut cur = String::new();
    loop {
        let ev = match r.read_event() {
            Ok(ev) => ev,
            Err(e) => return broken(format!("sharedStrings.xml: {e}")),
        };
        match &ev {
            Event::Start(e) => match e.local_name().as_ref() {
                b"si" => (si, cur) = (true, String::new()),
                b"t" => t = true,
                b"rPh" => phonetic = true,
                _ => {}
            },
            Event::Empty(e) if e.local_name().as_ref() == b"si" => out.push(String::new()),
            Event::End(e) => match e.local_name().as_ref() {
                b"si" => {
                    si = false;
                    out.push(std::mem::take(&mut cur));
                }
                b"t" => t = false,
                b"rPh" => phonetic = false,
                _ => {}
            },
            Event::Eof => break,
            ev if si && t && !phonetic => cur.push_str(&text_of(ev).unwrap_or_default()),
            _ => {}
        }
    }
    Ok(out)
}

/// A cell reference's column (`B7` -> 1).
fn column_of(r: &str) -> Option<usize> {
    let letters: String = r.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    if letters.is_empty() {
        return None;
    }
    let mut n = 0usize;
    for c in letters.to_ascii_uppercase().bytes() {
        n = n.checked_mul(26)?.checked_add((c - b'A' + 1) as usize)?;
    }
    Some(n - 1)
}

/// A cell reference's row (`B7` -> 7).
fn row_of(r: &str) -> Option<usize> {
    r.trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .ok()
}

/// The worksheet's cells by row; rows it skips come out blank.
fn worksheet(xml: &str, shared: &[String]) -> Result<Vec<Vec<String>>, Unreadable> {
    let mut r = Reader::from_str(xml);
    let mut rows: Vec<Vec<String>> = vec![];
    let mut row_no = 0usize;
    // The cell being read: its column, type, and whether its value or inline text is open.
    let (mut col, mut kind, mut in_v, mut in_t) = (0usize, String::new(), false, false);
    let mut value = String::new();
    let mut next_col = 0usize;
    loop {
        let ev = match r.read_event() {
            Ok(ev) => ev,
            Err(e) => return broken(format!("worksheet: {e}")),
        };
        match &ev {
            Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                b"row" => {
                    row_no = attr(e, b"r")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(row_no + 1);
                    next_col = 0;
                }
                b"c" => {
                    let at = attr(e, b"r");
                    col = at.as_deref().and_then(column_of).unwrap_or(next_col);
                    if let Some(n) = at.as_deref().and_then(row_of) {
                        row_no = n;
                    }
                    next_col = col + 1;
                    kind = attr(e, b"t").unwrap_or_default();
                    value.clear();
                }
                b"v" => in_v = matches!(ev, Event::Start(_)),
                b"t" => in_t = matches!(ev, Event::Start(_)),
                _ => {}
            },
            Event::End(e) => match e.local_name().as_ref() {
                b"v" => in_v = false,
                b"t" => in_t = false,
                b"c" => {
                    let text = match kind.as_str() {
                        "s" => value
                            .trim()
                            .parse::<usize>()
                            .ok()
                            .and_then(|i| shared.get(i).cloned())
                            .unwrap_or_default(),
                        "b" => (if value.trim() == "1" { "TRUE" } else { "FALSE" }).into(),
                        _ => std::mem::take(&mut value),
                    };
                    if !text.is_empty() && col < COLS_MAX && row_no > 0 {
                        if row_no > ROWS_MAX * 2 + 1 {
                            return Err(Unreadable::TooManyRows(row_no - 1));
                        }
                        if rows.len() < row_no {
                            rows.resize(row_no, vec![]);
                        }
                        let cells = &mut rows[row_no - 1];
                        if cells.len() <= col {
                            cells.resize(col + 1, String::new());
                        }
                        cells[col] = text;
                    }
                    value.clear();
                }
                _ => {}
            },
            Event::Eof => break,
            ev if in_v || in_t => value.push_str(&text_of(ev).unwrap_or_default()),
            _ => {}
        }
    }
    Ok(rows)
}

/// The path of the workbook's first sheet: its relationship's target, else `sheet1.xml`.
fn first_sheet(zip: &[u8], list: &[(String, usize, usize, usize)]) -> Result<String, Unreadable> {
    let fallback = "xl/worksheets/sheet1.xml".to_string();
    let (Some(book), Some(rels)) = (
        part(zip, list, "xl/workbook.xml")?,
        part(zip, list, "xl/_rels/workbook.xml.rels")?,
    ) else {
        return Ok(fallback);
    };
    let mut id = None;
    let mut r = Reader::from_str(&book);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"sheet" => {
                id = attr(&e, b"r:id");
                break;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let Some(id) = id else { return Ok(fallback) };
    let mut r = Reader::from_str(&rels);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e)
                if e.local_name().as_ref() == b"Relationship"
                    && attr(&e, b"Id").as_deref() == Some(id.as_str()) =>
            {
                let target = attr(&e, b"Target").unwrap_or_default();
                return Ok(match target.strip_prefix('/') {
                    Some(abs) => abs.to_string(),
                    None => format!("xl/{target}"),
                });
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(fallback)
}

/// An XLSX's first worksheet.
pub fn xlsx(zip: &[u8]) -> Result<Vec<Vec<String>>, Unreadable> {
    let list = entries(zip)?;
    let shared = match part(zip, &list, "xl/sharedStrings.xml")? {
        Some(xml) => shared_strings(&xml)?,
        None => vec![],
    };
    let path = first_sheet(zip, &list)?;
    let Some(sheet) = part(zip, &list, &path)? else {
        return broken(format!("no worksheet ({path})"));
    };
    worksheet(&sheet, &shared)
}

/// One bad cell of an imported sheet, in the caller's language (a refused import's `data.rows`).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct RowErrorView {
    /// The sheet's row number (the header is row 1).
    pub row: i64,
    /// The column's key.
    pub column: String,
    /// The column's header in the caller's language.
    pub column_name: String,
    pub message: String,
}

/// An uploaded sheet: its cells (`file`, at most `FILE_MAX`) and the form's other text fields.
pub struct Upload {
    pub cells: Vec<Vec<String>>,
    pub file_name: String,
    pub fields: std::collections::HashMap<String, String>,
}

fn too_large() -> crate::error::ApiError {
    crate::error::ApiError::invalid_with(
        "file",
        domain::i18n::Msg::ImportTooLarge,
        vec![("max", format!("{} MB", FILE_MAX / 1024 / 1024))],
    )
}

/// Reads a multipart upload of a sheet (`file`) and its text fields; the sheet's size, its rows
/// and whether it reads at all are refused with 422 naming `file`.
pub async fn receive(mut mp: axum::extract::Multipart) -> Result<Upload, crate::error::ApiError> {
    use crate::error::ApiError;
    use domain::i18n::Msg;
    let unreadable =
        |why: String| ApiError::invalid_with("file", Msg::ImportUnreadable, vec![("reason", why)]);
    let mut file: Option<(String, Vec<u8>)> = None;
    let mut fields = std::collections::HashMap::new();
    while let Some(mut f) = mp
        .next_field()
        .await
        .map_err(|e| unreadable(e.body_text()))?
    {
        let name = f.name().unwrap_or_default().to_string();
        if name == "file" {
            let file_name = f.file_name().unwrap_or_default().to_string();
            let mut bytes = vec![];
            while let Some(chunk) = f.chunk().await.map_err(|e| unreadable(e.body_text()))? {
                if bytes.len() + chunk.len() > FILE_MAX {
                    return Err(too_large());
                }
                bytes.extend_from_slice(&chunk);
            }
            file = Some((file_name, bytes));
        } else {
            let text = f.text().await.map_err(|e| unreadable(e.body_text()))?;
            fields.insert(name, text.chars().take(1000).collect());
        }
    }
    let Some((file_name, bytes)) = file else {
        return Err(ApiError::invalid("file", Msg::Required));
    };
    let cells = read(&bytes).map_err(|e| match e {
        Unreadable::TooLarge => too_large(),
        Unreadable::TooManyRows(n) => ApiError::invalid_with(
            "file",
            Msg::ImportTooManyRows,
            vec![("max", ROWS_MAX.to_string()), ("count", n.to_string())],
        ),
        Unreadable::Broken(why) => unreadable(why),
    })?;
    Ok(Upload {
        cells,
        file_name,
        fields,
    })
}

/// A sheet's columns that must be there (at least one of each group), or 422 naming the first
/// missing one in the reader's words.
pub fn require(
    sheet: &domain::sheet::Sheet,
    groups: &[&[domain::sheet::Column]],
) -> Result<(), crate::error::ApiError> {
    for g in groups {
        if !g.iter().any(|c| sheet.has(c.key)) {
            let c = g[0];
            return Err(crate::error::ApiError::invalid_with(
                "file",
                domain::i18n::Msg::ImportNoColumn,
                vec![("column.zh", c.zh.into()), ("column.en", c.en.into())],
            ));
        }
    }
    Ok(())
}

/// An import's template: its header in `lang`, no rows.
pub fn template(
    columns: &[domain::sheet::Column],
    lang: domain::i18n::Lang,
) -> crate::export::Table {
    let cols: Vec<(&str, &str)> = columns.iter().map(|c| (c.zh, c.en)).collect();
    crate::export::Table {
        header: crate::export::header(lang, &cols),
        rows: vec![],
    }
}

/// An import's template query: `format=xlsx|csv` (default xlsx).
#[derive(Debug, Default, serde::Deserialize)]
pub struct TemplateQuery {
    #[serde(default)]
    pub format: Option<String>,
}

/// An import's template as an attachment `<name>-<China time>.<ext>`, its header in `lang`.
pub fn template_file(
    now: i64,
    name: &str,
    columns: &[domain::sheet::Column],
    lang: domain::i18n::Lang,
    q: &TemplateQuery,
) -> Result<axum::response::Response, crate::error::HttpError> {
    let f = crate::download::format_of(q.format.as_deref())?;
    Ok(crate::download::attachment(
        name,
        f,
        template(columns, lang).render(f),
        now,
    ))
}

/// An uploaded sheet of one import's `columns`, with the columns it must have (one of each group).
pub async fn sheet_of(
    mp: axum::extract::Multipart,
    columns: &[domain::sheet::Column],
    required: &[&[domain::sheet::Column]],
) -> Result<(domain::sheet::Sheet, Upload), crate::error::ApiError> {
    let mut up = receive(mp).await?;
    let sheet = domain::sheet::Sheet::of(std::mem::take(&mut up.cells), columns);
    require(&sheet, required)?;
    Ok((sheet, up))
}

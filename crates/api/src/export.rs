//! Exports of lists: CSV (UTF-8 with a byte-order mark, so Excel reads Chinese) and XLSX (Office
//! Open XML: a zip of a few XML parts, written here with stored entries — no compression library
//! needed for tables of text). Cells a spreadsheet would run as a formula are neutralised.

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Int(i64),
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

/// A spreadsheet's header row in `lang`, from each column's (Chinese, English) name.
pub fn header(lang: domain::i18n::Lang, cols: &[(&str, &str)]) -> Vec<String> {
    cols.iter()
        .map(|(zh, en)| match lang {
            domain::i18n::Lang::Zh => zh.to_string(),
            domain::i18n::Lang::En => en.to_string(),
        })
        .collect()
}

/// A time (unix ms) in China time; empty for none (0 or less).
pub fn china(ms: i64) -> Cell {
    if ms > 0 {
        Cell::Text(domain::matrix::china_time(ms))
    } else {
        Cell::Text(String::new())
    }
}

#[derive(Debug, Clone, Default)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
}

impl Format {
    pub fn parse(s: Option<&str>) -> Option<Format> {
        match s.unwrap_or("xlsx") {
            "csv" => Some(Format::Csv),
            "xlsx" | "excel" => Some(Format::Xlsx),
            _ => None,
        }
    }
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
        }
    }
    pub fn mime(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        }
    }
}

impl Table {
    pub fn render(&self, f: Format) -> Vec<u8> {
        match f {
            Format::Csv => self.csv(),
            Format::Xlsx => self.xlsx(),
        }
    }

    pub fn csv(&self) -> Vec<u8> {
        let mut out = String::from("\u{feff}");
        let line = |cells: Vec<String>| {
            cells
                .iter()
                .map(|c| {
                    if c.contains([',', '"', '\n', '\r']) {
                        format!("\"{}\"", c.replace('"', "\"\""))
                    } else {
                        c.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        out.push_str(&line(self.header.iter().map(|h| safe(h)).collect()));
        out.push_str("\r\n");
        for r in &self.rows {
            out.push_str(&line(
                r.iter()
                    .map(|c| match c {
                        Cell::Text(s) => safe(s),
                        Cell::Int(n) => n.to_string(),
                    })
                    .collect(),
            ));
            out.push_str("\r\n");
        }
        out.into_bytes()
    }

    pub fn xlsx(&self) -> Vec<u8> {
        let mut sheet = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
             <worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>",
        );
        let header: Vec<Cell> = self.header.iter().map(|h| Cell::Text(h.clone())).collect();
        for (i, r) in std::iter::once(&header).chain(self.rows.iter()).enumerate() {
            sheet.push_str(&format!("<row r=\"{}\">", i + 1));
            for (j, c) in r.iter().enumerate() {
                let at = format!("{}{}", column(j), i + 1);
                match c {
                    Cell::Int(n) => sheet.push_str(&format!("<c r=\"{at}\"><v>{n}</v></c>")),
                    Cell::Text(s) => sheet.push_str(&format!(
                        "<c r=\"{at}\" t=\"inlineStr\"><is><t xml:space=\"preserve\">{}</t></is></c>",
                        xml(s)
                    )),
                }
            }
            sheet.push_str("</row>");
        }
        sheet.push_str("</sheetData></worksheet>");
        let parts: [(&str, String); 5] = [
            (
                "[Content_Types].xml",
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
                 <Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">\
                 <Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>\
                 <Default Extension=\"xml\" ContentType=\"application/xml\"/>\
                 <Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>\
                 <Override PartName=\"/xl/worksheets/sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>\
                 </Types>"
                    .into(),
            ),
            (
                "_rels/.rels",
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
                 <Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
                 <Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/>\
                 </Relationships>"
                    .into(),
            ),
            (
                "xl/workbook.xml",
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
                 <workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" \
                 xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">\
                 <sheets><sheet name=\"Sheet1\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
                    .into(),
            ),
            (
                "xl/_rels/workbook.xml.rels",
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
                 <Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
                 <Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet1.xml\"/>\
                 </Relationships>"
                    .into(),
            ),
            ("xl/worksheets/sheet1.xml", sheet),
        ];
        zip_stored(&parts)
    }
}

/// A text cell that starts like a formula (`=`, `+`, `-`, `@`, tab, CR) gets a leading apostrophe,
/// so a customer-typed value cannot run in the merchant's spreadsheet.
fn safe(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

fn xml(s: &str) -> String {
    safe(s)
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Spreadsheet column name of a 0-based index: A..Z, AA..
fn column(mut i: usize) -> String {
    let mut s = vec![];
    loop {
        s.push(b'A' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    let mut crc = 0xFFFF_FFFFu32;
    for b in data {
        crc = table[((crc ^ *b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    crc ^ 0xFFFF_FFFF
}

/// A zip archive of stored (uncompressed) entries, names in UTF-8.
fn zip_stored(files: &[(&str, String)]) -> Vec<u8> {
    let mut out: Vec<u8> = vec![];
    let mut central: Vec<u8> = vec![];
    let le16 = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_le_bytes());
    // 1980-01-01 00:00, the zip epoch: the parts carry no meaningful time.
    let (time, date) = (0u16, (1 << 5) | 1);
    for (name, body) in files {
        let data = body.as_bytes();
        let crc = crc32(data);
        let offset = out.len() as u32;
        le32(&mut out, 0x0403_4b50);
        le16(&mut out, 20);
        le16(&mut out, 0x0800);
        le16(&mut out, 0);
        le16(&mut out, time);
        le16(&mut out, date);
        le32(&mut out, crc);
        le32(&mut out, data.len() as u32);
        le32(&mut out, data.len() as u32);
        le16(&mut out, name.len() as u16);
        le16(&mut out, 0);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);

        le32(&mut central, 0x0201_4b50);
        le16(&mut central, 20);
        le16(&mut central, 20);
        le16(&mut central, 0x0800);
        le16(&mut central, 0);
        le16(&mut central, time);
        le16(&mut central, date);
        le32(&mut central, crc);
        le32(&mut central, data.len() as u32);
        le32(&mut central, data.len() as u32);
        le16(&mut central, name.len() as u16);
        le16(&mut central, 0);
        le16(&mut central, 0);
        le16(&mut central, 0);
        le16(&mut central, 0);
        le32(&mut central, 0);
        le32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    let cd_len = central.len() as u32;
    out.extend_from_slice(&central);
    le32(&mut out, 0x0605_4b50);
    le16(&mut out, 0);
    le16(&mut out, 0);
    le16(&mut out, files.len() as u16);
    le16(&mut out, files.len() as u16);
    le32(&mut out, cd_len);
    le32(&mut out, cd_offset);
    le16(&mut out, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            header: vec!["券码".into(), "n".into()],
            rows: vec![
                vec!["A,\"b\"".into(), Cell::Int(3)],
                vec!["=HYPERLINK(\"x\")".into(), Cell::Int(-4)],
                vec!["<&>".into(), Cell::Int(0)],
            ],
        }
    }

    #[test]
    fn csv_quotes_and_neutralises_formulas() {
        let s = String::from_utf8(table().csv()).unwrap();
        assert!(s.starts_with("\u{feff}券码,n\r\n"));
        assert!(s.contains("\"A,\"\"b\"\"\",3\r\n"));
        assert!(s.contains("\"'=HYPERLINK(\"\"x\"\")\",-4"));
    }

    #[test]
    fn columns_are_named_like_a_spreadsheet() {
        assert_eq!(column(0), "A");
        assert_eq!(column(25), "Z");
        assert_eq!(column(26), "AA");
        assert_eq!(column(27), "AB");
        assert_eq!(column(701), "ZZ");
        assert_eq!(column(702), "AAA");
    }

    #[test]
    fn crc_is_the_zip_one() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    /// Read back with Python's own zip reader and XML parser (an independent implementation: it
    /// checks the CRCs and the central directory).
    #[test]
    fn xlsx_opens_in_another_reader() {
        let dir = std::env::temp_dir().join(format!("cm-xlsx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.xlsx");
        std::fs::write(&path, table().xlsx()).unwrap();
        let script = r#"
import sys, zipfile, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
for part in ['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels']:
    ET.fromstring(z.read(part))
root = ET.fromstring(z.read('xl/worksheets/sheet1.xml'))
for row in root.iter('{%s}row' % ns['m']):
    cells = []
    for c in row:
        t = c.find('m:is/m:t', ns)
        cells.append(t.text if t is not None else c.find('m:v', ns).text)
    print('|'.join(cells))
"#;
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&path)
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text, "券码|n\nA,\"b\"|3\n'=HYPERLINK(\"x\")|-4\n<&>|0\n");
        let _ = std::fs::remove_dir_all(dir);
    }
}

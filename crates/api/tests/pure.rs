//! The HTTP layer's pure helpers: client addresses behind proxies, the request-body reader's 422s and
//! cap, Range headers, the metrics' route and reason labels, and the API contract's rules. They live
//! here rather than in `#[cfg(test)]` modules so the api crate is compiled once, not a second time as
//! its own test harness (minutes on 2 cores).

use api::client::{Proxies, client_ip};
use api::error::{ApiError, ApiResult};
use api::extract::{BODY_MAX, Input, coerce};
use api::files::{Asked, parse_range};
use api::ops::{quantile, reason_of, route_of};
use axum::extract::{FromRequest, Request};
use axum::http::HeaderMap;
use std::collections::HashSet;

// --- client addresses (api::client) ---

fn headers(xff: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert("x-forwarded-for", xff.parse().unwrap());
    h
}

#[test]
fn forwarded_for_counts_only_from_trusted_proxies() {
    let none = Proxies::default();
    let lb = Proxies::parse("10.0.0.0/8, ::1").unwrap();
    let peer = |s: &str| Some(s.parse().unwrap());
    // An untrusted peer cannot claim another address.
    assert_eq!(
        client_ip(&headers("1.2.3.4"), peer("203.0.113.9"), &none),
        "203.0.113.9"
    );
    assert_eq!(
        client_ip(&headers("1.2.3.4"), peer("203.0.113.9"), &lb),
        "203.0.113.9"
    );
    // Behind our proxy: the hop before it. What the client wrote at the left is not believed.
    assert_eq!(
        client_ip(&headers("6.6.6.6, 198.51.100.7"), peer("10.1.2.3"), &lb),
        "198.51.100.7"
    );
    // Two of our proxies in a row are skipped.
    assert_eq!(
        client_ip(&headers("198.51.100.7, 10.9.9.9"), peer("10.1.2.3"), &lb),
        "198.51.100.7"
    );
    assert_eq!(
        client_ip(&headers("garbage"), peer("10.1.2.3"), &lb),
        "10.1.2.3"
    );
    assert_eq!(client_ip(&HeaderMap::new(), peer("::1"), &lb), "::1");
    // IPv4-mapped peers are their IPv4 selves.
    assert_eq!(
        client_ip(&headers("198.51.100.7"), peer("::ffff:10.0.0.1"), &lb),
        "198.51.100.7"
    );
    assert_eq!(client_ip(&HeaderMap::new(), None, &lb), "");
}

#[test]
fn proxy_lists_are_checked() {
    // An empty list trusts no one.
    assert!(
        !Proxies::parse("")
            .unwrap()
            .contains("127.0.0.1".parse().unwrap())
    );
    let p = Proxies::parse("127.0.0.1,192.168.0.0/16,fd00::/8").unwrap();
    assert!(p.contains("127.0.0.1".parse().unwrap()));
    assert!(!p.contains("127.0.0.2".parse().unwrap()));
    assert!(p.contains("192.168.44.1".parse().unwrap()));
    assert!(p.contains("fd12::1".parse().unwrap()));
    assert!(
        Proxies::parse("0.0.0.0/0")
            .unwrap()
            .contains("8.8.8.8".parse().unwrap())
    );
    assert!(Proxies::parse("10.0.0.0/33").is_err());
    assert!(Proxies::parse("example.com").is_err());
}

// --- request bodies (api::extract) ---

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Named {
    id: i64,
    #[serde(default)]
    groups: Vec<Inner>,
}
#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Inner {
    name: String,
}

async fn input(ctype: &str, body: impl Into<axum::body::Body>) -> ApiResult<Input<Named>> {
    let req = Request::builder()
        .method("POST")
        .uri("/x")
        .header("content-type", ctype)
        .body(body.into())
        .unwrap();
    Input::<Named>::from_request(req, &())
        .await
        .map_err(|e| e.0)
}

fn field_of(e: ApiError) -> String {
    match e {
        ApiError::Invalid { field, .. } => field,
        other => panic!("expected 422, got {other:?}"),
    }
}

#[tokio::test]
async fn type_errors_name_the_field() {
    let e = input("application/json", r#"{"id":"abc"}"#)
        .await
        .err()
        .unwrap();
    assert_eq!(field_of(e), "id");
    let e = input("application/json", r#"{"id":1,"groups":[{"name":5}]}"#)
        .await
        .err()
        .unwrap();
    assert_eq!(field_of(e), "groups[0].name");
    let e = input("application/json", r#"{"groups":[]}"#)
        .await
        .err()
        .unwrap();
    assert_eq!(field_of(e), "id");
    let e = input("application/json", r#"{"id":1,"groups":[{}]}"#)
        .await
        .err()
        .unwrap();
    assert_eq!(field_of(e), "groups[0].name");
    // Forms carry text: numbers are still read.
    assert!(
        input("application/x-www-form-urlencoded", "id=7")
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn parameter_bodies_are_capped_even_without_a_length() {
    let big = format!(r#"{{"id":1,"pad":"{}"}}"#, "x".repeat(BODY_MAX));
    // A streamed body (no content-length) is cut off once it passes the cap.
    let chunks = futures_util::stream::iter(
        big.into_bytes()
            .chunks(64 * 1024)
            .map(|c| Ok::<_, std::io::Error>(axum::body::Bytes::copy_from_slice(c)))
            .collect::<Vec<_>>(),
    );
    let e = input("application/json", axum::body::Body::from_stream(chunks))
        .await
        .err()
        .unwrap();
    assert!(matches!(e, ApiError::TooLarge(..)), "{e:?}");
    assert!(input("application/json", r#"{"id":1}"#).await.is_ok());
}

#[test]
fn coerce_reads_numbers_and_bools_only() {
    let v = coerce(serde_json::json!({"a":"12","b":"true","c":"x1","d":5}));
    assert_eq!(v, serde_json::json!({"a":12,"b":true,"c":"x1","d":5}));
}

// --- Range headers (api::files) ---

#[test]
fn ranges() {
    assert_eq!(parse_range("bytes=0-7"), Some(Asked::From(0, Some(7))));
    assert_eq!(parse_range("bytes=100-"), Some(Asked::From(100, None)));
    assert_eq!(parse_range("bytes=-500"), Some(Asked::Last(500)));
    for whole in ["bytes=7-3", "bytes=0-1,5-9", "items=0-1", "bytes=x-"] {
        assert_eq!(parse_range(whole), None, "{whole}");
    }
}

// --- metrics labels (api::ops) ---

#[test]
fn routes_fold_ids_and_reasons_stay_short() {
    let m = Some("/api/materials/{id}");
    assert_eq!(route_of(m, "/api/materials/17"), "/api/materials/{id}");
    assert_eq!(route_of(Some("/t/{code}"), "/t/AbC123"), "/t/{code}");
    assert_eq!(
        route_of(
            Some("/sandbox/{*__private__axum_nest_tail_param}"),
            "/sandbox/dy/x"
        ),
        "/sandbox/*"
    );
    assert_eq!(route_of(None, "/assets/index-abc.js"), "/(console)");
    assert_eq!(route_of(None, "/api/made-up/path"), "(unmatched)");
    assert_eq!(route_of(None, "/t/AbC123/extra"), "(unmatched)");
    assert_eq!(
        reason_of("ffmpeg failed: exit 1\nlots of output"),
        "ffmpeg failed"
    );
    assert_eq!(reason_of(""), "unknown");
    assert_eq!(quantile(&[1, 2, 3, 4, 5], 0.5), 3);
    assert_eq!(quantile(&[1, 2, 3, 4, 5], 0.99), 5);
}

#[test]
fn metrics_need_the_token_or_this_machine() {
    use api::ops::may_read_metrics;
    let ip = |s: &str| Some(s.parse::<std::net::IpAddr>().unwrap());
    let none = axum::http::HeaderMap::new();
    assert!(!may_read_metrics(None, &none, ip("192.0.2.4")));
    assert!(may_read_metrics(None, &none, ip("::1")));
    assert!(may_read_metrics(None, &none, ip("::ffff:127.0.0.1")));
    let mut relayed = axum::http::HeaderMap::new();
    relayed.insert("x-forwarded-for", "203.0.113.7".parse().unwrap());
    assert!(!may_read_metrics(None, &relayed, ip("127.0.0.1")));
    let mut bearer = axum::http::HeaderMap::new();
    bearer.insert("authorization", "Bearer s3cret".parse().unwrap());
    assert!(may_read_metrics(Some("s3cret"), &bearer, ip("192.0.2.4")));
    assert!(!may_read_metrics(Some("s3cret"), &none, ip("127.0.0.1")));
}

// --- the API contract (api::contract) ---

#[test]
fn every_operation_has_a_unique_id_no_get_body_and_its_errors() {
    let mut doc = api::openapi();
    let mut seen = HashSet::new();
    let mut count = 0;
    for (path, item) in doc.paths.paths.iter_mut() {
        for (method, op) in api::contract::operations(item) {
            let Some(op) = op else { continue };
            count += 1;
            let id = op.operation_id.clone().expect("an operation id");
            assert!(
                seen.insert(id.clone()),
                "{method} {path}: id {id} is used twice"
            );
            if method == "get" {
                assert!(op.request_body.is_none(), "GET {path} has a request body");
            }
            for code in ["401", "403", "404", "422", "500"] {
                assert!(
                    op.responses.responses.contains_key(code),
                    "{method} {path} does not list {code}"
                );
            }
        }
    }
    assert!(count > 200, "only {count} operations documented");
    let json = doc.to_json().expect("the document serializes");
    assert!(json.contains("\"ErrorBody\""));
}

// --- the streamed zip (api::zipstream) ---

/// The zip entries of in-memory files, named `视频-<i>.mp4`.
fn entries_of(files: &[Vec<u8>]) -> Vec<api::zipstream::Entry> {
    files
        .iter()
        .enumerate()
        .map(|(i, f)| api::zipstream::Entry {
            name: format!("视频-{i}.mp4"),
            size: f.len() as u64,
        })
        .collect()
}

/// Runs the zip writer over in-memory files: the bytes of `window`, and the CRCs it learned.
async fn zip_of(
    files: &[Vec<u8>],
    window: Option<api::zipstream::Window>,
    known: &[Option<u32>],
) -> (Vec<u8>, Vec<(usize, u32)>) {
    use api::zipstream::{Window, dos_time, write, zip_len};
    let entries = entries_of(files);
    let window = window.unwrap_or(Window::all(zip_len(&entries)));
    let (tx, mut rx) = tokio::sync::mpsc::channel(2);
    let copy = files.to_vec();
    let known = known.to_vec();
    let at = dos_time(1_767_225_600_000); // 2026-01-01 00:00 UTC
    let task = tokio::spawn(async move {
        write(
            &entries,
            at,
            window,
            &known,
            |i, from| {
                let bytes = copy[i][from as usize..].to_vec();
                async move { Ok(std::io::Cursor::new(bytes)) }
            },
            &tx,
        )
        .await
    });
    let mut zip = Vec::new();
    while let Some(chunk) = rx.recv().await {
        zip.extend_from_slice(&chunk.unwrap());
    }
    (zip, task.await.unwrap())
}

fn three_files() -> Vec<Vec<u8>> {
    vec![
        b"hello".to_vec(),
        (0..200_000u32).map(|i| (i % 251) as u8).collect(),
        vec![],
    ]
}

#[tokio::test]
async fn a_streamed_zip_is_as_long_as_announced_and_lists_its_entries() {
    use api::zipstream::{dos_time, zip_len};
    assert_eq!(dos_time(1_767_225_600_000), (0, (46 << 9) | (1 << 5) | 1));
    let files = three_files();
    let (zip, learned) = zip_of(&files, None, &[]).await;
    let entries = entries_of(&files);
    assert_eq!(zip.len() as u64, zip_len(&entries));
    assert_eq!(&zip[..4], b"PK\x03\x04");
    // The end record counts three entries; the central directory names each, with its CRC.
    let end = &zip[zip.len() - 22..];
    assert_eq!(&end[..4], b"PK\x05\x06");
    assert_eq!(u16::from_le_bytes([end[10], end[11]]), 3);
    let crc = crc32fast::hash(b"hello").to_le_bytes();
    assert!(zip.windows(4).filter(|w| *w == &crc[..]).count() >= 2);
    assert!(String::from_utf8_lossy(&zip).contains("视频-1.mp4"));
    // Every CRC was learned, for a resumed download.
    let want: Vec<(usize, u32)> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (i, crc32fast::hash(f)))
        .collect();
    assert_eq!(learned, want);
}

/// A resumed download: any window is exactly those bytes of the whole zip, whether the CRCs of the
/// entries before it are known (skipped unread) or not (read and hashed, not sent).
#[tokio::test]
async fn any_part_of_a_zip_is_those_bytes_of_the_whole() {
    use api::zipstream::Window;
    let files = three_files();
    let (whole, learned) = zip_of(&files, None, &[]).await;
    let len = whole.len() as u64;
    let all_known: Vec<Option<u32>> = {
        let mut k = vec![None; files.len()];
        for (i, c) in &learned {
            k[*i] = Some(*c);
        }
        k
    };
    let some_known = vec![Some(learned[0].1), None, None];
    // Starts and ends inside headers, data, descriptors and the directory.
    let cuts = [
        0,
        1,
        30,
        45,
        60,
        100,
        50_000,
        200_060,
        200_100,
        len - 200,
        len - 22,
        len - 1,
    ];
    for known in [vec![], some_known, all_known] {
        for &start in &cuts {
            for end in [len, start + 1, (start + 70_000).min(len)] {
                if end <= start {
                    continue;
                }
                let (part, _) = zip_of(&files, Some(Window { start, end }), &known).await;
                assert!(
                    part == whole[start as usize..end as usize],
                    "window {start}..{end} (known {known:?}) differs"
                );
            }
        }
    }
}

#[tokio::test]
async fn a_short_file_fails_the_zip() {
    use api::zipstream::{Entry, Window, write};
    let entries = vec![Entry {
        name: "a.mp4".into(),
        size: 10,
    }];
    let (tx, mut rx) = tokio::sync::mpsc::channel(8);
    write(
        &entries,
        (0, 0),
        Window::all(1000),
        &[],
        |_, _| async { Ok(std::io::Cursor::new(vec![1u8; 4])) },
        &tx,
    )
    .await;
    drop(tx);
    let mut last = None;
    while let Some(c) = rx.recv().await {
        last = Some(c);
    }
    assert!(last.unwrap().is_err());
}

// --- exports (api::download) ---

/// An export of more rows than a sheet takes is refused on `filterObj` (narrow the filters), never
/// cut; one of exactly the most is whole. Pages of 1,000 as the list engine gives them.
#[tokio::test]
async fn an_export_past_the_most_rows_is_refused_not_cut() {
    use api::download::{EXPORT_MAX, every_row};
    async fn rows_of(total: usize) -> ApiResult<Vec<usize>> {
        let q = services::ListQuery::default();
        every_row(&q, |page| async move {
            let n = page.page.unwrap_or(1) as usize;
            let limit = page.limit.unwrap_or(10) as usize;
            let from = (n - 1) * limit;
            let rows: Vec<usize> = (from..(from + limit).min(total)).collect();
            Ok((rows, services::list::Total::exact(total as i64)))
        })
        .await
    }
    assert_eq!(rows_of(EXPORT_MAX).await.unwrap().len(), EXPORT_MAX);
    assert_eq!(rows_of(1234).await.unwrap(), (0..1234).collect::<Vec<_>>());
    let e = rows_of(EXPORT_MAX + 1).await.unwrap_err();
    assert_eq!(field_of(e), "filterObj");
}

// --- reading uploaded sheets (api::import) ---

#[test]
fn the_sheet_reader_reads_back_our_own_xlsx_writer() {
    use api::export::{Cell, Table};
    let t = Table {
        header: vec!["视频编号".into(), "标题".into(), "发布时间".into()],
        rows: vec![
            vec![
                Cell::Int(12),
                "夏季 & <新款>".into(),
                "2030-01-02 09:00".into(),
            ],
            vec![Cell::Int(-3), "line\nbreak".into(), "".into()],
            vec!["@小明".into(), "=1+1".into()],
        ],
    };
    let rows = api::import::read(&t.xlsx()).unwrap();
    assert_eq!(
        rows,
        vec![
            vec!["视频编号", "标题", "发布时间"],
            vec!["12", "夏季 & <新款>", "2030-01-02 09:00"],
            vec!["-3", "line\nbreak"],
            // neutralised by the writer, read back as written
            vec!["@小明", "=1+1"],
        ]
    );
    // Our CSV writer, too (with its byte-order mark).
    let rows = api::import::read(&t.csv()).unwrap();
    assert_eq!(rows[1], ["12", "夏季 & <新款>", "2030-01-02 09:00"]);
    assert_eq!(rows[2], ["-3", "line\nbreak", ""]);
}

#[test]
fn the_sheet_reader_reads_csv_quotes_and_refuses_what_it_cannot_read() {
    use api::import::{Unreadable, read};
    let rows = read("a,b\r\n\"x, \"\"y\"\"\",2\nlast,\"multi\nline\"".as_bytes()).unwrap();
    assert_eq!(rows[1], ["x, \"y\"", "2"]);
    assert_eq!(rows[2], ["last", "multi\nline"]);
    assert!(matches!(read(b"a,\"open\n"), Err(Unreadable::Broken(_))));
    assert!(matches!(read(b"\xff\xfe bad"), Err(Unreadable::Broken(_))));
    assert!(matches!(
        read(b"PK\x03\x04 not really"),
        Err(Unreadable::Broken(_))
    ));
    let big = vec![b'a'; domain::sheet::FILE_MAX + 1];
    assert_eq!(read(&big), Err(Unreadable::TooLarge));
    let many = format!("h\n{}", "x\n".repeat(domain::sheet::ROWS_MAX + 1));
    assert!(matches!(
        read(many.as_bytes()),
        Err(Unreadable::TooManyRows(_))
    ));
}

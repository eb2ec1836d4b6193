//! Property test: the list-query engine selects exactly the rows an in-memory reference filter selects,
//! in the requested order, on SQLite and PostgreSQL, for random rows and random filters.

use crate::common;
use common::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use store::list::{self, Entity, FieldType, ListQuery, field};

static ITEMS: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("n", "n", FieldType::Int),
        field("at", "created_at", FieldType::Date),
        field("on", "status", FieldType::Switch),
        field("kind", "kind", FieldType::Select),
        field("tags", "tags", FieldType::Tags),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

#[derive(Debug, Clone, sqlx::FromRow)]
struct Item {
    id: i64,
    name: String,
    n: i64,
    created_at: i64,
    status: i64,
    kind: String,
    tags: String,
}

const DAY: i64 = 86_400_000;
/// 2026-11-20 00:00 at UTC+8.
const BASE: i64 = 20_777 * DAY - list::TZ_OFFSET_MS;
const DATES: [&str; 4] = ["2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"];

fn row() -> impl Strategy<Value = (String, i64, i64, i64, String, String)> {
    (
        "[aAb%_c]{0,4}",
        -5i64..5,
        -DAY..3 * DAY,
        0i64..2,
        prop::sample::select(vec!["x", "y", "z"]).prop_map(str::to_string),
        prop::sample::subsequence(vec!["red", "blue", "green"], 0..=3).prop_map(|v| v.join(",")),
    )
}

#[derive(Debug, Clone)]
struct Filter {
    key: &'static str,
    value: String,
    op: &'static str,
}

fn filter() -> impl Strategy<Value = Filter> {
    let text = (
        "[aAb%_c]{1,2}",
        prop::sample::select(vec!["=", "!=", "include", "notinclude"]),
    )
        .prop_map(|(v, op)| Filter {
            key: "name",
            value: v,
            op,
        });
    let int = (
        -5i64..5,
        prop::sample::select(vec!["=", "!=", ">", ">=", "<", "<="]),
    )
        .prop_map(|(v, op)| Filter {
            key: "n",
            value: v.to_string(),
            op,
        });
    let ints = prop::collection::vec(-5i64..5, 1..3).prop_flat_map(|v| {
        prop::sample::select(vec!["include", "notinclude"]).prop_map(move |op| Filter {
            key: "n",
            value: v
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(","),
            op,
        })
    });
    let date = (
        prop::sample::select(DATES.to_vec()),
        prop::sample::select(vec!["=", "!=", ">", ">=", "<", "<="]),
    )
        .prop_map(|(d, op)| Filter {
            key: "at",
            value: d.to_string(),
            op,
        });
    let time = (0i64..24, prop::sample::select(vec![">=", "<"])).prop_map(|(h, op)| Filter {
        key: "at",
        value: format!("2026-11-20 {h:02}:30:00"),
        op,
    });
    let range = (
        0usize..3,
        1usize..3,
        prop::sample::select(vec!["include", "notinclude"]),
    )
        .prop_map(|(a, len, op)| {
            let b = (a + len).min(3);
            Filter {
                key: "at",
                value: format!("{},{}", DATES[a], DATES[b]),
                op,
            }
        });
    let switch = (0i64..2, prop::sample::select(vec!["=", "!="])).prop_map(|(v, op)| Filter {
        key: "on",
        value: v.to_string(),
        op,
    });
    let select = (
        prop::sample::subsequence(vec!["x", "y", "z"], 1..=2),
        prop::sample::select(vec!["=", "!=", "include", "notinclude"]),
    )
        .prop_map(|(v, op)| Filter {
            key: "kind",
            value: if op.len() <= 2 {
                v[0].to_string()
            } else {
                v.join(",")
            },
            op,
        });
    let tags = (
        prop::sample::subsequence(vec!["red", "blue", "green"], 1..=2),
        prop::sample::select(vec!["include", "notinclude"]),
    )
        .prop_map(|(v, op)| Filter {
            key: "tags",
            value: v.join(","),
            op,
        });
    prop_oneof![text, int, ints, date, time, range, switch, select, tags]
}

/// The meaning of one filter, written plainly.
fn keep(it: &Item, f: &Filter) -> bool {
    let cmp = |a: i64, b: i64| match f.op {
        "=" => a == b,
        "!=" => a != b,
        ">" => a > b,
        ">=" => a >= b,
        "<" => a < b,
        _ => a <= b,
    };
    let day = |d: &str| -> (i64, i64) { list::parse_date("x", d).unwrap() };
    match f.key {
        "name" => {
            let has = it.name.to_lowercase().contains(&f.value.to_lowercase());
            match f.op {
                "=" => it.name == f.value,
                "!=" => it.name != f.value,
                "include" => has,
                _ => !has,
            }
        }
        "n" => match f.op {
            "include" | "notinclude" => {
                let set: Vec<i64> = f.value.split(',').map(|s| s.parse().unwrap()).collect();
                set.contains(&it.n) == (f.op == "include")
            }
            _ => cmp(it.n, f.value.parse().unwrap()),
        },
        "at" => {
            let t = it.created_at;
            match f.op {
                "include" | "notinclude" => {
                    let (a, b) = f.value.split_once(',').unwrap();
                    let inside = t >= day(a).0 && t < day(b).1;
                    inside == (f.op == "include")
                }
                _ => {
                    let (s, e) = day(&f.value);
                    match f.op {
                        "=" => t >= s && t < e,
                        "!=" => t < s || t >= e,
                        ">" => t >= e,
                        ">=" => t >= s,
                        "<" => t < s,
                        _ => t < e,
                    }
                }
            }
        }
        "on" => (it.status.to_string() == f.value) == (f.op == "="),
        "kind" => match f.op {
            "=" => it.kind == f.value,
            "!=" => it.kind != f.value,
            _ => f.value.split(',').any(|v| v == it.kind) == (f.op == "include"),
        },
        _ => {
            let any = f
                .value
                .split(',')
                .any(|t| it.tags.to_lowercase().contains(t));
            any == (f.op == "include")
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn engine_matches_the_reference_filter() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let create = match db.backend {
            store::Backend::Sqlite => {
                "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER NOT NULL, created_at INTEGER NOT NULL, status INTEGER NOT NULL, kind TEXT NOT NULL, tags TEXT NOT NULL)"
            }
            store::Backend::Postgres => {
                "CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT NOT NULL, n BIGINT NOT NULL, created_at BIGINT NOT NULL, status BIGINT NOT NULL, kind TEXT NOT NULL, tags TEXT NOT NULL)"
            }
        };
        sqlx::query(create).execute(&db.pool).await.unwrap();
        let handle = tokio::runtime::Handle::current();
        let db2 = db.clone();
        tokio::task::spawn_blocking(move || {
            let mut runner = TestRunner::new(Config {
                cases: 256,
                ..Config::default()
            });
            let strategy = (
                prop::collection::vec(row(), 0..25),
                prop::collection::vec(filter(), 0..3),
                prop::sample::select(vec!["", "n", "at", "name"]),
                any::<bool>(),
            );
            runner
                .run(&strategy, |(rows, filters, prop_key, asc)| {
                    let items: Vec<Item> = rows
                        .into_iter()
                        .enumerate()
                        .map(|(i, (name, n, at, status, kind, tags))| Item {
                            id: i as i64 + 1,
                            name,
                            n,
                            created_at: BASE + at,
                            status,
                            kind,
                            tags,
                        })
                        .collect();
                    let mut q = ListQuery {
                        limit: Some(1000),
                        prop: Some(prop_key.to_string()),
                        order: Some(if asc { "ascending" } else { "descending" }.to_string()),
                        ..Default::default()
                    };
                    // One filter per field (filterObj is a map).
                    let mut used = vec![];
                    for f in &filters {
                        if !used.contains(&f.key) {
                            used.push(f.key);
                            q.filter_obj
                                .0
                                .insert(f.key.to_string(), format!("{}|{}", f.value, f.op));
                        }
                    }
                    let filters: Vec<&Filter> = used
                        .iter()
                        .map(|k| filters.iter().find(|f| f.key == *k).unwrap())
                        .collect();
                    let got: Vec<i64> = handle.block_on(async {
                        sqlx::query("DELETE FROM items")
                            .execute(&db2.pool)
                            .await
                            .unwrap();
                        for it in &items {
                            sqlx::query("INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6, $7)")
                                .bind(it.id)
                                .bind(&it.name)
                                .bind(it.n)
                                .bind(it.created_at)
                                .bind(it.status)
                                .bind(&it.kind)
                                .bind(&it.tags)
                                .execute(&db2.pool)
                                .await
                                .unwrap();
                        }
                        let (rows, total): (Vec<Item>, list::Total) = list::page(
                            &db2,
                            "SELECT * FROM items",
                            "FROM items",
                            "1 = 1",
                            &[],
                            &ITEMS,
                            &q,
                        )
                        .await
                        .unwrap();
                        assert_eq!(total, list::Total::exact(rows.len() as i64));
                        rows.into_iter().map(|r| r.id).collect()
                    });
                    let mut want: Vec<&Item> = items
                        .iter()
                        .filter(|it| filters.iter().all(|f| keep(it, f)))
                        .collect();
                    let key = |it: &Item| -> (i64, String) {
                        match prop_key {
                            "n" => (it.n, String::new()),
                            "at" => (it.created_at, String::new()),
                            "name" => (0, it.name.clone()),
                            _ => (0, String::new()),
                        }
                    };
                    want.sort_by(|a, b| {
                        let o = if prop_key.is_empty() {
                            b.id.cmp(&a.id)
                        } else {
                            key(a).cmp(&key(b)).then(a.id.cmp(&b.id))
                        };
                        if !prop_key.is_empty() && !asc {
                            o.reverse()
                        } else {
                            o
                        }
                    });
                    let want: Vec<i64> = want.iter().map(|i| i.id).collect();
                    if prop_key == "name" {
                        // Text collation differs by backend; compare the selected set only.
                        let (mut g, mut w) = (got.clone(), want.clone());
                        g.sort();
                        w.sort();
                        prop_assert_eq!(g, w, "filters {:?}", filters);
                    } else {
                        prop_assert_eq!(got, want, "filters {:?}", filters);
                    }
                    Ok(())
                })
                .unwrap();
        })
        .await
        .unwrap();
    }
}

/// Counting stops `COUNT_CAP` rows past the page's start: the total is then a lower bound marked
/// `capped`, and it moves with the page so the pager still reaches every row. A short page is exact.
#[tokio::test(flavor = "multi_thread")]
async fn totals_are_capped_past_the_page_and_grow_with_it() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        sqlx::query("CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT NOT NULL, n BIGINT NOT NULL, created_at BIGINT NOT NULL, status BIGINT NOT NULL, kind TEXT NOT NULL, tags TEXT NOT NULL)")
            .execute(&db.pool)
            .await
            .unwrap();
        let rows = list::COUNT_CAP * 2 + 5;
        sqlx::query(
            "INSERT INTO items WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < $1) \
             SELECT i, 'x', i % 7, 0, 1, 'x', '' FROM r",
        )
        .bind(rows)
        .execute(&db.pool)
        .await
        .unwrap();
        let total = |page: i64, filter: Option<&str>| {
            let db = db.clone();
            let mut q = ListQuery {
                page: Some(page),
                ..Default::default()
            };
            if let Some(f) = filter {
                q.filter_obj.0.insert("n".into(), f.into());
            }
            async move {
                let (got, total): (Vec<Item>, list::Total) = list::page(
                    &db,
                    "SELECT * FROM items",
                    "FROM items",
                    "1 = 1",
                    &[],
                    &ITEMS,
                    &q,
                )
                .await
                .unwrap();
                (got.len(), total)
            }
        };
        let capped = |n| list::Total { n, capped: true };
        assert_eq!(total(1, None).await, (10, capped(list::COUNT_CAP)));
        // The last page the first total shows: the count now reaches further.
        let last = list::COUNT_CAP / 10;
        assert_eq!(
            total(last, None).await,
            (10, capped(list::COUNT_CAP - 10 + list::COUNT_CAP))
        );
        // Near the end the count is exact again; the short last page needs no count at all.
        let end = rows / 10 + 1;
        assert_eq!(total(end - 1, None).await, (10, list::Total::exact(rows)));
        assert_eq!(total(end, None).await, (5, list::Total::exact(rows)));
        assert_eq!(total(end + 3, None).await, (0, list::Total::exact(rows)));
        // Filters are counted too: n = 0 is every seventh row.
        assert_eq!(
            total(1, Some("0|=")).await,
            (10, list::Total::exact(rows / 7))
        );
    }
}

/// The lists that grow with a merchant's work read their page and count through an index: no sort of all
/// the merchant's rows (`USE TEMP B-TREE`) and no scan of the table, for the default sort and the filters
/// the console sends. (The operation log sorted every row of the merchant on every page.)
#[tokio::test]
async fn growing_lists_walk_an_index() {
    let (db, _dir) = fresh_db(Backend::Sqlite).await;
    let q = |json: serde_json::Value| -> ListQuery {
        let mut v = json;
        v["page"] = 2.into(); // an empty page 2 runs the count too
        serde_json::from_value(v).unwrap()
    };
    let none = serde_json::json!({});
    let mut statements = vec![];
    for (name, query) in [
        ("log", none.clone()),
        (
            "log",
            serde_json::json!({"filterObj": {"created_at": "2026-01-01|>="}}),
        ),
        ("all logs", none.clone()),
        ("media", none.clone()),
        (
            "media",
            serde_json::json!({"filterObj": {"group_id": "3|="}}),
        ),
        (
            "media",
            serde_json::json!({"filterObj": {"kind": "video|=", "state": "ready|="}}),
        ),
        ("variants", none.clone()),
        (
            "variants",
            serde_json::json!({"filterObj": {"state": "success|="}}),
        ),
        (
            "variants",
            serde_json::json!({"filterObj": {"project_id": "3|="}}),
        ),
        ("items", none.clone()),
        (
            "items",
            serde_json::json!({"filterObj": {"task_id": "3|="}}),
        ),
        (
            "items",
            serde_json::json!({"filterObj": {"state": "published|="}}),
        ),
        ("ledger", none.clone()),
        ("accounts", none.clone()),
    ] {
        let lq = q(query.clone());
        let ((), sql) = list::recording(async {
            match name {
                "log" => drop(store::system::oplog::list(&db, Some(1), &lq).await.unwrap()),
                "all logs" => drop(store::system::oplog::list(&db, None, &lq).await.unwrap()),
                "media" => drop(
                    store::materials::list(&db, 1, "resource", &lq)
                        .await
                        .unwrap(),
                ),
                "variants" => drop(store::clip::variants(&db, 1, &lq).await.unwrap()),
                "items" => drop(store::matrix::items(&db, Some(1), &lq).await.unwrap()),
                "ledger" => drop(store::system::points::list(&db, 1, &lq).await.unwrap()),
                _ => drop(store::matrix::accounts(&db, 1, None, &lq).await.unwrap()),
            }
        })
        .await;
        assert_eq!(sql.len(), 2, "{name}: page and count");
        statements.extend(sql.into_iter().map(|s| (name, query.clone(), s)));
    }
    for (name, query, (sql, binds)) in statements {
        let mut e = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")));
        for b in &binds {
            e = match b {
                list::Bind::I(i) => e.bind(*i),
                list::Bind::S(s) => e.bind(s.clone()),
            };
        }
        use sqlx::Row;
        let plan: Vec<String> = e
            .fetch_all(&db.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<String, _>(3))
            .collect();
        // `SCAN counted` walks the capped subquery's output, not a table.
        let bad = plan.iter().any(|p| {
            p.contains("TEMP B-TREE")
                || (p.starts_with("SCAN ") && p != "SCAN counted" && !p.contains("INDEX"))
        });
        assert!(
            !bad && plan.iter().any(|p| p.contains("INDEX")),
            "{name} {query}: {sql}\n{plan:#?}"
        );
    }
}

/// Both databases get the same indexes: every `CREATE INDEX` / `DROP INDEX` of one migration folder is
/// in the other, file by file.
#[test]
fn both_databases_declare_the_same_indexes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../store/migrations");
    let indexes = |db: &str| -> Vec<(String, String)> {
        let mut out = vec![];
        let mut files: Vec<_> = std::fs::read_dir(root.join(db))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            for line in std::fs::read_to_string(&f).unwrap().lines() {
                let l = line.trim().to_uppercase();
                if l.starts_with("CREATE INDEX")
                    || l.starts_with("CREATE UNIQUE INDEX")
                    || l.starts_with("DROP INDEX")
                {
                    out.push((
                        name.clone(),
                        line.split_whitespace().collect::<Vec<_>>().join(" "),
                    ));
                }
            }
        }
        out
    };
    assert_eq!(indexes("sqlite"), indexes("postgres"));
}

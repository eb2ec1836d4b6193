//! Property test: the list-query engine selects exactly the rows an in-memory reference filter selects,
//! in the requested order, on SQLite and PostgreSQL, for random rows and random filters.

mod common;
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
                        let (rows, total): (Vec<Item>, i64) = list::page(
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
                        assert_eq!(total as usize, rows.len());
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

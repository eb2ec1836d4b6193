//! The SQLite and PostgreSQL migrations define the same schema: tables, columns per table, indexes
//! (name, table, columns, uniqueness) and unique constraints (table, columns; their names are the
//! backends' own). Column types may differ. PostgreSQL is checked when CLIPMATRIX_TEST_POSTGRES_URL
//! is set.

use sqlx::Row;
use std::collections::BTreeSet;
use store::{Backend, Db};

#[derive(Debug, Default, PartialEq)]
struct Schema {
    /// (table, column)
    columns: BTreeSet<(String, String)>,
    /// (name, table, columns, unique)
    indexes: BTreeSet<(String, String, String, bool)>,
    /// (table, columns)
    uniques: BTreeSet<(String, String)>,
}

impl Schema {
    fn tables(&self) -> BTreeSet<&str> {
        self.columns.iter().map(|(t, _)| t.as_str()).collect()
    }
}

/// Rows of text columns.
async fn rows(db: &Db, sql: &str) -> Vec<Vec<String>> {
    sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_all(&db.pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .iter()
        .map(|r| (0..r.len()).map(|i| r.get::<String, _>(i)).collect())
        .collect()
}

async fn sqlite_schema(db: &Db) -> Schema {
    let mut s = Schema::default();
    let tables = rows(
        db,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'",
    )
    .await;
    for t in tables.iter().map(|r| &r[0]) {
        for c in rows(db, &format!("SELECT name FROM pragma_table_info('{t}')")).await {
            s.columns.insert((t.clone(), c[0].clone()));
        }
        // origin: 'c' CREATE INDEX, 'u' UNIQUE constraint, 'pk' primary key.
        let indexes = rows(
            db,
            &format!("SELECT name, origin, CAST(\"unique\" AS TEXT) FROM pragma_index_list('{t}')"),
        )
        .await;
        for ix in indexes {
            let cols = rows(
                db,
                &format!(
                    "SELECT COALESCE(name, '<expr>') FROM pragma_index_info('{}') ORDER BY seqno",
                    ix[0]
                ),
            )
            .await;
            let cols = cols
                .iter()
                .map(|r| r[0].as_str())
                .collect::<Vec<_>>()
                .join(",");
            match ix[1].as_str() {
                "c" => {
                    s.indexes
                        .insert((ix[0].clone(), t.clone(), cols, ix[2] == "1"));
                }
                "u" => {
                    s.uniques.insert((t.clone(), cols));
                }
                _ => {}
            }
        }
    }
    s
}

async fn postgres_schema(db: &Db) -> Schema {
    let mut s = Schema::default();
    for r in rows(
        db,
        "SELECT c.table_name::text, c.column_name::text FROM information_schema.columns c \
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name NOT LIKE '\\_sqlx%'",
    )
    .await
    {
        s.columns.insert((r[0].clone(), r[1].clone()));
    }
    // Every index but primary keys; the ones behind a UNIQUE constraint count as constraints.
    let indexes = rows(
        db,
        "SELECT i.relname::text, t.relname::text, \
           (SELECT string_agg(COALESCE(a.attname::text, '<expr>'), ',' ORDER BY k.ord) \
              FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(attnum, ord) \
              LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum), \
           CASE WHEN ix.indisunique THEN '1' ELSE '0' END, \
           CASE WHEN EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.contype = 'u') \
             THEN 'u' ELSE 'c' END \
         FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid \
         JOIN pg_namespace n ON n.oid = t.relnamespace \
         WHERE n.nspname = 'public' AND NOT ix.indisprimary AND t.relname NOT LIKE '\\_sqlx%'",
    )
    .await;
    for ix in indexes {
        if ix[4] == "u" {
            s.uniques.insert((ix[1].clone(), ix[2].clone()));
        } else {
            s.indexes
                .insert((ix[0].clone(), ix[1].clone(), ix[2].clone(), ix[3] == "1"));
        }
    }
    s
}

/// What one side has and the other lacks, for a readable failure.
fn diff<T: Ord + std::fmt::Debug>(what: &str, a: &BTreeSet<T>, b: &BTreeSet<T>) -> Vec<String> {
    let mut out = Vec::new();
    for x in a.difference(b) {
        out.push(format!("{what} only on SQLite: {x:?}"));
    }
    for x in b.difference(a) {
        out.push(format!("{what} only on PostgreSQL: {x:?}"));
    }
    out
}

#[tokio::test]
async fn sqlite_and_postgres_migrations_define_the_same_schema() {
    let dir = std::env::temp_dir().join(format!("cm_schema_{}", store::random_token(8)));
    let lite = Db::connect(&format!("sqlite://{}/t.db", dir.display()))
        .await
        .unwrap();
    lite.migrate().await.unwrap();
    let sqlite = sqlite_schema(&lite).await;
    lite.pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
    // The introspection itself sees something (an empty schema on both sides would agree).
    assert!(
        sqlite.tables().contains("matrix_items")
            && !sqlite.indexes.is_empty()
            && !sqlite.uniques.is_empty(),
        "{sqlite:?}"
    );

    let Some(base) = std::env::var("CLIPMATRIX_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        println!("CLIPMATRIX_TEST_POSTGRES_URL is not set: PostgreSQL schema not compared");
        return;
    };
    let admin = Db::connect(&base).await.unwrap();
    let url = testkit::fresh_pg_database(&base).await;
    let name = url.rsplit_once('/').unwrap().1;
    let pg = Db::connect(&url).await.unwrap();
    assert_eq!(pg.backend, Backend::Postgres);
    pg.migrate().await.unwrap();
    let postgres = postgres_schema(&pg).await;
    pg.pool.close().await;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE {name}")))
        .execute(&admin.pool)
        .await
        .unwrap();

    let mut problems = diff("table", &sqlite.tables(), &postgres.tables());
    problems.extend(diff("column", &sqlite.columns, &postgres.columns));
    problems.extend(diff("index", &sqlite.indexes, &postgres.indexes));
    problems.extend(diff(
        "unique constraint",
        &sqlite.uniques,
        &postgres.uniques,
    ));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

//! The list-query engine every list call goes through (SPEC §7 "Shared list calls", §9): paging
//! (`page`, `limit` or `pageSize`), sorting (`prop` + `order`), and `filterObj` filters
//! (field -> `value|operator`), checked against a per-entity whitelist of fields, types and operators and
//! turned into parameterised SQL that runs on SQLite and PostgreSQL alike. Column names only ever come
//! from the whitelist; user text only ever travels as bound parameters.

use crate::Db;
use domain::i18n::{Lang, Msg};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Business time zone for date filters: the console's users are in China (UTC+8).
pub const TZ_OFFSET_MS: i64 = 8 * 3_600_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// Free text: `= != include notinclude` (include = contains, case-insensitive).
    Text,
    /// Integers: `= != > >= < <=`, `include`/`notinclude` = in / not in a comma list.
    Int,
    /// Unix-ms columns filtered by `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss` (UTC+8); `include` = between
    /// two comma-joined bounds (a date range), both days included.
    Date,
    /// `'1'` or `'0'` with `=` / `!=`.
    Switch,
    /// One of fixed values: `= !=`, `include`/`notinclude` = in / not in a comma list.
    Select,
    /// A JSON-array or comma-list text column: `include` = has any of the tags, `notinclude` = has none.
    Tags,
}

impl FieldType {
    pub fn operators(self) -> &'static [&'static str] {
        match self {
            FieldType::Text => &["=", "!=", "include", "notinclude"],
            FieldType::Int | FieldType::Date => {
                &["=", "!=", ">", ">=", "<", "<=", "include", "notinclude"]
            }
            FieldType::Switch => &["=", "!="],
            FieldType::Select | FieldType::Tags => &["=", "!=", "include", "notinclude"],
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The name the console uses (filter key and sort prop).
    pub key: &'static str,
    /// The SQL expression it stands for (a whitelisted column).
    pub column: &'static str,
    pub ty: FieldType,
    pub sortable: bool,
}

pub const fn field(key: &'static str, column: &'static str, ty: FieldType) -> Field {
    Field {
        key,
        column,
        ty,
        sortable: true,
    }
}

/// The fields one list call may filter and sort on.
#[derive(Debug)]
pub struct Entity {
    pub fields: &'static [Field],
    /// `ORDER BY` when no (valid) prop is given; must end on a unique column for stable paging.
    pub default_order: &'static str,
    /// The unique column appended to every sort for stable pages.
    pub tiebreak: &'static str,
}

impl Entity {
    pub fn field(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.key == key)
    }
}

/// A bad list parameter: the field it concerns and what is wrong (a message in both languages). The API
/// turns it into HTTP 422.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {}", self.msg.render(Lang::En, &self.args))]
pub struct ListError {
    pub field: String,
    pub msg: Msg,
    pub args: Vec<(&'static str, String)>,
}

fn err(field: &str, reason: impl Into<String>) -> ListError {
    ListError {
        field: field.to_string(),
        msg: Msg::InvalidValue,
        args: vec![("reason", reason.into())],
    }
}

fn out_of_range(field: &str, min: i64, max: i64) -> ListError {
    ListError {
        field: field.to_string(),
        msg: Msg::OutOfRange,
        args: vec![("min", min.to_string()), ("max", max.to_string())],
    }
}

/// `filterObj` as the console sends it: an object, or that object as a JSON string (GET query).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FilterObj(pub BTreeMap<String, String>);

impl<'de> Deserialize<'de> for FilterObj {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = serde_json::Value::deserialize(d)?;
        let obj = match v {
            serde_json::Value::Null => return Ok(FilterObj::default()),
            serde_json::Value::String(s) if s.trim().is_empty() => return Ok(FilterObj::default()),
            serde_json::Value::String(s) => serde_json::from_str::<serde_json::Value>(&s)
                .map_err(|e| D::Error::custom(format!("`filterObj` is not JSON: {e}")))?,
            other => other,
        };
        let serde_json::Value::Object(map) = obj else {
            return Err(D::Error::custom(
                "`filterObj` must be an object of field -> 'value|operator'",
            ));
        };
        let mut out = BTreeMap::new();
        for (k, v) in map {
            let s = match v {
                serde_json::Value::String(s) => s,
                serde_json::Value::Null => continue,
                other => other.to_string(),
            };
            out.insert(k, s);
        }
        Ok(FilterObj(out))
    }
}

/// Paging, sorting and filters of one list call.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ListQuery {
    #[serde(default, deserialize_with = "lenient_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "lenient_i64")]
    pub limit: Option<i64>,
    #[serde(default, rename = "pageSize", deserialize_with = "lenient_i64")]
    pub page_size: Option<i64>,
    #[serde(default)]
    pub prop: Option<String>,
    #[serde(default)]
    pub order: Option<String>,
    #[serde(default, rename = "filterObj")]
    pub filter_obj: FilterObj,
}

pub type ListParams = ListQuery;

/// Accepts numbers and numeric strings (query strings and form bodies carry everything as text).
fn lenient_i64<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum N {
        I(i64),
        S(String),
        F(f64),
    }
    Ok(match Option::<N>::deserialize(d)? {
        None => None,
        Some(N::I(i)) => Some(i),
        Some(N::F(f)) => Some(f as i64),
        Some(N::S(s)) if s.trim().is_empty() => None,
        Some(N::S(s)) => Some(
            s.trim()
                .parse()
                .map_err(|_| serde::de::Error::custom(format!("not a number: {s}")))?,
        ),
    })
}

/// A bound parameter value.
#[derive(Debug, Clone, PartialEq)]
pub enum Bind {
    I(i64),
    S(String),
}

/// WHERE and ORDER BY pieces built from a query, with their parameters numbered from `first`.
#[derive(Debug, Clone, Default)]
pub struct Built {
    pub conditions: Vec<String>,
    pub binds: Vec<Bind>,
    pub order_by: String,
}

impl ListQuery {
    pub const MAX_LIMIT: i64 = 1000;
    /// Deep enough for any pager, small enough that `(page - 1) * limit` never overflows.
    pub const MAX_PAGE: i64 = 1_000_000;
    /// Values in one `include`/`notinclude` list: each is a bound parameter (SQLite allows 32,766 in all)
    /// and a term the database checks per row.
    pub const MAX_VALUES: usize = 200;
    /// Filters in one request (more than any list has fields).
    pub const MAX_FILTERS: usize = 20;

    pub fn page(&self) -> i64 {
        self.page.unwrap_or(1).clamp(1, Self::MAX_PAGE)
    }
    pub fn limit(&self) -> i64 {
        self.limit
            .or(self.page_size)
            .unwrap_or(10)
            .clamp(1, Self::MAX_LIMIT)
    }
    pub fn offset(&self) -> i64 {
        (self.page() - 1) * self.limit()
    }

    /// Adds a simple filter given as its own parameter (e.g. `username=...`) unless filterObj has one.
    pub fn with_filter(mut self, key: &str, value: Option<&str>, op: &str) -> Self {
        if let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) {
            self.filter_obj
                .0
                .entry(key.to_string())
                .or_insert_with(|| format!("{v}|{op}"));
        }
        self
    }

    /// Checks the query against the entity and builds its SQL pieces; parameters start at `$first`.
    pub fn build(&self, e: &Entity, first: usize) -> Result<Built, ListError> {
        if self
            .page
            .is_some_and(|p| !(1..=Self::MAX_PAGE).contains(&p))
        {
            return Err(out_of_range("page", 1, Self::MAX_PAGE));
        }
        for (key, v) in [("limit", self.limit), ("pageSize", self.page_size)] {
            if v.is_some_and(|v| !(1..=Self::MAX_LIMIT).contains(&v)) {
                return Err(out_of_range(key, 1, Self::MAX_LIMIT));
            }
        }
        if self.filter_obj.0.len() > Self::MAX_FILTERS {
            return Err(ListError {
                field: "filterObj".into(),
                msg: Msg::TooManyFilters,
                args: vec![("max", Self::MAX_FILTERS.to_string())],
            });
        }
        let mut b = Built::default();
        let mut n = first;
        for (key, raw) in &self.filter_obj.0 {
            let f = e
                .field(key)
                .ok_or_else(|| err(key, "is not a filterable field"))?;
            let (value, op) = match raw.rsplit_once('|') {
                Some((v, o)) => (v, o.trim()),
                None => (raw.as_str(), "="),
            };
            if !f.ty.operators().contains(&op) {
                return Err(err(
                    key,
                    format!("operator '{op}' does not apply to this field"),
                ));
            }
            let cond = condition(f, value, op, &mut n, &mut b.binds)?;
            if let Some(c) = cond {
                b.conditions.push(c);
            }
        }
        let dir = match self.order.as_deref() {
            None | Some("") | Some("descending") | Some("desc") => "DESC",
            Some("ascending") | Some("asc") => "ASC",
            Some(o) => {
                return Err(err(
                    "order",
                    format!("must be ascending or descending, got '{o}'"),
                ));
            }
        };
        b.order_by = match self.prop.as_deref().filter(|p| !p.is_empty()) {
            None => e.default_order.to_string(),
            Some(p) => {
                let f = e
                    .field(p)
                    .filter(|f| f.sortable)
                    .ok_or_else(|| err("prop", format!("cannot sort by '{p}'")))?;
                format!("{} {dir}, {} {dir}", f.column, e.tiebreak)
            }
        };
        Ok(b)
    }
}

fn push(binds: &mut Vec<Bind>, n: &mut usize, v: Bind) -> String {
    binds.push(v);
    *n += 1;
    format!("${}", *n - 1)
}

fn like_pattern(v: &str) -> String {
    let escaped = v
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{escaped}%")
}

fn parse_int(key: &str, v: &str) -> Result<i64, ListError> {
    v.trim()
        .parse()
        .map_err(|_| err(key, format!("'{v}' is not a whole number")))
}

/// `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss` in UTC+8 -> (start ms, end ms exclusive) of that day or second.
pub fn parse_date(key: &str, v: &str) -> Result<(i64, i64), ListError> {
    let bad = || {
        err(
            key,
            format!("'{v}' is not YYYY-MM-DD or YYYY-MM-DD HH:mm:ss"),
        )
    };
    let v = v.trim();
    let (date, time) = match v.split_once(' ') {
        Some((d, t)) => (d, Some(t)),
        None => (v, None),
    };
    let d: Vec<&str> = date.split('-').collect();
    if d.len() != 3 || d[0].len() != 4 || d[1].len() != 2 || d[2].len() != 2 {
        return Err(bad());
    }
    let (y, m, dd): (i64, i64, i64) = (
        d[0].parse().map_err(|_| bad())?,
        d[1].parse().map_err(|_| bad())?,
        d[2].parse().map_err(|_| bad())?,
    );
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let dim = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&m) || dd < 1 || dd > dim[(m - 1) as usize] {
        return Err(bad());
    }
    // Days since 1970-01-01 (civil calendar).
    let (yy, mm) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + dd - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let day_start = days * 86_400_000 - TZ_OFFSET_MS;
    match time {
        None => Ok((day_start, day_start + 86_400_000)),
        Some(t) => {
            let p: Vec<&str> = t.split(':').collect();
            if p.len() != 3 || p.iter().any(|s| s.len() != 2) {
                return Err(bad());
            }
            let (h, mi, s): (i64, i64, i64) = (
                p[0].parse().map_err(|_| bad())?,
                p[1].parse().map_err(|_| bad())?,
                p[2].parse().map_err(|_| bad())?,
            );
            if h > 23 || mi > 59 || s > 59 {
                return Err(bad());
            }
            let at = day_start + ((h * 60 + mi) * 60 + s) * 1000;
            Ok((at, at + 1000))
        }
    }
}

fn condition(
    f: &Field,
    value: &str,
    op: &str,
    n: &mut usize,
    binds: &mut Vec<Bind>,
) -> Result<Option<String>, ListError> {
    let col = f.column;
    let key = f.key;
    let list = |v: &str| -> Result<Vec<String>, ListError> {
        let items: Vec<String> = v
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if items.len() > ListQuery::MAX_VALUES {
            return Err(ListError {
                field: key.to_string(),
                msg: Msg::TooManyValues,
                args: vec![("max", ListQuery::MAX_VALUES.to_string())],
            });
        }
        Ok(items)
    };
    Ok(Some(match f.ty {
        FieldType::Text => {
            let p = match op {
                "include" | "notinclude" => Bind::S(like_pattern(value)),
                _ => Bind::S(value.to_string()),
            };
            let ph = push(binds, n, p);
            match op {
                "=" => format!("{col} = {ph}"),
                "!=" => format!("{col} <> {ph}"),
                "include" => format!("LOWER({col}) LIKE {ph} ESCAPE '\\'"),
                _ => format!("LOWER({col}) NOT LIKE {ph} ESCAPE '\\'"),
            }
        }
        FieldType::Switch => {
            let v = match value.trim() {
                "1" => 1,
                "0" => 0,
                other => return Err(err(key, format!("a switch is '1' or '0', got '{other}'"))),
            };
            let ph = push(binds, n, Bind::I(v));
            format!("{col} {} {ph}", if op == "=" { "=" } else { "<>" })
        }
        FieldType::Int | FieldType::Select if op == "include" || op == "notinclude" => {
            let items = list(value)?;
            if items.is_empty() {
                return Err(err(key, "needs at least one value"));
            }
            let mut phs = vec![];
            for it in items {
                let b = if f.ty == FieldType::Int {
                    Bind::I(parse_int(key, &it)?)
                } else {
                    Bind::S(it)
                };
                phs.push(push(binds, n, b));
            }
            format!(
                "{col} {}IN ({})",
                if op == "include" { "" } else { "NOT " },
                phs.join(", ")
            )
        }
        FieldType::Int => {
            let ph = push(binds, n, Bind::I(parse_int(key, value)?));
            format!("{col} {} {ph}", if op == "!=" { "<>" } else { op })
        }
        FieldType::Select => {
            let ph = push(binds, n, Bind::S(value.trim().to_string()));
            format!("{col} {} {ph}", if op == "!=" { "<>" } else { "=" })
        }
        FieldType::Date => {
            if op == "include" || op == "notinclude" {
                let parts = list(value)?;
                if parts.len() != 2 {
                    return Err(err(key, "a date range is two dates joined by ','"));
                }
                let (from, _) = parse_date(key, &parts[0])?;
                let (_, to) = parse_date(key, &parts[1])?;
                if to <= from {
                    return Err(err(key, "the range ends before it starts"));
                }
                let (a, b) = (push(binds, n, Bind::I(from)), push(binds, n, Bind::I(to)));
                if op == "include" {
                    format!("({col} >= {a} AND {col} < {b})")
                } else {
                    format!("({col} < {a} OR {col} >= {b})")
                }
            } else {
                let (start, end) = parse_date(key, value)?;
                match op {
                    "=" => {
                        let (a, b) = (push(binds, n, Bind::I(start)), push(binds, n, Bind::I(end)));
                        format!("({col} >= {a} AND {col} < {b})")
                    }
                    "!=" => {
                        let (a, b) = (push(binds, n, Bind::I(start)), push(binds, n, Bind::I(end)));
                        format!("({col} < {a} OR {col} >= {b})")
                    }
                    ">" => format!("{col} >= {}", push(binds, n, Bind::I(end))),
                    ">=" => format!("{col} >= {}", push(binds, n, Bind::I(start))),
                    "<" => format!("{col} < {}", push(binds, n, Bind::I(start))),
                    _ => format!("{col} < {}", push(binds, n, Bind::I(end))),
                }
            }
        }
        FieldType::Tags => {
            let items = list(value)?;
            if items.is_empty() {
                return Err(err(key, "needs at least one tag"));
            }
            let mut parts = vec![];
            for t in items {
                let ph = push(binds, n, Bind::S(like_pattern(&t)));
                parts.push(format!("LOWER({col}) LIKE {ph} ESCAPE '\\'"));
            }
            let any = format!("({})", parts.join(" OR "));
            match op {
                "include" | "=" => any,
                _ => format!("NOT {any}"),
            }
        }
    }))
}

/// Binds values onto a query in order.
macro_rules! bind_all {
    ($q:expr, $binds:expr) => {{
        let mut q = $q;
        for b in $binds {
            q = match b {
                Bind::I(i) => q.bind(*i),
                Bind::S(s) => q.bind(s.clone()),
            };
        }
        q
    }};
}

/// Rows counted past the start of the page asked for: counting every row of a merchant with 100k
/// operation logs cost more than the page itself (and 10,000 still took a millisecond a request).
/// Beyond it the total is "at least this many" (`capped`); the pager still reaches every page, as the
/// cap moves with the page.
pub const COUNT_CAP: i64 = 1_000;

/// The total of a list: exact, or (`capped`) a lower bound where counting stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Total {
    pub n: i64,
    pub capped: bool,
}

impl Total {
    pub fn exact(n: i64) -> Total {
        Total { n, capped: false }
    }
}

tokio::task_local! {
    static RECORDED: std::cell::RefCell<Vec<(String, Vec<Bind>)>>;
}

/// Runs `f` and returns the list statements it ran with their parameters (tests read their query plans).
pub async fn recording<F: std::future::Future>(f: F) -> (F::Output, Vec<(String, Vec<Bind>)>) {
    RECORDED
        .scope(Default::default(), async {
            let out = f.await;
            (out, RECORDED.with(|r| r.take()))
        })
        .await
}

/// Notes a statement for `recording`; outside it (every real request) nothing is built or copied.
fn record(sql: &str, binds: impl FnOnce() -> Vec<Bind>) {
    let _ = RECORDED.try_with(|r| r.borrow_mut().push((sql.to_string(), binds())));
}

/// One page of rows plus the total. `select` is `SELECT cols FROM table [joins]`, `from` the same
/// FROM part for the count; `scope` a WHERE clause that confines the rows to the caller (its parameters
/// `$1..` come first in `scope_binds`).
pub async fn page<T>(
    db: &Db,
    select: &str,
    from: &str,
    scope: &str,
    scope_binds: &[Bind],
    e: &Entity,
    q: &ListQuery,
) -> Result<(Vec<T>, Total), PageError>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    let built = q.build(e, scope_binds.len() + 1)?;
    let mut conds = vec![scope.to_string()];
    conds.extend(built.conditions.iter().cloned());
    let where_sql = conds.join(" AND ");
    let n = scope_binds.len() + built.binds.len();
    let sql = format!(
        "{select} WHERE {where_sql} ORDER BY {} LIMIT ${} OFFSET ${}",
        built.order_by,
        n + 1,
        n + 2
    );
    let all: Vec<Bind> = scope_binds
        .iter()
        .cloned()
        .chain(built.binds.iter().cloned())
        .collect();
    let (limit, offset) = (q.limit(), q.offset());
    record(&sql, || {
        [all.clone(), vec![Bind::I(limit), Bind::I(offset)]].concat()
    });
    let q_rows = bind_all!(sqlx::query_as::<_, T>(sqlx::AssertSqlSafe(sql)), &all);
    let rows = q_rows.bind(limit).bind(offset).fetch_all(&db.pool).await?;
    // A short page is the last one: its end is the total, no count needed.
    if (rows.len() as i64) < limit && (!rows.is_empty() || offset == 0) {
        let n = offset + rows.len() as i64;
        return Ok((rows, Total::exact(n)));
    }
    let cap = offset + COUNT_CAP;
    let count_sql = format!(
        "SELECT COUNT(*) FROM (SELECT 1 AS one {from} WHERE {where_sql} LIMIT ${}) counted",
        n + 1
    );
    record(&count_sql, || {
        [all.clone(), vec![Bind::I(cap + 1)]].concat()
    });
    let n: i64 = bind_all!(sqlx::query_scalar(sqlx::AssertSqlSafe(count_sql)), &all)
        .bind(cap + 1)
        .fetch_one(&db.pool)
        .await?;
    Ok((
        rows,
        Total {
            n: n.min(cap),
            capped: n > cap,
        },
    ))
}

/// Sums of numeric columns over every row the filters select (not just the page): the summary row.
pub async fn sums(
    db: &Db,
    from: &str,
    scope: &str,
    scope_binds: &[Bind],
    e: &Entity,
    q: &ListQuery,
    exprs: &[(&str, &str)],
) -> Result<serde_json::Map<String, serde_json::Value>, PageError> {
    let built = q.build(e, scope_binds.len() + 1)?;
    let mut conds = vec![scope.to_string()];
    conds.extend(built.conditions.iter().cloned());
    let cols: Vec<String> = exprs
        .iter()
        .map(|(_, ex)| format!("CAST(COALESCE(SUM({ex}), 0) AS BIGINT)"))
        .collect();
    let sql = format!(
        "SELECT {} {from} WHERE {}",
        cols.join(", "),
        conds.join(" AND ")
    );
    let all: Vec<Bind> = scope_binds
        .iter()
        .cloned()
        .chain(built.binds.iter().cloned())
        .collect();
    let row = bind_all!(sqlx::query(sqlx::AssertSqlSafe(sql)), &all)
        .fetch_one(&db.pool)
        .await?;
    use sqlx::Row;
    let mut out = serde_json::Map::new();
    for (i, (name, _)) in exprs.iter().enumerate() {
        out.insert(
            name.to_string(),
            serde_json::Value::from(row.try_get::<i64, _>(i)?),
        );
    }
    Ok(out)
}

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error(transparent)]
    Invalid(#[from] ListError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A page of one table's rows for `mid`: `select` ends with `FROM <table> <alias>` and its joins
/// (the count reads the same FROM), `scope` binds `mid` as `$1`.
pub(crate) async fn page_of<T>(
    db: &Db,
    select: &str,
    scope: &str,
    mid: i64,
    e: &Entity,
    q: &ListQuery,
) -> Result<(Vec<T>, Total), PageError>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    // The outer FROM is the last one: column subqueries come before it.
    let from = select.rfind(" FROM ").map_or(select, |i| &select[i + 1..]);
    page(db, select, from, scope, &[Bind::I(mid)], e, q).await
}

#[cfg(test)]
mod tests {
    use super::*;

    static E: Entity = Entity {
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

    fn q(json: &str) -> ListQuery {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn paging_defaults_and_aliases() {
        let p = q("{}");
        assert_eq!((p.page(), p.limit(), p.offset()), (1, 10, 0));
        let p = q(r#"{"page":"3","pageSize":20}"#);
        assert_eq!((p.page(), p.limit(), p.offset()), (3, 20, 40));
        assert!(q(r#"{"page":0}"#).build(&E, 1).is_err());
    }

    #[test]
    fn filters_become_bound_sql() {
        let b = q(r#"{"filterObj":{"name":"a%b|include","n":"3|>=","kind":"x,y|include"},"prop":"n","order":"ascending"}"#)
            .build(&E, 2)
            .unwrap();
        assert_eq!(
            b.conditions,
            vec![
                "kind IN ($2, $3)",
                "n >= $4",
                "LOWER(name) LIKE $5 ESCAPE '\\'"
            ]
        );
        assert_eq!(
            b.binds,
            vec![
                Bind::S("x".into()),
                Bind::S("y".into()),
                Bind::I(3),
                Bind::S("%a\\%b%".into())
            ]
        );
        assert_eq!(b.order_by, "n ASC, id ASC");
        // filterObj as a JSON string (GET query).
        let b = q(r#"{"filterObj":"{\"on\":\"1|=\"}"}"#)
            .build(&E, 1)
            .unwrap();
        assert_eq!(b.conditions, vec!["status = $1"]);
    }

    #[test]
    fn bad_filters_name_the_field() {
        let cases = [
            (r#"{"filterObj":{"password":"x|="}}"#, "password"),
            (r#"{"filterObj":{"name":"x|>"}}"#, "name"),
            (r#"{"filterObj":{"n":"abc|="}}"#, "n"),
            (r#"{"filterObj":{"at":"2026-13-01|="}}"#, "at"),
            (r#"{"filterObj":{"at":"2026-02-30|="}}"#, "at"),
            (
                r#"{"filterObj":{"at":"2026-01-01,2025-01-01|include"}}"#,
                "at",
            ),
            (r#"{"filterObj":{"on":"yes|="}}"#, "on"),
            (r#"{"prop":"id; DROP TABLE users"}"#, "prop"),
            (r#"{"order":"sideways"}"#, "order"),
        ];
        for (json, field) in cases {
            assert_eq!(q(json).build(&E, 1).unwrap_err().field, field, "{json}");
        }
    }

    /// Page and page size out of range, and filters with more values than the database is asked to bind,
    /// are refused naming the field (page near i64::MAX used to wrap the offset; 32,766 values overflowed
    /// SQLite's bound parameters and answered 500).
    #[test]
    fn limits_name_the_field() {
        let many = (0..=ListQuery::MAX_VALUES)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let cases = [
            (
                format!(r#"{{"page":{}}}"#, i64::MAX),
                "page",
                Msg::OutOfRange,
            ),
            (
                format!(r#"{{"page":"{}"}}"#, i64::MAX / 10 + 1),
                "page",
                Msg::OutOfRange,
            ),
            (r#"{"page":1000001}"#.to_string(), "page", Msg::OutOfRange),
            (r#"{"limit":0}"#.to_string(), "limit", Msg::OutOfRange),
            (r#"{"limit":1001}"#.to_string(), "limit", Msg::OutOfRange),
            (
                r#"{"pageSize":-5}"#.to_string(),
                "pageSize",
                Msg::OutOfRange,
            ),
            (
                format!(r#"{{"filterObj":{{"n":"{many}|include"}}}}"#),
                "n",
                Msg::TooManyValues,
            ),
            (
                format!(r#"{{"filterObj":{{"kind":"{many}|notinclude"}}}}"#),
                "kind",
                Msg::TooManyValues,
            ),
            (
                format!(r#"{{"filterObj":{{"tags":"{many}|include"}}}}"#),
                "tags",
                Msg::TooManyValues,
            ),
        ];
        for (json, field, msg) in cases {
            let e = q(&json).build(&E, 1).unwrap_err();
            assert_eq!((e.field.as_str(), e.msg), (field, msg), "{json}");
        }
        let mut too_many = ListQuery::default();
        for i in 0..=ListQuery::MAX_FILTERS {
            too_many.filter_obj.0.insert(format!("f{i}"), "1".into());
        }
        let e = too_many.build(&E, 1).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.msg),
            ("filterObj", Msg::TooManyFilters)
        );
        // The largest accepted values still build, and paging stays in range.
        let ok = (0..ListQuery::MAX_VALUES)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let b = q(&format!(
            r#"{{"filterObj":{{"n":"{ok}|include"}},"page":1000000,"limit":1000}}"#
        ));
        assert_eq!(b.build(&E, 1).unwrap().binds.len(), ListQuery::MAX_VALUES);
        assert_eq!(b.offset(), 999_999 * 1000);
    }

    #[test]
    fn dates_are_china_days() {
        // 2026-11-21 00:00 at UTC+8 is 2026-11-20 16:00 UTC.
        let (a, b) = parse_date("d", "2026-11-21").unwrap();
        assert_eq!(a, 20_778 * 86_400_000 - TZ_OFFSET_MS);
        assert_eq!(b - a, 86_400_000);
        let (a2, b2) = parse_date("d", "2026-11-21 08:00:01").unwrap();
        assert_eq!((a2 - a, b2 - a2), (8 * 3_600_000 + 1000, 1000));
        assert!(parse_date("d", "2024-02-29").is_ok());
        assert!(parse_date("d", "2023-02-29").is_err());
    }
}

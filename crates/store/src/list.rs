//! Paging and sorting parameters shared by list calls (SPEC §9: page 1, limit 10; `limit` or `pageSize`).
//! The full filter engine (`filterObj`) arrives with the widget-kit issue; this is its paging half.

use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ListParams {
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
}

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

impl ListParams {
    pub const MAX_LIMIT: i64 = 1000;

    pub fn page(&self) -> i64 {
        self.page.unwrap_or(1).max(1)
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
    /// `ORDER BY` for a sort column chosen from a whitelist; unknown props fall back to `default`.
    pub fn order_by(&self, allowed: &[&str], default: &str) -> String {
        match self.prop.as_deref() {
            Some(p) if allowed.contains(&p) => {
                let dir = if self.order.as_deref() == Some("ascending") {
                    "ASC"
                } else {
                    "DESC"
                };
                format!("{p} {dir}, id DESC")
            }
            _ => default.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_aliases() {
        let p: ListParams = serde_json::from_str("{}").unwrap();
        assert_eq!((p.page(), p.limit(), p.offset()), (1, 10, 0));
        let p: ListParams = serde_json::from_str(r#"{"page":"3","pageSize":20}"#).unwrap();
        assert_eq!((p.page(), p.limit(), p.offset()), (3, 20, 40));
        let p: ListParams =
            serde_json::from_str(r#"{"prop":"id; DROP TABLE x","order":"ascending"}"#).unwrap();
        assert_eq!(p.order_by(&["created_at"], "id DESC"), "id DESC");
        let p: ListParams =
            serde_json::from_str(r#"{"prop":"created_at","order":"ascending"}"#).unwrap();
        assert_eq!(
            p.order_by(&["created_at"], "id DESC"),
            "created_at ASC, id DESC"
        );
    }
}

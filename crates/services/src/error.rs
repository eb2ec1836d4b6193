//! The one error type of clipmatrix: use cases return it and HTTP handlers pass it on (one name,
//! `ApiError`, because every error ends as an answer of the API). It knows no transport: `api` turns
//! it into the `{code, message, data}` answer (`api::reply`), the job worker into a retry or a
//! permanent failure (`From<ApiError> for JobError` below).

use domain::i18n::Msg;
use domain::validate::Invalid;
use store::jobs::JobError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Missing, malformed or expired token: HTTP 401.
    #[error("unauthorized")]
    Unauthorized(Msg),
    /// The session was ended (password changed, account removed or disabled): HTTP 200, body code 401.
    #[error("session revoked")]
    SessionRevoked,
    #[error("forbidden")]
    Forbidden(Msg, Vec<(&'static str, String)>),
    #[error("not found")]
    NotFound,
    /// Bad input: HTTP 422 naming the field.
    #[error("invalid {field}")]
    Invalid {
        field: String,
        msg: Msg,
        args: Vec<(&'static str, String)>,
    },
    #[error("too many requests")]
    TooMany(Msg, Vec<(&'static str, String)>),
    /// A body over its call's limit: HTTP 413.
    #[error("payload too large")]
    TooLarge(Msg, Vec<(&'static str, String)>),
    /// A request target (path and query) over the API's limit: HTTP 414, enveloped like every answer.
    #[error("uri too long")]
    UriTooLong(usize),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn invalid(field: &str, msg: Msg) -> ApiError {
        ApiError::Invalid {
            field: field.to_string(),
            msg,
            args: vec![],
        }
    }
    pub fn invalid_with(field: &str, msg: Msg, args: Vec<(&'static str, String)>) -> ApiError {
        ApiError::Invalid {
            field: field.to_string(),
            msg,
            args,
        }
    }
    pub fn forbidden(msg: Msg) -> ApiError {
        ApiError::Forbidden(msg, vec![])
    }
    /// Whether retrying cannot help: the input is invalid, or what it names is gone or not the
    /// caller's. A job failing so stops at once instead of backing off.
    pub fn is_permanent(&self) -> bool {
        matches!(
            self,
            ApiError::Invalid { .. } | ApiError::NotFound | ApiError::Forbidden(..)
        )
    }
    /// The error's words in `lang` (an invalid input's message; others as they print).
    pub fn in_words(&self, lang: domain::i18n::Lang) -> String {
        match self {
            ApiError::Invalid { msg, args, .. } => {
                msg.render(lang, &domain::i18n::in_lang(args, lang))
            }
            other => other.to_string(),
        }
    }
    /// The error's words in both languages, "中文 / English", as a job keeps its reason.
    pub fn both_languages(&self) -> String {
        use domain::i18n::Lang;
        format!("{} / {}", self.in_words(Lang::Zh), self.in_words(Lang::En))
    }
    /// For a violated unique constraint: the field whose value is taken and the message saying so.
    pub fn taken(&self) -> Option<(String, Msg)> {
        match self {
            ApiError::Db(e) if store::db::is_unique_violation(e) => {
                let (table, columns) = store::db::unique_columns(e).unwrap_or_default();
                Some(taken_by(&table, &columns))
            }
            _ => None,
        }
    }
    /// An import refused for its bad rows (`domain::sheet`): 422 naming `rows`, with every bad row
    /// in the `errors` argument (the API renders them in the reader's language, `data.rows`).
    pub fn rows_invalid(errors: &[domain::sheet::RowError]) -> ApiError {
        let mut rows: Vec<usize> = errors.iter().map(|e| e.row).collect();
        rows.sort_unstable();
        rows.dedup();
        ApiError::invalid_with(
            "rows",
            Msg::ImportRowsInvalid,
            vec![
                ("count", rows.len().to_string()),
                ("errors", domain::sheet::errors_arg(errors)),
            ],
        )
    }
    /// An import of more rows than it takes at once.
    pub fn too_many_rows(max: usize, count: usize) -> ApiError {
        ApiError::invalid_with(
            "rows",
            Msg::ImportTooManyRows,
            vec![("max", max.to_string()), ("count", count.to_string())],
        )
    }
    /// A parameter (JSON or form) body over `max_bytes`.
    pub fn body_too_large(max_bytes: usize) -> ApiError {
        ApiError::TooLarge(
            Msg::BodyTooLarge,
            vec![("max", format!("{} MB", max_bytes / 1024 / 1024))],
        )
    }
}

impl From<Invalid> for ApiError {
    fn from(i: Invalid) -> Self {
        ApiError::invalid_with(i.field, i.msg, i.args)
    }
}

impl From<store::system::points::PointsError> for ApiError {
    fn from(e: store::system::points::PointsError) -> Self {
        use store::system::points::PointsError as P;
        match e {
            P::Insufficient { need, balance } => ApiError::invalid_with(
                "points",
                Msg::PointsInsufficient,
                vec![("need", need.to_string()), ("balance", balance.to_string())],
            ),
            P::NotPositive => ApiError::invalid("points", Msg::PointsInvalid),
            P::Db(e) => ApiError::Db(e),
        }
    }
}

/// A use case failing inside a job: invalid input, a missing row or a refusal fails the job for
/// good; anything else (the database, a platform, the disk) is tried again after a backoff.
impl From<ApiError> for JobError {
    fn from(e: ApiError) -> Self {
        if e.is_permanent() {
            JobError::Permanent(e.to_string())
        } else {
            JobError::Retry(e.to_string())
        }
    }
}

impl From<store::list::PageError> for ApiError {
    fn from(e: store::list::PageError) -> Self {
        match e {
            store::list::PageError::Invalid(e) => ApiError::invalid_with(&e.field, e.msg, e.args),
            store::list::PageError::Db(e) => ApiError::Db(e),
        }
    }
}

/// The field a violated unique constraint guards and the message saying its value is taken. The
/// field is the constraint's last column: constraints list their scope first, e.g.
/// (merchant_id, name).
fn taken_by(table: &str, columns: &[String]) -> (String, Msg) {
    let field = columns.last().map_or("value", String::as_str);
    let msg = match (table, field) {
        ("users", "username") => Msg::UsernameTaken,
        ("users", "mobile") => Msg::MobileTaken,
        ("matrix_groups", "name") => Msg::GroupNameTaken,
        _ => Msg::AlreadyTaken,
    };
    (field.to_string(), msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_give_up_on_what_retrying_cannot_fix() {
        let permanent = [
            ApiError::invalid("name", Msg::NotFound),
            ApiError::NotFound,
            ApiError::forbidden(Msg::NotFound),
        ];
        for e in permanent {
            let shown = e.to_string();
            match JobError::from(e) {
                JobError::Permanent(m) => assert_eq!(m, shown),
                other => panic!("{shown}: {other:?}"),
            }
        }
        let transient = [
            ApiError::Db(sqlx::Error::PoolTimedOut),
            ApiError::Internal(anyhow::anyhow!("disk full")),
            ApiError::TooMany(Msg::NotFound, vec![]),
            ApiError::Unauthorized(Msg::NotFound),
        ];
        for e in transient {
            let shown = e.to_string();
            match JobError::from(e) {
                JobError::Retry(m) => assert_eq!(m, shown),
                other => panic!("{shown}: {other:?}"),
            }
        }
    }
}

//! The copy precheck with the merchant's banned words (`domain::compliance`): what every area that
//! saves or sends a merchant's words calls before it does (release tasks, auto-replies, NFC titles,
//! one-touch scripts, voice-over texts), and the console's inline check.

use crate::error::ApiResult;
use domain::compliance::Checker;
use domain::i18n::Said;
use domain::platform::Platform;
use store::Db;

/// The longest text one inline check reads (a voice-over script is the longest form field).
pub const TEXT_MAX: usize = 10_000;

/// The built-in rules plus the words the operator banned for merchant `mid` (none for the operator).
pub async fn checker(d: &Db, mid: Option<i64>) -> ApiResult<Checker> {
    let words = match mid {
        Some(m) => store::system::banned_words::words(d, m).await?,
        None => vec![],
    };
    Ok(Checker::new(&words))
}

/// Checks a form's texts for a post to `scope` (empty: any platform): a `block` finding refuses it
/// (`Msg::CopyBlocked`, naming the field, the rule and its source), the `warn` findings come back as
/// warnings to show.
pub async fn form(
    d: &Db,
    mid: i64,
    fields: &[(&'static str, &str)],
    scope: &[Platform],
) -> ApiResult<Vec<Said>> {
    Ok(checker(d, Some(mid)).await?.form(fields, scope)?)
}

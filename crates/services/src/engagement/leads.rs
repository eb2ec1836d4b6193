//! Leads: made from comments and private messages with purchase intent or contact details (one per
//! customer and merchant), assigned in turn among the staff who have the leads menu, followed up
//! through their states with notes, exported.

use crate::error::{ApiError, ApiResult};
use domain::engagement::{LeadNote, LeadState, NOTE_MAX, analyze};
use domain::i18n::{Lang, Msg};
use store::Db;
use store::engagement::{self as db, CommentRow, LeadRow, NewLead};

pub use super::lead_staff::lead_staff;
pub use db::LeadRow as Row;

/// The permission that shows a staff member every lead (menu `/clue_assign`); without it, only
/// their own.
pub const ALL_LEADS: &str = "msg/merchant_clue/all";
/// A comment with purchase intent or contact details becomes a lead (unless its author already is
/// one), assigned to the next staff member in turn.
pub async fn from_comment(d: &Db, c: &CommentRow) -> sqlx::Result<Option<(i64, i64)>> {
    let a = analyze(&c.content);
    if c.status == domain::engagement::CommentStatus::Spam || !a.intent.is_lead() {
        return Ok(None);
    }
    let lead = NewLead {
        merchant_id: c.merchant_id,
        customer_key: format!("{}:{}", c.platform, c.user_id),
        platform: c.platform,
        account_id: c.account_id,
        name: c.user_id.clone(),
        content: c.content.clone(),
        source: "comment".into(),
        source_id: c.id,
        item_id: c.item_id.clone(),
        phone: a.phone,
        wechat: a.wechat,
        intent: a.intent.as_str().into(),
        created_at: c.created_at,
    };
    add(d, &lead).await
}

/// The same for a private message (`source_id` is its row).
#[allow(clippy::too_many_arguments)]
pub async fn from_message(
    d: &Db,
    mid: i64,
    platform: domain::platform::Platform,
    account_id: i64,
    customer: &str,
    name: &str,
    text: &str,
    message_row: i64,
    at: i64,
) -> sqlx::Result<Option<(i64, i64)>> {
    let a = analyze(text);
    if !a.intent.is_lead() {
        return Ok(None);
    }
    let lead = NewLead {
        merchant_id: mid,
        customer_key: format!("{platform}:{customer}"),
        platform,
        account_id,
        name: if name.is_empty() { customer } else { name }.into(),
        content: text.into(),
        source: "message".into(),
        source_id: message_row,
        item_id: String::new(),
        phone: a.phone,
        wechat: a.wechat,
        intent: a.intent.as_str().into(),
        created_at: at,
    };
    add(d, &lead).await
}

async fn add(d: &Db, lead: &NewLead) -> sqlx::Result<Option<(i64, i64)>> {
    let staff: Vec<i64> = lead_staff(d, lead.merchant_id)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let added = db::add_lead(d, lead, &staff).await?;
    if let Some((id, assignee)) = added {
        super::notify::new_lead(d, lead.merchant_id, id, assignee).await?;
    }
    Ok(added)
}

/// Whose leads a caller sees: `None` all of them, `Some(id)` those assigned to that staff member.
pub type Scope = Option<i64>;

pub async fn lead(d: &Db, mid: i64, scope: Scope, id: i64) -> ApiResult<LeadRow> {
    match db::lead(d, mid, id).await? {
        Some(l) if scope.is_none_or(|s| s == l.assignee_id) => Ok(l),
        _ => Err(ApiError::NotFound),
    }
}

/// Moves a lead along its states (new -> contacted -> converted | invalid).
pub async fn set_state(d: &Db, mid: i64, scope: Scope, id: i64, to: &str) -> ApiResult<LeadRow> {
    let Some(to) = LeadState::parse(to) else {
        return Err(ApiError::invalid_with(
            "state",
            Msg::InvalidValue,
            vec![("reason", "contacted | converted | invalid".into())],
        ));
    };
    let l = lead(d, mid, scope, id).await?;
    let from = l.state;
    let moved = from.can_become(to)
        && db::move_lead(
            d,
            mid,
            id,
            &LeadState::sources(to),
            to.as_str(),
            domain::now_ms(),
        )
        .await?;
    if !moved {
        return Err(ApiError::invalid_with(
            "state",
            Msg::LeadMove,
            vec![
                ("from.zh", l.state.name(Lang::Zh).into()),
                ("from.en", l.state.name(Lang::En).into()),
                ("to.zh", to.name(Lang::Zh).into()),
                ("to.en", to.name(Lang::En).into()),
            ],
        ));
    }
    lead(d, mid, scope, id).await
}

/// Assigns a lead by hand to a staff member who takes leads (0: nobody).
pub async fn assign(d: &Db, mid: i64, id: i64, staff: i64) -> ApiResult<LeadRow> {
    if staff != 0 && !lead_staff(d, mid).await?.iter().any(|(s, _)| *s == staff) {
        return Err(ApiError::invalid("assignee_id", Msg::AssigneeInvalid));
    }
    if !db::assign_lead(d, mid, id, staff, domain::now_ms()).await? {
        return Err(ApiError::NotFound);
    }
    super::notify::new_lead(d, mid, id, staff).await?;
    lead(d, mid, None, id).await
}

/// Adds a follow-up note (1–500 characters) by `author`.
pub async fn note(
    d: &Db,
    mid: i64,
    scope: Scope,
    id: i64,
    text: &str,
    author: &str,
) -> ApiResult<LeadRow> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::invalid("note", Msg::Required));
    }
    if text.chars().count() > NOTE_MAX {
        return Err(ApiError::invalid_with(
            "note",
            Msg::TooLong,
            vec![("max", NOTE_MAX.to_string())],
        ));
    }
    lead(d, mid, scope, id).await?;
    let now = domain::now_ms();
    let n = LeadNote {
        at: now,
        by: author.into(),
        text: text.into(),
    };
    if !db::add_note(d, mid, id, &n, now).await? {
        return Err(ApiError::NotFound);
    }
    lead(d, mid, scope, id).await
}

/// One page of the merchant's leads (of one staff member's, when `assignee`).
pub async fn list(
    d: &Db,
    mid: i64,
    assignee: Option<i64>,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Row>, store::list::Total)> {
    Ok(db::leads(d, mid, assignee, q).await?)
}

//! System → Merchants → Banned words: the words the operator bans for one merchant; the copy
//! precheck blocks them in that merchant's posts, replies and scripts (`services::system::banned_words`).

use crate::error::{Answer, Done, Reply, reply};
use crate::extract::Input;
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::system::banned_words;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantWordsQuery {
    #[schema(minimum = 1)]
    pub merchant_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BannedWordView {
    pub id: i64,
    pub word: String,
    pub created_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BannedWords {
    pub rows: Vec<BannedWordView>,
}

#[utoipa::path(method(get, post), path = "/system/merchant/banned_words_index", tag = "system", params(("merchant_id" = i64, Query)), responses((status = 200, body = Reply<BannedWords>)))]
pub async fn index(
    State(st): State<AppState>,
    Input(q): Input<MerchantWordsQuery>,
) -> Answer<BannedWords> {
    let rows = banned_words::list(&st.db, q.merchant_id).await?;
    Ok(reply(BannedWords {
        rows: rows
            .into_iter()
            .map(|r| BannedWordView {
                id: r.id,
                word: r.word,
                created_at: r.created_at,
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BannedWordsAdd {
    #[schema(minimum = 1)]
    pub merchant_id: i64,
    /// Each 1..20 characters, 200 at once.
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 200)]
    pub words: Vec<String>,
}

/// How many of the words were new.
#[derive(Debug, Serialize, ToSchema)]
pub struct BannedWordsAdded {
    pub added: usize,
}

#[utoipa::path(post, path = "/system/merchant/banned_words_add", tag = "system", request_body = BannedWordsAdd, responses((status = 200, body = Reply<BannedWordsAdded>)))]
pub async fn add(
    State(st): State<AppState>,
    Input(r): Input<BannedWordsAdd>,
) -> Answer<BannedWordsAdded> {
    let added = banned_words::add(&st.db, r.merchant_id, &r.words).await?;
    Ok(reply(BannedWordsAdded { added }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BannedWordsDelete {
    #[schema(minimum = 1)]
    pub merchant_id: i64,
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub ids: Vec<i64>,
}

#[utoipa::path(post, path = "/system/merchant/banned_words_delete", tag = "system", request_body = BannedWordsDelete, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(
    State(st): State<AppState>,
    Input(r): Input<BannedWordsDelete>,
) -> Answer<Done> {
    banned_words::delete(&st.db, r.merchant_id, &r.ids).await?;
    Ok(reply(Done {}))
}

//! Clip templates (issue 19): built-in ones (merchant 0, seeded from `domain::clip::templates::BUILTINS`) and
//! the merchants' own, with favourites per user. A merchant sees the built-in ones and its own.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Template {
    pub id: i64,
    pub merchant_id: i64,
    pub builtin_key: String,
    pub category: String,
    pub name: String,
    pub name_en: String,
    pub recipe: String,
    pub source_project_id: i64,
    pub uses: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// Whether the reading user likes it (1/0), and how many users do.
    pub liked: i64,
    pub likes: i64,
}

fn select() -> String {
    "SELECT id, merchant_id, builtin_key, category, name, name_en, recipe, source_project_id, uses, \
     created_at, updated_at, \
     (SELECT COUNT(*) FROM clip_template_likes l WHERE l.template_id = clip_templates.id AND l.user_id = $2) AS liked, \
     (SELECT COUNT(*) FROM clip_template_likes l WHERE l.template_id = clip_templates.id) AS likes \
     FROM clip_templates"
        .to_string()
}

pub static TEMPLATE_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("category", "category", FieldType::Select),
        field("uses", "uses", FieldType::Int),
        field("created_at", "created_at", FieldType::Date),
    ],
    // Built-in ones first in their declared order, then the merchant's newest.
    default_order: "merchant_id ASC, id ASC",
    tiebreak: "id",
};

/// A page of the templates a merchant sees (`liked_only`: the user's favourites).
pub async fn list(
    db: &Db,
    merchant_id: i64,
    user_id: i64,
    liked_only: bool,
    q: &ListQuery,
) -> Result<(Vec<Template>, Total), PageError> {
    let liked = if liked_only {
        " AND EXISTS (SELECT 1 FROM clip_template_likes l WHERE l.template_id = clip_templates.id AND l.user_id = $2)"
    } else {
        // $2 must appear in the scope for the count query too.
        " AND $2 = $2"
    };
    list::page(
        db,
        &select(),
        "FROM clip_templates",
        &format!("(merchant_id = 0 OR merchant_id = $1){liked}"),
        &[Bind::I(merchant_id), Bind::I(user_id)],
        &TEMPLATE_LIST,
        q,
    )
    .await
}

/// One template the merchant sees (built-in or its own).
pub async fn get(
    db: &Db,
    merchant_id: i64,
    user_id: i64,
    id: i64,
) -> sqlx::Result<Option<Template>> {
    sqlx::query_as(crate::sqlf!(
        "{} WHERE (merchant_id = 0 OR merchant_id = $1) AND id = $3",
        select()
    ))
    .bind(merchant_id)
    .bind(user_id)
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// How many templates of each category the merchant sees.
pub async fn category_counts(db: &Db, merchant_id: i64) -> sqlx::Result<Vec<(String, i64)>> {
    sqlx::query_as(
        "SELECT category, COUNT(*) FROM clip_templates WHERE merchant_id = 0 OR merchant_id = $1 GROUP BY category",
    )
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

/// Inserts the declared built-in templates that are missing and refreshes the others' names and recipes.
/// Every start runs it: the rows as stored are read once, and only what differs is written (nothing, on
/// a restart of the same version).
pub async fn seed(db: &Db) -> sqlx::Result<()> {
    let stored: Vec<(String, String, String, String, String)> = sqlx::query_as(
        "SELECT builtin_key, category, name, name_en, recipe FROM clip_templates WHERE merchant_id = 0",
    )
    .fetch_all(&db.pool)
    .await?;
    let now = now_ms();
    let mut tx = db.begin().await?;
    for b in domain::clip::templates::BUILTINS {
        let recipe = serde_json::to_string(&(b.recipe)()).unwrap_or_default();
        let row = stored.iter().find(|r| r.0 == b.key);
        if row.is_some_and(|r| {
            (r.1.as_str(), r.2.as_str(), r.3.as_str(), r.4.as_str())
                == (b.category, b.name, b.name_en, recipe.as_str())
        }) {
            continue;
        }
        // Insert with the times ($6) or refresh the declared fields.
        let sql = if row.is_some() {
            "UPDATE clip_templates SET category = $2, name = $3, name_en = $4, recipe = $5 \
             WHERE merchant_id = 0 AND builtin_key = $1"
        } else {
            "INSERT INTO clip_templates (merchant_id, builtin_key, category, name, name_en, recipe, created_at, updated_at) \
             VALUES (0, $1, $2, $3, $4, $5, $6, $6)"
        };
        let q = sqlx::query(sql)
            .bind(b.key)
            .bind(b.category)
            .bind(b.name)
            .bind(b.name_en)
            .bind(&recipe);
        let q = if row.is_some() { q } else { q.bind(now) };
        q.execute(&mut *tx).await?;
    }
    tx.commit().await
}

/// Saves a merchant's own template; its id.
pub async fn add(
    db: &Db,
    merchant_id: i64,
    category: &str,
    name: &str,
    recipe: &str,
    source_project_id: i64,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO clip_templates (merchant_id, category, name, recipe, source_project_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
    )
    .bind(merchant_id)
    .bind(category)
    .bind(name)
    .bind(recipe)
    .bind(source_project_id)
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
}

/// Deletes one of the merchant's own templates (never a built-in one) with its likes.
pub async fn delete(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query("DELETE FROM clip_templates WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if n > 0 {
        sqlx::query("DELETE FROM clip_template_likes WHERE template_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(n > 0)
}

/// Counts one use of a template (the list sorts by it on request).
pub async fn used(db: &Db, id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE clip_templates SET uses = uses + 1 WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Likes or unlikes a template for one user; answers whether it is liked now.
pub async fn set_like(
    db: &Db,
    merchant_id: i64,
    user_id: i64,
    template_id: i64,
    liked: bool,
) -> sqlx::Result<bool> {
    if liked {
        sqlx::query(
            "INSERT INTO clip_template_likes (merchant_id, user_id, template_id, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (user_id, template_id) DO NOTHING",
        )
        .bind(merchant_id)
        .bind(user_id)
        .bind(template_id)
        .bind(now_ms())
        .execute(&db.pool)
        .await?;
    } else {
        sqlx::query("DELETE FROM clip_template_likes WHERE user_id = $1 AND template_id = $2")
            .bind(user_id)
            .bind(template_id)
            .execute(&db.pool)
            .await?;
    }
    Ok(liked)
}

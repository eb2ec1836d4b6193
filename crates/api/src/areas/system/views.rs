//! The operator's views.

use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct RoleView {
    pub id: i64,
    pub name: String,
    pub permissions: Vec<String>,
    pub created_at: i64,
}

impl RoleView {
    pub fn of(r: &services::auth::Role) -> RoleView {
        RoleView {
            id: r.id,
            name: r.name.clone(),
            permissions: r.permissions(),
            created_at: r.created_at,
        }
    }
}

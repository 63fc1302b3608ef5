//! The moderators' endpoints: the reports, muting a player's chat, closing an account, and
//! the log of every moderator's action. A moderator is made from the command line
//! (`morris admin moderator NAME`).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;

use crate::accounts::UserName;
use crate::app::AppState;
use crate::error::ApiError;
use crate::request::ApiJson;
use crate::session::Visitor;
use crate::store::{LogRow, ModAction, ReportRow};

/// The longest mute, in hours: a month.
pub const MAX_MUTE_HOURS: i64 = 24 * 31;

/// The name of the moderator acting, or 403.
async fn moderator(app: &AppState, visitor: &Visitor) -> Result<String, ApiError> {
    let session = visitor.acting()?;
    let refused = || ApiError::Forbidden("this is for the site's moderators".into());
    let name = session.name.as_ref().ok_or_else(refused)?;
    if !app.store.standing(session.player).await?.moderator {
        return Err(refused());
    }
    Ok(name.as_str().to_owned())
}

/// The query of the reports.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReportsQuery {
    /// Those dealt with too.
    #[serde(default)]
    pub all: bool,
}

/// `GET /api/mod/reports[?all=true]`: the open reports (or all), newest first.
pub async fn reports(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    given: Result<Query<ReportsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Vec<ReportRow>>, ApiError> {
    moderator(&app, &visitor).await?;
    let Query(q) = given.map_err(|_| {
        ApiError::BadRequest("the query does not fit: all=true or all=false".into())
    })?;
    Ok(Json(
        app.store.reports(q.all, crate::store::MAX_LIST).await?,
    ))
}

/// `POST /api/mod/reports/{id}/resolve`
pub async fn resolve(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let by = moderator(&app, &visitor).await?;
    if !app.store.resolve(id, by, app.now_ms() / 1000).await? {
        return Err(ApiError::NotFound(format!("there is no open report {id}")));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The body of a mute.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MuteRequest {
    /// For how many hours; 0 unmutes.
    pub hours: i64,
}

fn account(name: &str) -> Result<UserName, ApiError> {
    UserName::new(name).map_err(|_| {
        ApiError::NotFound(format!(
            "there is no player {}",
            name.chars().take(20).collect::<String>()
        ))
    })
}

/// Does an action to an account, or 404.
async fn act(app: &AppState, name: &str, action: ModAction, by: String) -> Result<(), ApiError> {
    let target = account(name)?;
    let done = app
        .store
        .moderate(target, action.clone(), by, app.now_ms() / 1000)
        .await?;
    let Some(player) = done else {
        return Err(ApiError::NotFound(format!("there is no player {name}")));
    };
    if matches!(action, ModAction::Close(_)) {
        app.sessions.forget_player(player);
    }
    Ok(())
}

/// `POST /api/mod/players/{name}/mute` `{"hours": 24}`: the player may not chat for that
/// long (0: again at once).
pub async fn mute(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(name): Path<String>,
    ApiJson(body): ApiJson<MuteRequest>,
) -> Result<StatusCode, ApiError> {
    let by = moderator(&app, &visitor).await?;
    if !(0..=MAX_MUTE_HOURS).contains(&body.hours) {
        return Err(ApiError::BadRequest(format!(
            "a mute lasts from 0 to {MAX_MUTE_HOURS} hours"
        )));
    }
    let until = (body.hours > 0).then(|| app.now_ms() / 1000 + body.hours * 3600);
    act(&app, &name, ModAction::Mute(until), by).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of a closing.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseRequest {
    /// Why, for the log.
    pub reason: String,
}

/// `POST /api/mod/players/{name}/close` `{"reason": "…"}`: every session of the account ends
/// and it can no longer sign in; its name stays taken and its games stay.
pub async fn close(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(name): Path<String>,
    ApiJson(body): ApiJson<CloseRequest>,
) -> Result<StatusCode, ApiError> {
    let by = moderator(&app, &visitor).await?;
    let reason = crate::text::visible_line(&body.reason).unwrap_or_default();
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > crate::store::MAX_REASON {
        return Err(ApiError::BadRequest(format!(
            "say why the account is closed, in 1 to {} characters",
            crate::store::MAX_REASON
        )));
    }
    if name.eq_ignore_ascii_case(&by) {
        return Err(ApiError::Conflict("this is your own account".into()));
    }
    act(&app, &name, ModAction::Close(reason.to_owned()), by).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/mod/log`: the moderators' actions, newest first (the last 200).
pub async fn log(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
) -> Result<Json<Vec<LogRow>>, ApiError> {
    moderator(&app, &visitor).await?;
    Ok(Json(app.store.mod_log(200).await?))
}

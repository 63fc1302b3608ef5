//! `morris admin`: the site's moderation from the command line, on the database of `morris
//! serve` (running or not): make moderators, read the reports, mute a player's chat, close an
//! account, and read the log of every moderator's action. Each action is logged as done by
//! `command line`. Output is one line per row, fields separated by tabs.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use morris_server::accounts::UserName;
use morris_server::store::{ModAction, Store};

use crate::failure::Failure;

/// `morris admin`.
#[derive(Debug, Args)]
pub struct AdminArgs {
    /// The database file [default: that of `morris serve`].
    #[arg(long)]
    db: Option<PathBuf>,
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Debug, Subcommand)]
enum AdminCommand {
    /// Makes an account a moderator of the site; with --remove, no longer one.
    Moderator {
        /// The user name.
        name: String,
        /// Takes the role away.
        #[arg(long)]
        remove: bool,
    },
    /// Lists the open reports, newest first: id, time, reporter, reported, game, reason.
    Reports {
        /// Those dealt with too (a sixth field says when).
        #[arg(long)]
        all: bool,
    },
    /// Marks a report dealt with.
    Resolve {
        /// The report's id.
        id: i64,
    },
    /// Mutes an account's chat for a number of hours (0 unmutes).
    Mute {
        /// The user name.
        name: String,
        /// How long, in hours (at most a month).
        #[arg(long)]
        hours: i64,
    },
    /// Closes an account: its sessions end and it can no longer sign in.
    Close {
        /// The user name.
        name: String,
        /// Why, for the log.
        #[arg(long)]
        reason: String,
    },
    /// Lists the moderators' actions, newest first: time, moderator, action, account, detail.
    Log,
}

/// The log's name for actions done here.
const BY: &str = "command line";

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A field of a line: tabs and line breaks of what players wrote become spaces.
fn field(text: &str) -> String {
    morris_engine::text::printable(&text.replace(['\t', '\n', '\r'], " ")).into_owned()
}

/// Runs `morris admin`.
pub fn run(args: AdminArgs, out: &mut impl Write) -> Result<(), Failure> {
    let path = args.db.unwrap_or_else(crate::paths::database);
    if !path.exists() {
        return Err(Failure(format!("there is no database {}", path.display())));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let store = Store::open(&path)
            .map_err(|e| Failure(format!("cannot open the database {}: {e}", path.display())))?;
        let account = |name: &str| {
            UserName::new(name).map_err(|_| Failure(format!("there is no account {}", field(name))))
        };
        let act = |name: String, action: ModAction| {
            let store = &store;
            async move {
                let target = account(&name)?;
                match store.moderate(target, action, BY.into(), now()).await? {
                    Some(_) => Ok(()),
                    None => Err(Failure(format!("there is no account {}", field(&name)))),
                }
            }
        };
        match args.command {
            AdminCommand::Moderator { name, remove } => {
                act(name.clone(), ModAction::Moderator(!remove)).await?;
                let what = if remove { "is no longer" } else { "is now" };
                writeln!(out, "{} {what} a moderator", field(&name))?;
            }
            AdminCommand::Mute { name, hours } => {
                let max = morris_server::api::moderation::MAX_MUTE_HOURS;
                if !(0..=max).contains(&hours) {
                    return Err(Failure(format!("a mute lasts from 0 to {max} hours")));
                }
                let until = (hours > 0).then(|| now() + hours * 3600);
                act(name.clone(), ModAction::Mute(until)).await?;
                writeln!(out, "{} muted for {hours} hours", field(&name))?;
            }
            AdminCommand::Close { name, reason } => {
                let reason = reason.trim().to_owned();
                if reason.is_empty() {
                    return Err(Failure("say why the account is closed (--reason)".into()));
                }
                act(name.clone(), ModAction::Close(reason)).await?;
                writeln!(out, "{} is closed", field(&name))?;
            }
            AdminCommand::Reports { all } => {
                for r in store.reports(all, morris_server::store::MAX_LIST).await? {
                    let mut line = format!(
                        "{}\t{}\t{}\t{}\t{}\t{}",
                        r.id,
                        r.created,
                        field(&r.reporter),
                        field(&r.reported),
                        r.game.as_deref().unwrap_or("-"),
                        field(&r.reason)
                    );
                    if all {
                        line.push_str(&format!(
                            "\t{}",
                            r.resolved.map_or_else(|| "open".into(), |t| t.to_string())
                        ));
                    }
                    writeln!(out, "{line}")?;
                }
            }
            AdminCommand::Resolve { id } => {
                if !store.resolve(id, BY.into(), now()).await? {
                    return Err(Failure(format!("there is no open report {id}")));
                }
                writeln!(out, "report {id} is resolved")?;
            }
            AdminCommand::Log => {
                for l in store.mod_log(1000).await? {
                    writeln!(
                        out,
                        "{}\t{}\t{}\t{}\t{}",
                        l.at,
                        field(&l.moderator),
                        l.action,
                        field(&l.target),
                        field(&l.detail)
                    )?;
                }
            }
        }
        Ok(())
    })
}

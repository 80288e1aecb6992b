//! `xiangqi-bot rules [TOPIC] [--lang L]`: the rulebook.

use clap::Args;

use crate::i18n::rulebook::{rulebook, Topic};
use crate::i18n::Lang;

use super::emit;

/// Arguments of `rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// A topic (`horse`, `perpetual-chase`, `official`...); none for the index.
    #[arg(num_args = 0..)]
    pub topic: Vec<String>,
    /// Language: vi, en or zh.
    #[arg(long, default_value = "en")]
    pub lang: Lang,
}

/// Run `rules`; returns the exit code.
#[must_use]
pub fn run(args: RulesArgs) -> i32 {
    let text = args.topic.join(" ");
    if text.trim().is_empty() {
        emit(&rulebook(None, args.lang));
        return 0;
    }
    match text.parse::<Topic>() {
        Ok(topic) => {
            emit(&rulebook(Some(topic), args.lang));
            0
        }
        Err(e) => {
            emit(&format!("error: {}", e.message(args.lang)));
            emit(&rulebook(None, args.lang));
            1
        }
    }
}

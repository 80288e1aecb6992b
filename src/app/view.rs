//! What players see: board pictures with their captions and buttons, clocks, names.

use std::sync::Arc;

use super::bot::{bot_side, DEFAULT_LEVEL};
use super::{Action, Button, Drawing, Image, ImageKind, Reply, Service};
use crate::core::{Color, Move};
use crate::game::{Game, GameRecord};
use crate::i18n::app::{color_word, text, Label, Msg};
use crate::i18n::Lang;
use crate::render::{describe, text_board};

/// A localised button.
pub(crate) fn button(label: Label, action: Action, lang: Lang) -> Button {
    Button {
        label: text(&Msg::Label(label), lang),
        action,
    }
}

/// The buttons under a board of an active game.
pub(crate) fn game_buttons(game: &Game, lang: Lang) -> Vec<Vec<Button>> {
    if !game.is_active() {
        return Vec::new();
    }
    let (g, ply) = (game.record.id, ply_of(game));
    // Nobody picks a move while the bot is thinking of its own.
    let bot_to_move = bot_side(game).is_some_and(|(c, _)| c == game.to_move());
    let pick = (!bot_to_move).then(|| button(Label::PickMove, Action::Pick { game: g, ply }, lang));
    vec![
        pick.into_iter()
            .chain([
                button(Label::Draw, Action::Draw { game: g, ply }, lang),
                button(Label::Resign, Action::Resign { game: g, ply }, lang),
            ])
            .collect(),
        vec![button(Label::Flip, Action::Flip { game: g, ply }, lang)],
    ]
}

/// *Play the bot* at its default level (under `/help` and a finished game).
pub(crate) fn play_bot_button(lang: Lang) -> Button {
    button(
        Label::PlayBot,
        Action::PlayBot {
            level: DEFAULT_LEVEL,
        },
        lang,
    )
}

/// The buttons under a finished game's result: *Rematch*; where the engine runs here, *Play
/// the bot*, and *Review* on a row of its own when there are moves to review.
pub(crate) fn after_game_buttons(game: &Game, bot: bool, lang: Lang) -> Vec<Vec<Button>> {
    let mut row = vec![button(
        Label::Rematch,
        Action::Rematch {
            game: game.record.id,
        },
        lang,
    )];
    if bot {
        row.push(play_bot_button(lang));
    }
    let mut rows = vec![row];
    if bot && !game.record.moves.is_empty() {
        rows.push(vec![Button {
            label: crate::i18n::analysis::text(
                &crate::i18n::analysis::AnalysisMsg::ReviewButton,
                lang,
            ),
            action: Action::Review {
                game: game.record.id,
            },
        }]);
    }
    rows
}

/// Plies played, as carried by buttons.
pub(crate) fn ply_of(game: &Game) -> u32 {
    u32::try_from(game.record.moves.len()).unwrap_or(u32::MAX)
}

/// The clocks line, if the game has a clock.
pub(crate) fn clocks_text(
    record: &GameRecord,
    to_move: Color,
    now: u64,
    lang: Lang,
) -> Option<String> {
    let c = record.clock?;
    let tc = record.time_control;
    let active = record.status == crate::game::GameStatus::Active;
    let red = c.display(tc, true, active && to_move == Color::Red, now);
    let black = c.display(tc, false, active && to_move == Color::Black, now);
    Some(text(&Msg::Clocks { red, black }, lang))
}

/// "Name (Red) to move." / check notice.
pub(crate) fn to_move_text(game: &Game, lang: Lang) -> String {
    let side = game.to_move();
    let player = game.player(side).name.clone();
    if game.position().is_check() {
        format!(
            "{} {}",
            text(
                &Msg::Check {
                    player: player.clone()
                },
                lang
            ),
            text(
                &Msg::ToMove {
                    player,
                    color: color_word(side.name(), lang).into()
                },
                lang
            )
        )
    } else {
        text(
            &Msg::ToMove {
                player,
                color: color_word(side.name(), lang).into(),
            },
            lang,
        )
    }
}

impl Service {
    /// A reply with the board picture of `game` seen from `viewer`, captioned `caption`. The
    /// picture is described here and drawn when the reply is committed ([`Service::draw`]),
    /// while the change is being flushed.
    pub(crate) async fn board_reply(
        &self,
        game: &Game,
        viewer: Color,
        caption: String,
        buttons: Vec<Vec<Button>>,
        lang: Lang,
    ) -> Reply {
        let position = game.position();
        let last_move: Option<Move> = game.arbiter.plies().last().map(|p| p.mv);
        let now = self.now();
        let rec = &game.record;
        let clock = |red: bool| {
            rec.clock.map(|c| {
                let to_move = rec.status == crate::game::GameStatus::Active
                    && (position.turn() == Color::Red) == red;
                c.display(rec.time_control, red, to_move, now)
            })
        };
        let drawing = Drawing {
            fen: position.to_fen(),
            last_move: last_move.map(|m| m.to_string()),
            black_below: viewer == Color::Black,
            red: (rec.red.name.clone(), clock(true)),
            black: (rec.black.name.clone(), clock(false)),
            arrows: Vec::new(),
        };
        Reply {
            text: caption,
            image: Some(Image {
                bytes: Arc::new(Vec::new()),
                filename: format!("board-{}-{}.png", rec.id, rec.moves.len()),
                kind: ImageKind::Png,
                alt: describe(position, lang),
                text_board: Some(text_board(position, last_move, viewer)),
                drawing: self.config.images.then_some(drawing),
            }),
            buttons,
            ..Reply::default()
        }
    }
}

//! What players see: board pictures with their captions and buttons, clocks, names.

use super::action::Action;
use super::bot::{bot_side, DEFAULT_LEVEL};
use super::chat::{Button, Image, Reply};
use super::drawing::Drawing;
use super::service::Service;
use crate::core::{Color, Move, Position, Square};
use crate::game::{Game, GameRecord};
use crate::i18n::app::{color_word, text, Label, Msg};
use crate::i18n::Lang;
use crate::notation::{format_move, Notation};

/// A localised button.
pub(crate) fn button(label: Label, action: Action, lang: Lang) -> Button {
    Button {
        label: text(&Msg::Label(label), lang),
        action,
    }
}

/// The buttons under a board of an active game; with `web` (the web board is served), *Open
/// board* beside *Flip*.
pub(crate) fn game_buttons(game: &Game, web: bool, lang: Lang) -> Vec<Vec<Button>> {
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
        std::iter::once(button(Label::Flip, Action::Flip { game: g, ply }, lang))
            .chain(web.then(|| button(Label::WebBoard, Action::Board { game: g }, lang)))
            .collect(),
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

/// Whether some notation reads `text` as a move (so it was meant as one).
pub(crate) fn looks_like_move(text: &str) -> bool {
    text.chars().count() <= 16
        && crate::notation::Notation::ALL
            .iter()
            .any(|&n| crate::notation::parse_text(text, n).is_ok())
}

/// The picker's prompts for `player`: choose a piece, then (named) its move.
pub(crate) fn pick_prompt(player: String) -> impl Fn(Option<String>) -> Msg {
    move |piece| match piece {
        None => Msg::PickPiece {
            player: player.clone(),
        },
        Some(piece) => Msg::PickTarget {
            player: player.clone(),
            piece,
        },
    }
}

/// The actions of a move picker's steps.
pub(crate) struct Picks<'a> {
    /// A piece chosen.
    pub from: &'a dyn Fn(Square) -> Action,
    /// A move chosen.
    pub to: &'a dyn Fn(Move) -> Action,
    /// Back to the pieces.
    pub back: Action,
}

/// A two-step move picker over `pos` for the acting user: with no `from`, the pieces that can
/// move; with `from`, that piece's moves and *Back*. `prompt` gets the chosen piece's name.
/// The picker is posted where everyone sees it (Telegram cannot show it to one member
/// alone): it speaks the channel's language `lang`, its moves in `notation` (the user's
/// choice, else the usual one of `lang`: `Ctx::public_notation`).
pub(crate) fn pick_menu(
    lang: Lang,
    notation: Notation,
    pos: &Position,
    from: Option<Square>,
    prompt: &dyn Fn(Option<String>) -> Msg,
    picks: &Picks<'_>,
) -> Reply {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let name = |sq: Square| {
        pos.piece_at(sq).map_or_else(String::new, |p| {
            format!("{} {sq}", crate::i18n::role_name(p.role, p.color, lang))
        })
    };
    let (prompt, buttons): (String, Vec<Button>) = match from {
        None => {
            let mut froms: Vec<Square> = moves.iter().map(|m| m.from).collect();
            froms.sort();
            froms.dedup();
            (
                text(&prompt(None), lang),
                froms
                    .into_iter()
                    .map(|f| Button {
                        label: name(f),
                        action: (picks.from)(f),
                    })
                    .collect(),
            )
        }
        Some(f) => {
            let mut list: Vec<Button> = moves
                .iter()
                .filter(|m| m.from == f)
                .map(|&m| Button {
                    label: crate::i18n::with_iccs(
                        &format_move(pos, m, notation),
                        &m.to_string(),
                        lang,
                    ),
                    action: (picks.to)(m),
                })
                .collect();
            list.push(button(Label::Back, picks.back, lang));
            (text(&prompt(Some(name(f))), lang), list)
        }
    };
    // Rows of at most five: small enough for Telegram's eight-per-row limit and for phones.
    let rows = buttons.chunks(5).map(<[Button]>::to_vec).collect();
    Reply {
        text: prompt,
        buttons: rows,
        menu: true,
        track: true,
        ..Reply::default()
    }
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

/// The side a board of `game` is drawn from when nobody in particular asked for it: in a game
/// against the bot the human's, so their side stays at the bottom after their move and the
/// bot's alike; otherwise the side to move.
pub(crate) fn seen_from(game: &Game) -> Color {
    bot_side(game).map_or_else(|| game.to_move(), |(bot, _)| bot.other())
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
            position: position.clone(),
            last_move,
            black_below: viewer == Color::Black,
            red: (rec.red.name.clone(), clock(true)),
            black: (rec.black.name.clone(), clock(false)),
            arrows: Vec::new(),
            described_in: None,
        };
        Reply {
            text: caption,
            image: Some(Image::board(
                format!("board-{}-{}.png", rec.id, rec.moves.len()),
                drawing,
                lang,
                self.config.images,
            )),
            buttons,
            ..Reply::default()
        }
    }
}

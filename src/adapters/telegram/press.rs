//! Button presses: what kind of message was pressed, and what the service's replies to the
//! press become (the press's answer, edits of the pressed message, new messages, buttons taken
//! away). Pure, so the tests call it directly.

use teloxide::types::{InlineKeyboardButtonKind, MessageId, UserId};

use super::ops::{
    self, callback_text, keyboard, read_callback_data, reply_ops, retire_ops, tracking, Op,
    Pressed, Track,
};
use crate::app::{Action, Reply};
use crate::platform::{Platform, UserKey};

pub(super) fn pressed_kind(msg: Option<&teloxide::types::Message>) -> Pressed {
    let Some(kb) = msg.and_then(teloxide::types::Message::reply_markup) else {
        return Pressed::Other;
    };
    let actions: Vec<Action> = kb
        .inline_keyboard
        .iter()
        .flatten()
        .filter_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => read_callback_data(d).0,
            _ => None,
        })
        .collect();
    if actions.iter().any(Action::is_picker_step) {
        Pressed::Picker
    } else if actions.iter().any(Action::is_board_button) {
        Pressed::Board
    } else if actions.is_empty() {
        Pressed::Other
    } else {
        Pressed::Question
    }
}

/// The answer to a button press by `user` (called `name`): its private notices, for
/// `answerCallbackQuery`, and the calls for the rest, each with what to tell the service once
/// it is shown. A menu step edits the picker it was chosen in, a question or picker that took
/// effect loses its buttons, a question for the presser alone is posted with their name and
/// buttons only they may press.
pub(super) fn press_jobs(
    replies: &[Reply],
    pressed: Pressed,
    message_id: MessageId,
    user: UserId,
    name: &str,
) -> (String, Vec<(Op, Option<Track>)>) {
    let user_key = UserKey::on(Platform::Telegram, user.0);
    let mut notice: Vec<&str> = Vec::new();
    let mut ops: Vec<(Op, Option<Track>)> = Vec::new();
    let mut retired: Vec<String> = Vec::new();
    let mut took_effect = false;
    let mut edited = false;
    // The calls for `reply`, its keyboard's message tracked if it asks to be.
    let tracked = |reply: &Reply, only_for| {
        let track = tracking(reply, &user_key);
        let mut out: Vec<(Op, Option<Track>)> = Vec::new();
        for op in reply_ops(reply, only_for, None) {
            let t = if ops::has_keyboard(&op) && out.iter().all(|(_, t)| t.is_none()) {
                track.clone()
            } else {
                None
            };
            out.push((op, t));
        }
        out
    };
    for r in replies {
        retired.extend(r.retire.iter().cloned());
        if !r.shows_something() {
            continue;
        }
        if r.private && r.buttons.is_empty() && r.image.is_none() {
            notice.push(&r.text);
        } else if r.private {
            // A question for the presser alone (confirm resignation): shown to the chat,
            // answerable only by them.
            let named = Reply {
                text: format!("{name}: {}", r.text),
                ..r.clone()
            };
            ops.extend(tracked(&named, Some(user)));
        } else if r.menu && pressed == Pressed::Picker && !edited {
            edited = true;
            let op = Op::Edit {
                message_id,
                text: ops::split_at_limit(&r.text, ops::MAX_TEXT).0.to_string(),
                keyboard: keyboard(&r.buttons, None),
            };
            // The same message, already known to the service.
            ops.push((op, None));
        } else {
            took_effect |= !r.menu;
            ops.extend(tracked(r, None));
        }
    }
    let cleared = took_effect && !edited && matches!(pressed, Pressed::Picker | Pressed::Question);
    if cleared {
        ops.insert(0, (Op::ClearKeyboard { message_id }, None));
    }
    // The pressed message was just cleared or edited: it is not cleared again.
    let skip = (cleared || edited).then_some(message_id);
    ops.extend(retire_ops(&retired, skip).into_iter().map(|op| (op, None)));
    (callback_text(&notice.join("\n")), ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presses_map_to_answers_edits_and_cleared_keyboards() {
        let id = teloxide::types::MessageId(9);
        let press_jobs = |replies: &[Reply], pressed, id| {
            super::press_jobs(replies, pressed, id, UserId(7), "An")
        };
        let private = Reply::private("not yours");
        let (notice, ops) = press_jobs(std::slice::from_ref(&private), Pressed::Question, id);
        assert_eq!(notice, "not yours");
        assert!(ops.is_empty(), "a refusal leaves the buttons");

        let menu = Reply {
            text: "Pick".into(),
            menu: true,
            track: true,
            buttons: vec![vec![crate::app::Button {
                label: "Cannon h2".into(),
                action: Action::PickFrom {
                    game: 1,
                    ply: 2,
                    from: crate::core::Square::parse("h2").unwrap(),
                },
            }]],
            ..Reply::default()
        };
        let (_, ops) = press_jobs(std::slice::from_ref(&menu), Pressed::Picker, id);
        assert!(matches!(&ops[..], [(Op::Edit { .. }, None)]));
        // A new picker is tracked, under the user who opened it.
        let (_, ops) = press_jobs(std::slice::from_ref(&menu), Pressed::Board, id);
        match &ops[..] {
            [(Op::Text { .. }, Some(track))] => assert_eq!(track.user, "tg:7"),
            other => panic!("{other:?}"),
        }

        let public = Reply::text("accepted");
        let retired = Reply::retire(vec!["9".into(), "12".into()]);
        let (_, ops) = press_jobs(&[public.clone(), retired], Pressed::Question, id);
        // The pressed question is cleared once, the other retired message too.
        assert!(matches!(
            &ops[..],
            [
                (
                    Op::ClearKeyboard {
                        message_id: MessageId(9)
                    },
                    None
                ),
                (Op::Text { .. }, None),
                (
                    Op::ClearKeyboard {
                        message_id: MessageId(12)
                    },
                    None
                )
            ]
        ));
        let (_, ops) = press_jobs(&[public], Pressed::Board, id);
        assert!(matches!(&ops[..], [(Op::Text { .. }, None)]));

        let confirm = Reply {
            buttons: vec![vec![crate::app::Button {
                label: "Yes".into(),
                action: Action::ConfirmResign {
                    game: 1,
                    ply: 2,
                    by: None,
                },
            }]],
            ..Reply::private("Really?")
        };
        let (notice, ops) = press_jobs(&[confirm], Pressed::Board, id);
        assert!(notice.is_empty());
        match &ops[..] {
            [(
                Op::Text {
                    text,
                    keyboard: Some(kb),
                    ..
                },
                None,
            )] => {
                assert_eq!(text, "An: Really?");
                let data = match &kb.inline_keyboard[0][0].kind {
                    InlineKeyboardButtonKind::CallbackData(d) => d.clone(),
                    other => panic!("{other:?}"),
                };
                assert_eq!(data, "xq:Y:1:2|7");
            }
            other => panic!("{other:?}"),
        }
    }
}

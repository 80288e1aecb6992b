//! Proves the fake Telegram Bot API server (tests/support/telegram_fake.rs) is good enough for
//! the Telegram adapter: a real teloxide `Bot` talks to it over HTTP, including a full
//! `Dispatcher` long-polling loop.

use crate::telegram_fake;

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use telegram_fake::{FakeChat, FakeTelegram, FakeUser};
use teloxide::payloads::setters::*;
use teloxide::prelude::*;
use teloxide::types::{
    BotCommand, BotCommandScope, ChatKind, InlineKeyboardButton, InlineKeyboardMarkup, InputFile,
    MessageId, PublicChatKind, Recipient, ThreadId, UpdateKind,
};
use teloxide::{ApiError, RequestError};

const TOKEN: &str = "123456:TEST-token_abc";
const WAIT: Duration = Duration::from_secs(5);

fn bot_for(fake: &FakeTelegram) -> Bot {
    Bot::new(TOKEN).set_api_url(fake.url().parse().unwrap())
}

fn alice() -> FakeUser {
    FakeUser::new(1001, "Alice")
        .username("alice")
        .language_code("en")
}

fn keyboard() -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new(vec![
        vec![InlineKeyboardButton::callback("Resign", "resign:1")],
        vec![
            InlineKeyboardButton::callback("Draw?", "draw:1"),
            InlineKeyboardButton::callback("Undo", "undo:1"),
        ],
    ])
}

/// A small RGB PNG made with the `png` crate.
fn png_bytes(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        let pixels: Vec<u8> = (0..width * height * 3).map(|i| (i % 251) as u8).collect();
        writer.write_image_data(&pixels).unwrap();
    }
    out
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

async fn raw_post_json(fake: &FakeTelegram, method: &str, body: Value) -> (u16, Value) {
    let url = format!("{}bot{TOKEN}/{method}", fake.url());
    let response = reqwest::Client::new()
        .post(url)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn get_me_returns_the_bot() {
    let fake = FakeTelegram::start(TOKEN).await;
    let me = bot_for(&fake).get_me().await.unwrap();
    assert_eq!(me.id.0, 123456);
    assert!(me.is_bot);
    assert_eq!(me.username(), "xiangqi_test_bot");
    assert!(fake.sent().iter().any(|c| c.is("getMe")));
}

#[tokio::test]
async fn send_message_with_inline_keyboard() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let chat = FakeChat::private(&alice());
    fake.register_chat(&chat);

    let msg = bot
        .send_message(ChatId(chat.id), "Your move")
        .reply_markup(keyboard())
        .await
        .unwrap();
    assert_eq!(msg.id, MessageId(1));
    assert_eq!(msg.text(), Some("Your move"));
    assert_eq!(msg.reply_markup(), Some(&keyboard()));
    assert_eq!(msg.from.as_ref().map(|u| u.id.0), Some(123456));
    assert!(msg.chat.is_private());

    let call = fake.wait_for(|c| c.is("sendMessage"), WAIT).await.unwrap();
    assert_eq!(call.chat_id, Some(chat.id));
    assert_eq!(call.text.as_deref(), Some("Your move"));
    assert_eq!(call.message_id, Some(1));
    assert_eq!(call.callback_data(), ["resign:1", "draw:1", "undo:1"]);

    // Message ids increase per chat.
    let second = bot.send_message(ChatId(chat.id), "again").await.unwrap();
    assert_eq!(second.id, MessageId(2));
    let stored = fake.message(chat.id, 1).unwrap();
    assert_eq!(stored.buttons().len(), 3);
}

#[tokio::test]
async fn send_photo_stores_the_uploaded_png() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let chat = FakeChat::group(-4_000_000_001, "Xiangqi club");
    fake.register_chat(&chat);
    let png = png_bytes(450, 500);

    let msg = bot
        .send_photo(
            ChatId(chat.id),
            InputFile::memory(png.clone()).file_name("board.png"),
        )
        .caption("Red to move")
        .reply_markup(keyboard())
        .await
        .unwrap();
    let sizes = msg.photo().unwrap();
    let largest = sizes.last().unwrap();
    assert_eq!((largest.width, largest.height), (450, 500));
    assert!(
        sizes.len() > 1,
        "thumbnails are listed first, like Telegram"
    );
    assert_eq!(msg.caption(), Some("Red to move"));

    let call = fake.wait_for(|c| c.is("sendPhoto"), WAIT).await.unwrap();
    let uploaded = call.photo.clone().unwrap();
    assert_eq!(uploaded, png);
    let (w, h, pixels) = decode_png(&uploaded);
    assert_eq!((w, h), (450, 500));
    assert_eq!(pixels.len(), 450 * 500 * 3);
    assert_eq!(call.caption.as_deref(), Some("Red to move"));
    assert_eq!(call.callback_data().len(), 3);

    // The stored message has the bytes too, and its file id can be sent again.
    let stored = fake.message(chat.id, msg.id.0).unwrap();
    assert_eq!(stored.photo_bytes.as_deref(), Some(&png[..]));
    let again = bot
        .send_photo(ChatId(chat.id), InputFile::file_id(largest.file.id.clone()))
        .await
        .unwrap();
    assert_eq!(
        again.photo().unwrap().last().unwrap().file.id,
        largest.file.id
    );
    assert_eq!(
        fake.sent_of("sendPhoto")[1].photo.as_deref(),
        Some(&png[..])
    );

    // Not an image: Telegram's error.
    let err = bot
        .send_photo(
            ChatId(chat.id),
            InputFile::memory(b"not a picture".to_vec()),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::ImageProcessFailed)),
        "{err:?}"
    );
}

#[tokio::test]
async fn long_poll_receives_a_pushed_message_once() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let user = alice();
    let chat = FakeChat::private(&user);

    let poll = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().timeout(5).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !poll.is_finished(),
        "the poll is held while there is nothing to deliver"
    );
    let message_id = fake.push_message(&chat, &user, "/new h2e2", None);
    let updates = tokio::time::timeout(WAIT, poll)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(updates.len(), 1);
    let UpdateKind::Message(msg) = &updates[0].kind else {
        panic!("{:?}", updates[0])
    };
    assert_eq!(msg.id.0, message_id);
    assert_eq!(msg.text(), Some("/new h2e2"));
    assert_eq!(
        msg.from.as_ref().unwrap().language_code.as_deref(),
        Some("en")
    );
    assert_eq!(
        msg.from.as_ref().unwrap().username.as_deref(),
        Some("alice")
    );

    // Without an offset the update is delivered again; with the next offset it is not.
    let again = bot.get_updates().await.unwrap();
    assert_eq!(again.len(), 1);
    let next = updates[0].id.as_offset();
    let started = Instant::now();
    let none = bot.get_updates().offset(next).timeout(1).await.unwrap();
    assert!(none.is_empty());
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "held for the timeout"
    );
    assert_eq!(fake.pending_updates(), 0);

    // A negative offset keeps only the newest updates (teloxide's drop_pending_updates).
    for text in ["a", "b", "c"] {
        fake.push_message(&chat, &user, text, None);
    }
    let last = bot.get_updates().offset(-1).await.unwrap();
    assert_eq!(last.len(), 1);
    let UpdateKind::Message(msg) = &last[0].kind else {
        panic!()
    };
    assert_eq!(msg.text(), Some("c"));
    assert_eq!(fake.pending_updates(), 1);
}

#[tokio::test]
async fn forum_topics_and_limits() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let user = alice();
    let forum = FakeChat::forum(-1_001_234_567_890, "Xiangqi forum");
    for i in 0..3 {
        fake.push_message(&forum, &user, &format!("move {i}"), Some(77));
    }
    let first = bot.get_updates().limit(2).await.unwrap();
    assert_eq!(first.len(), 2);
    let UpdateKind::Message(msg) = &first[0].kind else {
        panic!()
    };
    assert_eq!(msg.thread_id, Some(ThreadId(MessageId(77))));
    assert!(msg.is_topic_message);
    let rest = bot
        .get_updates()
        .offset(first[1].id.as_offset())
        .await
        .unwrap();
    assert_eq!(rest.len(), 1);

    let sent = bot
        .send_message(ChatId(forum.id), "in topic")
        .message_thread_id(ThreadId(MessageId(77)))
        .await
        .unwrap();
    assert_eq!(sent.thread_id, Some(ThreadId(MessageId(77))));
    assert!(sent.is_topic_message);
    assert_eq!(fake.sent_of("sendMessage")[0].thread_id, Some(77));

    let full = bot.get_chat(ChatId(forum.id)).await.unwrap();
    assert_eq!(full.title(), Some("Xiangqi forum"));
    let Recipient::Id(_) = Recipient::from(ChatId(forum.id)) else {
        panic!()
    };
    let private = bot.get_chat(ChatId(user.id)).await;
    assert!(
        matches!(private, Err(RequestError::Api(ApiError::ChatNotFound))),
        "never seen: {private:?}"
    );
    fake.push_message(&FakeChat::private(&user), &user, "hi", None);
    let private = bot.get_chat(ChatId(user.id)).await.unwrap();
    assert_eq!(private.username(), Some("alice"));
    let msg_chat = fake.messages(forum.id);
    assert!(matches!(
        serde_json::from_value::<teloxide::types::Chat>(msg_chat[0].json["chat"].clone()).unwrap().kind,
        ChatKind::Public(ref p) if matches!(p.kind, PublicChatKind::Supergroup(ref s) if s.is_forum)
    ));
}

#[tokio::test]
async fn injected_429_is_reported_as_retry_after() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let chat = FakeChat::private(&alice());
    fake.register_chat(&chat);

    fake.fail_next("sendMessage", 429, Some(7));
    let err = bot
        .send_message(ChatId(chat.id), "hello")
        .await
        .unwrap_err();
    let RequestError::RetryAfter(secs) = err else {
        panic!("expected RetryAfter, got {err:?}")
    };
    assert_eq!(secs.seconds(), 7);
    // Only the next call fails; the failed one did not send anything.
    bot.send_message(ChatId(chat.id), "hello").await.unwrap();
    assert_eq!(fake.sent_of("sendMessage").len(), 1);
    let calls = fake.calls();
    assert_eq!(
        calls
            .iter()
            .filter(|c| c.is("sendMessage"))
            .map(|c| c.status)
            .collect::<Vec<_>>(),
        [429, 200]
    );

    // Other injected errors map to teloxide's ApiError variants.
    fake.fail_next("sendMessage", 403, None);
    let err = bot
        .send_message(ChatId(chat.id), "hello")
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::BotBlocked)),
        "{err:?}"
    );

    // 5xx (teloxide would sleep 10 s before reporting it, so check it over raw HTTP).
    fake.fail_next("sendMessage", 502, None);
    let (status, body) = raw_post_json(
        &fake,
        "sendMessage",
        json!({"chat_id": chat.id, "text": "x"}),
    )
    .await;
    assert_eq!(status, 502);
    assert_eq!(
        body,
        json!({"ok": false, "error_code": 502, "description": "Bad Gateway"})
    );
    let (status, body) = raw_post_json(
        &fake,
        "sendMessage",
        json!({"chat_id": chat.id, "text": "x"}),
    )
    .await;
    assert_eq!((status, body["ok"].clone()), (200, json!(true)));
}

#[tokio::test]
async fn edits_update_the_stored_message() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let chat = FakeChat::private(&alice());
    fake.register_chat(&chat);
    let msg = bot
        .send_message(ChatId(chat.id), "Board v1")
        .reply_markup(keyboard())
        .await
        .unwrap();

    let edited = bot
        .edit_message_text(ChatId(chat.id), msg.id, "Board v2")
        .reply_markup(keyboard())
        .await
        .unwrap();
    assert_eq!(edited.text(), Some("Board v2"));
    assert!(edited.edit_date().is_some());
    let stored = fake.message(chat.id, msg.id.0).unwrap();
    assert_eq!(stored.text.as_deref(), Some("Board v2"));
    assert_eq!(stored.buttons().len(), 3);

    // Same text and markup again: Telegram refuses.
    let err = bot
        .edit_message_text(ChatId(chat.id), msg.id, "Board v2")
        .reply_markup(keyboard())
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageNotModified)),
        "{err:?}"
    );

    // Editing without reply_markup drops the keyboard, as Telegram does.
    bot.edit_message_text(ChatId(chat.id), msg.id, "Board v3")
        .await
        .unwrap();
    let stored = fake.message(chat.id, msg.id.0).unwrap();
    assert_eq!(stored.text.as_deref(), Some("Board v3"));
    assert!(stored.reply_markup.is_none());

    bot.edit_message_reply_markup(ChatId(chat.id), msg.id)
        .reply_markup(keyboard())
        .await
        .unwrap();
    assert_eq!(fake.message(chat.id, msg.id.0).unwrap().buttons().len(), 3);

    // Photo captions and media.
    let photo = bot
        .send_photo(ChatId(chat.id), InputFile::memory(png_bytes(20, 10)))
        .await
        .unwrap();
    bot.edit_message_caption(ChatId(chat.id), photo.id)
        .caption("Black wins")
        .await
        .unwrap();
    assert_eq!(
        fake.message(chat.id, photo.id.0)
            .unwrap()
            .caption
            .as_deref(),
        Some("Black wins")
    );
    let new_png = png_bytes(30, 40);
    let media = teloxide::types::InputMedia::Photo(
        teloxide::types::InputMediaPhoto::new(InputFile::memory(new_png.clone())).caption("v2"),
    );
    let replaced = bot
        .edit_message_media(ChatId(chat.id), photo.id, media)
        .await
        .unwrap();
    let largest = replaced.photo().unwrap().last().unwrap();
    assert_eq!((largest.width, largest.height), (30, 40));
    assert_eq!(
        fake.message(chat.id, photo.id.0).unwrap().photo_bytes,
        Some(new_png)
    );

    let err = bot
        .edit_message_text(ChatId(chat.id), MessageId(999), "x")
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageToEditNotFound)),
        "{err:?}"
    );

    bot.delete_message(ChatId(chat.id), msg.id).await.unwrap();
    assert!(fake.message(chat.id, msg.id.0).is_none());
    let err = bot
        .delete_message(ChatId(chat.id), msg.id)
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageToDeleteNotFound)),
        "{err:?}"
    );
}

#[tokio::test]
async fn callback_query_round_trip() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let user = alice();
    let chat = FakeChat::supergroup(-1_009_999_999_999, "Club");
    fake.register_chat(&chat);
    let board = bot
        .send_message(ChatId(chat.id), "Board")
        .reply_markup(keyboard())
        .await
        .unwrap();

    let query_id = fake.push_callback(&chat, &user, board.id.0, "draw:1");
    let updates = bot.get_updates().timeout(2).await.unwrap();
    let UpdateKind::CallbackQuery(query) = &updates[0].kind else {
        panic!("{:?}", updates[0])
    };
    assert_eq!(query.id.0, query_id);
    assert_eq!(query.data.as_deref(), Some("draw:1"));
    assert_eq!(query.from.id.0, 1001);
    let message = query.message.as_ref().unwrap();
    assert_eq!(message.id(), board.id);
    assert_eq!(message.chat().id, ChatId(chat.id));
    assert_eq!(
        message.regular_message().unwrap().reply_markup(),
        Some(&keyboard())
    );

    bot.answer_callback_query(query.id.clone())
        .text("Draw offered")
        .await
        .unwrap();
    let answered = fake.answered_callbacks();
    assert_eq!(answered.len(), 1);
    assert_eq!(answered[0].query_id, query_id);
    assert_eq!(answered[0].data, "draw:1");
    assert_eq!(answered[0].text.as_deref(), Some("Draw offered"));
    assert!(!answered[0].show_alert);

    let err = bot
        .answer_callback_query(query.id.clone())
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::InvalidQueryId)),
        "{err:?}"
    );
}

#[tokio::test]
async fn telegram_validation_errors() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let err = bot.send_message(ChatId(42), "hi").await.unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::ChatNotFound)),
        "{err:?}"
    );

    let chat = FakeChat::private(&alice());
    fake.register_chat(&chat);
    let long_data = "x".repeat(65);
    let err = bot
        .send_message(ChatId(chat.id), "hi")
        .reply_markup(InlineKeyboardMarkup::new(vec![vec![
            InlineKeyboardButton::callback("b", long_data),
        ]]))
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::ButtonDataInvalid)),
        "{err:?}"
    );
    let err = bot.send_message(ChatId(chat.id), "  ").await.unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageTextIsEmpty)),
        "{err:?}"
    );
    let err = bot
        .send_message(ChatId(chat.id), "x".repeat(4097))
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageIsTooLong)),
        "{err:?}"
    );
    bot.send_message(ChatId(chat.id), "象".repeat(4096))
        .await
        .unwrap();
    // Private chats can be addressed by @username too.
    bot.send_message(Recipient::ChannelUsername("@alice".into()), "by name")
        .await
        .unwrap();
    assert_eq!(
        fake.sent_of("sendMessage").last().unwrap().chat_id,
        Some(chat.id)
    );
}

#[tokio::test]
async fn commands_are_stored_per_scope_and_language() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let en = vec![
        BotCommand::new("new", "Start a game"),
        BotCommand::new("resign", "Resign"),
    ];
    let vi = vec![BotCommand::new("new", "Ván mới")];
    bot.set_my_commands(en.clone()).await.unwrap();
    bot.set_my_commands(vi.clone())
        .language_code("vi")
        .await
        .unwrap();
    bot.set_my_commands(en.clone())
        .scope(BotCommandScope::AllGroupChats)
        .await
        .unwrap();

    let sets = fake.commands();
    assert_eq!(sets.len(), 3);
    let vi_set = sets.iter().find(|s| s.language_code == "vi").unwrap();
    assert_eq!(vi_set.scope, json!({"type": "default"}));
    assert_eq!(vi_set.commands, [("new".to_owned(), "Ván mới".to_owned())]);
    assert!(sets
        .iter()
        .any(|s| s.scope == json!({"type": "all_group_chats"})));

    assert_eq!(bot.get_my_commands().await.unwrap(), en);
    assert_eq!(bot.get_my_commands().language_code("vi").await.unwrap(), vi);
    assert!(bot
        .get_my_commands()
        .language_code("zh")
        .await
        .unwrap()
        .is_empty());

    let err = bot
        .set_my_commands([BotCommand::new("New", "Upper case")])
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::Api(ApiError::Unknown(ref d)) if d == "Bad Request: BOT_COMMAND_INVALID")
    );

    bot.send_chat_action(ChatId(1), teloxide::types::ChatAction::Typing)
        .await
        .unwrap_err();
    fake.register_chat(&FakeChat::private(&alice()));
    bot.send_chat_action(ChatId(1001), teloxide::types::ChatAction::UploadPhoto)
        .await
        .unwrap();
    assert_eq!(
        fake.sent_of("sendChatAction")[0].params["action"],
        json!("upload_photo")
    );
}

#[tokio::test]
async fn raw_http_encodings_and_method_case() {
    let fake = FakeTelegram::start(TOKEN).await;
    let user = alice();
    let chat = FakeChat::private(&user);
    fake.register_chat(&chat);
    let client = reqwest::Client::new();
    let base = format!("{}bot{TOKEN}", fake.url());

    // Method names are case-insensitive.
    let (status, body) = raw_post_json(
        &fake,
        "SENDMESSAGE",
        json!({"chat_id": chat.id, "text": "upper"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["text"], "upper");
    assert_eq!(fake.sent().last().unwrap().method, "sendMessage");

    // GET with query parameters.
    let body: Value = client
        .get(format!("{base}/GetMe"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["result"]["username"], "xiangqi_test_bot");
    let body: Value = client
        .get(format!(
            "{base}/sendMessage?chat_id={}&text=query%20string",
            chat.id
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["result"]["text"], "query string");

    // url-encoded form with reply_markup as a JSON string.
    let markup = json!({"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}).to_string();
    let body: Value = client
        .post(format!("{base}/sendmessage"))
        .form(&[
            ("chat_id", chat.id.to_string()),
            ("text", "form".into()),
            ("reply_markup", markup.clone()),
        ])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        body["result"]["reply_markup"]["inline_keyboard"][0][0]["callback_data"],
        "go"
    );

    // multipart with the photo as a file field named "photo", other fields as text parts.
    let forum = FakeChat::forum(-1_005_555_555_555, "Forum");
    fake.register_chat(&forum);
    // A forum's topic must exist to be written in.
    fake.add_topic(&forum, 5, "Topic");
    let png = png_bytes(8, 9);
    let form = reqwest::multipart::Form::new()
        .text("chat_id", forum.id.to_string())
        .text("caption", "direct upload")
        .text("parse_mode", "HTML")
        .text("message_thread_id", "5")
        .text("reply_markup", markup)
        .part(
            "photo",
            reqwest::multipart::Part::bytes(png.clone()).file_name("b.png"),
        );
    let response = client
        .post(format!("{base}/sendPhoto"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["ok"], true, "{body}");
    assert_eq!(body["result"]["photo"][0]["width"], 8);
    assert_eq!(body["result"]["photo"][0]["height"], 9);
    assert_eq!(body["result"]["message_thread_id"], 5);
    assert_eq!(body["result"]["is_topic_message"], true);
    let call = fake.sent_of("sendPhoto").pop().unwrap();
    assert_eq!(call.photo, Some(png.clone()));
    assert_eq!(
        (call.thread_id, call.parse_mode.as_deref()),
        (Some(5), Some("HTML"))
    );
    assert_eq!(call.callback_data(), ["go"]);
    // Uploaded files can be downloaded with getFile.
    let file_id = body["result"]["photo"][0]["file_id"].as_str().unwrap();
    let (_, file) = raw_post_json(&fake, "getFile", json!({"file_id": file_id})).await;
    let path = file["result"]["file_path"].as_str().unwrap();
    let downloaded = client
        .get(format!("{}file/bot{TOKEN}/{path}", fake.url()))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(&downloaded[..], &png[..]);

    // Unknown method, bad token, malformed bodies: JSON errors like Telegram's, never a panic.
    let (status, body) = raw_post_json(&fake, "sendHologram", json!({})).await;
    assert_eq!(status, 404);
    assert_eq!(
        body,
        json!({"ok": false, "error_code": 404, "description": "Not Found: method not found"})
    );
    let response = client
        .post(format!("{}botWRONG/getMe", fake.url()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    for bad_body in ["{not json", "[1,2]"] {
        let response = client
            .post(format!("{base}/sendMessage"))
            .header("content-type", "application/json")
            .body(bad_body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400);
        let body: Value = response.json().await.unwrap();
        assert!(
            body["description"]
                .as_str()
                .unwrap()
                .starts_with("Bad Request: "),
            "{body}"
        );
    }
    let (status, _) =
        raw_post_json(&fake, "sendMessage", json!({"chat_id": "abc", "text": "x"})).await;
    assert_eq!(status, 400);
    let (status, _) = raw_post_json(
        &fake,
        "sendMessage",
        json!({"chat_id": chat.id, "text": "x", "reply_markup": "{"}),
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = raw_post_json(&fake, "getUpdates", json!({"offset": "soon"})).await;
    assert_eq!(status, 400);
    let response = client
        .post(format!("{base}/sendPhoto"))
        .header("content-type", "multipart/form-data; boundary=x")
        .body("garbage")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
}

#[tokio::test]
async fn a_newer_poll_terminates_the_older_one() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let first = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().timeout(10).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let second = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().timeout(1).await }
    });
    let err = tokio::time::timeout(WAIT, first)
        .await
        .unwrap()
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(
            err,
            RequestError::Api(ApiError::TerminatedByOtherGetUpdates)
        ),
        "{err:?}"
    );
    assert!(tokio::time::timeout(WAIT, second)
        .await
        .unwrap()
        .unwrap()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn dropping_the_fake_releases_a_held_poll() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let poll = tokio::spawn(async move { bot.get_updates().timeout(30).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(fake);
    let result = tokio::time::timeout(WAIT, poll)
        .await
        .expect("the held poll ends when the fake is dropped");
    assert!(result.unwrap().map(|u| u.is_empty()).unwrap_or(true));
}

/// The loop the adapter will run: a teloxide `Dispatcher` long-polling the fake.
#[tokio::test]
async fn dispatcher_echoes_a_pushed_message() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let handler = Update::filter_message().endpoint(|bot: Bot, msg: Message| async move {
        let text = format!("echo: {}", msg.text().unwrap_or_default());
        let mut reply = bot.send_message(msg.chat.id, text);
        if let Some(thread) = msg.thread_id {
            reply = reply.message_thread_id(thread);
        }
        reply.await?;
        respond(())
    });
    let mut dispatcher = Dispatcher::builder(bot, handler).build();
    let shutdown = dispatcher.shutdown_token();
    let running = tokio::spawn(async move { dispatcher.dispatch().await });

    let user = alice();
    let forum = FakeChat::forum(-1_007_777_777_777, "Topics");
    fake.push_message(&FakeChat::private(&user), &user, "h2e2", None);
    fake.push_message(&forum, &user, "in a topic", Some(3));

    let echo = fake
        .wait_for(
            |c| c.is("sendMessage") && c.text.as_deref() == Some("echo: h2e2"),
            WAIT,
        )
        .await;
    assert_eq!(
        echo.expect("the dispatcher echoed the message").chat_id,
        Some(user.id)
    );
    let topic = fake
        .wait_for(|c| c.text.as_deref() == Some("echo: in a topic"), WAIT)
        .await
        .unwrap();
    assert_eq!((topic.chat_id, topic.thread_id), (Some(forum.id), Some(3)));
    assert!(
        fake.wait_updates_confirmed(WAIT).await,
        "the dispatcher confirmed the updates"
    );

    // Startup calls teloxide makes before polling.
    let methods: Vec<String> = fake.sent().iter().map(|c| c.method.clone()).collect();
    assert!(methods.contains(&"getMe".to_owned()), "{methods:?}");
    assert!(
        methods.contains(&"getWebhookInfo".to_owned()),
        "{methods:?}"
    );
    assert!(fake.poll_count() >= 2);
    // teloxide derives allowed_updates from the handler tree: this one only takes messages,
    // so a button press is never even queued (as on Telegram).
    assert_eq!(fake.polls()[0]["allowed_updates"], json!(["message"]));
    fake.push_callback(&forum, &user, 1, "ignored");
    assert_eq!(fake.dropped_updates().len(), 1);
    assert_eq!(fake.pending_updates(), 0);

    shutdown
        .shutdown()
        .expect("the dispatcher is running")
        .await;
    tokio::time::timeout(WAIT, running)
        .await
        .expect("dispatcher stops")
        .unwrap();
    assert_eq!(
        fake.sent_of("sendMessage").len(),
        2,
        "each message was handled once"
    );
}

/// Messages and button presses through one `Dispatcher`, as the adapter will handle a game.
#[tokio::test]
async fn dispatcher_handles_button_presses() {
    let fake = FakeTelegram::start(TOKEN).await;
    let bot = bot_for(&fake);
    let handler = dptree::entry()
        .branch(
            Update::filter_message().endpoint(|bot: Bot, msg: Message| async move {
                bot.send_message(msg.chat.id, "Board")
                    .reply_markup(keyboard())
                    .await?;
                respond(())
            }),
        )
        .branch(Update::filter_callback_query().endpoint(
            |bot: Bot, q: CallbackQuery| async move {
                bot.answer_callback_query(q.id.clone()).text("ok").await?;
                if let (Some(message), Some(data)) = (q.message, q.data) {
                    bot.edit_message_text(
                        message.chat().id,
                        message.id(),
                        format!("Board after {data}"),
                    )
                    .await?;
                }
                respond(())
            },
        ));
    let mut dispatcher = Dispatcher::builder(bot, handler).build();
    let shutdown = dispatcher.shutdown_token();
    let running = tokio::spawn(async move { dispatcher.dispatch().await });

    let user = alice();
    let chat = FakeChat::private(&user);
    fake.push_message(&chat, &user, "/new", None);
    let board = fake.wait_for(|c| c.is("sendMessage"), WAIT).await.unwrap();
    let message_id = board.message_id.unwrap();
    fake.push_callback(&chat, &user, message_id, "undo:1");
    fake.wait_for(|c| c.is("editMessageText"), WAIT)
        .await
        .unwrap();
    let stored = fake.message(chat.id, message_id).unwrap();
    assert_eq!(stored.text.as_deref(), Some("Board after undo:1"));
    assert!(stored.reply_markup.is_none(), "the edit passed no keyboard");
    assert_eq!(fake.answered_callbacks()[0].text.as_deref(), Some("ok"));
    let allowed = &fake.polls()[0]["allowed_updates"];
    assert!(
        allowed
            .as_array()
            .unwrap()
            .contains(&json!("callback_query")),
        "{allowed}"
    );

    shutdown
        .shutdown()
        .expect("the dispatcher is running")
        .await;
    tokio::time::timeout(WAIT, running)
        .await
        .expect("dispatcher stops")
        .unwrap();
}

/// Malformed requests get a Telegram-style 400, never a panic (a panic would reset the
/// connection and the JSON decode below would fail).
#[tokio::test]
async fn malformed_requests_get_bad_request() {
    let fake = FakeTelegram::start(TOKEN).await;
    let chat = FakeChat::private(&alice());
    fake.register_chat(&chat);
    let (_, sent) = raw_post_json(
        &fake,
        "sendMessage",
        json!({"chat_id": chat.id, "text": "x"}),
    )
    .await;
    let mid = sent["result"]["message_id"].clone();
    let id = chat.id;
    let cases = [
        ("sendMessage", json!({"chat_id": {"a": 1}, "text": "x"})),
        ("sendMessage", json!({"chat_id": id, "text": ["x"]})),
        (
            "sendMessage",
            json!({"chat_id": id, "text": "x", "reply_markup": 5}),
        ),
        (
            "sendMessage",
            json!({"chat_id": id, "text": "x", "reply_markup": {"inline_keyboard": 1}}),
        ),
        (
            "sendMessage",
            json!({"chat_id": id, "text": "x", "reply_markup": {"inline_keyboard": [[{"text": "t"}]]}}),
        ),
        (
            "sendMessage",
            json!({"chat_id": id, "text": "x", "message_thread_id": 1e30}),
        ),
        (
            "sendMessage",
            json!({"chat_id": id, "text": "x", "reply_parameters": {"message_id": 99}}),
        ),
        (
            "sendMessage",
            json!({"chat_id": id, "text": "x", "reply_parameters": "nope"}),
        ),
        (
            "sendPhoto",
            json!({"chat_id": id, "photo": "attach://missing"}),
        ),
        (
            "sendPhoto",
            json!({"chat_id": id, "photo": "https://example.com/x.png"}),
        ),
        ("sendPhoto", json!({"chat_id": id})),
        (
            "editMessageText",
            json!({"chat_id": id, "message_id": "abc", "text": "y"}),
        ),
        (
            "editMessageText",
            json!({"chat_id": id, "message_id": 99999999999i64, "text": "y"}),
        ),
        (
            "editMessageText",
            json!({"chat_id": id, "message_id": mid, "text": ""}),
        ),
        (
            "editMessageCaption",
            json!({"chat_id": id, "message_id": mid, "caption": "c"}),
        ),
        (
            "editMessageMedia",
            json!({"chat_id": id, "message_id": mid, "media": {"type": "video"}}),
        ),
        (
            "editMessageMedia",
            json!({"chat_id": id, "message_id": mid, "media": "{"}),
        ),
        (
            "editMessageMedia",
            json!({"chat_id": id, "message_id": mid, "media": {"type": "photo"}}),
        ),
        ("deleteMessage", json!({"chat_id": id})),
        ("answerCallbackQuery", json!({})),
        (
            "answerCallbackQuery",
            json!({"callback_query_id": "1", "show_alert": "maybe"}),
        ),
        ("setMyCommands", json!({"commands": "nope"})),
        ("setMyCommands", json!({"commands": [1, 2]})),
        ("setMyCommands", json!({"commands": [], "scope": {}})),
        ("getMyCommands", json!({"scope": 3})),
        (
            "sendChatAction",
            json!({"chat_id": id, "action": "dancing"}),
        ),
        ("getChat", json!({})),
        ("getFile", json!({"file_id": "nope"})),
        ("getUpdates", json!({"allowed_updates": "{}"})),
        ("getUpdates", json!({"limit": [1]})),
        ("deleteWebhook", json!({"drop_pending_updates": "perhaps"})),
    ];
    for (method, body) in cases {
        let (status, answer) = raw_post_json(&fake, method, body.clone()).await;
        assert_eq!(status, 400, "{method} {body} -> {answer}");
        assert_eq!(answer["ok"], false);
        assert_eq!(answer["error_code"], 400);
        assert!(
            answer["description"]
                .as_str()
                .unwrap()
                .starts_with("Bad Request: "),
            "{answer}"
        );
    }
    // Odd but valid: limit 0 means 100, a negative timeout means 0.
    let (status, _) = raw_post_json(&fake, "getUpdates", json!({"limit": 0, "timeout": -5})).await;
    assert_eq!(status, 200);
    // Non-UTF-8 text part, and a multipart body cut short.
    let form = reqwest::multipart::Form::new()
        .part("chat_id", reqwest::multipart::Part::bytes(vec![0xff, 0xfe]));
    let url = format!("{}bot{TOKEN}/sendMessage", fake.url());
    let response = reqwest::Client::new()
        .post(&url)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let response = reqwest::Client::new()
        .post(&url)
        .header("content-type", "multipart/form-data; boundary=XYZ")
        .body("--XYZ\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nunfinished")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    // The fake still works afterwards.
    let (status, _) = raw_post_json(
        &fake,
        "sendMessage",
        json!({"chat_id": id, "text": "still here"}),
    )
    .await;
    assert_eq!(status, 200);
}

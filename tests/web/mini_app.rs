//! The web board as a Telegram Mini App: the real Telegram adapter against the fake Bot API
//! server, the web server beside it, and headless Chromium opening the Mini App as Telegram
//! does (its address with the signed launch data in the fragment, made here with the bot's
//! token as Telegram would). A move clicked there reaches the group's chat as a board; a
//! spectator's Mini App sees it arrive; forged, altered and stale launch data is refused; and
//! `/metrics` counts the move for the operator who holds its token.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use xiangqi_bot::adapters::web::{self, WebOptions};
use xiangqi_bot::adapters::Secret;
use xiangqi_bot::app::init_data;
use xiangqi_bot::app::links::LinkKey;
use xiangqi_bot::app::{ServiceConfig, WebLinks};

use super::telegram_fake::{FakeChat, FakeTelegram, FakeUser};
use super::telegram_harness::{check_every_call, expect_call, start_game, Running, TOKEN};
use super::Driver;

const METRICS_TOKEN: &str = "metrics-token-of-the-tests-0123";
const DIRECT_LINK: &str = "https://t.me/xqbot/board";

fn user(id: i64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
        .username(&name.to_lowercase())
        .language_code("en")
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Launch data for `user` as Telegram signs it for the Mini App opened from the direct link
/// with `startapp=game`, dated `auth_date`.
fn launch_data(token: &str, user: &FakeUser, game: u64, auth_date: u64) -> String {
    let who =
        json!({ "id": user.id, "first_name": user.first_name, "language_code": "en" }).to_string();
    init_data::sign(
        token,
        &[
            ("user", who.as_str()),
            ("chat_instance", "-8012345678901234567"),
            ("chat_type", "group"),
            ("start_param", &game.to_string()),
            ("auth_date", &auth_date.to_string()),
        ],
    )
}

/// The Mini App's address as Telegram opens it: the launch data in the fragment.
fn app_url(base: &str, data: &str) -> String {
    let mut fragment = form_urlencoded::Serializer::new(String::new());
    fragment.append_pair("tgWebAppData", data);
    fragment.append_pair("tgWebAppVersion", "8.0");
    fragment.append_pair("tgWebAppPlatform", "android");
    format!("{base}/tg/app#{}", fragment.finish())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_clicked_in_the_mini_app_reaches_the_group() {
    let fake = FakeTelegram::start(TOKEN).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let key = LinkKey::new(b"the mini app test's link key, long enough".to_vec());
    let config = ServiceConfig {
        rate_burst: 1000,
        web: Some(WebLinks {
            public_url: "https://board.example".into(),
            key: key.clone(),
            telegram_app: Some(DIRECT_LINK.into()),
        }),
        ..ServiceConfig::default()
    };
    let running = Running::start_with(&fake, dir.path(), config).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let (quit, quit_rx) = tokio::sync::watch::channel(false);
    let server = tokio::spawn(web::serve(
        Arc::clone(&running.service),
        key,
        listener,
        WebOptions {
            telegram_token: Some(Secret::new(TOKEN.into())),
            metrics_token: Some(Secret::new(METRICS_TOKEN.into())),
            ..WebOptions::default()
        },
        quit_rx,
    ));

    let group = FakeChat::group(-4_000_000_035, "Xiangqi club");
    let (alice, bob, carol) = (user(3501, "Alice"), user(3502, "Bob"), user(3503, "Carol"));
    let first = start_game(&fake, &group, None, &alice, &bob).await;
    // In a group Telegram allows no Mini App button (the fake refuses one, as Telegram
    // does): *Open board* is a link to the Mini App registered with BotFather, for this game.
    let buttons: Vec<Value> = first.reply_markup.as_ref().expect("buttons")["inline_keyboard"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r.as_array().cloned().unwrap_or_default())
        .collect();
    let open = buttons
        .iter()
        .find(|b| b["text"] == json!("Open board"))
        .unwrap_or_else(|| panic!("an Open board button in {buttons:?}"));
    assert_eq!(
        open["url"],
        json!(format!("{DIRECT_LINK}?startapp=1")),
        "{open}"
    );

    // Launch data that is not Telegram's for this bot, altered, or stale: 401, nothing given
    // (four refusals: one more would have the source refused for a while, as for links).
    let http = reqwest::Client::new();
    let good = launch_data(TOKEN, &alice, 1, now());
    for (what, data) in [
        ("another bot's", launch_data("999:OTHER", &alice, 1, now())),
        ("altered", good.replace("3501", "3502")),
        ("stale", launch_data(TOKEN, &alice, 1, now() - 2 * 3600)),
    ] {
        let r = http
            .post(format!("{base}/tg/app"))
            .json(&json!({ "init_data": data }))
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), 401, "{what} launch data");
    }
    // Good launch data is traded for a link to play (alice) or to watch (carol).
    let r: Value = http
        .post(format!("{base}/tg/app"))
        .json(&json!({ "init_data": good }))
        .send()
        .await
        .expect("post")
        .json()
        .await
        .expect("json");
    assert_eq!(r["mode"], json!("p"), "{r}");

    let driver = Driver::start().await;
    let player = driver.session().await;
    player.open(&app_url(&base, &good)).await;
    player
        .until(
            "alice's board in the Mini App",
            "return !!document.querySelector('[data-sq=\"h2\"]') && \
             document.getElementById('status').textContent.length > 0 && \
             !document.getElementById('typed').hidden",
        )
        .await;
    let spectator = driver.session().await;
    spectator
        .open(&app_url(&base, &launch_data(TOKEN, &carol, 1, now())))
        .await;
    spectator
        .until(
            "carol's board, live and without controls",
            "return document.getElementById('moves').getAttribute('data-count') === '0' && \
             document.getElementById('live').textContent.length > 0 && \
             document.getElementById('typed').hidden",
        )
        .await;
    player.red_piece_on("h2", "e2", "at the start").await;

    let mark = fake.mark();
    player.click("[data-sq=\"h2\"]").await;
    player
        .until(
            "the cannon's targets",
            "return document.querySelectorAll('.target').length > 0",
        )
        .await;
    player.click("[data-sq=\"e2\"]").await;
    // The group gets its board, as after a typed move.
    let board = expect_call(&fake, mark, "the group's board after the move", |c| {
        c.is("sendPhoto") && c.chat_id == Some(group.id)
    })
    .await;
    let caption = board.caption.clone().unwrap_or_default();
    assert!(caption.contains("Alice"), "{caption}");
    spectator
        .until(
            "the move on carol's page",
            "return document.getElementById('moves').getAttribute('data-count') === '1' && \
             document.querySelector('[data-at=\"e2\"]').getAttribute('data-piece') === 'C'",
        )
        .await;
    player.red_piece_on("e2", "h2", "after the move").await;
    check_every_call(&fake.sent());

    // The health check names the storage and the platform, both well.
    let health = super::health(&http, &base).await;
    assert_eq!(
        health,
        (200, "ok\nstorage: ok\nTelegram: connected\n".to_string())
    );

    // The operator's figures: the move is counted; without the token, nothing.
    let text = http
        .get(format!("{base}/metrics"))
        .bearer_auth(METRICS_TOKEN)
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    let moves = text
        .lines()
        .find_map(|l| l.strip_prefix("xiangqi_moves_total{platform=\"telegram\"} "))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("the moves counted in\n{text}"));
    assert!(moves >= 1, "{text}");
    assert!(
        text.contains("xiangqi_replies_delivered_total{platform=\"telegram\"}"),
        "{text}"
    );
    assert!(
        text.contains("xiangqi_web_requests_total{route=\"mini_app_launch\"}"),
        "{text}"
    );
    let r = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("metrics");
    assert_eq!(r.status(), 401, "no token, no figures");

    player.close().await;
    spectator.close().await;
    let _ = quit.send(true);
    let _ = server.await;
    running.stop().await;
}

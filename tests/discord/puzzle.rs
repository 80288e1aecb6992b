//! Puzzles on Discord: `/puzzle` posts a board with its buttons; a move is picked with the
//! select-menu picker, another typed with `/puzzle`, a wrong one refuted; the solver is
//! credited; *Next* and *Show solution* under the boards; `/puzzle stats` of another player.

use xiangqi_bot::app::ServiceConfig;

use crate::discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, FakeMessage, ResponseKind};
use crate::harness::{
    button, decode_png, fake, menu_option, message_of, service_config, start, Ledger,
};

use ResponseKind::{Callback, DeleteOriginal, EditOriginal, Followup};

use crate::puzzles::{mate_in_two, NODES};

/// A puzzle board: one PNG in the embed; returns the embed's text.
fn puzzle_text(m: &FakeMessage) -> String {
    assert_eq!(m.attachments.len(), 1, "one board in {m:?}");
    decode_png(&m.attachments[0].data);
    assert!(m.attachments[0].filename.starts_with("puzzle-"));
    m.embeds[0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// `/puzzle what:<what>` by `user`: deferred, then the answer in the original response.
async fn puzzle(
    fake: &FakeDiscord,
    log: &Ledger,
    user: &crate::discord_fake::FakeUser,
    what: &str,
) -> FakeMessage {
    let (_, r) = log
        .answers(
            fake,
            FakeInteraction::slash("puzzle")
                .option(CmdOpt::string("what", what))
                .by(user),
            &[Callback(5), EditOriginal],
        )
        .await;
    message_of(fake, &r[1])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_puzzle_is_solved_with_the_picker_and_slash_commands() {
    let fake = fake().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let config = ServiceConfig {
        puzzle_nodes: NODES,
        ..service_config()
    };
    let bot = start(&fake, dir.path(), None, config, false).await;
    let log = Ledger::default();
    let (alice, bob, carol) = (
        fake.add_user("alice"),
        fake.add_user("bob"),
        fake.add_user("carol"),
    );
    let example = mate_in_two();
    let (p, bad) = (&example.puzzle, example.wrong_second);

    let posted = puzzle(&fake, &log, &alice, &p.id).await;
    let text = puzzle_text(&posted);
    assert!(text.contains(&format!("Puzzle {}", p.id)), "{text}");
    for prefix in ["xq:p:", "xq:h:", "xq:s:", "xq:n:"] {
        button(&posted, prefix);
    }

    // Alice picks the first move with the select menus (only she sees them).
    let pick = button(&posted, "xq:p:");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(posted.id, &pick).by(&alice),
            &[Callback(6), Followup],
        )
        .await;
    let menu = message_of(&fake, &r[1]);
    assert!(
        menu.is_ephemeral(),
        "the picker is only for the one who asked"
    );
    let first = p.solution[0];
    let (menu_id, value) = menu_option(&menu, &format!(":{}", first.from));
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::select(menu.id, &menu_id, &[&value]).by(&alice),
            &[Callback(6), EditOriginal],
        )
        .await;
    let targets = message_of(&fake, &r[1]);
    let (menu_id, value) = menu_option(&targets, &format!(":{first}"));
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::select(menu.id, &menu_id, &[&value]).by(&alice),
            &[Callback(6), Followup, DeleteOriginal],
        )
        .await;
    let answered = message_of(&fake, &r[1]);
    let text = puzzle_text(&answered);
    assert!(text.contains("is right, alice"), "{text}");

    // Bob's move does not mate; Carol's does.
    let wrong = puzzle(&fake, &log, &bob, &bad.to_string()).await;
    assert!(
        wrong.content.contains("is not it, bob"),
        "{}",
        wrong.content
    );
    let solved = puzzle(&fake, &log, &carol, &p.solution[2].to_string()).await;
    let text = puzzle_text(&solved);
    assert!(text.contains("solved by carol"), "{text}");
    assert!(text.contains("alice: puzzle rating 1500 →"), "{text}");

    // Next under the solved board: a new puzzle; its solution by the button.
    let next = button(&solved, "xq:n:");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(solved.id, &next).by(&bob),
            &[Callback(6), Followup],
        )
        .await;
    let second = message_of(&fake, &r[1]);
    assert!(
        puzzle_text(&second).contains("Puzzle "),
        "{:?}",
        second.embeds
    );
    let show = button(&second, "xq:s:");
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::button(second.id, &show).by(&carol),
            &[Callback(6), Followup],
        )
        .await;
    let solution = message_of(&fake, &r[1]);
    assert!(
        puzzle_text(&solution).contains("The solution: 1."),
        "{:?}",
        solution.embeds
    );

    // Carol's puzzle record, asked for by Bob.
    let (_, r) = log
        .answers(
            &fake,
            FakeInteraction::slash("puzzle")
                .option(CmdOpt::string("what", "stats"))
                .option(CmdOpt::user("player", &carol))
                .by(&bob),
            &[Callback(4)],
        )
        .await;
    let stats = message_of(&fake, &r[0]);
    assert!(
        stats.content.contains("carol: puzzle rating"),
        "{}",
        stats.content
    );
    assert!(stats.content.contains("solved 1"), "{}", stats.content);
    log.check(&fake).await;
    bot.stop(&fake).await;
}

//! A `DATABASE_URL` password never reaches what the binary prints: its start-up log names the
//! database as the driver read it, and so do its errors, whichever way the password is given
//! (`Zm9v/YmFy`: base64, with a `/`; in the authority, percent-encoded or not, or as a
//! `?password=` parameter). The server named does not answer, so every run ends in an error.

use std::process::Command;

/// A port nothing listens on.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address").port()
}

fn urls(port: u16) -> Vec<String> {
    vec![
        format!("postgres://bot:Zm9v%2FYmFy@127.0.0.1:{port}/xq"),
        format!("postgres://bot@127.0.0.1:{port}/xq?password=Zm9v/YmFy"),
        format!("postgres://bot@127.0.0.1:{port}/xq?sslmode=disable&password=Zm9v%2FYmFy"),
        // Not a URL the driver reads (the `/` ends the authority early).
        format!("postgresql://bot:Zm9v/YmFy@127.0.0.1:{port}/xq"),
    ]
}

fn printed(cmd: &mut Command) -> String {
    let out = cmd
        .env("RUST_LOG", "debug")
        .env_remove("TELEGRAM_BOT_TOKEN")
        .env_remove("DISCORD_TOKEN")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the binary");
    assert!(!out.status.success(), "the database does not answer");
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn leaks(text: &str) -> bool {
    ["Zm9v", "YmFy"].iter().any(|part| text.contains(part))
}

#[test]
fn the_bot_and_migrate_never_print_the_database_password() {
    let port = closed_port();
    let dir = tempfile::tempdir().expect("tempdir");
    for url in urls(port) {
        let bot = printed(
            Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
                .env("DATA_DIR", dir.path())
                .env("DATABASE_URL", &url),
        );
        assert!(!leaks(&bot), "{url}:\n{bot}");
        assert!(bot.contains("database"), "{url}:\n{bot}");
        let migrate = printed(
            Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
                .args(["migrate", "--from"])
                .arg(format!("sled:{}", dir.path().display()))
                .args(["--to", &url]),
        );
        assert!(!leaks(&migrate), "{url}:\n{migrate}");
    }
    // What a URL the driver reads is shown as: where it goes, to an operator.
    let bot = printed(
        Command::new(env!("CARGO_BIN_EXE_xiangqi-bot"))
            .env("DATA_DIR", dir.path())
            .env("DATABASE_URL", &urls(port)[1]),
    );
    assert!(
        bot.contains(&format!(
            "the database \"xq\" on 127.0.0.1:{port} as user \"bot\""
        )),
        "{bot}"
    );
}

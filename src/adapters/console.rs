//! The console: a local chat on standard input, and the embedded default when no platform
//! token is set. It reads scripts from a pipe as well as from a person.
//!
//! * `@name text` speaks as `name` for that line; `@name` alone makes `name` the speaker.
//! * `#name` switches to channel `name` (default `#local`).
//! * `!xq:...` presses a button (the codes are printed under each message).
//! * Anything else is sent as the current speaker in the current channel.
//!
//! Replies go to standard output, one line per line of text, prefixed with the channel.
//! Boards are written as PNG files under `DATA_DIR/boards/` and their path is printed; on a
//! terminal a Unicode board is printed as well.
//!
//! The console delivers through the same worker as the platforms
//! ([`crate::adapters::delivery`]): what a change made the service say is printed from the
//! outbox (after a restart, first what was stored and not yet printed) and forgotten once
//! printed; the answers to commands that change nothing take the same lanes. Each line waits
//! until its answer is out, so a script reads in order.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, Mutex};

use crate::adapters::delivery::{self, Deliverer, Next, Out, RetryPolicy, Said, Stopping};
use crate::app::{Action, ImageKind, Incoming, Origin, Reply, Service};
use crate::game::OutboxKey;
use crate::game::{bound, clean_name, PlayerRef};
use crate::platform::{ChannelKey, Platform};

/// How long the end of the input leaves queued replies to be printed.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// Longest line read; the rest of a longer line is skipped.
const MAX_LINE_BYTES: usize = 16 * 1024;

/// Console settings.
#[derive(Clone, Debug)]
pub struct ConsoleOptions {
    /// Where boards are written (`DATA_DIR/boards`).
    pub boards_dir: PathBuf,
    /// The first speaker (the login name).
    pub user: String,
    /// Print Unicode boards (when standard output is a terminal).
    pub text_boards: bool,
}

fn user_ref(name: &str) -> PlayerRef {
    let clean = clean_name(name);
    PlayerRef::new(Platform::Console.key(clean.to_lowercase()), &clean)
}

/// Read one line of at most [`MAX_LINE_BYTES`]; `None` at the end of input.
async fn read_line<R: AsyncBufRead + Unpin>(r: &mut R) -> std::io::Result<Option<(String, bool)>> {
    let mut buf = Vec::new();
    let mut truncated = false;
    loop {
        let chunk = r.fill_buf().await?;
        if chunk.is_empty() {
            return Ok((!buf.is_empty() || truncated)
                .then(|| (String::from_utf8_lossy(&buf).into_owned(), truncated)));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        if take > room {
            truncated = true;
        }
        buf.extend_from_slice(&chunk[..take.min(room)]);
        r.consume(take);
        if done {
            while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                buf.pop();
            }
            return Ok(Some((
                String::from_utf8_lossy(&buf).into_owned(),
                truncated,
            )));
        }
    }
}

struct Printer<W> {
    out: Mutex<W>,
    boards: PathBuf,
    text_boards: bool,
}

fn safe_file_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect()
}

impl<W: AsyncWrite + Unpin + Send> Printer<W> {
    async fn save_image(&self, channel: &str, bytes: &[u8], filename: &str) -> Option<PathBuf> {
        if bytes.is_empty() {
            return None;
        }
        let path = self.boards.join(format!(
            "{}-{}",
            safe_file_part(Platform::Console.rest(channel).unwrap_or(channel)),
            safe_file_part(filename)
                .replace("_png", ".png")
                .replace("_gif", ".gif")
        ));
        if let Err(e) = tokio::fs::create_dir_all(&self.boards).await {
            tracing::warn!(error = %e, "cannot create the boards directory");
            return None;
        }
        match tokio::fs::write(&path, bytes).await {
            Ok(()) => Some(path),
            Err(e) => {
                tracing::warn!(error = %e, "cannot write a board");
                None
            }
        }
    }

    /// What `replies` print as (pictures are saved as files, and their paths printed).
    async fn text(&self, channel: &str, to: Option<&str>, replies: &[Reply]) -> String {
        let label = Platform::Console.rest(channel).unwrap_or(channel);
        let mut text = String::new();
        for r in replies {
            let prefix = match (r.private, to) {
                (true, Some(user)) => format!("[{label} → {user}] "),
                _ => format!("[{label}] "),
            };
            if let Some(img) = &r.image {
                let kind = match img.kind {
                    ImageKind::Png if img.text_board.is_some() => "board",
                    ImageKind::Png => "picture",
                    ImageKind::Gif => "replay",
                };
                if let Some(path) = self.save_image(channel, &img.bytes, &img.filename).await {
                    text.push_str(&format!("{prefix}{kind}: {}\n", display_path(&path)));
                }
                if self.text_boards {
                    if let Some(tb) = &img.text_board {
                        for l in tb.lines() {
                            text.push_str(&format!("{prefix}{l}\n"));
                        }
                    }
                }
            }
            for l in r.text.lines() {
                text.push_str(&format!("{prefix}{l}\n"));
            }
            if !r.buttons.is_empty() {
                let all: Vec<String> = r
                    .buttons
                    .iter()
                    .flatten()
                    .map(|b| format!("{} !{}", b.label, b.action.encode()))
                    .collect();
                text.push_str(&format!("{prefix}[{}]\n", all.join(" | ")));
            }
        }
        text
    }

    async fn write(&self, text: &str) -> std::io::Result<()> {
        let mut out = self.out.lock().await;
        out.write_all(text.as_bytes()).await?;
        out.flush().await
    }
}

/// The console as a platform: a call prints lines.
struct Console<W> {
    printer: Printer<W>,
    /// Outbox entries printed, so a line's answer is out before the next line is read.
    printed: mpsc::UnboundedSender<OutboxKey>,
}

/// Why the console prints no more: standard output failed.
#[derive(Debug)]
struct Closed;

impl Stopping for Closed {
    fn drops(&self) -> bool {
        true
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> delivery::Platform for Console<W> {
    const KIND: Platform = Platform::Console;
    type Lane = String;
    /// The name of the user who acted (a private reply is marked for them).
    type Answering = String;
    /// Lines to print.
    type Op = String;
    type Sent = ();
    type Failure = std::io::Error;
    type Stop = Closed;

    fn lane(channel: &str) -> Option<String> {
        Platform::Console.rest(channel).map(|_| channel.to_string())
    }

    fn answering(context: &str) -> Option<String> {
        Some(context.to_string())
    }

    fn what(_: &String) -> &'static str {
        "print"
    }

    async fn call(&self, text: &String) -> std::io::Result<()> {
        self.printer.write(text).await
    }

    fn classify(&self, _: &std::io::Error, _: &String) -> Next<String, Closed> {
        Next::Stop(Closed)
    }

    async fn deliver(&self, out: &Out<'_, Self>, said: Said<'_, Self>) {
        let to = said.answering.map(String::as_str);
        let mut text = self.printer.text(said.channel, to, said.replies).await;
        if !text.is_empty() {
            let _ = out.call(&mut text).await;
        }
    }

    fn delivered(&self, key: &OutboxKey) {
        let _ = self.printed.send(key.clone());
    }
}

fn display_path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Run the console until the input ends.
pub async fn run<R, W>(service: Arc<Service>, input: R, output: W, opts: ConsoleOptions)
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (printed, mut printed_rx) = mpsc::unbounded_channel::<OutboxKey>();
    let console = Console {
        printer: Printer {
            out: Mutex::new(output),
            boards: opts.boards_dir.clone(),
            text_boards: opts.text_boards,
        },
        printed,
    };
    let delivery = Deliverer::new(console, Arc::clone(&service), RetryPolicy::default());
    delivery.open();
    let mut input = input;
    let mut speaker = user_ref(&opts.user);
    let mut channel = ChannelKey::on(Platform::Console, "#local");
    loop {
        let (line, truncated) = match read_line(&mut input).await {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                tracing::error!(error = %e, "cannot read standard input");
                break;
            }
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let mut user = speaker.clone();
        let mut text = line.to_string();
        if let Some(rest) = line.strip_prefix('#') {
            let name = bound(rest.split_whitespace().next().unwrap_or("local"), 48);
            channel = ChannelKey::on(Platform::Console, format!("#{}", clean_name(&name)));
            continue;
        }
        if let Some(rest) = line.strip_prefix('@') {
            let (name, said) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            if said.is_empty() {
                speaker = user_ref(name);
                continue;
            }
            user = user_ref(name);
            text = said.to_string();
        }
        if truncated && !text.starts_with('/') {
            // Longer than the reader keeps, and not a command: conversation, never answered.
            continue;
        }
        let action = text.strip_prefix('!').and_then(Action::decode);
        let handle = Platform::Console.rest(&user.id).map(str::to_string);
        let inc = Incoming {
            channel: channel.clone(),
            user: user.clone(),
            handle,
            text: if action.is_some() {
                String::new()
            } else {
                text
            },
            action,
            mentions: Vec::new(),
            lang_hint: None,
            // Each console channel is a group of its own (its own leaderboard).
            community: Some(channel.to_string()),
            // The console's user is its operator.
            may_configure: Some(true),
        };
        let origin = Origin {
            event: None,
            context: Some(user.name.clone()),
        };
        let handled = service.handle_from(inc, origin).await;
        match handled.queued {
            Some(key) => {
                while let Some(done) = printed_rx.recv().await {
                    if done == key {
                        break;
                    }
                }
            }
            None => {
                delivery
                    .push_and_wait(&channel, Some(user.name.clone()), handled.replies)
                    .await;
            }
        }
    }
    delivery.drain(DRAIN).await;
}

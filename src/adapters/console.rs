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
//! The console delivers through the outbox like the platforms: what a change made the service
//! say is printed by the outbox task (after a restart, first what was stored and not yet
//! printed), and forgotten once printed; the answers to commands that change nothing are
//! printed directly. Each line waits until its answer is out, so a script reads in order.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::Mutex;

use crate::app::{Action, Delivery, ImageKind, Incoming, Origin, Outgoing, Reply, Service};
use crate::game::OutboxKey;
use crate::game::{bound, clean_name, PlayerRef};
use crate::platform::Platform;

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

    async fn print(&self, channel: &str, to: Option<&str>, replies: &[Reply]) {
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
        let mut out = self.out.lock().await;
        let _ = out.write_all(text.as_bytes()).await;
        let _ = out.flush().await;
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
    let printer = Arc::new(Printer {
        out: Mutex::new(output),
        boards: opts.boards_dir.clone(),
        text_boards: opts.text_boards,
    });
    // What the outbox task printed, so a line's answer is out before the next line is read.
    let (printed_tx, mut printed) = tokio::sync::mpsc::unbounded_channel::<OutboxKey>();
    let deliveries = match service.open_outbox(Platform::Console) {
        Ok(rx) => Some(rx),
        Err(e) => {
            tracing::error!(error = %e, "cannot read the outbox; stored replies are not printed");
            None
        }
    };
    let unsolicited = match deliveries {
        Some(rx) => tokio::spawn(deliver(
            Arc::clone(&service),
            rx,
            Arc::clone(&printer),
            printed_tx,
        )),
        None => {
            let mut outbox = service.subscribe(Platform::Console);
            let p2 = Arc::clone(&printer);
            tokio::spawn(async move {
                while let Some(Outgoing { channel, replies }) = outbox.recv().await {
                    p2.print(&channel, None, &replies).await;
                }
            })
        }
    };
    let mut input = input;
    let mut speaker = user_ref(&opts.user);
    let mut channel = "console:#local".to_string();
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
            channel = Platform::Console.key(format!("#{}", clean_name(&name)));
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
            community: Some(channel.clone()),
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
                while let Some(done) = printed.recv().await {
                    if done == key {
                        break;
                    }
                }
            }
            None => {
                printer
                    .print(&channel, Some(&user.name), &handled.replies)
                    .await;
            }
        }
    }
    unsolicited.abort();
}

/// The outbox task: print each entry once it is ready (its pictures drawn), then forget it.
async fn deliver<W: AsyncWrite + Unpin + Send>(
    service: Arc<Service>,
    mut rx: tokio::sync::mpsc::UnboundedReceiver<Delivery>,
    printer: Arc<Printer<W>>,
    printed: tokio::sync::mpsc::UnboundedSender<OutboxKey>,
) {
    while let Some(mut d) = rx.recv().await {
        service.ready(&d.key, &mut d.replies).await;
        printer
            .print(&d.key.channel, d.context.as_deref(), &d.replies)
            .await;
        if let Err(e) = service.delivered(&d.key).await {
            tracing::error!(error = %e, "cannot mark a printed reply as delivered");
        }
        let _ = printed.send(d.key);
    }
}

//! A real serenity client against the fake Discord: gateway READY and GUILD_CREATE, injected
//! messages and interactions, attachments both ways, command registration, injected failures.
#![forbid(unsafe_code)]

use crate::discord_fake;

use std::time::Duration;

use discord_fake::{CmdOpt, FakeDiscord, FakeInteraction, ResponseKind};
use serenity::all::{
    AutoArchiveDuration, ButtonStyle, CacheHttp, Channel, ChannelId, ChannelType, Client,
    ClientBuilder, Command, CommandInteraction, CommandOptionType, ComponentInteraction,
    ComponentInteractionDataKind, Context, CreateActionRow, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateCommand, CreateCommandOption, CreateEmbed,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption, CreateThread,
    CurrentApplicationInfo, CurrentUser, EditInteractionResponse, EditMessage, EventHandler,
    GatewayIntents, GuildChannel, GuildId, HttpBuilder, HttpError, Interaction, Message, MessageId,
    PrivateChannel, Ready, ResolvedValue,
};
use serenity::async_trait;
use serenity::model::event::GatewayEvent;
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(10);

/// What the bot under test tells the test.
#[derive(Debug)]
enum Report {
    Threads {
        public: u64,
        private: u64,
        fetched_is_thread: bool,
    },
    Ready {
        user_id: u64,
        application_id: u64,
        guilds: Vec<u64>,
    },
    CacheReady {
        guilds: usize,
        channels: usize,
        members: usize,
    },
    CommandsSet {
        global: Vec<String>,
        guild: Vec<String>,
    },
    Sent {
        id: u64,
        attachment_sizes: Vec<(u32, Option<u32>, Option<u32>)>,
        embed_image: Option<String>,
    },
    SendFailed {
        status: u16,
        code: isize,
    },
    CommandAnswered {
        message_id: u64,
        opponent: u64,
        attachment_url: String,
    },
    Autocompleted {
        focused: String,
    },
    Failed(String),
}

struct Bot {
    tx: mpsc::UnboundedSender<Report>,
    png: Vec<u8>,
}

impl Bot {
    fn report(&self, r: Report) {
        let _ = self.tx.send(r);
    }

    async fn on_command(
        &self,
        ctx: &Context,
        cmd: &CommandInteraction,
    ) -> Result<Report, serenity::Error> {
        let options = cmd.data.options();
        let opponent = match options.first().map(|o| (o.name, &o.value)) {
            Some(("new", ResolvedValue::SubCommand(sub))) => match sub.first().map(|o| &o.value) {
                Some(ResolvedValue::User(u, _)) => u.id.get(),
                other => return Ok(Report::Failed(format!("unexpected sub option {other:?}"))),
            },
            other => return Ok(Report::Failed(format!("unexpected options {other:?}"))),
        };
        cmd.defer(&ctx.http).await?;
        let rows = vec![
            CreateActionRow::Buttons(vec![CreateButton::new("resign")
                .label("Resign")
                .style(ButtonStyle::Danger)]),
            CreateActionRow::SelectMenu(CreateSelectMenu::new(
                "ruleset",
                CreateSelectMenuKind::String {
                    options: vec![
                        CreateSelectMenuOption::new("Official", "official"),
                        CreateSelectMenuOption::new("Asian", "asian"),
                    ],
                },
            )),
        ];
        let msg = cmd
            .edit_response(
                &ctx.http,
                EditInteractionResponse::new()
                    .content(format!("New game against <@{opponent}>"))
                    .new_attachment(CreateAttachment::bytes(self.png.clone(), "board.png"))
                    .components(rows),
            )
            .await?;
        let attachment_url = msg
            .attachments
            .first()
            .map(|a| a.url.clone())
            .unwrap_or_default();
        let followup = CreateInteractionResponseFollowup::new()
            .content("Your move, Red")
            .ephemeral(true);
        cmd.create_followup(&ctx.http, followup).await?;
        Ok(Report::CommandAnswered {
            message_id: msg.id.get(),
            opponent,
            attachment_url,
        })
    }

    async fn on_thread(&self, ctx: &Context, msg: &Message) -> Result<Report, serenity::Error> {
        let game = CreateThread::new("Game 1").auto_archive_duration(AutoArchiveDuration::OneDay);
        let thread = msg
            .channel_id
            .create_thread_from_message(&ctx.http, msg.id, game)
            .await?;
        thread.id.broadcast_typing(&ctx.http).await?;
        thread.id.say(&ctx.http, "Moves go here").await?;
        let analysis = CreateThread::new("Analysis").kind(ChannelType::PrivateThread);
        let private = msg.channel_id.create_thread(&ctx.http, analysis).await?;
        let fetched = thread.id.to_channel(&ctx.http).await?;
        let fetched_is_thread = matches!(fetched, Channel::Guild(c) if c.thread_metadata.is_some() && c.kind == ChannelType::PublicThread);
        Ok(Report::Threads {
            public: thread.id.get(),
            private: private.id.get(),
            fetched_is_thread,
        })
    }

    async fn on_component(
        &self,
        ctx: &Context,
        comp: &ComponentInteraction,
    ) -> Result<(), serenity::Error> {
        match &comp.data.kind {
            ComponentInteractionDataKind::Button => {
                let update = CreateInteractionResponseMessage::new()
                    .content(format!("{} resigned", comp.user.name))
                    .components(Vec::new())
                    .add_file(CreateAttachment::bytes(self.png.clone(), "final.png"));
                comp.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update))
                    .await
            }
            ComponentInteractionDataKind::StringSelect { values } => {
                comp.create_response(&ctx.http, CreateInteractionResponse::Acknowledge)
                    .await?;
                let content = format!("Ruleset: {}", values.join(","));
                comp.edit_response(&ctx.http, EditInteractionResponse::new().content(content))
                    .await
                    .map(|_| ())
            }
            other => {
                self.report(Report::Failed(format!("unexpected component {other:?}")));
                Ok(())
            }
        }
    }
}

#[async_trait]
impl EventHandler for Bot {
    async fn ready(&self, ctx: Context, ready: Ready) {
        self.report(Report::Ready {
            user_id: ready.user.id.get(),
            application_id: ready.application.id.get(),
            guilds: ready.guilds.iter().map(|g| g.id.get()).collect(),
        });
        let move_opt =
            CreateCommandOption::new(CommandOptionType::String, "move", "The move to play")
                .required(true)
                .set_autocomplete(true);
        let global = vec![CreateCommand::new("xiangqi")
            .description("Play xiangqi")
            .add_option(
                CreateCommandOption::new(CommandOptionType::SubCommand, "new", "Start a game")
                    .add_sub_option(
                        CreateCommandOption::new(
                            CommandOptionType::User,
                            "opponent",
                            "Who to play",
                        )
                        .required(true),
                    ),
            )
            .add_option(
                CreateCommandOption::new(CommandOptionType::SubCommand, "move", "Play a move")
                    .add_sub_option(move_opt),
            )];
        let guild_cmds = vec![CreateCommand::new("board")
            .description("Show the board")
            .add_option(CreateCommandOption::new(
                CommandOptionType::Integer,
                "size",
                "Pixels",
            ))];
        let guild_id: GuildId = ready.guilds[0].id;
        let result = async {
            let g = Command::set_global_commands(&ctx.http, global).await?;
            let l = guild_id.set_commands(&ctx.http, guild_cmds).await?;
            Ok::<_, serenity::Error>((g, l))
        }
        .await;
        match result {
            Ok((g, l)) => self.report(Report::CommandsSet {
                global: g.into_iter().map(|c| c.name).collect(),
                guild: l.into_iter().map(|c| c.name).collect(),
            }),
            Err(e) => self.report(Report::Failed(format!("registering commands: {e:?}"))),
        }
    }

    async fn cache_ready(&self, ctx: Context, guilds: Vec<GuildId>) {
        let cache = ctx.cache().expect("cache enabled");
        let (channels, members) = guilds
            .first()
            .and_then(|g| cache.guild(*g).map(|g| (g.channels.len(), g.members.len())))
            .unwrap_or_default();
        self.report(Report::CacheReady {
            guilds: guilds.len(),
            channels,
            members,
        });
    }

    async fn message(&self, ctx: Context, msg: Message) {
        if msg.author.bot {
            return;
        }
        if msg.content == "!thread" {
            match self.on_thread(&ctx, &msg).await {
                Ok(r) => self.report(r),
                Err(e) => self.report(Report::Failed(format!("thread: {e:?}"))),
            }
            return;
        }
        if msg.content != "!board" {
            return;
        }
        let builder = CreateMessage::new()
            .content("Here is the board")
            .reference_message(&msg)
            .embed(
                CreateEmbed::new()
                    .title("Board")
                    .image("attachment://board.png"),
            )
            .add_file(CreateAttachment::bytes(self.png.clone(), "board.png"));
        match msg.channel_id.send_message(&ctx.http, builder).await {
            Ok(sent) => self.report(Report::Sent {
                id: sent.id.get(),
                attachment_sizes: sent
                    .attachments
                    .iter()
                    .map(|a| (a.size, a.width, a.height))
                    .collect(),
                embed_image: sent
                    .embeds
                    .first()
                    .and_then(|e| e.image.as_ref())
                    .map(|i| i.url.clone()),
            }),
            Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(resp))) => {
                self.report(Report::SendFailed {
                    status: resp.status_code.as_u16(),
                    code: resp.error.code,
                })
            }
            Err(e) => self.report(Report::Failed(format!("send: {e:?}"))),
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(cmd) => match self.on_command(&ctx, &cmd).await {
                Ok(r) => self.report(r),
                Err(e) => self.report(Report::Failed(format!("command: {e:?}"))),
            },
            Interaction::Component(comp) => {
                if let Err(e) = self.on_component(&ctx, &comp).await {
                    self.report(Report::Failed(format!("component: {e:?}")));
                }
            }
            Interaction::Autocomplete(ac) => {
                let focused = ac
                    .data
                    .autocomplete()
                    .map(|o| o.value.to_string())
                    .unwrap_or_default();
                let choices = CreateAutocompleteResponse::new()
                    .add_string_choice("h2e2 (cannon to centre)", "h2e2")
                    .add_string_choice("h2h9", "h2h9");
                match ac
                    .create_response(&ctx.http, CreateInteractionResponse::Autocomplete(choices))
                    .await
                {
                    Ok(()) => self.report(Report::Autocompleted { focused }),
                    Err(e) => self.report(Report::Failed(format!("autocomplete: {e:?}"))),
                }
            }
            other => self.report(Report::Failed(format!("unexpected interaction {other:?}"))),
        }
    }
}

fn test_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().expect("png header");
        let data: Vec<u8> = (0..width * height)
            .flat_map(|i| [(i % 251) as u8, 0x80, (i / 7 % 256) as u8])
            .collect();
        w.write_image_data(&data).expect("png data");
    }
    out
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

async fn next_report(rx: &mut mpsc::UnboundedReceiver<Report>) -> Report {
    match tokio::time::timeout(WAIT, rx.recv()).await {
        Ok(Some(Report::Failed(e))) => panic!("bot reported a failure: {e}"),
        Ok(Some(r)) => r,
        Ok(None) => panic!("bot channel closed"),
        Err(_) => panic!("no report from the bot within {WAIT:?}"),
    }
}

fn default_intents() -> GatewayIntents {
    GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::MESSAGE_CONTENT
}

async fn start_bot(
    fake: &FakeDiscord,
    token: &str,
    intents: GatewayIntents,
    png: Vec<u8>,
) -> (Client, mpsc::UnboundedReceiver<Report>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let http = HttpBuilder::new(token)
        .proxy(fake.http_url())
        .ratelimiter_disabled(true)
        .build();
    let client = ClientBuilder::new_with_http(http, intents)
        .event_handler(Bot { tx, png })
        .await
        .expect("serenity client");
    (client, rx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_bot_round_trip() {
    let fake = FakeDiscord::builder()
        .heartbeat_interval(Duration::from_millis(250))
        .start()
        .await;
    let png = test_png(90, 100);
    let (mut client, mut rx) =
        start_bot(&fake, &fake.token(), default_intents(), png.clone()).await;
    let shards = client.shard_manager.clone();
    let http = client.http.clone();
    let running = tokio::spawn(async move { client.start().await });

    // READY, then GUILD_CREATE fills the cache, then the commands are registered.
    match next_report(&mut rx).await {
        Report::Ready {
            user_id,
            application_id,
            guilds,
        } => {
            assert_eq!(user_id, fake.bot_user().id);
            assert_eq!(application_id, fake.application_id());
            assert_eq!(guilds, vec![fake.guild_id()]);
        }
        other => panic!("expected READY, got {other:?}"),
    }
    let mut cache_seen = false;
    let mut commands_seen = false;
    while !(cache_seen && commands_seen) {
        match next_report(&mut rx).await {
            Report::CacheReady {
                guilds,
                channels,
                members,
            } => {
                assert_eq!((guilds, channels, members), (1, 1, 3));
                cache_seen = true;
            }
            Report::CommandsSet { global, guild } => {
                assert_eq!(global, vec!["xiangqi".to_string()]);
                assert_eq!(guild, vec!["board".to_string()]);
                commands_seen = true;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    let identify = fake.identify_payload().expect("identify");
    assert_eq!(
        identify["intents"],
        json_u64((1 << 0) | (1 << 9) | (1 << 15))
    );
    assert_eq!(fake.registered_commands().len(), 2);
    assert_eq!(
        fake.guild_commands(fake.guild_id())[0]["guild_id"],
        fake.guild_id().to_string()
    );
    let startup: Vec<String> = fake
        .calls()
        .iter()
        .map(|c| format!("{} {}", c.method, c.path))
        .collect();
    assert_eq!(
        startup[0], "GET /gateway",
        "serenity asks for the gateway URL first: {startup:?}"
    );

    // A message in the channel: the bot replies with an embed and a PNG attachment.
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let channel = fake.channel_id();
    let asked = fake.push_message_create(channel, &alice, "!board");
    let sent_id = match next_report(&mut rx).await {
        Report::Sent {
            id,
            attachment_sizes,
            embed_image,
        } => {
            assert_eq!(
                attachment_sizes,
                vec![(png.len() as u32, Some(90), Some(100))]
            );
            let url = embed_image.expect("embed image resolved");
            assert!(
                url.starts_with(&fake.http_url()) && url.ends_with("/board.png"),
                "{url}"
            );
            id
        }
        other => panic!("expected a sent message, got {other:?}"),
    };
    let sent = fake.message(sent_id).expect("stored");
    assert_eq!(sent.author_id, fake.bot_user().id);
    assert_eq!(sent.reference, Some(asked));
    assert_eq!(sent.kind, 19);
    assert_eq!(sent.attachments.len(), 1);
    assert_eq!(sent.attachments[0].filename, "board.png");
    assert_eq!(
        sent.attachments[0].content_type.as_deref(),
        Some("image/png")
    );
    let (w, h, pixels) = decode_png(&sent.attachments[0].data);
    assert_eq!((w, h), (90, 100));
    assert_eq!(pixels, decode_png(&png).2);
    let call = fake
        .calls_matching("POST /channels/*/messages")
        .pop()
        .expect("recorded");
    assert_eq!(call.files[0].field, "files[0]");
    assert_eq!(
        call.json.as_ref().expect("payload_json")["attachments"][0]["filename"],
        "board.png"
    );
    // The bot's own message came back over the gateway, as on Discord (and was ignored).
    assert!(
        fake.wait_for(
            |f| f.dispatched().iter().any(|d| d.event == "MESSAGE_CREATE"
                && d.data["id"].as_str().and_then(|s| s.parse::<u64>().ok()) == Some(sent_id)),
            WAIT
        )
        .await
    );

    // A slash command: deferred, then the original response edited with an attachment.
    let ix = fake.push_interaction(
        FakeInteraction::slash("xiangqi")
            .option(CmdOpt::sub("new", vec![CmdOpt::user("opponent", &bob)]))
            .by(&alice),
    );
    let game_msg = match next_report(&mut rx).await {
        Report::CommandAnswered {
            message_id,
            opponent,
            attachment_url,
        } => {
            assert_eq!(opponent, bob.id);
            assert!(attachment_url.ends_with("/board.png"));
            message_id
        }
        other => panic!("expected a command answer, got {other:?}"),
    };
    let responses = fake.interaction_responses(ix.id);
    let kinds: Vec<_> = responses
        .iter()
        .map(|r| (r.kind.clone(), r.status))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (ResponseKind::Callback(5), 204),
            (ResponseKind::EditOriginal, 200),
            (ResponseKind::Followup, 200),
        ]
    );
    assert_eq!(responses[1].files[0].filename, "board.png");
    let followup_id = responses[2].message_id.expect("follow-up id");
    assert!(fake.message(followup_id).expect("follow-up").is_ephemeral());
    assert!(!fake
        .dispatched()
        .iter()
        .any(|d| d.data["id"].as_str() == Some(followup_id.to_string().as_str())));
    let original = fake.original_response(ix.id).expect("original response");
    assert_eq!(original.id, game_msg);
    assert_eq!(original.kind, 20);
    assert_eq!(original.content, format!("New game against <@{}>", bob.id));
    assert_eq!(original.flags & 128, 0, "no longer loading");
    assert_eq!(decode_png(&original.attachments[0].data).0, 90);
    assert_eq!(
        original.custom_ids(),
        vec!["resign".to_string(), "ruleset".to_string()]
    );

    // The string select: acknowledged (type 6), then the message edited through @original.
    let sel =
        fake.push_interaction(FakeInteraction::select(game_msg, "ruleset", &["asian"]).by(&alice));
    let responses = fake.wait_for_interaction_responses(sel.id, 2, WAIT).await;
    let kinds: Vec<_> = responses
        .iter()
        .map(|r| (r.kind.clone(), r.status))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (ResponseKind::Callback(6), 204),
            (ResponseKind::EditOriginal, 200)
        ]
    );
    assert_eq!(
        fake.message(game_msg).expect("game message").content,
        "Ruleset: asian"
    );

    // The button: UPDATE_MESSAGE (type 7) rewrites the message and drops the components.
    let click = fake.push_interaction(FakeInteraction::button(game_msg, "resign").by(&bob));
    let responses = fake.wait_for_interaction_responses(click.id, 1, WAIT).await;
    assert_eq!(
        (responses[0].callback_type(), responses[0].status),
        (Some(7), 204)
    );
    let updated = fake.message(game_msg).expect("game message");
    assert_eq!(updated.content, "bob resigned");
    assert!(updated.components.is_empty());
    assert!(updated.edited);
    let names: Vec<_> = updated
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(
        names,
        vec!["final.png"],
        "a listed attachment set replaces the old one"
    );
    assert_eq!(responses[0].files[0].field, "files[0]");
    // The fake refuses a click on a component that is no longer there.
    assert!(fake
        .try_push_interaction(FakeInteraction::button(game_msg, "resign"))
        .is_err());

    // Autocomplete on the focused option.
    let ac = fake.push_interaction(
        FakeInteraction::autocomplete("xiangqi")
            .option(CmdOpt::sub(
                "move",
                vec![CmdOpt::string("move", "h2").focused()],
            ))
            .by(&alice),
    );
    match next_report(&mut rx).await {
        Report::Autocompleted { focused } => assert_eq!(focused, "h2"),
        other => panic!("expected autocomplete, got {other:?}"),
    }
    let responses = fake.wait_for_interaction_responses(ac.id, 1, WAIT).await;
    assert_eq!(responses[0].callback_type(), Some(8));
    let choices = &responses[0].json.as_ref().expect("json")["data"]["choices"];
    assert_eq!(choices[0]["value"], "h2e2");

    // The same command in a DM: the interaction carries `user` instead of `member`.
    let dm = fake.dm_channel(&alice);
    let in_dm = fake.push_interaction(
        FakeInteraction::slash("xiangqi")
            .option(CmdOpt::sub("new", vec![CmdOpt::user("opponent", &bob)]))
            .in_channel(dm)
            .by(&alice),
    );
    assert!(
        matches!(next_report(&mut rx).await, Report::CommandAnswered { opponent, .. } if opponent == bob.id)
    );
    assert_eq!(
        fake.original_response(in_dm.id)
            .expect("dm answer")
            .channel_id,
        dm
    );

    // Checked injections must fit what the bot registered.
    assert!(fake
        .try_push_interaction(FakeInteraction::slash("chess"))
        .is_err());
    assert!(fake
        .try_push_interaction(
            FakeInteraction::slash("xiangqi")
                .option(CmdOpt::sub("new", vec![CmdOpt::string("opponent", "x")]))
        )
        .is_err());
    assert!(fake
        .try_push_interaction(FakeInteraction::slash("xiangqi").option(CmdOpt::sub("move", vec![])))
        .is_err());

    // Threads (from a message and standalone), typing, a message in the thread, GET channel.
    let asked = fake.push_message_create(channel, &alice, "!thread");
    match next_report(&mut rx).await {
        Report::Threads {
            public,
            private,
            fetched_is_thread,
        } => {
            assert_eq!(
                public, asked,
                "a thread from a message takes the message's id"
            );
            assert!(fetched_is_thread);
            let t = fake.channel(public).expect("public thread");
            assert_eq!(
                (t.kind, t.parent_id, t.name.as_str()),
                (11, Some(channel), "Game 1")
            );
            assert_eq!(fake.channel(private).expect("private thread").kind, 12);
            assert_eq!(fake.messages(public)[0].content, "Moves go here");
            assert_eq!(fake.message(asked).expect("asked").thread_id, Some(public));
            assert_eq!(
                fake.calls_matching(&format!("POST /channels/{public}/typing"))
                    .len(),
                1
            );
        }
        other => panic!("expected threads, got {other:?}"),
    }

    // What serenity's Http reads at start-up or on demand.
    let app = http
        .get_current_application_info()
        .await
        .expect("application info");
    assert_eq!(app.id.get(), fake.application_id());
    let gw = http.get_bot_gateway().await.expect("gateway/bot");
    assert_eq!(
        (gw.url.as_str(), gw.shards),
        (fake.gateway_url().as_str(), 1)
    );
    assert_eq!(
        http.get_current_user().await.expect("users/@me").id.get(),
        fake.bot_user().id
    );
    let dm = http
        .get_user(alice.id.into())
        .await
        .expect("user")
        .create_dm_channel(&http)
        .await
        .expect("dm");
    assert_eq!(
        fake.channel(dm.id.get()).expect("dm channel").recipient_id,
        Some(alice.id)
    );

    // Editing keeps attachments unless the edit lists them; deleting sends MESSAGE_DELETE.
    let (ch_id, sent_msg) = (ChannelId::new(channel), MessageId::new(sent_id));
    let edited = ch_id
        .edit_message(
            &http,
            sent_msg,
            EditMessage::new().content("Board (edited)"),
        )
        .await
        .expect("edit");
    assert_eq!(
        (edited.content.as_str(), edited.attachments.len()),
        ("Board (edited)", 1)
    );
    assert!(edited.edited_timestamp.is_some());
    ch_id.delete_message(&http, sent_msg).await.expect("delete");
    assert!(fake.message(sent_id).expect("kept").deleted);
    assert!(fake
        .dispatched()
        .iter()
        .any(|d| d.event == "MESSAGE_DELETE"));
    let gone = ch_id.message(&http, sent_msg).await.expect_err("deleted");
    assert!(format!("{gone:?}").contains("10008"), "{gone:?}");

    // Every dispatch and every REST answer so far deserializes into serenity's own types.
    check_shapes(&fake);

    // Missing Permissions on the next message create with attachments surfaces as 403 / 50013.
    fake.fail_next_with_attachments(
        "POST /channels/*/messages",
        403,
        FakeDiscord::missing_permissions(),
    );
    fake.push_message_create(channel, &alice, "!board");
    match next_report(&mut rx).await {
        Report::SendFailed { status, code } => assert_eq!((status, code), (403, 50013)),
        other => panic!("expected a failure, got {other:?}"),
    }

    // Heartbeats are acknowledged, so serenity never reconnects.
    assert!(fake.wait_for(|f| f.heartbeat_count() >= 2, WAIT).await);
    assert_eq!(fake.identify_count(), 1);

    // A dropped connection (4000) is resumed, and events keep flowing.
    // A message pushed while the bot is away is replayed on RESUME.
    fake.close_gateway(4000, "Unknown error");
    fake.push_message_create(channel, &alice, "!board");
    assert!(matches!(next_report(&mut rx).await, Report::Sent { .. }));
    assert!(fake.gateway_received().iter().any(|v| v["op"] == 6));
    assert_eq!(fake.identify_count(), 1, "resumed, not re-identified");
    let resumed = fake.dispatched().iter().any(|d| d.event == "RESUMED");
    assert!(resumed);
    check_shapes(&fake);

    // serenity logs off with a 1000 close and waits for the fake's close reply.
    let started = std::time::Instant::now();
    shards.shutdown_all().await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "shutdown took {:?}",
        started.elapsed()
    );
    assert!(fake.wait_for(|f| !f.is_connected(), WAIT).await);
    let _ = tokio::time::timeout(WAIT, running).await;
}

/// Everything the fake sent must deserialize into serenity's models (serenity drops an event it
/// cannot parse with only a log line, so a wrong shape would otherwise go unnoticed).
fn check_shapes(fake: &FakeDiscord) {
    for d in fake.dispatched() {
        let frame = serde_json::json!({"op": 0, "s": d.seq, "t": d.event, "d": d.data});
        if let Err(e) = serde_json::from_value::<GatewayEvent>(frame) {
            panic!(
                "dispatch {} does not deserialize: {e}\n{:#}",
                d.event, d.data
            );
        }
    }
    for c in fake.calls() {
        if !(200..300).contains(&c.status) || c.status == 204 {
            continue;
        }
        let v = c.response.clone();
        let res = if c.matches("GET /users/@me") {
            serde_json::from_value::<CurrentUser>(v).map(drop)
        } else if c.matches("GET /oauth2/applications/@me") {
            serde_json::from_value::<CurrentApplicationInfo>(v).map(drop)
        } else if c.matches("POST /users/@me/channels") {
            serde_json::from_value::<PrivateChannel>(v).map(drop)
        } else if c.matches("/applications/**") && v.is_array() {
            serde_json::from_value::<Vec<Command>>(v).map(drop)
        } else if c.matches("/applications/**") {
            serde_json::from_value::<Command>(v).map(drop)
        } else if c.matches("POST /channels/*/threads")
            || c.matches("POST /channels/*/messages/*/threads")
        {
            serde_json::from_value::<GuildChannel>(v).map(drop)
        } else if c.matches("GET /channels/*") {
            serde_json::from_value::<Channel>(v).map(drop)
        } else if v.get("author").is_some() {
            serde_json::from_value::<Message>(v).map(drop)
        } else {
            Ok(())
        };
        if let Err(e) = res {
            panic!(
                "{} {} answer does not deserialize: {e}\n{:#}",
                c.method, c.path, c.response
            );
        }
    }
}

fn json_u64(v: u64) -> serde_json::Value {
    serde_json::Value::from(v)
}

#[tokio::test]
async fn bad_token_is_refused_by_the_gateway() {
    let fake = FakeDiscord::start().await;
    let (mut client, _rx) = start_bot(&fake, "not-the-token", default_intents(), Vec::new()).await;
    let result = tokio::time::timeout(WAIT, client.start())
        .await
        .expect("client gave up in time");
    let err = result.expect_err("a bad token must fail");
    assert!(
        format!("{err:?}").contains("InvalidAuthentication"),
        "{err:?}"
    );
}

/// Send raw HTTP/1.1 to the fake and return (status, body).
async fn raw_http(fake: &FakeDiscord, request: String) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = fake.http_url().trim_start_matches("http://").to_string();
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    s.write_all(request.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn request(fake: &FakeDiscord, method: &str, path: &str, content_type: &str, body: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bot {}\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        fake.token(),
        body.len()
    )
}

#[tokio::test]
async fn malformed_requests_get_discord_errors() {
    let fake = FakeDiscord::start().await;
    let ch = fake.channel_id();
    let msgs = format!("/api/v10/channels/{ch}/messages");

    let (status, body) = raw_http(
        &fake,
        request(&fake, "POST", &msgs, "application/json", "{not json"),
    )
    .await;
    assert_eq!((status, body.contains("50109")), (400, true), "{body}");

    let (status, body) = raw_http(
        &fake,
        request(
            &fake,
            "POST",
            &msgs,
            "multipart/form-data; boundary=zz",
            "garbage",
        ),
    )
    .await;
    assert_eq!(status, 400, "{body}");

    let (status, body) = raw_http(
        &fake,
        request(&fake, "POST", &msgs, "application/json", "{}"),
    )
    .await;
    assert_eq!((status, body.contains("50006")), (400, true), "{body}");

    let long = format!("{{\"content\": \"{}\"}}", "x".repeat(2001));
    let (status, body) = raw_http(
        &fake,
        request(&fake, "POST", &msgs, "application/json", &long),
    )
    .await;
    assert_eq!(
        (status, body.contains("BASE_TYPE_MAX_LENGTH")),
        (400, true),
        "{body}"
    );

    let (status, body) = raw_http(
        &fake,
        request(
            &fake,
            "GET",
            "/api/v10/nope/nothing",
            "application/json",
            "",
        ),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&body).expect("json"),
        serde_json::json!({"message": "404: Not Found", "code": 0})
    );

    let (status, _) = raw_http(
        &fake,
        request(
            &fake,
            "GET",
            "/api/v10/channels/abc",
            "application/json",
            "",
        ),
    )
    .await;
    assert_eq!(status, 400);

    let (status, body) = raw_http(
        &fake,
        request(
            &fake,
            "POST",
            "/api/v10/interactions/1/x/callback",
            "application/json",
            "{\"type\":4}",
        ),
    )
    .await;
    assert_eq!((status, body.contains("10062")), (404, true), "{body}");

    let bad_rows = r#"{"content":"x","components":[{"type":1,"components":[{"type":2,"style":1,"label":"a","custom_id":"same"},{"type":2,"style":1,"label":"b","custom_id":"same"}]}]}"#;
    let (status, body) = raw_http(
        &fake,
        request(&fake, "POST", &msgs, "application/json", bad_rows),
    )
    .await;
    assert_eq!(
        (status, body.contains("COMPONENT_CUSTOM_ID_DUPLICATED")),
        (400, true),
        "{body}"
    );

    let unauth =
        "GET /api/v10/users/@me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_string();
    let (status, _) = raw_http(&fake, unauth).await;
    assert_eq!(status, 401);

    fake.fail_next(
        "POST /channels/*/messages",
        429,
        FakeDiscord::rate_limited(0.25),
    );
    let (status, body) = raw_http(
        &fake,
        request(
            &fake,
            "POST",
            &msgs,
            "application/json",
            "{\"content\":\"hi\"}",
        ),
    )
    .await;
    assert_eq!((status, body.contains("retry_after")), (429, true));
    let (status, _) = raw_http(
        &fake,
        request(
            &fake,
            "POST",
            &msgs,
            "application/json",
            "{\"content\":\"hi\"}",
        ),
    )
    .await;
    assert_eq!(status, 200);

    // Every call was recorded with its answer; nothing in the fake panicked.
    assert_eq!(fake.calls().len(), 11);
    assert_eq!(fake.messages(ch).len(), 1);
}

#[tokio::test]
async fn message_content_needs_the_intent() {
    let fake = FakeDiscord::start().await;
    let intents = GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES;
    let (mut client, _rx) = start_bot(&fake, &fake.token(), intents, Vec::new()).await;
    let shards = client.shard_manager.clone();
    let running = tokio::spawn(async move { client.start().await });
    assert!(fake.wait_for_ready(WAIT).await);
    let alice = fake.add_user("alice");
    let bot = fake.bot_user().id;
    let plain = fake.push_message_create(fake.channel_id(), &alice, "h2e2");
    let mention = fake.push_message_create(fake.channel_id(), &alice, &format!("<@{bot}> h2e2"));
    let content = |id: u64| {
        fake.dispatched()
            .into_iter()
            .find(|d| {
                d.event == "MESSAGE_CREATE"
                    && d.data["id"].as_str() == Some(id.to_string().as_str())
            })
            .map(|d| d.data["content"].as_str().unwrap_or_default().to_string())
    };
    assert_eq!(content(plain).as_deref(), Some(""));
    assert_eq!(content(mention), Some(format!("<@{bot}> h2e2")));
    // The stored message keeps its content either way.
    assert_eq!(fake.message(plain).expect("stored").content, "h2e2");
    shards.shutdown_all().await;
    let _ = tokio::time::timeout(WAIT, running).await;
}

#[tokio::test]
async fn interaction_callbacks_follow_discord_rules() {
    let fake = FakeDiscord::builder()
        .interaction_deadline(Duration::from_millis(200))
        .start()
        .await;
    let callback = |id: u64, token: &str, body: &str| {
        request(
            &fake,
            "POST",
            &format!("/api/v10/interactions/{id}/{token}/callback"),
            "application/json",
            body,
        )
    };
    let ix = fake.push_interaction(FakeInteraction::slash("anything").unchecked());
    // Autocomplete answers are only for autocomplete interactions.
    let (status, body) = raw_http(
        &fake,
        callback(ix.id, &ix.token, r#"{"type":8,"data":{"choices":[]}}"#),
    )
    .await;
    assert_eq!((status, body.contains("50035")), (400, true), "{body}");
    // A wrong token is an unknown interaction.
    let (status, _) = raw_http(&fake, callback(ix.id, "nope", r#"{"type":5}"#)).await;
    assert_eq!(status, 404);
    let (status, _) = raw_http(
        &fake,
        callback(ix.id, &ix.token, r#"{"type":4,"data":{"content":"hi"}}"#),
    )
    .await;
    assert_eq!(status, 204);
    let (status, body) = raw_http(
        &fake,
        callback(ix.id, &ix.token, r#"{"type":4,"data":{"content":"again"}}"#),
    )
    .await;
    assert_eq!((status, body.contains("40060")), (400, true), "{body}");
    // Editing @original works with the application id and the token.
    let app = fake.application_id();
    let edit = request(
        &fake,
        "PATCH",
        &format!("/api/v10/webhooks/{app}/{}/messages/@original", ix.token),
        "application/json",
        r#"{"content":"edited"}"#,
    );
    let (status, body) = raw_http(&fake, edit).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        fake.original_response(ix.id).expect("original").content,
        "edited"
    );

    // Too late: past the deadline the interaction is unknown.
    let late = fake.push_interaction(FakeInteraction::slash("anything").unchecked());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, body) = raw_http(&fake, callback(late.id, &late.token, r#"{"type":5}"#)).await;
    assert_eq!((status, body.contains("10062")), (404, true), "{body}");
    let kinds: Vec<_> = fake
        .interaction_responses(ix.id)
        .iter()
        .map(|r| (r.kind.clone(), r.status))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (ResponseKind::Callback(8), 400),
            (ResponseKind::Callback(4), 204),
            (ResponseKind::Callback(4), 400),
            (ResponseKind::EditOriginal, 200),
        ]
    );
}

#[tokio::test]
async fn an_interaction_token_runs_out_and_a_nonce_is_created_once() {
    let fake = FakeDiscord::start().await;
    let ix = fake.push_interaction(FakeInteraction::slash("anything").unchecked());
    let callback = request(
        &fake,
        "POST",
        &format!("/api/v10/interactions/{}/{}/callback", ix.id, ix.token),
        "application/json",
        r#"{"type":5}"#,
    );
    assert_eq!(raw_http(&fake, callback).await.0, 204);
    let app = fake.application_id();
    let followup = || {
        request(
            &fake,
            "POST",
            &format!("/api/v10/webhooks/{app}/{}", ix.token),
            "application/json",
            r#"{"content":"later"}"#,
        )
    };
    assert_eq!(raw_http(&fake, followup()).await.0, 200);
    // 15 minutes on, the token no longer works: 401 / 50027, as on Discord.
    fake.expire_interaction(ix.id);
    let (status, body) = raw_http(&fake, followup()).await;
    assert_eq!((status, body.contains("50027")), (401, true), "{body}");

    // A channel message with `enforce_nonce` is created once, however often it is sent.
    let channel = fake.channel_id();
    let post = |body: &str| {
        request(
            &fake,
            "POST",
            &format!("/api/v10/channels/{channel}/messages"),
            "application/json",
            body,
        )
    };
    let once = r#"{"content":"board","nonce":"1f-0","enforce_nonce":true}"#;
    let (s1, b1) = raw_http(&fake, post(once)).await;
    let (s2, b2) = raw_http(&fake, post(once)).await;
    assert_eq!((s1, s2), (200, 200));
    let id = |b: &str| serde_json::from_str::<serde_json::Value>(b).expect("json")["id"].clone();
    assert_eq!(id(&b1), id(&b2), "the same message");
    assert_eq!(
        fake.messages(channel)
            .iter()
            .filter(|m| m.content == "board")
            .count(),
        1
    );
    // Without `enforce_nonce`, the nonce does not prevent a second message.
    let twice = r#"{"content":"chat","nonce":"1f-1"}"#;
    raw_http(&fake, post(twice)).await;
    raw_http(&fake, post(twice)).await;
    assert_eq!(
        fake.messages(channel)
            .iter()
            .filter(|m| m.content == "chat")
            .count(),
        2
    );
    let (status, _) = raw_http(
        &fake,
        post(r#"{"content":"x","nonce":"this nonce is far too long to be taken","enforce_nonce":true}"#),
    )
    .await;
    assert_eq!(status, 400, "a nonce is at most 25 characters");
}

//! English.

use super::{GameState, Label, Msg};
use crate::i18n::{side_name, with_iccs, Lang};

pub(super) fn text(m: &Msg) -> String {
    match m {
        Msg::Help { commands, top } => format!("Xiangqi bot — commands:
{commands}
Times: none, 10+5, 20m/1m, 10m+3x30s, 1d (rated games need a clock). /play bot [level 1-{top}] plays the bot at once. When it is your turn, just type your move: h2e2, C2.5, 炮二平五, P2-5."),
        Msg::UnknownCommand { cmd } => format!("I don't know the command {cmd}. Type /help for the list."),
        Msg::TooLong { max } => format!("That message is too long for me (over {max} characters). Send a shorter one."),
        Msg::RateLimited { secs } => format!("You are sending commands too fast. Wait {secs} s and try again."),
        Msg::StorageFailure => "Sorry, I could not save that, so nothing was changed. Please try again.".into(),
        Msg::NoGame => "There is no game in this channel. Start one with /play @someone (or /play for an open challenge).".into(),
        Msg::NotYourGame { red, black } => format!("This game is between {red} (Red) and {black} (Black); only they can act in it. Start your own with /play."),
        Msg::NotYourTurn { player } => format!("It is {player}'s turn, not yours. Wait for their move."),
        Msg::GameInProgress { red, black } => format!("You are already playing here: {red} (Red) vs {black} (Black). A player plays one game at a time in a chat: finish that one first."),
        Msg::ChallengePending { challenger } => format!("{challenger}'s challenge is waiting here. Answer it with /accept or /decline, or {challenger} can /cancel it."),
        Msg::ChallengeSelf => "You cannot challenge yourself. Name someone else, or type /play alone for an open challenge.".into(),
        Msg::ChallengeCreated { challenger, opponent, time_control, ruleset, color, minutes } => {
            let who = opponent.as_deref().map_or_else(|| "anyone".to_string(), |o| o.to_string());
            format!("{challenger} challenges {who}: {time_control}, {ruleset}, {challenger} plays {color}. Answer with /accept or /decline within {minutes} min.")
        }
        Msg::BadPlayArgument { word } => format!("I could not understand \"{word}\" in /play. Use: /play [@user] [time like 10+5] [official|asian|vietnam|cxq|casual] [red|black|random]."),
        Msg::NoChallenge => "There is no challenge to answer here. Start one with /play.".into(),
        Msg::ChallengeNotForYou { opponent } => format!("This challenge is for {opponent}, not you."),
        Msg::OwnChallenge => "That is your own challenge; wait for someone to accept it, or /cancel it.".into(),
        Msg::NotYourChallenge => "Only the player who made the challenge can cancel it.".into(),
        Msg::ChallengeDeclined { by } => format!("{by} declined the challenge."),
        Msg::ChallengeCancelled => "The challenge was withdrawn.".into(),
        Msg::ChallengeExpired { challenger } => format!("{challenger}'s challenge was not accepted in time and has lapsed."),
        Msg::GameStarted { red, black, time_control, ruleset, id } => format!("Game #{id} begins: {red} (Red) vs {black} (Black), {time_control}, {ruleset}."),
        Msg::Moved { ply, player, text, iccs } => format!("{ply}. {player}: {}", with_iccs(text, iccs, Lang::En)),
        Msg::ToMove { player, color } => format!("{player} ({color}) to move."),
        Msg::Check { player } => format!("Check! {player}'s general is attacked."),
        Msg::Clocks { red, black } => format!("⏱ Red {red} · Black {black}"),
        Msg::NoClock => "This game has no clock.".into(),
        Msg::GameOver { score, headline } => format!("Game over: {headline} ({score})."),
        Msg::Resigned { player } => format!("{player} resigned"),
        Msg::DrawAgreed => "by agreement".into(),
        Msg::TimeForfeit { player } => format!("{player} ran out of time"),
        Msg::TimeWarning { player, left } => format!("⏰ {player}, only {left} left on your clock."),
        Msg::DrawOffered { by, to } => format!("{by} offers a draw. {to}, answer with /draw to accept or /decline."),
        Msg::DrawAlreadyOffered => "You have already offered a draw; it stands until your opponent answers or moves.".into(),
        Msg::DrawDeclined { by } => format!("{by} declined the draw offer."),
        Msg::NoDrawOffer => "There is no draw offer to answer.".into(),
        Msg::OwnDrawOffer { to } => format!("That is your own draw offer: only {to} can answer it. It stands until they answer or move."),
        Msg::OwnTakeback { to } => format!("That is your own takeback request: only {to} can answer it."),
        Msg::IdleWarning { absent, waiting, idle, left } => format!("⏰ {absent}, it is your move and you have not moved for {idle}. If you do not move within {left}, {waiting} may claim the game."),
        Msg::IdleClaimable { absent, waiting, idle } => format!("{absent} has not moved for {idle}. {waiting}, you may now /claim the win, or /claim end to end the game without a result; a move by {absent} before that goes on as usual."),
        Msg::Abandoned { player } => format!("{player} stopped playing"),
        Msg::ClaimTooEarly { absent, left } => format!("{absent} still has {left} to move before you can claim the game."),
        Msg::ClaimOwnMove => "It is your move, so there is nothing to claim.".into(),
        Msg::ClaimTimed => "This game has a clock: if your opponent does not move, their flag falls and you win on time. /claim is for untimed games.".into(),
        Msg::ClaimEnded { by, absent } => format!("{by} ended the game without a result: {absent} had stopped moving."),
        Msg::BadClaim { word } => format!("I could not understand \"{word}\" in /claim. Use /claim to win, or /claim end to end the game without a result."),
        Msg::DrawClaimTooEarly { counted, needed } => format!("A no-progress draw can be claimed after {needed} plies without a capture; {counted} are counted so far. You can still offer a draw with /draw."),
        Msg::TakebacksDisabled => "Takebacks are off in this channel. Whoever may change this channel's settings can switch them on for future games with /takebacks on.".into(),
        Msg::TakebackRequested { by, to } => format!("{by} asks to take back a move. {to}, answer with /takeback to agree or /decline."),
        Msg::TakebackDone { plies } => format!("Taken back ({plies} ply/plies)."),
        Msg::TakebackDeclined { by } => format!("{by} declined the takeback."),
        Msg::NothingToTakeBack => "There is nothing to take back.".into(),
        Msg::Aborted => "The game was aborted; it has no result.".into(),
        Msg::AbortTooLate => "Both players have moved, so the game can no longer be aborted. You can /resign or offer a /draw.".into(),
        Msg::GameIsOver => "That game is over. Start a new one with /play.".into(),
        Msg::BoardCaption { red, black, ply } => format!("{red} (Red) vs {black} (Black), after {ply} plies"),
        Msg::LegalMoves { count, list } => format!("{count} legal moves: {list}"),
        Msg::NothingToExplain => "There is no ruling, refusal or warning to explain here yet.".into(),
        Msg::RulesetIs { name, code } => format!("New games here are played under {name}. Change with /ruleset official|asian|vietnam|cxq|casual; /rules {code} explains them."),
        Msg::RulesetSet { name, game_running } => {
            if *game_running {
                format!("New games here will use {name}; the game in progress keeps its rules.")
            } else {
                format!("New games here will use {name}.")
            }
        }
        Msg::UnknownRuleset { name } => format!("There is no ruleset \"{name}\". Choose official, asian, vietnam, cxq or casual."),
        Msg::NotationIs { name, example } => format!("Your moves are shown and read in {name} notation (for example {example}). Change with /notation iccs|wxf|chinese|vietnamese."),
        Msg::UnknownNotation { name } => format!("There is no notation \"{name}\". Choose iccs, wxf, chinese or vietnamese."),
        Msg::LangIs => "I speak English in this channel. Change with /lang vi|en|zh.".into(),
        Msg::UnknownLang { name } => format!("I do not speak \"{name}\". Choose vi, en or zh."),
        Msg::TakebacksSet { on } => if *on { "Takebacks are now allowed in new games here.".into() } else { "Takebacks are now off for new games here.".into() },
        Msg::GamesList { lines } => format!("Your games:\n{}", lines.join("\n")),
        Msg::GameLine { id, opponent, side, plies, state, here } => {
            let state = match state {
                GameState::Playing => "in progress",
                GameState::Aborted => "aborted",
                GameState::Won => "you won",
                GameState::Lost => "you lost",
                GameState::Drawn => "drawn",
            };
            let plies = if *plies == 1 { "1 ply".to_string() } else { format!("{plies} plies") };
            let place = if *here { "here" } else { "in another chat" };
            format!("#{id} vs {opponent} — you play {} — {plies} — {state} ({place})", side_name(*side, Lang::En))
        }
        Msg::NoGames => "You have no games yet. Start one with /play.".into(),
        Msg::StaleButton => "That button belongs to an earlier position; use the latest message.".into(),
        Msg::NotYourButton => "That button is for the players of this game.".into(),
        Msg::ButtonForSomeoneElse => "That button is meant for someone else, not you.".into(),
        Msg::PickPiece { player } => format!("{player}, pick the piece to move:"),
        Msg::PickTarget { player, piece } => format!("{player}: where should the {piece} go?"),
        Msg::ConfirmResign => "Do you really want to resign?".into(),
        Msg::Label(l) => label(*l).into(),
        Msg::PgnCaption => "The game record (PGN):".into(),
        Msg::GifCaption { plies } => format!("Replay of the game ({plies} plies)"),
        Msg::NotAMove { detail } => detail.clone(),
        Msg::BotName { level } => format!("Bot level {level}"),
        Msg::BadBotLevel { text, top } => format!("The bot plays at levels 1 to {top}, not \"{text}\". Example: /play bot 10 red"),
        Msg::BotStrength { level, top, rating } => format!("The bot plays at level {level} of {top}: about {rating} on our players' rating scale, where newcomers start at 1500 (an estimate from games between engines)."),
        Msg::TooManyBotGames { max } => format!("You are already playing the bot in {max} games, as many as one may at once. Finish or resign one of them first."),
        Msg::About { version, documents, source } => {
            let source = source.as_deref().map_or_else(String::new, |s| format!("\nSource: {s}"));
            format!("xiangqi-bot {version}, a Xiangqi bot for chat. The arbiter rules by these documents:\n{documents}\nType /rules for the rulebook, and /why after a ruling for its reasons.{source}")
        }
        Msg::WhichGame { games } => format!("Several games are being played here:\n{games}\nName the one you mean: /board 12."),
        Msg::GameLabel { id } => format!("Game #{id}"),
        Msg::PlayerBusy { name, id } => format!("{name} is playing game #{id} here. A player plays one game at a time in a chat: wait for it to end."),
        Msg::QueueFull => "Too much is being asked here at once: I skipped some answers. Ask again in a moment.".into(),
        Msg::AdminsOnly { discord, slash } => {
            let who = if *discord { "Only members who can manage this channel can change its settings." } else { "Only this group's administrators can change its settings." };
            match slash {
                Some(cmd) => format!("{who} A typed command does not tell me who you are on this server: use the slash command {cmd}."),
                None => who.to_string(),
            }
        }
        Msg::BotUnavailable => "The bot cannot play here right now. Challenge a person with /play.".into(),
        Msg::BadTimeControl { text } => format!("I cannot read the time control \"{text}\". Use none, 10+5 (minutes + seconds), 20m/1m, 10m+3x30s or 1d."),
        Msg::BadStart { detail } => format!("That start position cannot be played: {detail}"),
        Msg::Raw(s) => s.clone(),
    }
}

fn label(l: Label) -> &'static str {
    match l {
        Label::Accept => "Accept",
        Label::Decline => "Decline",
        Label::Resign => "Resign",
        Label::ConfirmResign => "Yes, resign",
        Label::KeepPlaying => "Keep playing",
        Label::Draw => "Offer draw",
        Label::AcceptDraw => "Accept draw",
        Label::DeclineOffer => "Decline",
        Label::AcceptTakeback => "Allow takeback",
        Label::Flip => "Flip board",
        Label::WebBoard => "Open board",
        Label::PickMove => "Pick a move",
        Label::Back => "Back",
        Label::Rematch => "Rematch",
        Label::PlayBot => "Play the bot",
    }
}

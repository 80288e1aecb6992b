//! The rulebook in English.

use super::{Catalogue, Topic};

pub(super) const CATALOGUE: Catalogue = Catalogue {
    title,
    body,
    source_label: "Source: ",
    source_sep: "; ",
    source_end: ".",
    heading: "Xiangqi rulebook: every topic as slug (title).",
    groups: [
        "Pieces and moves",
        "Check, chase and the other ply classes",
        "Repetition, counts and fouls",
        "Draws",
        "Rulesets",
    ],
    list_sep: ", ",
    colon: ": ",
    parens: (" (", ")"),
    hint: "Ask with /rules SLUG, e.g. /rules horse (or: xiangqi-bot rules horse --lang en). \
The default ruleset is official; switch with /ruleset NAME.",
    unknown: "No such topic. Type /rules for the list of topics.",
};

fn title(t: Topic) -> &'static str {
    match t {
        Topic::General => "General (king)",
        Topic::Advisor => "Advisor (guard)",
        Topic::Elephant => "Elephant (minister)",
        Topic::Horse => "Horse (knight)",
        Topic::Chariot => "Chariot (rook)",
        Topic::Cannon => "Cannon",
        Topic::Soldier => "Soldier (pawn)",
        Topic::FlyingGeneral => "Flying general (facing generals)",
        Topic::Check => "Check",
        Topic::Checkmate => "Checkmate",
        Topic::Stalemate => "Stalemate (no legal move)",
        Topic::Chase => "Chase",
        Topic::Trade => "Trade (offer to exchange)",
        Topic::Idle => "Idle move (and blocking)",
        Topic::Kill => "Kill (threat to mate)",
        Topic::PerpetualCheck => "Perpetual check",
        Topic::PerpetualChase => "Perpetual chase",
        Topic::Repetition => "Repetition (tables A and O)",
        Topic::NoProgress => "No-progress draw",
        Topic::EffectiveMoves => "Effective-move rule",
        Topic::MoveLimit => "Game-length limit",
        Topic::InsufficientMaterial => "Insufficient material",
        Topic::DrawClaim => "Draws and draw claims",
        Topic::Enforcement => "Enforcement: forfeit or refuse",
        Topic::Official => "Official rules (default)",
        Topic::Asian => "Asian rules (AXF/WXF)",
        Topic::Vietnam => "Vietnamese rules 2004",
        Topic::Cxq => "CXQ club rules",
        Topic::Casual => "Casual app rules",
    }
}

fn body(t: Topic) -> &'static str {
    match t {
        Topic::General => {
            "\
Moves one point along a file or rank, never diagonally, and never leaves its palace: files d–f, \
ranks 0–2 for Red (it starts on e0), ranks 7–9 for Black (e9).
• Example: e0e1 is legal; e2e3 is not, e3 lies outside the palace.
• It may not end a move where it can be taken, nor face the other general on an open file \
(/rules flying-general).
• A general never counts as chasing, and it is never chased: threatening it is a check."
        }
        Topic::Advisor => {
            "\
Moves one point diagonally and stays inside the palace, so it only ever stands on 5 points: \
d0, f0, e1, d2, f2 for Red; d9, f9, e8, d7, f7 for Black.
• Example: d0e1 is legal; e1e2 is not, an advisor never moves straight.
• It shields the general but cannot mate: when only generals, advisors and elephants remain, \
the game is a draw (/rules insufficient-material)."
        }
        Topic::Elephant => {
            "\
Moves exactly two points diagonally (across a 2×2 square) and never crosses the river, so it \
has 7 points: c0, g0, a2, e2, i2, c4, g4 for Red; c9, g9, a7, e7, i7, c5, g5 for Black.
• The point it passes over is its eye: while any piece stands there, that move is blocked.
• Example: c0e2 is blocked while d1 is occupied; c4e6 never exists, it would cross the river.
• It never jumps."
        }
        Topic::Horse => {
            "\
Moves one point straight (along a file or rank), then one point diagonally away from where it \
started: at most 8 destinations.
• The leg is the point right next to the horse in the direction of the straight step; if any \
piece stands there, the horse is hobbled and cannot go that way.
• Example: b0c2 and b0a2 are blocked when b1 is occupied; at the start b0d1 is blocked by \
Red's own elephant on c0.
• Hobbling works one way: an enemy horse may attack yours while yours cannot reach it."
        }
        Topic::Chariot => {
            "\
Moves any number of points along a file or rank, cannot jump, and captures the first enemy \
piece in its path.
• Example: at the start a0a2 is legal but a0a3 is not, Red's soldier stands on a3; i0i1 and \
then i1d1 bring the chariot to the middle.
• The strongest piece: a horse or cannon that attacks a chariot always chases it, even when the \
chariot is protected (/rules chase)."
        }
        Topic::Cannon => {
            "\
Moves like a chariot when it does not capture. To capture, it jumps over exactly one piece on \
its line (the screen, of either colour) and lands on the enemy piece behind it; every other \
point between must be empty.
• Example: h2e2 at the start (the central cannon); h2h9 takes Black's horse on h9, jumping \
over Black's cannon on h7.
• With no screen, or with two pieces in between, it cannot capture.
• Putting a screen in place can make a cannon check or chase (a discovered attack)."
        }
        Topic::Soldier => {
            "\
Moves one point straight ahead. Once across the river (Red on ranks 5–9, Black on ranks 0–4) \
it may also step one point sideways. It never moves back and never promotes; on the last rank \
it can only move sideways.
• Example: e3e4, e4e5, then e5d5 or e5e6 are legal; e5e4 never is.
• Can it chase? Under official only a soldier that has crossed can; under the other rulesets \
a soldier never counts as chasing. A soldier that has not crossed is never chased either."
        }
        Topic::FlyingGeneral => {
            "\
The two generals may never stand on the same file with no piece between them; a move that \
would leave them facing each other is illegal.
• Example: Red general e0, Black general e9, only a red cannon on e2 between them: e2d2 is \
illegal, it would open the e-file.
• It is also a weapon: a general controls an open file like a chariot, so the enemy general \
cannot step onto it; a general that could recapture only by facing the other one is a false root.
• The bot refuses such a move and says which file it would open."
        }
        Topic::Check => {
            "\
A ply gives check (chiếu, 将) when afterwards the opponent's general is attacked: it could be \
taken next ply.
• Discovered checks count: moving a piece off a line, freeing a horse's leg, or giving a cannon \
its screen.
• Answers: move the general, capture the checking piece, or block (cản, 拦): put a piece on \
the line or on the horse's leg, or add a second piece between cannon and general (or move the \
screen away if it is yours).
• A move that leaves your own general attacked is illegal.
• The arbiter labels each ply check, chase, kill (threat to mate) or idle; runs of checks are \
limited (/rules perpetual-check)."
        }
        Topic::Checkmate => {
            "\
The side to move is in check and has no legal move: it loses at once.
• Moves that break the flying-general rule or leave the general attacked are not escapes.
• Checkmate is ruled before anything else: a mating move wins even if it also completes a \
repetition or a count.
• Having no legal move without being in check loses as well (/rules stalemate)."
        }
        Topic::Stalemate => {
            "\
The side to move is not in check but has no legal move at all: in xiangqi it loses. It is not \
a draw as in western chess.
• The “Official Xiangqi Rules” (§V), the CXQ rules and the Vietnamese rules (Điều 7.1b) agree on this.
• Like checkmate, it is ruled before fouls and before the draw rules.
• Under the refuse enforcement, a player whose every legal move would be refused also loses \
(/rules enforcement)."
        }
        Topic::Chase => {
            "\
A ply chases (đuổi/tróc, 捉) an enemy piece P when it creates a new threat to take P next ply \
and P has no real protection. All of these must hold:
• P is not the general (that is check) nor a soldier that has not crossed; the attacker is not \
a general, nor a soldier (except a crossed soldier under official).
• The threat is new: a direct attack, a discovered one, a cannon gaining a screen, or P's \
defender taken away or pinned. A threat that was already there does not count.
• The capture would be legal, and P has no real root: nothing could legally take back on P's \
point (a pinned defender, or a general stopped by the flying-general rule, is a false root).
• Exception: a horse or cannon attacking a chariot always chases, protected or not.
• An offer to trade between pieces of the same kind is not a chase (/rules trade)."
        }
        Topic::Trade => {
            "\
When attacker and target are the same kind (chariot–chariot, horse–horse, cannon–cannon) and \
the target could legally take back, the ply offers a trade (đổi, 兑): it is not a chase and \
may be repeated freely.
• If the target cannot take back (its leg is blocked, it is pinned), it is a chase after all.
• Vietnamese rules, games 16–17: a chariot that keeps offering itself to the enemy chariot is \
allowed (draw); two chariots taking turns at a pinned chariot are chasing (they lose).
• Offering a piece as a sacrifice is an idle move."
        }
        Topic::Idle => {
            "\
An idle ply (nhàn/chờ, 闲) is neither a check nor a chase nor a threat to mate: developing, \
defending, waiting, attacking a protected piece (except a chariot, by a horse or cannon), \
offering a trade, or blocking (cản, 拦) an attack. Threatening mate has its own name: a kill \
(/rules kill).
• Blocking again and again is allowed (Vietnamese rules, game 3); but a ply that blocks and \
chases at the same time is a chase.
• In a repetition, idle plies are what make a side mixed rather than a perpetual checker or \
chaser (/rules repetition)."
        }
        Topic::Kill => {
            "\
A kill (sát/hăm bí, 杀) is a ply that threatens mate: it does not check, but if its side could \
move again at once, it would have a mating move. The bot looks one move ahead for that mate.
• Threatening mate is allowed, however often: perpetual kill, one check one kill, kill and idle \
moves are draws when the position repeats (the AXF/WXF rulebook; Vietnamese rules, games 3–4).
• A kill is not a chase: a defender that the threatening move itself pins against its general \
(or a general it leaves facing the other general) still counts as protection, so what that \
defender guards is not chased by the move. A defender pinned before the move is a false root \
as always.
• A ply that threatens mate and also truly chases (an unprotected piece, or a chariot hit by a \
horse or cannon) is a chase: the rulebook takes the reading that may be forbidden.
• Counts: a kill breaks a run of checks or chases (official, cxq); under cxq it is an effective \
move."
        }
        Topic::PerpetualCheck => {
            "\
Checking forever to save the game is forbidden; what \"forever\" means depends on the ruleset:
• Repetition (official, asian, vietnam, casual): when a position occurs for the 3rd time, a \
side that gave check with every ply of the cycle loses, unless the other side did the same \
(draw).
• Count limits: official, more than 6 checks in a row by one single piece (several pieces in \
turn are left to repetition); cxq, more than 6 with 1 piece, 12 with 2, 18 with 3 or more; \
casual, the 10th check in a row is refused. asian and vietnam do not count.
• Check, idle, check, idle… is not perpetual check: table A (asian, vietnam, casual) calls it \
a draw; table O (official) makes that side lose if the other side only made idle moves."
        }
        Topic::PerpetualChase => {
            "\
Chasing the same piece forever is forbidden too.
• Repetition: at the 3rd occurrence, a side whose every ply of the cycle chased one and the \
same victim (with any of its pieces, never checking) loses against an idle or mixed side; both \
chasing: draw; a perpetual checker against a perpetual chaser: the checker loses.
• Chasing two different pieces in turn is not perpetual chase (draw), even with two pieces \
(Vietnamese rules, games 10–11).
• Count limits: official, more than 6 chases in a row of the same victim; cxq, more than 6, 12 \
or 18 with 1, 2 or 3+ pieces; asian, vietnam and casual do not count.
• Attacking a piece with a real root is no chase (game 13); a false root protects nothing \
(game 14); a horse or cannon may not chase a chariot forever even if it is protected (game 15)."
        }
        Topic::Repetition => {
            "\
Two positions are the same when all 90 points hold the same pieces and the same side is to \
move. At a position's 3rd occurrence, the cycle is the plies since its previous occurrence, \
and each side is classed: perpetual checker (every ply a check), perpetual chaser (every ply \
chases one same victim), or mixed (check + idle, chase + idle, check + chase, idle; threats to \
mate are allowed, /rules kill).
• Table A (asian, vietnam, casual): a perpetual checker loses to anything but a perpetual \
checker; a perpetual chaser loses to an idle or mixed side; two of a kind: draw; checker \
against chaser: the checker loses; anything else is a draw, so one check one idle is allowed.
• Table O (official): table A, and also a side that mixes attacks against a side idle \
throughout loses (the attacker must change); mutual checks, chases or idle moves: draw.
• cxq has no repetition ruling: its counts and draw rules decide.
• The bot warns you before a move that would lose this way."
        }
        Topic::NoProgress => {
            "\
A long stretch without progress is a draw. The stretch starts again at every capture (and, \
where stated, at every forward step of a soldier that has crossed the river):
• official: 120 plies (60 moves each) without either: automatic draw; every check counts.
• asian: 120 plies without a capture; a side's checks after its 10th in the stretch do not count.
• vietnam: 100 plies (50 moves each) without a capture, at most 5 checks per side counted; a \
draw only when claimed with /draw.
• cxq (progress rule): 60 plies (30 moves each) without a capture or a crossed soldier's \
forward step: draw.
• casual: 120 plies without a capture: draw."
        }
        Topic::EffectiveMoves => {
            "\
cxq only. A ply is effective when it is not a check, not a chase, and not the reply to a check \
or chase the opponent has just made. When each side has made 120 effective plies, the game is \
drawn automatically.
• It counts over the whole game: captures do not reset it.
• The CXQ text speaks of a total of 120 moves; the bot reads it as 120 for each side."
        }
        Topic::MoveLimit => {
            "\
Two rulesets stop a game that goes on too long, as a draw:
• official: when the game reaches 300 plies in all (the bot reads the “Official Xiangqi Rules” \"300 moves\" as \
single plies).
• cxq: 300 moves by each side, that is 600 plies.
• asian, vietnam, casual: no limit; repetition and the no-progress rule end long games."
        }
        Topic::InsufficientMaterial => {
            "\
When neither side has a chariot, horse, cannon or soldier left (only generals, advisors and \
elephants), nobody can mate: the game is drawn at once, under every ruleset.
• Checkmate, stalemate and fouls are ruled first.
• Other hopeless endings, such as a lone cannon with nothing to use as a screen against a bare \
general, are not drawn automatically: agree a draw, or the no-progress rule will end it."
        }
        Topic::DrawClaim => {
            "\
A game is drawn by agreement (one side offers, the other accepts), by a repetition or count \
ruling that ends level, or by a draw rule (/rules no-progress, effective-moves, move-limit, \
insufficient-material).
• Only vietnam has a claim: on your turn type /draw. It is granted once 100 plies (50 moves \
each) have passed without a capture, counting at most 5 checks per side; otherwise the bot \
tells you how far the count is.
• The Vietnamese rules give the opponent 2 minutes for a wrong claim; the bot just refuses it.
• Under the other rulesets these draws are automatic: there is nothing to claim."
        }
        Topic::Enforcement => {
            "\
What happens when a ply breaks a limit of the ruleset (perpetual check or chase, a count \
exceeded, a losing repetition):
• forfeit (official, asian, vietnam, cxq): the ply is played, the game ends, the offender loses.
• refuse (casual): the bot rejects the ply and says why, and you must play another; if every \
legal move you have would be refused, you lose.
• In both modes the bot warns first: when your next check or chase would go over a count, and \
before a move that would lose by repetition.
• Illegal moves (wrong movement, leaving the general attacked, facing generals) are refused \
under every ruleset."
        }
        Topic::Official => {
            "\
official: the default ruleset, after the “Official Xiangqi Rules” help page. Switch with /ruleset NAME \
(official, asian, vietnam, cxq, casual).
• Counts: more than 6 checks in a row by one single piece, or more than 6 chases in a row of \
the same victim (by any pieces), loses.
• Repetition at the 3rd occurrence, table O: perpetual check or chase loses, and so does a \
side mixing checks or chases with idle moves against an idle side; mutual checks, chases or \
idle moves: draw.
• A soldier that has crossed the river can chase; one that has not, never.
• No progress: 120 plies without a capture or a crossed soldier's forward step: automatic draw; \
every check counts.
• Length cap 300 plies: draw. No effective-move rule. Insufficient material: draw.
• Enforcement: forfeit."
        }
        Topic::Asian => {
            "\
asian: the AXF/WXF rulebook, the Asian Chinese Chess Rules (/ruleset asian).
• No count limit on checks or chases: only repetition decides, at the 3rd occurrence, with \
table A (one check one idle is allowed; perpetual check loses; perpetual chase loses against an \
idle or mixed side).
• Soldiers never count as chasing.
• No progress: 120 plies without a capture: automatic draw; soldier steps do not reset it, and \
a side's checks after its 10th in the stretch do not count.
• No length cap, no effective-move rule. Insufficient material: draw. Enforcement: forfeit."
        }
        Topic::Vietnam => {
            "\
vietnam: Luật Cờ Tướng Việt Nam 2004 (/ruleset vietnam).
• No count limit on checks or chases; repetition at the 3rd occurrence with table A (one check \
one idle is allowed, game 6).
• Soldiers and generals never count as chasing: they may attack a piece forever (§6c, game 9).
• No progress: 100 plies (50 moves each) without a capture, at most 5 checks per side counted; \
not automatic: claim it with /draw.
• No length cap, no effective-move rule. Insufficient material: draw. Enforcement: forfeit."
        }
        Topic::Cxq => {
            "\
cxq: the CXQ club rules (/ruleset cxq).
• Counts: more than 6 checks in a row with 1 piece, 12 with 2, 18 with 3 or more, loses; chases \
of one victim are counted the same way.
• No repetition table: the counts and the draw rules decide.
• Soldiers never count as chasing.
• Progress rule: 60 plies (30 moves each) without a capture or a crossed soldier's forward step: \
draw; every check counts.
• Effective-move rule: a draw once each side has 120 plies that are not a check, a chase or a \
reply to one.
• Length cap 600 plies (300 moves each): draw. Insufficient material: draw. Enforcement: forfeit."
        }
        Topic::Casual => {
            "\
casual: the online app's rules (/ruleset casual).
• The 10th check in a row, by any pieces, is not allowed; chases are not counted.
• Repetition at the 3rd occurrence with table A; soldiers never count as chasing.
• No progress: 120 plies without a capture: automatic draw (soldier steps do not reset it, \
every check counts).
• No length cap, no effective-move rule. Insufficient material: draw.
• Enforcement: refuse. A forbidden move is rejected with the reason and you choose another; if \
all your legal moves would be refused, you lose."
        }
    }
}

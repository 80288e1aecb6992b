//! Playing the bot: the thinking pool that runs engine jobs off the chat service's tasks, and
//! the bot's conduct (resigning, draws, the last check of its moves).

mod identity;
pub mod policy;
pub mod pool;
pub(crate) mod runtime;

pub use identity::{bot_itself, bot_level, bot_player, bot_side, DEFAULT_LEVEL, LEVELS};
pub use policy::{accepts_draw, conduct, vet, Conduct, Memory};
pub use pool::{default_threads, Job, Outcome, ThinkingPool, Ticket};

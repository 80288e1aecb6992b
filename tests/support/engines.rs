//! External engines for tests: the real Fairy-Stockfish (required, never skipped), and small
//! shell scripts that speak just enough UCI to crash or hang at a chosen moment.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use xiangqi_bot::uci::{EngineSpec, Timeouts};

/// Debian's Fairy-Stockfish, installed by `.ci/run`.
pub const FAIRY: &str = "/usr/games/fairy-stockfish";

/// The path of Fairy-Stockfish; panics (fails the test) when it is missing.
pub fn fairy_stockfish() -> &'static str {
    assert!(
        Path::new(FAIRY).exists(),
        "{FAIRY} is missing: install it with `apt-get install -y fairy-stockfish` (.ci/run does)"
    );
    FAIRY
}

/// Short timeouts so the failure tests are quick (but the handshake of a healthy script
/// always fits, even on a loaded machine).
pub fn quick_timeouts() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(5),
        ready: Duration::from_secs(5),
        grace: Duration::from_millis(300),
        unbounded: Duration::from_secs(5),
    }
}

/// A spec for a well-behaved engine: the default timeouts.
pub fn healthy(command: &str) -> EngineSpec {
    EngineSpec::new(command)
}

/// A spec for `command` with quick timeouts.
pub fn spec(command: &str) -> EngineSpec {
    EngineSpec {
        timeouts: quick_timeouts(),
        ..EngineSpec::new(command)
    }
}

/// Write an executable shell script `name` into `dir` that answers the handshake and then does
/// `on_go` when told to search (`exit 3` to crash, `:` to hang).
pub fn script(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let body = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
         \x20 case \"$line\" in\n\
         \x20   uci) echo 'id name {name}'; echo 'uciok' ;;\n\
         \x20   isready) echo 'readyok' ;;\n\
         \x20   go*) echo 'info depth 1 score cp 10 pv h2e2'; {on_go} ;;\n\
         \x20   quit) exit 0 ;;\n\
         \x20 esac\n\
         done\n"
    );
    std::fs::write(&path, body).expect("write script");
    make_executable(&path);
    path
}

/// A script that never finishes the handshake.
pub fn silent_script(dir: &Path) -> PathBuf {
    let path = dir.join("silent");
    std::fs::write(&path, "#!/bin/sh\nwhile read -r line; do :; done\n").expect("write script");
    make_executable(&path);
    path
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut perm = std::fs::metadata(path).expect("stat").permissions();
    perm.set_mode(0o755);
    std::fs::set_permissions(path, perm).expect("chmod");
}

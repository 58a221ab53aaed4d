//! The parsers of untrusted input, fuzzed in plain Rust: `Game::from_json`, `from_json_trusted`,
//! `Game::from_events` and `Action::parse`, which the Python fuzz (tests/game/test_fuzz.py) reaches
//! only through what the binding lets through. A corpus of what games write (every preset played
//! by greedy bots: snapshots along each hand, its log, each seat's and the public view, a hand that
//! ends by 逃跑) is mutated deterministically, by bytes and by JSON values; every parser must return
//! a typed error or a whole game: its invariants hold, it writes itself back the same, it plays to
//! its end.
//!
//! Not cargo-fuzz, which needs a nightly toolchain: a stable test, a few seconds under
//! `cargo test --release`. `XUELIU_FUZZ_CASES` soaks (mutants per run, default 3,000; the action
//! parser gets ten times as many) and `XUELIU_FUZZ_SEED` picks another stream. A failing input is
//! saved under the target's temporary directory, and the failure names the file.

use serde_json::Value;
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use xueliu_core::bots::{bot_seed, play, BotKind};
use xueliu_core::game::{Action, ActionList, Game, Phase, Viewer};
use xueliu_core::rng::Rng;
use xueliu_core::rules::Preset;
use xueliu_core::{Choice, Error};

/// Texts spliced into mutants: JSON's own tokens, numbers at the edges of every integer type the
/// formats hold (seats, counts, seeds, points), tiles and non-ASCII characters.
#[rustfmt::skip] // one token a line would run to 45 lines
const TOKENS: &[&str] = &[
    "{", "}", "[", "]", "\"", ",", ":", " ", "\\", "null", "true", "false", "0", "-1", "3", "4",
    "13", "14", "27", "108", "255", "256", "65536", "4294967296", "9223372036854775808",
    "18446744073709551616", "-9223372036854775809", "1e999", "0.5", "\"\"", "\"1m\"", "\"9s\"",
    "\"5p\"", "m", "p", "s", "0m", "10p", "1s", "一", "é", "\u{0}", "\u{feff}", "🀄",
];

/// Values put in place of a node of a snapshot or log.
fn edge_values() -> Vec<Value> {
    TOKENS
        .iter()
        .filter_map(|t| serde_json::from_str(t).ok())
        .chain([
            Value::Array(vec![]),
            Value::Object(serde_json::Map::new()),
            Value::from(i64::MIN),
            Value::from(u64::MAX),
        ])
        .collect()
}

/// What games write, and every action they took, written as `Display` writes it.
#[derive(Default)]
struct Corpus {
    snapshots: Vec<String>,
    /// Full logs, which replay.
    logs: Vec<String>,
    /// Each seat's and the public view of the log, which do not.
    views: Vec<String>,
    actions: Vec<String>,
}

impl Corpus {
    fn texts(&self) -> Vec<&String> {
        self.snapshots
            .iter()
            .chain(&self.logs)
            .chain(&self.views)
            .collect()
    }
}

fn corpus() -> Corpus {
    let (mut c, mut actions) = (Corpus::default(), BTreeSet::new());
    for &preset in Preset::ALL {
        let rules = Arc::new(preset.rules());
        for seed in 0..2u64 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            let mut bots = [0, 1, 2, 3].map(|seat| BotKind::Greedy.build(bot_seed(seed, seat)));
            let mut step = 0;
            while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                if step % 20 == 0 {
                    c.snapshots.push(game.to_json());
                    c.logs.push(game.events_json(None));
                }
                step += 1;
                if seed == 1 && step == 60 {
                    let leaver = (0..4).find(|&s| game.abandon(s).is_ok());
                    assert!(leaver.is_some(), "{preset:?}: someone can leave");
                    continue;
                }
                actions.insert(
                    play(bots[seat as usize].as_mut(), &mut game, seat)
                        .unwrap()
                        .to_string(),
                );
            }
            c.snapshots.push(game.to_json());
            c.logs.push(game.events_json(None));
            c.views.push(game.public_events_json(0));
            c.views
                .extend((0..4).map(|seat| game.events_json(Some(Viewer::Seat(seat)))));
        }
    }
    c.actions = actions.into_iter().collect();
    c
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
    })
}

fn pick<'a, T>(items: &'a [T], rng: &mut Rng) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

/// One to four byte edits: a bit flipped, a token inserted or written over, a range deleted or
/// doubled, a range of another text spliced in. The result is read as UTF-8, lossily.
fn mutate_bytes(text: &str, donor: &str, rng: &mut Rng) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(b.len() as u64 + 1) as usize;
        let len = (rng.below(16) as usize).min(b.len() - at);
        match rng.below(6) {
            0 if at < b.len() => b[at] ^= 1 << rng.below(8),
            1 => drop(b.splice(at..at, pick(TOKENS, rng).bytes())),
            2 => drop(b.splice(at..at + len, pick(TOKENS, rng).bytes())),
            3 => drop(b.drain(at..at + len)),
            4 => {
                let copy = b[at..at + len].to_vec();
                b.splice(at..at, copy);
            }
            _ => {
                let from = rng.below(donor.len() as u64) as usize;
                let end = (from + rng.below(64) as usize).min(donor.len());
                b.splice(at..at, donor.as_bytes()[from..end].iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(nodes).sum(),
        Value::Object(map) => map.values().map(nodes).sum(),
        _ => 0,
    }
}

/// The `k`th node in pre-order.
fn nth<'a>(v: &'a mut Value, k: &mut usize) -> Option<&'a mut Value> {
    if *k == 0 {
        return Some(v);
    }
    *k -= 1;
    match v {
        Value::Array(items) => items.iter_mut().find_map(|item| nth(item, k)),
        Value::Object(map) => map.values_mut().find_map(|item| nth(item, k)),
        _ => None,
    }
}

fn random_node<'a>(v: &'a mut Value, rng: &mut Rng) -> &'a mut Value {
    let mut k = rng.below(nodes(v) as u64) as usize;
    nth(v, &mut k).unwrap()
}

/// One to three edits of JSON values: a node replaced by an edge value or by a node of another
/// text (a real hand, seat or event where another was), a number or string nudged, an element or
/// key dropped, an element doubled or two swapped. Off-by-one values are what a consistent-looking
/// but wrong snapshot is made of.
fn mutate_json(value: &Value, donor: &Value, edges: &[Value], rng: &mut Rng) -> String {
    let mut v = value.clone();
    for _ in 0..=rng.below(3) {
        let node = random_node(&mut v, rng);
        match rng.below(5) {
            0 => *node = pick(edges, rng).clone(),
            1 => *node = random_node(&mut donor.clone(), rng).clone(),
            _ => match node {
                Value::Number(n) => {
                    let n = n.as_i64().unwrap_or(0);
                    let nudged = [
                        n.wrapping_sub(1),
                        n.wrapping_add(1),
                        n.wrapping_neg(),
                        n.wrapping_mul(2),
                    ];
                    *node = Value::from(*pick(&nudged, rng));
                }
                Value::String(s) => {
                    let donor = *pick(TOKENS, rng);
                    *s = mutate_bytes(s, donor, rng);
                }
                Value::Bool(b) => *b = !*b,
                Value::Array(items) if !items.is_empty() => {
                    let i = rng.below(items.len() as u64) as usize;
                    let j = rng.below(items.len() as u64) as usize;
                    match rng.below(3) {
                        0 => drop(items.remove(i)),
                        1 => items.insert(i, items[j].clone()),
                        _ => items.swap(i, j),
                    }
                }
                Value::Object(map) if !map.is_empty() => {
                    let i = rng.below(map.len() as u64) as usize;
                    let key = map.keys().nth(i).unwrap().clone();
                    map.shift_remove(&key);
                }
                _ => *node = pick(edges, rng).clone(),
            },
        }
    }
    v.to_string()
}

/// Runs `check` on `input`; a panic saves the input and fails with the file's name.
fn guarded(what: &str, input: &str, check: impl FnOnce()) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(check)) {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("a panic");
        let path =
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{what}.txt"));
        std::fs::write(&path, input).unwrap();
        panic!("{what} on the input saved in {}: {why}", path.display());
    }
}

/// A game a parser accepted is whole: its invariants hold, its snapshot reads back to the same
/// snapshot, and it plays to the end with the invariants holding at every step.
fn assert_whole(mut game: Game, rng: &mut Rng) {
    game.check_invariants().unwrap();
    let written = game.to_json();
    assert_eq!(
        Game::from_json_trusted(&written).unwrap().to_json(),
        written
    );
    let mut buf = ActionList::new();
    for _ in 0..2_000 {
        if !game.step_random(rng, &mut buf) {
            break;
        }
        game.check_invariants().unwrap();
    }
    assert!(
        game.is_over(),
        "an accepted game stops before its end: {}",
        game.to_json()
    );
}

/// Every game parser on `text`: a typed error with a message, or a whole game. Returns how many
/// accepted it.
fn check_game_parsers(text: &str, rng: &mut Rng) -> usize {
    let mut accepted = 0;
    type Parser = fn(&str) -> Result<Game, Error>;
    let parsers: [(&str, Parser); 3] = [
        ("from_json", Game::from_json),
        ("from_json_trusted", Game::from_json_trusted),
        ("from_events", Game::from_events),
    ];
    for (name, parse) in parsers {
        guarded(name, text, || match parse(text) {
            Ok(game) => {
                accepted += 1;
                assert_whole(game, rng);
            }
            Err(e) => assert!(!e.to_string().is_empty(), "{e:?} has no message"),
        });
    }
    accepted
}

#[test]
fn game_parsers_return_a_typed_error_or_a_whole_game() {
    let corpus = corpus();
    let texts = corpus.texts();
    let mut rng = Rng::new(setting("XUELIU_FUZZ_SEED", 29));
    let accepted: usize = texts
        .iter()
        .map(|text| check_game_parsers(text, &mut rng))
        .sum();
    // Every snapshot reads both ways, every full log replays; the views hide tiles and are refused.
    assert_eq!(accepted, 2 * corpus.snapshots.len() + corpus.logs.len());

    let values: Vec<Value> = texts
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    let edges = edge_values();
    let (cases, mut mutants_accepted) = (setting("XUELIU_FUZZ_CASES", 3_000), 0);
    for case in 0..cases {
        let i = rng.below(values.len() as u64) as usize;
        let j = rng.below(values.len() as u64) as usize;
        let mutant = if case % 2 == 0 {
            mutate_bytes(texts[i], texts[j], &mut rng)
        } else {
            mutate_json(&values[i], &values[j], &edges, &mut rng)
        };
        mutants_accepted += check_game_parsers(&mutant, &mut rng);
    }
    eprintln!(
        "{} texts, {cases} mutants, {mutants_accepted} acceptances",
        texts.len()
    );
    // Some mutants change nothing that matters (a dropped key with a default, an edit inside a
    // view); the rest are refused, each with a message.
    assert!(
        mutants_accepted < cases as usize,
        "{mutants_accepted} acceptances of {cases} mutants: the mutator changes too little"
    );
}

#[test]
fn action_parse_reads_back_what_it_accepts() {
    let corpus = corpus();
    let kinds: BTreeSet<&str> = corpus
        .actions
        .iter()
        .filter_map(|a| a.split(' ').next())
        .collect();
    assert!(
        kinds.len() >= 7,
        "the corpus lacks kinds of action: {kinds:?}"
    );
    for text in &corpus.actions {
        assert_eq!(
            Action::parse(text).map(|a| a.to_string()).as_ref(),
            Some(text)
        );
    }
    let mut rng = Rng::new(setting("XUELIU_FUZZ_SEED", 29));
    for _ in 0..10 * setting("XUELIU_FUZZ_CASES", 3_000) {
        let (action, token): (&String, &&str) =
            (pick(&corpus.actions, &mut rng), pick(TOKENS, &mut rng));
        let mutant = mutate_bytes(action, token, &mut rng);
        guarded("Action::parse", &mutant, || {
            if let Some(action) = Action::parse(&mutant) {
                assert_eq!(
                    Action::parse(&action.to_string()),
                    Some(action),
                    "{mutant:?}"
                );
            }
        });
    }
}

/// Found by the fuzz: a snapshot in the void phase whose record gave seat 2 a latest discard
/// (5p) it never made was restored, and once the seat declared a void the deduction "no void
/// tile since a discard outside it" read that phantom discard and broke (RULES.md §12).
#[test]
fn a_latest_discard_that_was_never_made_is_refused() {
    let rules = Arc::new(Preset::Chengdu.rules());
    let mut game = Game::new(rules, 0, true).unwrap();
    while game.phase() != Phase::Play {
        let seat = (0..4u8).find(|&s| game.must_act(s)).unwrap();
        game.act(seat, game.default_action(seat).unwrap()).unwrap();
    }
    let seat = (0..4u8).find(|&s| game.must_act(s)).unwrap();
    let mut buf = ActionList::new();
    game.legal_actions(seat, &mut buf);
    game.act(seat, buf[0]).unwrap();
    let mut snapshot: Value = serde_json::from_str(&game.to_json()).unwrap();
    let discarded = snapshot["history"]["last_discard"][seat as usize].clone();
    let never = if discarded == "5p" { "6p" } else { "5p" };
    for (who, tile) in [(seat as usize, never), ((seat as usize + 1) % 4, "5p")] {
        snapshot["history"]["last_discard"][who] = Value::from(tile);
        let text = snapshot.to_string();
        for restore in [Game::from_json, Game::from_json_trusted] {
            let Err(e) = restore(&text) else {
                panic!("a latest discard of {tile} never made was restored");
            };
            let e = e.to_string();
            assert!(e.contains("last_discard") && e.contains(tile), "{e}");
        }
        snapshot["history"]["last_discard"][who] = if who == seat as usize {
            discarded.clone()
        } else {
            Value::Null
        };
    }
}

//! Rule tests on the Rust side; the Python tests cover each rule by name as well.

use super::events::claim;
use super::*;
use crate::rules::{Preset, Rules};
use crate::Choice;

fn presets() -> Vec<Rules> {
    Preset::ALL.iter().map(|p| p.rules()).collect()
}

#[test]
fn random_hands_keep_every_invariant() {
    let mut rng = Rng::new(99);
    let mut buf = ActionList::new();
    for rules in presets() {
        let rules = Arc::new(rules);
        for seed in 0..200 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            game.check_invariants().unwrap();
            let mut steps = 0;
            while game.step_random(&mut rng, &mut buf) {
                if let Err(e) = game.check_invariants() {
                    panic!("{:?} seed {seed} step {steps}: {e}", rules.preset);
                }
                steps += 1;
                assert!(steps < 2000, "hand does not end");
            }
            assert!(game.is_over());
        }
    }
}

/// A player that wins when it can (mostly), often claims, and discards to lower shanten: it
/// reaches wins, kongs, robbing and every settlement far more often than random play.
pub(crate) fn eager_step(game: &mut Game, rng: &mut Rng, buf: &mut ActionList) -> bool {
    let Some(seat) = (0..4).find(|&s| game.must_act(s)) else {
        return false;
    };
    game.legal_actions(seat, buf);
    let pick = |a: Action| buf.contains(a).then_some(a);
    let roll = rng.below(10);
    let choice = match game.phase() {
        Phase::Exchange | Phase::Void => game.default_action(seat),
        _ => None,
    }
    .or_else(|| pick(Action::Win).filter(|_| roll < 9))
    .or_else(|| {
        buf.iter()
            .copied()
            .find(|a| matches!(a, Action::Kong(_)))
            .filter(|_| roll < 6)
    })
    .or_else(|| pick(Action::Pong).filter(|_| roll < 6))
    .or_else(|| {
        buf.iter()
            .copied()
            .find(|a| matches!(a, Action::Swap(_)))
            .filter(|_| roll < 8)
    })
    .or_else(|| best_discard(game, seat, buf, rng))
    .or_else(|| pick(Action::Pass))
    .unwrap_or(buf[0]);
    game.act(seat, choice).unwrap();
    true
}

fn best_discard(game: &Game, seat: u8, buf: &ActionList, rng: &mut Rng) -> Option<Action> {
    let s = game.seat(seat);
    let ctx = s.context(game.rules());
    let scored: Vec<(i8, Action)> = buf
        .iter()
        .filter_map(|&a| match a {
            Action::Discard(t) => {
                let mut h = s.hand;
                state::take(&mut h, t);
                Some((crate::analysis::shanten(&h, &ctx), a))
            }
            _ => None,
        })
        .collect();
    let best = scored.iter().map(|x| x.0).min()?;
    let ties: Vec<Action> = scored.iter().filter(|x| x.0 == best).map(|x| x.1).collect();
    Some(ties[rng.below(ties.len() as u64) as usize])
}

#[test]
fn eager_hands_keep_every_invariant_and_reach_every_event() {
    let mut rng = Rng::new(5);
    let mut buf = ActionList::new();
    let mut seen = std::collections::BTreeMap::new();
    for rules in presets() {
        let rules = Arc::new(rules);
        for seed in 0..300 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            let mut steps = 0;
            while eager_step(&mut game, &mut rng, &mut buf) {
                if let Err(e) = game.check_invariants() {
                    let tail: Vec<String> = game.events().map(|e| format!("{e:?}")).collect();
                    let n = tail.len();
                    panic!(
                        "{:?} seed {seed} step {steps}: {e}\n{}",
                        rules.preset,
                        tail[n.saturating_sub(12)..].join("\n")
                    );
                }
                steps += 1;
            }
            for e in game.events() {
                let key = match e {
                    Event::Kong { kind, .. } => format!("kong {}", kind.name()),
                    Event::Payment { reason, .. } => format!("pay {}", reason.name()),
                    Event::End { reason, .. } => format!("end {}", reason.name()),
                    other => format!("{other:?}")
                        .split([' ', '{'])
                        .next()
                        .unwrap()
                        .to_string(),
                };
                *seen.entry(key).or_insert(0) += 1;
            }
            for w in game.wins() {
                *seen.entry(format!("win {}", w.kind.name())).or_insert(0) += 1;
            }
        }
    }
    eprintln!("{seen:#?}");
    for key in [
        "kong direct",
        "kong added",
        "kong concealed",
        "Robbed",
        "Beaten",
        "win discard",
        "win self_draw",
        "win robbed_kong",
        "end three_won",
        "end wall_empty",
        "pay win",
        "pay self_draw",
        "pay kong",
        "pay kong_transfer",
        "pay flower_pig",
        "pay not_ready",
        "pay ready_difference",
        "pay tax_refund",
    ] {
        assert!(seen.contains_key(key), "never saw {key}");
    }
}

#[test]
fn snapshots_restore_exactly_and_logs_replay() {
    let mut rng = Rng::new(11);
    let mut buf = ActionList::new();
    for rules in presets() {
        let rules = Arc::new(rules);
        for seed in 0..12 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            loop {
                let text = game.to_json();
                let restored = Game::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(restored.to_json(), text);
                let mut a = game.clone();
                let mut b = restored;
                let mut r1 = rng;
                let mut r2 = rng;
                for i in 0..3 {
                    eager_step(&mut a, &mut r1, &mut buf);
                    eager_step(&mut b, &mut r2, &mut buf);
                    assert!(
                        a.to_json() == b.to_json(),
                        "diverged after {i} steps from {:?}\n{:?}\n{:?}",
                        game.pending,
                        a.seats[0],
                        b.seats[0]
                    );
                }
                if !eager_step(&mut game, &mut rng, &mut buf) {
                    break;
                }
            }
            let log = game.events_json(None);
            let again = Game::from_events(&log).unwrap();
            assert_eq!(again.events_json(None), log);
            assert_eq!(again.scores(), game.scores());
        }
    }
}

/// A crafted position: the given hands (seat 0 first), voids, the wall's front, the rest of
/// the tiles behind it, and `pending`.
fn position(
    rules: Rules,
    hands: [&str; 4],
    voids: [Suit; 4],
    front: &str,
    pending: Pending,
) -> Game {
    use crate::tile::parse_tiles;
    let mut game = Game::new(Arc::new(rules), 0, true).unwrap();
    let mut left = [4u8; 27];
    for (i, h) in hands.iter().enumerate() {
        let s = &mut game.seats[i];
        *s = Seat::EMPTY;
        s.void = Some(voids[i]);
        s.turn = 1;
        s.draws = 1;
        for t in parse_tiles(h).unwrap() {
            s.receive(t, 1, game.rules.wilds);
            left[t.index()] -= 1;
        }
    }
    let mut wall: Vec<Tile> = parse_tiles(front).unwrap();
    wall.iter().for_each(|t| left[t.index()] -= 1);
    wall.extend(Tile::all().flat_map(|t| std::iter::repeat_n(t, left[t.index()] as usize)));
    game.wall.tiles[..wall.len()].copy_from_slice(&wall);
    game.wall.front = 0;
    game.wall.back = wall.len() as u8;
    game.river = River::new();
    game.log = Some(Log::default());
    game.claimed = true;
    game.pending = pending;
    game.refresh_cached_waits();
    game
}

fn t(text: &str) -> Tile {
    crate::tile::parse_tiles(text).unwrap()[0]
}

fn on_turn(seat: u8, drawn: &str) -> Pending {
    Pending::Turn(Turn {
        seat,
        kind: TurnKind::Draw,
        drawn: Some(t(drawn)),
        kong: None,
        last_four: false,
    })
}

pub(super) fn rules(name: &str) -> Rules {
    Rules::preset(name).unwrap()
}

const QUIET: [&str; 3] = ["1122334455667p", "1122334455667p", "778899p1122334s"];
const QUIET_VOIDS: [Suit; 3] = [Suit::S, Suit::S, Suit::M];

fn with_quiet(rules: Rules, hand: &str, void: Suit, front: &str, pending: Pending) -> Game {
    let hands = [hand, QUIET[0], QUIET[1], QUIET[2]];
    let voids = [void, QUIET_VOIDS[0], QUIET_VOIDS[1], QUIET_VOIDS[2]];
    position(rules, hands, voids, front, pending)
}

fn payments(game: &Game) -> Vec<(u8, u8, i64, Reason)> {
    game.events()
        .filter_map(|e| match *e {
            Event::Payment {
                payer,
                payee,
                amount,
                reason,
            } => Some((payer, payee, amount, reason)),
            _ => None,
        })
        .collect()
}

#[test]
fn late_kong_modes_decide_a_concealed_kong_of_a_kept_fourth() {
    use crate::rules::LateKong::*;
    for (mode, allowed, paid) in [
        (Full, true, 3),
        // Seed 002 計分規則 12's root-only cases are both about a pong: a late 暗杠 is full 下雨.
        (RootOnly, true, 3),
        // Seeds 001 §三.3 / 003 §3 「杠牌可隨時進行…但不能碰牌後補杠以前碰過的牌」: only a kept fourth
        // added onto an earlier pong is forbidden; this late 暗杠 stands, paid in full.
        (KeptFourthForbidden, true, 3),
        (Forbidden, false, 0),
    ] {
        let mut r = rules("chengdu");
        r.late_kong = mode;
        let mut game = with_quiet(r, "5555m123m789m11s44s", Suit::P, "", on_turn(0, "1s"));
        game.seats[0].turn = 3; // the four 5m arrived on turn 1
        assert_eq!(game.is_legal(0, Action::Kong(t("5m"))), allowed, "{mode:?}");
        if allowed {
            game.act(0, Action::Kong(t("5m"))).unwrap();
            assert_eq!(payments(&game).len(), paid, "{mode:?}");
            assert_eq!(game.seats[0].root_only_kongs, 0);
        }
    }
}

#[test]
fn a_replacement_draw_continues_the_turn_so_a_second_fourth_is_not_late() {
    let mut r = rules("chengdu");
    r.late_kong = crate::rules::LateKong::Forbidden;
    let mut game = with_quiet(r, "5555m6666m123m11s", Suit::P, "9m", on_turn(0, "1s"));
    game.act(0, Action::Kong(t("5m"))).unwrap();
    assert!(game.is_legal(0, Action::Kong(t("6m"))));
}

#[test]
fn concealed_kong_pays_two_base_from_each_seat_that_has_not_won() {
    let mut game = with_quiet(
        rules("chengdu"),
        "5555m123m789m11s44s",
        Suit::P,
        "",
        on_turn(0, "1s"),
    );
    game.seats[1].wins = 1;
    game.act(0, Action::Kong(t("5m"))).unwrap();
    assert_eq!(
        payments(&game),
        vec![(2, 0, 12, Reason::Kong), (3, 0, 12, Reason::Kong)]
    );
}

#[test]
fn kong_flower_after_a_direct_kong_feeder_pays_all() {
    let mut game = with_quiet(
        rules("chengdu"),
        "555m123m789m11s44s",
        Suit::P,
        "4s",
        Pending::Over,
    );
    game.river.push(1, t("5m"));
    let r = Responses {
        from: 1,
        tile: t("5m"),
        kong: None,
        claims: [claim::KONG | claim::PONG, 0, 0, 0],
        forced: 0,
        decisions: [None; 4],
        after_kong: None,
    };
    game.pending = Pending::Respond(r);
    game.act(0, Action::Kong(t("5m"))).unwrap();
    game.act(0, Action::Win).unwrap();
    // 2 × 6 for the kong; basic 1 + exposed kong 1 + 杠上花 1 = 3 fan = 24 per payer, × 3 payers.
    assert_eq!(
        payments(&game),
        vec![
            (1, 0, 12, Reason::Kong),
            (1, 0, 72, Reason::KongFlowerFeeder)
        ]
    );
}

#[test]
fn last_four_forces_a_self_drawn_win_under_self_draw_forced() {
    let mut game = with_quiet(
        rules("xuezhan"),
        "123m456m789m234s11s",
        Suit::P,
        "",
        on_turn(0, "1s"),
    );
    if let Pending::Turn(turn) = &mut game.pending {
        turn.last_four = true;
    }
    let mut buf = ActionList::new();
    game.legal_actions(0, &mut buf);
    assert_eq!(buf.as_slice(), &[Action::Win]);
    assert_eq!(game.default_action(0), Some(Action::Win));
}

#[test]
fn exchange_dice_follow_seed_000s_table() {
    let mut seen = [None; 7];
    for seed in 0..60 {
        let mut game = Game::new(Arc::new(rules("dashiyou")), seed, true).unwrap();
        for s in 0..4 {
            let a = game.default_action(s).unwrap();
            game.act(s, a).unwrap();
        }
        let roll = game.events().find_map(|e| match e {
            Event::Dice {
                purpose: Purpose::Exchange,
                rolls: Rolls::One([roll]),
                ..
            } => Some(*roll),
            _ => None,
        });
        let direction = game.events().find_map(|e| match e {
            Event::Exchange { direction, .. } => Some(*direction),
            _ => None,
        });
        if let (Some(roll), Some(direction)) = (roll, direction) {
            seen[roll as usize] = Some(direction);
        }
    }
    use Direction::*;
    let table = [
        None,
        Some(Opposite),
        Some(Clockwise),
        Some(Opposite),
        Some(Counterclockwise),
        Some(Opposite),
        Some(Clockwise),
    ];
    assert_eq!(seen, table);
}

/// N17 (MIL SBR 2025 Art.5-8): two wall-break dice come after the shuffle, so the wall and the
/// deal are the one-die game's; only the log gains the second die.
#[test]
fn two_wall_break_dice_leave_the_wall_as_one_die_does() {
    let wall_dice = |game: &Game| {
        game.events()
            .find_map(|e| match e {
                Event::Dice {
                    purpose: Purpose::Wall,
                    rolls,
                    ..
                } => Some(rolls.clone()),
                _ => None,
            })
            .unwrap()
    };
    for seed in 0..20 {
        let one = rules("xuezhan");
        let two = Rules {
            wall_break_dice: 2,
            ..one
        };
        let (a, b) = (
            Game::new(Arc::new(one), seed, true).unwrap(),
            Game::new(Arc::new(two), seed, true).unwrap(),
        );
        let (Rolls::One([first]), Rolls::Two([again, second])) = (wall_dice(&a), wall_dice(&b))
        else {
            panic!("seed {seed}: one die, then two");
        };
        assert_eq!(first, again);
        assert!((1..=6).contains(&second));
        assert_eq!(a.wall.tiles, b.wall.tiles);
        let deals = |g: &Game| {
            g.events()
                .filter(|e| matches!(e, Event::Deal { .. }))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(deals(&a), deals(&b));
        let replayed = Game::from_events(&b.events_json(None)).unwrap();
        assert_eq!(wall_dice(&replayed), wall_dice(&b));
    }
}

#[test]
fn an_illegal_action_changes_nothing() {
    let mut game = with_quiet(
        rules("chengdu"),
        "123m456m789m11s44s5m",
        Suit::P,
        "",
        on_turn(0, "5m"),
    );
    game.check_invariants().unwrap();
    let before = game.to_json();
    for (seat, action) in [
        (1, Action::Discard(t("1p"))),
        (0, Action::Discard(t("9p"))),
        (0, Action::Pong),
        (0, Action::Void(Suit::M)),
        (9, Action::Win),
    ] {
        let e = game.act(seat, action).unwrap_err();
        assert!(!e.to_string().is_empty());
        assert_eq!(game.to_json(), before);
    }
}

/// `is_legal` checks an exchange pick directly: it must agree with the listed picks on every
/// triple of tiles, in any order, for every seat, with and without `exchange_same_suit`.
#[test]
fn exchange_picks_are_legal_exactly_when_listed() {
    let mut legal = ActionList::new();
    for same_suit in [true, false] {
        let mut rules = rules("chengdu");
        rules.exchange = Some(crate::rules::Exchange::Dice);
        rules.exchange_same_suit = same_suit;
        let rules = std::sync::Arc::new(rules);
        for seed in 0..4 {
            let game = Game::new(rules.clone(), seed, false).unwrap();
            assert!(matches!(game.pending(), Pending::Exchange(_)));
            for seat in 0..4 {
                game.legal_actions(seat, &mut legal);
                let mut picks = 0;
                for i in 0..27 * 27 * 27 {
                    let tiles = [i % 27, i / 27 % 27, i / 729].map(|k| Tile::new(k as u8).unwrap());
                    let action = Action::Exchange(tiles);
                    assert_eq!(
                        game.is_legal(seat, action),
                        legal.contains(action),
                        "{tiles:?}"
                    );
                    picks += usize::from(game.is_legal(seat, action));
                }
                assert_eq!(picks, legal.len(), "seed {seed}, seat {seat}");
            }
        }
    }
}

/// The exchange kept in the state is the logged one, is cleared by a redeal, and survives a
/// snapshot (observations read it from a game without a log).
#[test]
fn the_exchange_record_is_the_logged_exchange() {
    let mut rules = Rules::preset("chengdu_xueliu").unwrap();
    rules.exchange_redeal_if_unchanged = true;
    let rules = Arc::new(rules);
    for seed in 0..50 {
        let mut game = Game::new(rules.clone(), seed, true).unwrap();
        assert!(game.exchanged().is_none());
        while game.phase() == Phase::Exchange {
            for seat in game.to_act() {
                let action = game.default_action(seat).unwrap();
                game.act(seat, action).unwrap();
            }
        }
        let logged = game
            .events()
            .filter_map(|e| match e {
                Event::Exchange {
                    direction,
                    given,
                    received,
                } => Some((*direction, *given, *received)),
                _ => None,
            })
            .last();
        let record = game.exchanged().map(|x| (x.direction, x.given, x.received));
        assert_eq!(record, logged, "seed {seed}");
        let restored = Game::from_json(&game.to_json()).unwrap();
        assert_eq!(restored.exchanged(), game.exchanged());
        // An older snapshot, without `history`, keeps the exchange at the top level only.
        let mut older = serde_json::from_str::<serde_json::Value>(&game.to_json()).unwrap();
        older.as_object_mut().unwrap().remove("history");
        let read = Game::from_json(&older.to_string()).unwrap();
        assert_eq!(read.exchanged(), game.exchanged(), "seed {seed}");
    }
    let mut old =
        serde_json::from_str::<serde_json::Value>(&Game::new(rules, 1, false).unwrap().to_json())
            .unwrap();
    old.as_object_mut().unwrap().remove("exchange");
    let read = Game::from_json_trusted(&old.to_string()).unwrap();
    assert!(
        read.exchanged().is_none(),
        "a snapshot without the field reads"
    );
}

mod asked;
mod golden;
mod prefix;
mod reveal;
mod table;
mod yaoji;

/// `clone_from` onto a game of another hand gives what `clone` gives, log and all.
#[test]
fn clone_from_gives_the_clone() {
    let rules = Arc::new(Rules::preset("chengdu_xueliu").unwrap());
    let (mut rng, mut buf) = (Rng::new(3), ActionList::new());
    for seed in 0..6 {
        let mut game = Game::new(rules.clone(), seed, seed % 2 == 0).unwrap();
        let mut target = Game::new(rules.clone(), seed + 100, true).unwrap();
        while eager_step(&mut game, &mut rng, &mut buf) {
            target.clone_from(&game);
            assert_eq!(target.to_json(), game.clone().to_json());
            assert_eq!(target.events_json(None), game.events_json(None));
        }
    }
}

//! 幺鸡 (wilds) in the game, rule by rule (RULES.md §11, docs/game-protocol.md §11), with the
//! seed's own examples; and random 幺鸡 hands that keep every invariant and reach every wild event.

use super::*;
use crate::hand::MAX_WILDS;
use crate::score::Bonus;

fn yaoji() -> Rules {
    rules("yaoji")
}

/// Seats 1-3 hold no m tile and no wild, and seats 2 and 3 are void in m: nobody claims the m
/// tiles seat 0 plays with (seat 1 may still discard one it drew).
const OTHERS: [&str; 3] = ["1122334455667p", "2233445566889s", "13579p2468s3579s"];
const VOIDS: [Suit; 4] = [Suit::S, Suit::S, Suit::M, Suit::M];

fn table(rules: Rules, hand: &str, front: &str, pending: Pending) -> Game {
    position(
        rules,
        [hand, OTHERS[0], OTHERS[1], OTHERS[2]],
        VOIDS,
        front,
        pending,
    )
}

/// Seat 1 drew `1m` and discards it.
fn seat_1_discards_1m(hand: &str, front: &str) -> Game {
    let seat_1 = format!("{}1m", OTHERS[0]);
    let mut game = position(
        yaoji(),
        [hand, &seat_1, OTHERS[1], OTHERS[2]],
        VOIDS,
        front,
        on_turn(1, "1m"),
    );
    game.act(1, Action::Discard(t("1m"))).unwrap();
    game
}

/// Moves `meld`'s tiles (its natural copies, then its wilds) from seat's hand into a meld; check
/// the invariants once every meld is made.
fn meld_from_hand(game: &mut Game, seat: u8, meld: Meld) {
    let s = &mut game.seats[seat as usize];
    (0..meld.naturals()).for_each(|_| s.hand.remove(meld.tile));
    (0..meld.wilds).for_each(|_| s.hand.remove_wild());
    s.push_meld(meld);
    game.refresh_cached_waits();
}

fn legal(game: &Game, seat: u8) -> Vec<Action> {
    let mut buf = ActionList::new();
    game.legal_actions(seat, &mut buf);
    buf.as_slice().to_vec()
}

fn melds(game: &Game, seat: u8) -> Vec<String> {
    game.seat(seat).meld_list().map(|m| m.to_string()).collect()
}

fn last_event_json(game: &Game) -> String {
    let log = game.events_json(None);
    let start = log.rfind("{\"type\"").unwrap();
    log[start..log.len() - 1].to_string()
}

#[test]
fn pong_with_one_natural_and_a_wild_on_a_discard() {
    // Seed 004: 一个一万 + 幺鸡 碰 a discarded 一万.
    let mut game = seat_1_discards_1m("1m1s23456789m899p", "");
    assert_eq!(legal(&game, 0), [Action::Pong, Action::Pass]);
    game.act(0, Action::Pong).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(melds(&game, 0), ["11m1s"]);
    assert_eq!(game.seat(0).hand.wilds(), 0);
    assert!(last_event_json(&game).contains("\"wilds\": 1"));
    // A pong's wild is never swapped back.
    assert!(!legal(&game, 0).iter().any(|a| matches!(a, Action::Swap(_))));
}

#[test]
fn pong_takes_natural_copies_before_a_wild() {
    let mut game = seat_1_discards_1m("11m1s3456789m899p", "");
    game.act(0, Action::Pong).unwrap();
    assert_eq!(melds(&game, 0), ["111m"]);
    assert_eq!(game.seat(0).hand.wilds(), 1);
}

#[test]
fn no_pong_that_leaves_the_hand_nothing_but_wilds() {
    // Three kongs, 1m and three wilds: a pong would leave two wilds and nothing to discard.
    let seat_3 = format!("{}1m", OTHERS[2]);
    let hands = ["2222m3333m4444m1m111s", OTHERS[0], OTHERS[1], &seat_3];
    let mut game = position(yaoji(), hands, VOIDS, "", on_turn(3, "1m"));
    for meld in ["2m", "3m", "4m"] {
        meld_from_hand(&mut game, 0, Meld::kong(t(meld), true));
    }
    game.check_invariants().unwrap();
    game.act(3, Action::Discard(t("1m"))).unwrap();
    assert_eq!(
        legal(&game, 0),
        [Action::Win, Action::Kong(t("1m")), Action::Pass]
    );
}

#[test]
fn concealed_kong_of_three_naturals_and_a_wild() {
    // Seed 004: 三个一万 + 幺鸡 暗杠.
    let mut game = table(yaoji(), "111m1s2345678m999p", "5p", on_turn(0, "9p"));
    assert!(legal(&game, 0).contains(&Action::Kong(t("1m"))));
    game.act(0, Action::Kong(t("1m"))).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(melds(&game, 0), ["111m1s"]);
    assert_eq!(game.seat(0).meld_summary.concealed_kongs, 1);
    let kong = game.events().find(|e| matches!(e, Event::Kong { .. }));
    assert!(matches!(kong, Some(Event::Kong { wilds: Some(1), .. })));
    assert!(matches!(game.pending, Pending::Turn(t) if t.kind == TurnKind::Replacement));
}

#[test]
fn concealed_kong_of_three_wilds_and_one_natural() {
    // Seed 004: 三个幺鸡 + 一个一万 暗杠.
    let mut game = table(yaoji(), "1m111s2345678m999p", "5p", on_turn(0, "9p"));
    let kongs: Vec<Action> = legal(&game, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Kong(_)))
        .collect();
    // Every natural tile held can be konged with three wilds.
    assert_eq!(kongs.len(), 9);
    game.act(0, Action::Kong(t("1m"))).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(melds(&game, 0), ["1m111s"]);
    assert_eq!(game.seat(0).hand.wilds(), 0);
}

#[test]
fn direct_kong_of_a_wild_two_naturals_and_the_discard_then_swap() {
    // Seed 004: 幺鸡 + 两个一万 + 打出的一万 直杠.
    let mut game = seat_1_discards_1m("11m1s2345678m899p", "1m");
    assert_eq!(
        legal(&game, 0),
        [Action::Kong(t("1m")), Action::Pong, Action::Pass]
    );
    game.act(0, Action::Kong(t("1m"))).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(melds(&game, 0), ["111m1s"]);
    let kong = game.events().find(|e| matches!(e, Event::Kong { .. }));
    assert!(matches!(
        kong,
        Some(Event::Kong {
            kind: KongKind::Direct,
            wilds: Some(1),
            ..
        })
    ));
    // The replacement draw is the fourth 1m: 幺鸡换 puts it in the kong, the wild comes back.
    let paid = payments(&game);
    assert!(legal(&game, 0).contains(&Action::Swap(t("1m"))));
    game.act(0, Action::Swap(t("1m"))).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(melds(&game, 0), ["1111m"]);
    assert_eq!(game.seat(0).hand.wilds(), 1);
    assert_eq!(payments(&game), paid, "a swap pays nothing");
    assert_eq!(
        last_event_json(&game),
        "{\"type\": \"swap\", \"seat\": 0, \"tile\": \"1m\"}"
    );
    let Pending::Turn(turn) = game.pending else {
        panic!("the turn goes on");
    };
    assert_eq!(
        (turn.kind, turn.drawn),
        (TurnKind::Replacement, Some(t("1s")))
    );
    let after = legal(&game, 0);
    assert!(!after.contains(&Action::Discard(t("1s"))));
    assert!(!after.iter().any(|a| matches!(a, Action::Swap(_))));
    assert_ne!(game.default_action(0), Some(Action::Discard(t("1s"))));
}

#[test]
fn swap_on_a_later_turn_and_only_from_a_kong() {
    // An exposed kong of 5m holding a wild, a pong of 7m holding a wild, and 5m, 7m in hand.
    let mut game = table(yaoji(), "5555m777m11s234m899p", "", on_turn(0, "5m"));
    meld_from_hand(&mut game, 0, Meld::kong(t("5m"), false).with_wilds(1));
    meld_from_hand(&mut game, 0, Meld::pong(t("7m")).with_wilds(1));
    game.check_invariants().unwrap();
    let actions = legal(&game, 0);
    assert!(actions.contains(&Action::Swap(t("5m"))));
    assert!(!actions.contains(&Action::Swap(t("7m"))));
    assert!(actions.contains(&Action::Kong(t("7m"))));
    game.act(0, Action::Swap(t("5m"))).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(game.seat(0).hand.wilds(), 1);
    // The drawn 5m went into the kong: the turn's drawn tile is the wild taken back.
    assert!(matches!(game.pending, Pending::Turn(t) if t.drawn == Some(Tile::YAOJI)));
    assert_eq!(game.default_action(0), Some(Action::Discard(t("9p"))));
    // Not on a turn after a pong.
    let mut game = table(yaoji(), "5555m777m11s234m899p", "", on_turn(0, "5m"));
    meld_from_hand(&mut game, 0, Meld::kong(t("5m"), false).with_wilds(1));
    meld_from_hand(&mut game, 0, Meld::pong(t("7m")).with_wilds(1));
    if let Pending::Turn(turn) = &mut game.pending {
        turn.kind = TurnKind::AfterPong;
        turn.drawn = None;
    }
    assert!(!legal(&game, 0).contains(&Action::Swap(t("5m"))));
}

#[test]
fn four_wilds_win_at_once_at_the_cap() {
    let mut game = table(yaoji(), "1111s23579m24689p", "", on_turn(0, "1s"));
    assert_eq!(legal(&game, 0), [Action::Win]);
    assert_eq!(game.default_action(0), Some(Action::Win));
    let e = game.act(0, Action::Discard(t("2m"))).unwrap_err();
    assert!(e.to_string().contains("four wilds"), "{e}");
    game.act(0, Action::Win).unwrap();
    game.check_invariants().unwrap();
    let w = &game.wins()[0];
    assert_eq!(
        (w.tile, w.kind, w.hand.wilds()),
        (Tile::YAOJI, WinKind::SelfDraw, 3)
    );
    let cap = game.rules().cap_fan.unwrap();
    assert_eq!(w.score.capped_fan, cap);
    let bonuses: Vec<Bonus> = w.score.bonuses.iter().map(|b| b.0).collect();
    assert_eq!(bonuses, [Bonus::FourWilds]);
    let each = value::fan_points(game.rules(), cap, true);
    assert_eq!(
        payments(&game),
        [1, 2, 3].map(|p| (p, 0, each, Reason::SelfDraw))
    );
}

#[test]
fn a_swap_that_brings_the_fourth_wild_wins_at_once() {
    let mut game = table(yaoji(), "5555m1111s234m8899p", "", on_turn(0, "5m"));
    meld_from_hand(&mut game, 0, Meld::kong(t("5m"), false).with_wilds(1));
    game.check_invariants().unwrap();
    game.act(0, Action::Swap(t("5m"))).unwrap();
    assert_eq!(legal(&game, 0), [Action::Win]);
}

/// The first seed (from 0) whose deal gives four wilds to a seat that is (or is not) the dealer.
fn seed_dealing_four_wilds(dealer: bool) -> (u64, u8) {
    let rules = Arc::new(yaoji());
    (0..100_000)
        .find_map(|seed| {
            let game = Game::new(rules.clone(), seed, false).unwrap();
            (0..4u8)
                .find(|&s| game.seat(s).hand.wilds() == MAX_WILDS && (s == game.dealer) == dealer)
                .map(|s| (seed, s))
        })
        .expect("some deal gives four wilds")
}

fn play_defaults_until_play(game: &mut Game) {
    while matches!(game.phase(), Phase::Exchange | Phase::Void) {
        for s in game.to_act() {
            let a = game.default_action(s).unwrap();
            game.act(s, a).unwrap();
            game.check_invariants().unwrap();
        }
    }
}

#[test]
fn four_dealt_wilds_of_a_non_dealer_win_before_the_dealers_first_turn() {
    let (seed, seat) = seed_dealing_four_wilds(false);
    let mut game = Game::new(Arc::new(yaoji()), seed, true).unwrap();
    play_defaults_until_play(&mut game);
    let Pending::Turn(turn) = game.pending else {
        panic!("play starts with a turn");
    };
    assert_eq!(
        (turn.seat, turn.kind, turn.drawn),
        (seat, TurnKind::Dealt, None)
    );
    assert_eq!(legal(&game, seat), [Action::Win]);
    let text = game.to_json();
    assert!(text.contains("\"dealt\""));
    assert_eq!(Game::from_json(&text).unwrap().to_json(), text);
    game.act(seat, Action::Win).unwrap();
    game.check_invariants().unwrap();
    let w = &game.wins()[0];
    assert_eq!(
        (w.tile, w.hand.len(), w.kind),
        (Tile::YAOJI, 12, WinKind::SelfDraw)
    );
    assert_eq!(w.score.capped_fan, game.rules().cap_fan.unwrap());
    let dealer = game.dealer();
    assert!(
        matches!(game.pending, Pending::Turn(t) if t.seat == dealer && t.kind == TurnKind::First)
    );
    let mut rng = Rng::new(1);
    let mut buf = ActionList::new();
    while game.step_random(&mut rng, &mut buf) {
        game.check_invariants().unwrap();
    }
    let log = game.events_json(None);
    assert_eq!(Game::from_events(&log).unwrap().events_json(None), log);
}

#[test]
fn four_dealt_wilds_of_the_dealer_win_on_its_first_turn() {
    let (seed, seat) = seed_dealing_four_wilds(true);
    let mut game = Game::new(Arc::new(yaoji()), seed, true).unwrap();
    play_defaults_until_play(&mut game);
    assert!(
        matches!(game.pending, Pending::Turn(t) if t.seat == seat && t.kind == TurnKind::First)
    );
    assert_eq!(legal(&game, seat), [Action::Win]);
    game.act(seat, Action::Win).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(game.wins()[0].hand.len(), 13);
}

#[test]
fn a_wild_is_never_exchanged() {
    let rules = Arc::new(yaoji());
    let mut buf = ActionList::new();
    let mut seen = false;
    for seed in 0..40 {
        let game = Game::new(rules.clone(), seed, false).unwrap();
        for s in 0..4 {
            seen |= game.seat(s).hand.wilds() > 0;
            game.legal_actions(s, &mut buf);
            assert!(!buf.is_empty());
            for a in buf.iter() {
                let Action::Exchange(tiles) = a else {
                    panic!("{a}");
                };
                assert!(!tiles.contains(&Tile::YAOJI), "{a}");
            }
            let Some(Action::Exchange(d)) = game.default_action(s) else {
                panic!("an exchange");
            };
            assert!(!d.contains(&Tile::YAOJI));
        }
    }
    assert!(seen);
}

#[test]
fn a_wild_is_never_discarded_and_never_of_the_void_suit() {
    // Void s, holding a wild: no void tile to play first, and the wild is not playable.
    let game = table(yaoji(), "1m1s23456789m8999p", "", on_turn(0, "8p"));
    game.check_invariants().unwrap();
    let actions = legal(&game, 0);
    assert!(actions.contains(&Action::Discard(t("1m"))));
    assert!(!actions.contains(&Action::Discard(t("1s"))));
    let mut again = game.clone();
    let e = again.act(0, Action::Discard(t("1s"))).unwrap_err();
    assert!(e.to_string().contains("never discarded"), "{e}");
    assert_eq!(
        again.to_json(),
        game.to_json(),
        "a rejected action changes nothing"
    );
    // A wild stands for a p tile in a win while s is void.
    let mut game = table(yaoji(), "123m456m789m22p89p1s", "", on_turn(0, "9p"));
    assert!(legal(&game, 0).contains(&Action::Win));
    game.act(0, Action::Win).unwrap();
    game.check_invariants().unwrap();
}

#[test]
fn a_hand_of_nothing_but_wilds_that_does_not_win_discards_one_nobody_claims() {
    let mut r = yaoji();
    r.declare_void = false;
    let mut game = position(
        r,
        [
            "2222m3333p4444s5555m11s",
            "6677889p667788m",
            "6677889p99m5678s",
            "1122p99m556677s9s",
        ],
        VOIDS,
        "",
        on_turn(0, "1s"),
    );
    game.seats.iter_mut().for_each(|s| s.void = None);
    for meld in ["2m", "3p", "4s", "5m"] {
        meld_from_hand(&mut game, 0, Meld::kong(t(meld), true));
    }
    game.check_invariants().unwrap();
    assert_eq!(legal(&game, 0), [Action::Discard(Tile::YAOJI)]);
    assert_eq!(game.default_action(0), Some(Action::Discard(Tile::YAOJI)));
    game.act(0, Action::Discard(Tile::YAOJI)).unwrap();
    game.check_invariants().unwrap();
    assert!(matches!(game.pending, Pending::Turn(t) if t.seat == 1));
}

#[test]
fn an_added_kong_with_a_wild_cannot_be_robbed() {
    // Seat 1 waits on 5m (46m).
    let hands = |seat_0| [seat_0, "46m123456789p99p", OTHERS[1], OTHERS[2]];
    let mut game = position(
        yaoji(),
        hands("555m1s223m789m88p9m2p"),
        VOIDS,
        "",
        on_turn(0, "2p"),
    );
    meld_from_hand(&mut game, 0, Meld::pong(t("5m")));
    game.check_invariants().unwrap();
    game.act(0, Action::Kong(t("5m"))).unwrap();
    game.check_invariants().unwrap();
    assert_eq!(melds(&game, 0), ["555m1s"]);
    assert!(matches!(game.pending, Pending::Turn(t) if t.kind == TurnKind::Replacement));
    // Adding the natural fourth 5m instead can be robbed.
    let mut game = position(
        yaoji(),
        hands("5555m1s23m789m88p9m2p"),
        VOIDS,
        "",
        on_turn(0, "2p"),
    );
    meld_from_hand(&mut game, 0, Meld::pong(t("5m")));
    game.check_invariants().unwrap();
    game.act(0, Action::Kong(t("5m"))).unwrap();
    assert_eq!(legal(&game, 1), [Action::Win, Action::Pass]);
}

#[test]
fn no_wild_bonus_reads_the_concealed_hand_only() {
    let bonus = |hand: &str, pong: Option<Meld>| {
        let mut game = table(yaoji(), hand, "", on_turn(0, "9p"));
        if let Some(m) = pong {
            meld_from_hand(&mut game, 0, m);
        }
        game.check_invariants().unwrap();
        game.act(0, Action::Win).unwrap();
        game.check_invariants().unwrap();
        let score = game.wins()[0].score;
        let no_wild = score.bonuses.iter().any(|b| b.0 == Bonus::NoWild);
        no_wild
    };
    assert!(bonus("123m456m789m22p789p", None));
    assert!(!bonus("123m456m789m22p89p1s", None));
    // A wild inside a pong is not 手中.
    assert!(bonus(
        "33m1s456m789m22p789p",
        Some(Meld::pong(t("3m")).with_wilds(1))
    ));
}

#[test]
fn ready_hands_with_wilds_are_valued_by_natural_waits() {
    let rules = yaoji();
    let seat = |hand: &str| {
        let mut s = Seat::EMPTY;
        s.void = Some(Suit::S);
        for t in crate::tile::parse_tiles(hand).unwrap() {
            s.receive(t, 1, true);
        }
        s
    };
    // Only a drawn wild (a fifth 5m) completes it: not ready.
    assert_eq!(value::ready_value(&rules, &seat("5555m123p456p789p")), None);
    let wild = seat("555m123p456p789p1s");
    assert!(value::ready_value(&rules, &wild).is_some());
    let waits = crate::analysis::waits(
        &wild.hand,
        &wild.context(&crate::rules::Rules::preset("yaoji").unwrap()),
    );
    assert_eq!(waits & 1 << Tile::YAOJI.index(), 0, "1s is never a wait");
}

#[test]
fn the_variant_is_played_as_xuezhan_with_a_cap() {
    let mut r = yaoji();
    r.cap_fan = None;
    let e = Game::new(Arc::new(r), 0, false).err().unwrap();
    assert!(e.to_string().contains("cap_fan"), "{e}");
    let mut r = yaoji();
    r.mode = crate::rules::Mode::Xueliu;
    let e = Game::new(Arc::new(r), 0, false).err().unwrap();
    assert!(e.to_string().contains("xuezhan"), "{e}");
}

#[test]
fn random_yaoji_hands_keep_every_invariant_and_reach_every_wild_event() {
    let rules = Arc::new(yaoji());
    let mut rng = Rng::new(44);
    let mut buf = ActionList::new();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..400 {
        let mut game = Game::new(rules.clone(), seed, true).unwrap();
        let mut steps = 0;
        while eager_step(&mut game, &mut rng, &mut buf) {
            if let Err(e) = game.check_invariants() {
                panic!("seed {seed} step {steps}: {e}");
            }
            steps += 1;
        }
        for e in game.events() {
            let key = match *e {
                Event::Pong { wilds, .. } if wilds > Some(0) => "pong with a wild",
                Event::Kong { kind, wilds, .. } if wilds > Some(0) => kind.name(),
                Event::Swap { .. } => "swap",
                _ => continue,
            };
            seen.insert(key);
        }
        for w in game.wins() {
            if w.tile == Tile::YAOJI {
                seen.insert("four wilds");
            }
            if w.score.bonuses.iter().any(|b| b.0 == Bonus::NoWild) {
                seen.insert("no wild");
            }
        }
        let log = game.events_json(None);
        let again = Game::from_events(&log).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{log}"));
        assert_eq!(again.events_json(None), log);
    }
    let all = [
        "pong with a wild",
        "direct",
        "added",
        "concealed",
        "swap",
        "four wilds",
        "no wild",
    ];
    assert_eq!(seen, all.into_iter().collect());
}

#[test]
fn several_pongs_on_one_discard_go_to_the_first_seat_after_the_discarder() {
    // Seats 0, 2 and 3 each hold 1m and a wild; seat 1 discards 1m.
    let seat_1 = format!("{}1m", OTHERS[0]);
    let hands = [
        "1m1s23456789m899p",
        &seat_1,
        "1m1s23344556688s",
        "1m1s2468s3579s579p",
    ];
    let voids = [Suit::S, Suit::S, Suit::P, Suit::P];
    let mut game = position(yaoji(), hands, voids, "", on_turn(1, "1m"));
    game.check_invariants().unwrap();
    game.act(1, Action::Discard(t("1m"))).unwrap();
    assert_eq!(game.to_act(), [0, 2, 3]);
    for seat in [3, 0, 2] {
        game.act(seat, Action::Pong).unwrap();
    }
    game.check_invariants().unwrap();
    assert_eq!(melds(&game, 2), ["11m1s"]);
    let tail: Vec<String> = game.events().map(|e| format!("{e:?}")).collect();
    assert_eq!(
        tail,
        [
            "Discard { seat: 1, tile: Tile(0) }",
            "Beaten { seat: 0, claim: 4 }",
            "Beaten { seat: 3, claim: 4 }",
            "Pong { seat: 2, tile: Tile(0), from: 1, wilds: Some(1) }",
        ]
    );
}

#[test]
fn yaoji_with_other_options_keeps_every_invariant_and_restores_from_snapshots() {
    use crate::rules::{KongDrawFrom, LastFour, LateKong, PassWinLock};
    let mut variants = Vec::new();
    for (i, late) in [
        LateKong::RootOnly,
        LateKong::KeptFourthForbidden,
        LateKong::Forbidden,
    ]
    .into_iter()
    .enumerate()
    {
        let mut r = yaoji();
        r.late_kong = late;
        r.rob_concealed_kong = true;
        r.declare_void = i != 0;
        if i == 1 {
            r.exchange = None;
        }
        r.pong_last_discard = i == 2;
        r.kong_draw_from = [KongDrawFrom::Back, KongDrawFrom::Front][i % 2];
        r.pass_win_lock = [PassWinLock::UntilDraw, PassWinLock::UntilDrawUnlessHigher][i % 2];
        r.last_four = [LastFour::Forced, LastFour::RonForced, LastFour::None][i];
        variants.push(Arc::new(r));
    }
    let mut rng = Rng::new(8);
    let mut buf = ActionList::new();
    for rules in variants {
        for seed in 0..150 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            let mut steps = 0;
            while eager_step(&mut game, &mut rng, &mut buf) {
                if let Err(e) = game.check_invariants() {
                    panic!("{:?} seed {seed} step {steps}: {e}", rules.late_kong);
                }
                if steps % 17 == 0 {
                    let text = game.to_json();
                    assert_eq!(Game::from_json(&text).unwrap().to_json(), text);
                }
                steps += 1;
            }
            let log = game.events_json(None);
            assert_eq!(Game::from_events(&log).unwrap().events_json(None), log);
        }
    }
}

#[test]
fn a_robbed_concealed_kong_gives_its_wild_back_to_the_owner() {
    let mut r = yaoji();
    r.rob_concealed_kong = true;
    let hands = [
        "555m1s223m789m88p9m2p",
        "46m123456789p99p",
        OTHERS[1],
        OTHERS[2],
    ];
    let mut game = position(r, hands, VOIDS, "", on_turn(0, "2p"));
    game.check_invariants().unwrap();
    game.act(0, Action::Kong(t("5m"))).unwrap();
    assert_eq!(legal(&game, 1), [Action::Win, Action::Pass]);
    game.act(1, Action::Win).unwrap();
    game.check_invariants().unwrap();
    let s = game.seat(0);
    assert_eq!((s.hand.count(t("5m")), s.hand.wilds()), (2, 1));
    assert_eq!(s.meld_list().count(), 0);
    assert_eq!(game.wins()[0].tile, t("5m"));
}

//! Above one hand (RULES.md §2): the next dealer, 逃跑, and matches of several hands.

use super::*;
use crate::error::Error;
use crate::matches::{hand_seed, Match};

/// A hand of `preset` played to its end by [`eager_step`], with a given first dealer.
fn eager_hand(preset: &str, seed: u64, dealer: Option<u8>) -> Game {
    let mut game = Game::with_dealer(Arc::new(rules(preset)), seed, dealer, true).unwrap();
    let (mut rng, mut buf) = (Rng::new(seed ^ 7), ActionList::new());
    while eager_step(&mut game, &mut rng, &mut buf) {}
    game
}

#[test]
fn a_given_dealer_deals_and_draws_nothing_from_the_generator() {
    for d in 0..4u8 {
        let game = Game::with_dealer(Arc::new(rules("chengdu")), 5, Some(d), true).unwrap();
        assert_eq!(game.dealer(), d);
        assert_eq!(game.seat(d).hand.len(), 14);
        assert!(matches!(
            game.events().next(),
            Some(Event::Start { given: true, dealer, .. }) if *dealer == d
        ));
        assert!(Game::from_events(&game.events_json(None)).is_ok());
    }
    let e = Game::with_dealer(Arc::new(rules("chengdu")), 5, Some(4), true)
        .err()
        .unwrap();
    assert!(
        matches!(&e, Error::Argument(m) if m.contains("dealer 4 does not exist")),
        "{e}"
    );
    // Without a given dealer the log reads as before: no dealer_given field.
    let game = Game::new(Arc::new(rules("chengdu")), 5, true).unwrap();
    assert!(!game.events_json(None).contains("dealer_given"));
}

#[test]
fn rotate_passes_the_deal_to_the_next_seat() {
    // Seed 000: 轮庄.
    let game = eager_hand("dashiyou", 3, Some(2));
    assert!(game.is_over());
    assert_eq!(game.next_dealer(), Some(3));
    let game = Game::new(Arc::new(rules("dashiyou")), 3, true).unwrap();
    assert_eq!(game.next_dealer(), None, "not before the hand is over");
}

/// Seed 002 打牌規則 3: 「以後每盤由上一盤首先胡牌人做莊;一炮多響時，下盤由放炮人做莊」, and
/// its examples: D deals, A wins first, then B discards to C and D at once (or one after the
/// other): A deals next. The first win shared by several seats on one discard: its discarder.
#[test]
fn first_winner_deals_next_or_the_discarder_of_a_shared_first_win() {
    let (mut single_then_shared, mut shared_first) = (false, false);
    for seed in 0..400 {
        let game = eager_hand("chengdu", seed, None);
        let wins = game.wins();
        let next = game.next_dealer().unwrap();
        match wins {
            [] => assert_eq!(next, game.dealer(), "荒庄不下庄"),
            [first, second, ..] if second.shared => {
                assert_eq!(Some(next), first.from);
                shared_first = true;
            }
            [first, rest @ ..] => {
                assert_eq!(next, first.seat);
                single_then_shared |= rest.iter().any(|w| w.shared);
            }
        }
    }
    assert!(single_then_shared && shared_first);
}

#[test]
fn a_hand_without_a_winner_keeps_its_dealer() {
    // 荒庄不下庄 (seed 002 打牌規則 5): everyone passes every win.
    let mut game = Game::with_dealer(Arc::new(rules("xuezhan")), 11, Some(1), true).unwrap();
    let mut buf = ActionList::new();
    while let Some(seat) = game.to_act().first().copied() {
        game.legal_actions(seat, &mut buf);
        let pick = buf
            .iter()
            .copied()
            .find(|a| !matches!(a, Action::Win | Action::Pong | Action::Kong(_)));
        match pick {
            Some(a) => game.act(seat, a).unwrap(),
            None => game.act(seat, buf[0]).unwrap(),
        }
    }
    if game.wins().is_empty() {
        assert_eq!(game.next_dealer(), Some(1));
    }
}

#[test]
fn a_leaver_pays_each_seat_that_has_not_won_and_the_hand_ends() {
    // Seed 002 計分規則 11: 96 to each player who has not won.
    let mut game = Game::new(Arc::new(rules("chengdu")), 8, true).unwrap();
    let before = game.scores();
    game.abandon(2).unwrap();
    assert!(game.is_over());
    assert_eq!(game.leaver(), Some(2));
    assert_eq!(game.end_reason(), Some(EndReason::Abandoned(2)));
    let paid: Vec<i64> = (0..4).map(|i| game.scores()[i] - before[i]).collect();
    assert_eq!(paid, [96, 96, -288, 96]);
    game.check_invariants().unwrap();
    assert!(game.abandon(1).is_err(), "over");
    // The snapshot and the log both restore it.
    let back = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(back.to_json(), game.to_json());
    let replayed = Game::from_events(&game.events_json(None)).unwrap();
    assert_eq!(replayed.scores(), game.scores());
}

#[test]
fn a_winner_cannot_leave_and_winners_collect_nothing() {
    for seed in 0..200 {
        let mut game = Game::new(Arc::new(rules("xuezhan")), seed, true).unwrap();
        let (mut rng, mut buf) = (Rng::new(seed), ActionList::new());
        while game.wins().is_empty() && eager_step(&mut game, &mut rng, &mut buf) {}
        if game.is_over() || game.wins().is_empty() {
            continue;
        }
        let winner = game.wins()[0].seat;
        let json = game.to_json();
        let e = game.abandon(winner).unwrap_err();
        assert!(
            matches!(&e, Error::IllegalAction(m) if m.contains("has won")),
            "{e}"
        );
        assert_eq!(game.to_json(), json, "a rejected abandon changes nothing");
        let leaver = (0..4).find(|&s| game.seat(s).wins == 0).unwrap();
        let before = game.scores();
        game.abandon(leaver).unwrap();
        assert_eq!(game.scores()[winner as usize], before[winner as usize]);
        return;
    }
    panic!("no hand reached a first win");
}

#[test]
fn in_the_last_four_tiles_the_higher_of_penalty_and_the_ready_value_is_paid() {
    // 按高分的一種扣: a ready seat claims its 查大叫 amount when it beats the penalty (here 10,
    // so that ready values beat it often).
    let preset = Rules {
        escape_penalty: 10,
        ..rules("chengdu")
    };
    for seed in 0..300 {
        let mut game = Game::new(Arc::new(preset), seed, true).unwrap();
        let (mut rng, mut buf) = (Rng::new(seed), ActionList::new());
        while !game.is_over() && game.wall_remaining() > 4 {
            eager_step(&mut game, &mut rng, &mut buf);
        }
        if game.is_over() {
            continue;
        }
        let leaver = (0..4).find(|&s| game.seat(s).wins == 0).unwrap();
        let mut probe = game.clone();
        probe.rules = Arc::new(Rules {
            escape_penalty: 0,
            ..preset
        });
        probe.abandon(leaver).unwrap();
        let values: Vec<i64> = (0..4)
            .map(|i| probe.scores()[i] - game.scores()[i])
            .collect();
        if values.iter().all(|&v| v <= 10) {
            continue;
        }
        let before = game.scores();
        game.abandon(leaver).unwrap();
        for q in (0..4).filter(|&q| q != leaver as usize) {
            let got = game.scores()[q] - before[q];
            let expect = if game.seat(q as u8).wins > 0 {
                0
            } else {
                values[q].max(10)
            };
            assert_eq!(got, expect, "seed {seed} seat {q}");
        }
        return;
    }
    panic!("no hand left a seat ready above the penalty in the last four tiles");
}

#[test]
fn a_match_deals_each_hand_by_the_last_and_sums_the_points() {
    let rules = Arc::new(rules("chengdu"));
    let mut m = Match::new(rules.clone(), 42, 3).unwrap();
    let (mut rng, mut buf) = (Rng::new(1), ActionList::new());
    assert!(m
        .next_hand()
        .unwrap_err()
        .to_string()
        .contains("still in play"));
    for hand in 0..3u32 {
        assert_eq!(m.game().seed(), hand_seed(42, hand));
        while eager_step(m.game_mut(), &mut rng, &mut buf) {}
        assert_eq!(m.hands_played(), hand + 1);
        if hand < 2 {
            let next = m.next_dealer().unwrap();
            // Mid-match, a snapshot restores exactly.
            let snap = m.to_json();
            assert_eq!(Match::from_json(&snap).unwrap().to_json(), snap);
            m.next_hand().unwrap();
            assert_eq!(m.game().dealer(), next);
        }
    }
    assert!(m.is_over());
    assert!(m
        .next_hand()
        .unwrap_err()
        .to_string()
        .contains("match is over"));
    let results = m.results();
    assert_eq!(results.len(), 3);
    let totals = m.totals();
    assert!((0..4).all(|i| totals[i] == results.iter().map(|r| r[i]).sum::<i64>()));
    let dealers = m.dealers();
    let games: Vec<&Game> = m.games().collect();
    for i in 1..3 {
        assert_eq!(games[i - 1].next_dealer(), Some(dealers[i]));
    }
    let replayed = Match::from_log(&m.log_json()).unwrap();
    assert_eq!(replayed.to_json(), m.to_json());
}

#[test]
fn a_match_snapshot_mid_hand_restores_exactly_and_rejects_edits() {
    let mut m = Match::new(Arc::new(rules("xuezhan")), 9, 4).unwrap();
    let (mut rng, mut buf) = (Rng::new(2), ActionList::new());
    while eager_step(m.game_mut(), &mut rng, &mut buf) {}
    m.next_hand().unwrap();
    for _ in 0..30 {
        eager_step(m.game_mut(), &mut rng, &mut buf);
    }
    let snap = m.to_json();
    let back = Match::from_json(&snap).unwrap();
    assert_eq!(back.to_json(), snap);
    let mut a = back.clone();
    let mut b = m.clone();
    while eager_step(a.game_mut(), &mut Rng::new(5), &mut buf) {}
    while eager_step(b.game_mut(), &mut Rng::new(5), &mut buf) {}
    // Same state, same actions, same hand.
    assert_eq!(a.game().scores(), b.game().scores());
    let wrong_seed = snap.replacen("\"seed\": 9", "\"seed\": 10", 1);
    let e = Match::from_json(&wrong_seed).err().unwrap();
    assert!(
        matches!(&e, Error::Snapshot(m) if m.contains("seed")),
        "{e}"
    );
    let dealer = m.game().dealer();
    let other = (dealer + 1) % 4;
    let moved = snap.replace(
        &format!("\"dealer\": {dealer}, \"dealer_given\": true"),
        &format!("\"dealer\": {other}, \"dealer_given\": true"),
    );
    assert!(Match::from_json(&moved).is_err());
    assert!(Match::new(Arc::new(rules("xuezhan")), 9, 0).is_err());
}

use super::*;
use crate::game::{ActionList, Game};
use crate::rng::Rng;
use crate::rules::{Preset, Rules};
use crate::Choice;
use std::sync::Arc;

/// Plays a hand with one bot per seat, checking each choice is legal; returns the actions.
fn play(rules: &Arc<Rules>, seed: u64, kinds: [BotKind; 4]) -> (Game, Vec<(u8, Action)>) {
    let mut game = Game::new(rules.clone(), seed, false).unwrap();
    let mut bots = kinds.map(|k| k.build(seed ^ 0x5EED));
    let mut legal = ActionList::new();
    let mut actions = Vec::new();
    while let Some(seat) = (0..4).find(|&s| game.must_act(s)) {
        game.legal_actions(seat, &mut legal);
        let a = bots[seat as usize].choose(&game.view(seat).unwrap());
        assert!(
            legal.contains(a),
            "seed {seed}: {a} is not legal for seat {seat}"
        );
        game.act(seat, a).unwrap();
        actions.push((seat, a));
        assert!(actions.len() < 2000, "seed {seed}: the hand does not end");
    }
    (game, actions)
}

#[test]
fn play_takes_the_same_actions_as_choose_then_act() {
    use BotKind::{Greedy as G, Random as R};
    for &preset in Preset::ALL {
        let rules = Arc::new(preset.rules());
        for seed in 0..30 {
            let (checked, actions) = play(&rules, seed, [G, R, G, R]);
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            let mut bots = [G, R, G, R].map(|k| AnyBot::new(k, seed ^ 0x5EED));
            let mut played = Vec::new();
            while let Some(seat) = (0..4).find(|&s| game.must_act(s)) {
                let bot = &mut bots[seat as usize];
                played.push((seat, super::play(bot, &mut game, seat).unwrap()));
            }
            assert_eq!(played, actions, "{preset:?} seed {seed}");
            assert_eq!(game.scores(), checked.scores());
            let mut logged = Game::new(rules.clone(), seed, true).unwrap();
            actions.iter().for_each(|&(s, a)| logged.act(s, a).unwrap());
            assert_eq!(game.to_json(), logged.to_json(), "{preset:?} seed {seed}");
        }
    }
}

#[test]
fn names_round_trip_and_unknown_names_list_the_valid_ones() {
    for &name in BOT_NAMES {
        assert_eq!(BotKind::parse(name).unwrap().name(), name);
    }
    let e = bot_from_name("grredy", 0).err().unwrap().to_string();
    assert!(
        e.contains("\"grredy\"") && e.contains("random, greedy"),
        "{e}"
    );
}

#[test]
fn bots_play_only_legal_actions_to_the_end_under_every_preset() {
    use BotKind::{Greedy as G, Random as R};
    for &preset in Preset::ALL {
        let rules = Arc::new(preset.rules());
        for seed in 0..60 {
            let (game, _) = play(&rules, seed, [G, R, G, R]);
            assert!(game.is_over());
            assert_eq!(
                game.scores().iter().sum::<i64>(),
                0,
                "{preset:?} seed {seed}"
            );
        }
    }
}

#[test]
fn the_paid_tally_is_the_payment_events_and_is_kept_with_logging_off() {
    use crate::game::Reason;
    use BotKind::{Greedy as G, Random as R};
    let mut seen = [0usize; 2];
    for &preset in Preset::ALL {
        let rules = Arc::new(preset.rules());
        for seed in 0..40 {
            let logged = play_game(&rules, [G, R, G, R], seed, true).unwrap();
            let quiet = play_game(&rules, [G, R, G, R], seed, false).unwrap();
            let restored = Game::from_json(&logged.to_json()).unwrap();
            for seat in 0..4u8 {
                for &reason in Reason::ALL {
                    let paid = logged.events().any(|e| {
                        matches!(e, crate::game::Event::Payment { payer, reason: r, .. }
                                 if *payer == seat && *r == reason)
                    });
                    let tallies = [&logged, &quiet, &restored].map(|g| g.has_paid(seat, reason));
                    assert_eq!(tallies, [paid; 3], "{preset:?} {seed} {seat} {reason:?}");
                    if paid && reason == Reason::FlowerPig {
                        seen[0] += 1;
                    }
                    if paid && reason == Reason::NotReady {
                        seen[1] += 1;
                    }
                }
            }
        }
    }
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "no 花猪 or 查叫 payment met: {seen:?}"
    );
}

#[test]
fn the_same_seeds_give_the_same_hand() {
    let rules = Arc::new(Rules::preset("chengdu").unwrap());
    let kinds = [
        BotKind::Greedy,
        BotKind::Random,
        BotKind::Greedy,
        BotKind::Random,
    ];
    for seed in 0..20 {
        assert_eq!(play(&rules, seed, kinds).1, play(&rules, seed, kinds).1);
    }
}

#[test]
fn greedy_wins_far_more_than_random_and_clears_its_void_suit() {
    let rules = Arc::new(Rules::preset("chengdu").unwrap());
    let mut wins = [0u32; 2];
    let mut void_ok = 0;
    for seed in 0..200 {
        let (game, actions) = play(
            &rules,
            seed,
            [
                BotKind::Greedy,
                BotKind::Random,
                BotKind::Greedy,
                BotKind::Random,
            ],
        );
        for w in game.wins() {
            wins[(w.seat % 2) as usize] += 1;
        }
        // Greedy discards its void suit first, so it rarely ends the hand still holding one.
        let s = game.seat(0);
        void_ok += u32::from(!s.holds_void());
        assert!(actions
            .iter()
            .any(|(s, a)| *s == 0 && matches!(a, Action::Void(_))));
    }
    assert!(
        wins[0] > 3 * wins[1],
        "greedy wins {} vs random {}",
        wins[0],
        wins[1]
    );
    assert!(void_ok > 150, "{void_ok}");
}

fn sim(first_game: u64, logs: bool) -> Simulation {
    Simulation {
        rules: Arc::new(Rules::preset("chengdu").unwrap()),
        bots: [
            BotKind::Greedy,
            BotKind::Random,
            BotKind::Greedy,
            BotKind::Greedy,
        ],
        seed: 11,
        first_game,
        logs,
    }
}

#[test]
fn simulate_does_not_depend_on_threads_or_chunks() {
    let (one, _) = simulate(&sim(0, true), 60, 1).unwrap();
    for threads in [2, 3, 8] {
        assert_eq!(simulate(&sim(0, true), 60, threads).unwrap().0, one);
    }
    let (mut chunked, _) = simulate(&sim(0, true), 25, 2).unwrap();
    chunked.merge(simulate(&sim(25, true), 35, 3).unwrap().0);
    assert_eq!(chunked, one);
    assert_eq!(one.games, 60);
    assert!(one.points.iter().all(|p| p.iter().sum::<i64>() == 0));
    assert_eq!(
        one.wins.iter().sum::<u64>(),
        one.win_kinds.iter().sum::<u64>()
    );
    assert_eq!(
        one.wins.iter().sum::<u64>(),
        one.fan_histogram.iter().sum::<u64>()
    );
    assert_eq!(one.logs.len(), 60);
    assert!(one.logs[0]
        .lines()
        .all(|l| l.starts_with('{') && l.ends_with('}')));
    assert!(one.mean_draws() > 10.0 && one.mean_draws() <= 55.0);
}

/// A simulation keeps its bots from hand to hand, reseeded: each hand must still be the one
/// fresh bots play from the hand's seeds, event for event.
#[test]
fn simulate_replays_each_game_from_its_seeds() {
    let searching = Simulation {
        bots: [
            BotKind::Random,
            BotKind::Ismcts(2),
            BotKind::Greedy,
            BotKind::IsmctsPolicy(2),
        ],
        ..sim(0, true)
    };
    for (s, games) in [(sim(0, true), 20), (searching, 4)] {
        let (tally, _) = simulate(&s, games, 1).unwrap();
        for (i, log) in tally.logs.iter().enumerate() {
            let game = play_game(&s.rules, s.bots, game_seed(s.seed, i as u64), true).unwrap();
            assert_eq!(&game.events_jsonl(), log, "game {i}");
        }
    }
    assert_eq!(game_seed(0, 0), Rng::new(0).next_u64());
}

#[test]
fn the_wild_variant_plays_and_one_deal_is_too_few_to_compare() {
    let mut s = sim(0, false);
    s.rules = Arc::new(Rules::preset("yaoji").unwrap());
    let (tally, _) = simulate(&s, 40, 2).unwrap();
    assert!(tally.points.iter().all(|p| p.iter().sum::<i64>() == 0));
    assert!(tally.wins.iter().sum::<u64>() > 0);
    let rules = Arc::new(Rules::preset("chengdu").unwrap());
    assert!(compare(&rules, BotKind::Greedy, BotKind::Random, 1, 0, 1).is_err());
}

#[test]
fn duplicate_comparison_finds_greedy_better_than_random() {
    let rules = Arc::new(Rules::preset("chengdu").unwrap());
    let c = compare(&rules, BotKind::Greedy, BotKind::Random, 200, 3, 2).unwrap();
    assert!(c.ci_low > 0.0, "{c:?}");
    assert_eq!(
        compare(&rules, BotKind::Greedy, BotKind::Random, 200, 3, 1).unwrap(),
        c
    );
    let pair = [BotKind::Greedy, BotKind::Random];
    let head = compare_range(&rules, pair, 3, 0, 70, 1).unwrap();
    let tail = compare_range(&rules, pair, 3, 70, 130, 2).unwrap();
    assert_eq!(
        head.merge(&tail).unwrap(),
        c,
        "shards merge to the whole run, bit for bit"
    );
    let same = compare(&rules, BotKind::Greedy, BotKind::Greedy, 50, 3, 2).unwrap();
    assert!(same.mean.abs() < 1e-9, "{same:?}");
}

/// FNV-1a over the actions of hands played by `kinds` (seats 0–3) from seeds `0..hands`:
/// each seat and action as the log spells it.
fn play_digest(preset: Preset, kinds: [BotKind; 4], hands: u64) -> u64 {
    let rules = Arc::new(preset.rules());
    let mut d: u64 = 0xcbf2_9ce4_8422_2325;
    for seed in 0..hands {
        for (seat, a) in play(&rules, seed, kinds).1 {
            for b in format!("{seat}{a};").bytes() {
                d = (d ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    d
}

/// Greedy and ISMCTS (from greedy's choice and from the policy's) play the same actions as the
/// build that recorded these digests: a change made for speed must leave every decision as it
/// was (a deliberate change of play re-records them, measured on duplicate deals, and says so in
/// its commit).
#[test]
fn greedy_and_ismcts_decide_as_recorded() {
    use BotKind::{Greedy as G, Ismcts as I, IsmctsPolicy as P};
    let mut got = Vec::new();
    for &preset in Preset::ALL {
        got.push(format!(
            "greedy {} {:016x}",
            preset.name(),
            play_digest(preset, [G; 4], 40)
        ));
    }
    for preset in [Preset::Chengdu, Preset::ChengduXueliu, Preset::Yaoji] {
        let d = play_digest(preset, [I(100), G, I(12), G], 2);
        got.push(format!("ismcts {} {d:016x}", preset.name()));
    }
    for preset in [Preset::Chengdu, Preset::Yaoji] {
        let d = play_digest(preset, [P(100), G, P(12), G], 2);
        got.push(format!("ismcts+policy {} {d:016x}", preset.name()));
    }
    let want = [
        "greedy dashiyou 4447dfa0b62ef848",
        "greedy sanxia 6ca11a3906c80a3b",
        "greedy sanxia_piao 6ca11a3906c80a3b",
        "greedy chengdu dd4a9c7b532aaeca",
        "greedy chengdu_xueliu 193b94a867421762",
        "greedy xuezhan 555634762e802b19",
        "greedy yaoji 594720ce30b4d2f0",
        "greedy mil_sbr_2025 ec1bd03b29697447",
        "greedy tfmj_2024 6b5b635bb2b6e80c",
        "ismcts chengdu 741c1aa82a8b1e94",
        "ismcts chengdu_xueliu 4306a5d2f2b9af76",
        "ismcts yaoji d700ed07a069c23c",
        // The policy picks greedy's action at every decision of these hands, so the search runs
        // as ismcts's does (`with_the_policy_the_search_starts_from_the_policy_s_choice` tests a
        // policy that does not).
        "ismcts+policy chengdu 741c1aa82a8b1e94",
        "ismcts+policy yaoji d700ed07a069c23c",
    ];
    assert_eq!(got, want, "new digests:\n{}", got.join("\n"));
}

#[test]
fn points_bytes_are_little_endian_words_four_a_game() {
    let tally = Tally {
        games: 2,
        points: vec![[1, -2, 3, -4], [i64::MAX, i64::MIN, 0, 256]],
        ..Tally::default()
    };
    let bytes = tally.points_bytes();
    // A pickled result written before this moved into the core carries exactly these bytes.
    assert_eq!(bytes.len(), 64);
    assert_eq!(
        &bytes[..16],
        &[1, 0, 0, 0, 0, 0, 0, 0, 254, 255, 255, 255, 255, 255, 255, 255]
    );
    assert_eq!(&bytes[56..], &[0, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(Tally::points_from_bytes(&bytes), Some(tally.points));
    assert_eq!(Tally::points_from_bytes(&bytes[..40]), None);
    assert_eq!(Tally::points_from_bytes(&[]), Some(vec![]));
}

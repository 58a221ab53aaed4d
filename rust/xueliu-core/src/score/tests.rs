//! Scoring on the seed documents' own hands and RULES.md §9–§10's worked arithmetic. Expected
//! numbers come from the sources, noted beside each.

use super::*;
use crate::tile::parse_tiles;

fn rules(name: &str) -> Rules {
    Rules::preset(name).unwrap()
}

fn counts(text: &str) -> Counts {
    Counts::from_tiles(&parse_tiles(text).unwrap()).unwrap()
}

fn tile(text: &str) -> Tile {
    parse_tiles(text).unwrap()[0]
}

fn meld(text: &str) -> Meld {
    Meld::parse(text, false).unwrap()
}

fn concealed_kong(text: &str) -> Meld {
    Meld::parse(text, true).unwrap()
}

/// Scores `hand` (winning tile included) winning on its last-written tile.
fn win(hand: &str, melds: &[Meld], rules: &Rules, situation: Situation) -> Score {
    let last = *parse_tiles(hand).unwrap().last().unwrap();
    score(&counts(hand), last, melds, None, rules, &situation).unwrap()
}

fn on_discard(hand: &str, rules: &Rules) -> Score {
    win(hand, &[], rules, Situation::DISCARD)
}

fn bonus_list(s: &Score) -> Vec<(Bonus, u8, u32)> {
    s.bonuses.iter().collect()
}

#[test]
fn seed_004_table_in_xuezhan() {
    // Seed 004 §六 and §七: the pattern, its fan and its ×multiplier (base 1, offset 0).
    let xuezhan = rules("xuezhan");
    let table = [
        ("23445677m345789p", Pattern::Basic, 0, 1),
        ("111333444m66677p", Pattern::AllTriplets, 1, 2),
        ("11223345678999m", Pattern::FullFlush, 2, 4),
        ("22244455577799m", Pattern::FlushTriplets, 3, 8),
        ("222555888m55588p", Pattern::Triplets258, 3, 8),
        ("11334466m557799p", Pattern::SevenPairs, 2, 4),
        ("11334466778899m", Pattern::FlushSevenPairs, 4, 16),
        ("11222244m557788p", Pattern::DragonSevenPairs, 4, 16),
        ("11224444557799m", Pattern::FlushDragonSevenPairs, 5, 32),
        ("111222333m78999p", Pattern::Terminals, 2, 4),
        ("11123777888999m", Pattern::FlushTerminals, 4, 16),
    ];
    for (hand, pattern, fan, multiplier) in table {
        let s = on_discard(hand, &xuezhan);
        assert_eq!(
            (s.pattern, s.fan, s.points),
            (pattern, fan, multiplier),
            "{hand}"
        );
        assert_eq!(bonus_list(&s), [], "{hand}");
    }
    // 带根: 123333m45566799s is basic with one root, +1 fan.
    let s = on_discard("123333m45566799s", &xuezhan);
    assert_eq!((s.pattern, s.fan, s.points), (Pattern::Basic, 1, 2));
    assert_eq!(bonus_list(&s), [(Bonus::Root, 1, 1)]);
}

#[test]
fn seed_001_flush_pong_is_ten_fan_in_sanxia() {
    // 清一色碰碰胡（10翻 底金×10）.
    let s = on_discard("11133344555666m", &rules("sanxia"));
    assert_eq!(
        (s.pattern, s.fan, s.points),
        (Pattern::FlushTriplets, 10, 10)
    );
    // 带漂: 清碰 12.
    assert_eq!(on_discard("11133344555666m", &rules("sanxia_piao")).fan, 12);
}

#[test]
fn dragon_seven_pairs_take_one_root() {
    let chengdu = rules("chengdu");
    // One four: it is the dragon, no root left. 5 fan → 6 × 2^4 = 96.
    let s = on_discard("11222244m557788p", &chengdu);
    assert_eq!(
        (s.pattern, s.fan, s.points),
        (Pattern::DragonSevenPairs, 5, 96)
    );
    assert_eq!(bonus_list(&s), []);
    // Two fours: one is the dragon, the other a root: 5 + 1.
    let s = on_discard("11112222m557788p", &chengdu);
    assert_eq!((s.pattern, s.fan), (Pattern::DragonSevenPairs, 6));
    assert_eq!(bonus_list(&s), [(Bonus::Root, 1, 1)]);
    // Plain seven pairs keep every root: none here.
    let s = on_discard("11334466m557799p", &chengdu);
    assert_eq!((s.pattern, s.fan), (Pattern::SevenPairs, 3));
}

#[test]
fn the_split_worth_most_counts() {
    // 11223344556677m is 123 123 456 456 77 (清一色, 3) and seven pairs (清七对, 5).
    let s = on_discard("11223344556677m", &rules("chengdu"));
    assert_eq!((s.pattern, s.fan), (Pattern::FlushSevenPairs, 5));
    // Without seven pairs only the flush is left.
    let mut no_sevens = rules("chengdu");
    no_sevens.allow_seven_pairs = false;
    assert_eq!(
        on_discard("11223344556677m", &no_sevens).pattern,
        Pattern::FullFlush
    );
    // 11123777888999m: 11 123 789 789 789 (清幺九) beats 111 23.. / 777 888 999 splits.
    assert_eq!(
        on_discard("11123777888999m", &rules("chengdu")).pattern,
        Pattern::FlushTerminals
    );
}

#[test]
fn a_null_pattern_falls_back_to_the_next_highest() {
    // dashiyou has no terminals: 111222333m78999p is scored as the concealed hand it is (门清
    // 4, linear); 11 123 123 789m with a pong of 9p as basic (3).
    let s = on_discard("111222333m78999p", &rules("dashiyou"));
    assert_eq!((s.pattern, s.fan, s.points), (Pattern::Concealed, 4, 4));
    let s = win(
        "11112233789m",
        &[meld("999p")],
        &rules("dashiyou"),
        Situation::DISCARD,
    );
    assert_eq!((s.pattern, s.fan, s.points), (Pattern::Basic, 3, 3));
    assert_eq!(
        win(
            "11112233789m",
            &[meld("999p")],
            &rules("chengdu"),
            Situation::DISCARD
        )
        .pattern,
        Pattern::Terminals
    );
    // …and no seven pairs at all.
    let e = score(
        &counts("11334466m557799p"),
        tile("9p"),
        &[],
        None,
        &rules("dashiyou"),
        &Situation::DISCARD,
    );
    assert!(matches!(e, Err(ScoreError::NotAWin { .. })));
}

#[test]
fn worked_arithmetic_of_section_10() {
    // sanxia 杠开: basic after a 直杠 = 1 + 1 = 2 fan (seed 001 §六.5).
    let kong_flower = Situation {
        self_draw: true,
        kong_flower: true,
        ..Situation::DISCARD
    };
    let s = win(
        "23445677m345p",
        &[meld("9999p")],
        &rules("sanxia"),
        kong_flower,
    );
    assert_eq!((s.fan, s.points), (2, 2));
    assert_eq!(bonus_list(&s), [(Bonus::ExposedKong, 1, 1)]);
    // xuezhan: basic, 暗杠 then 杠上花 = 0 + 2 + 1 = 3 fan, ×8 (seed 004: 下雨杠开 3番).
    let melds = [concealed_kong("9999p")];
    let s = win("23445677m345p", &melds, &rules("xuezhan"), kong_flower);
    assert_eq!((s.fan, s.points), (3, 8));
    assert_eq!(
        bonus_list(&s),
        [(Bonus::ConcealedKong, 1, 2), (Bonus::KongFlower, 1, 1)]
    );
    // 刮风杠开 2番: an exposed kong then 杠上花.
    let s = win(
        "23445677m345p",
        &[meld("9999p")],
        &rules("xuezhan"),
        kong_flower,
    );
    assert_eq!((s.fan, s.points), (2, 4));
}

#[test]
fn dashiyou_kong_fan_wins_and_loses() {
    // RULES §9: A wins basic holding one 明杠: 3 + 1 = 4 fan. B, holding a 暗杠, pays
    // (4 + 2) × base; C pays 4 × base.
    let dashiyou = rules("dashiyou");
    let s = win(
        "23445677m345p",
        &[meld("9999p")],
        &dashiyou,
        Situation::DISCARD,
    );
    assert_eq!((s.pattern, s.fan, s.points), (Pattern::Basic, 4, 4));
    assert_eq!(s.payment(0, 1), 6);
    assert_eq!(s.payment(0, 0), 4);
    assert_eq!(s.payment(1, 0), 5);
    // win_only ignores the payer's kongs.
    let s = win(
        "23445677m345p",
        &[meld("9999p")],
        &rules("xuezhan"),
        Situation::DISCARD,
    );
    assert_eq!(s.payment(0, 2), s.points);
}

#[test]
fn concealed_needs_no_claimed_meld() {
    let dashiyou = rules("dashiyou");
    // No pong or exposed kong: 门清 4, not basic 3, self-drawn or on a discard.
    let s = win("23445677m345789p", &[], &dashiyou, Situation::SELF_DRAW);
    assert_eq!((s.pattern, s.fan), (Pattern::Concealed, 4));
    assert_eq!(
        on_discard("23445677m345789p", &dashiyou).pattern,
        Pattern::Concealed
    );
    // A concealed kong keeps it concealed: 4 + 2.
    let s = win(
        "23445677m345p",
        &[concealed_kong("9999p")],
        &dashiyou,
        Situation::DISCARD,
    );
    assert_eq!((s.pattern, s.fan), (Pattern::Concealed, 6));
    // A pong or an exposed kong took another player's tile: basic.
    let s = win(
        "23445677m789p",
        &[meld("333p")],
        &dashiyou,
        Situation::SELF_DRAW,
    );
    assert_eq!(s.pattern, Pattern::Basic);
    let s = win(
        "23445677m345p",
        &[meld("9999p")],
        &dashiyou,
        Situation::SELF_DRAW,
    );
    assert_eq!((s.pattern, s.fan), (Pattern::Basic, 4));
    // It never adds to a higher pattern: concealed all triplets is 6 (seed 000's 碰碰胡).
    let s = win("111333444m66677p", &[], &dashiyou, Situation::SELF_DRAW);
    assert_eq!((s.pattern, s.fan), (Pattern::AllTriplets, 6));
}

#[test]
fn each_split_counts_only_its_highest_pattern() {
    // Seven pairs have basic too: a room that allows them without pricing them scores basic.
    let mut r = rules("xuezhan");
    for p in [
        Pattern::SevenPairs,
        Pattern::DragonSevenPairs,
        Pattern::FlushSevenPairs,
        Pattern::FlushDragonSevenPairs,
    ] {
        r.fan.set(p, None);
    }
    let s = on_discard("11334466m557799p", &r);
    assert_eq!((s.pattern, s.fan), (Pattern::Basic, 0));
    // Within seven pairs the dragon (the highest) counts even where the plain pattern with its
    // root would be worth more: gen_fan 3, dragon 4 + 0 roots vs seven pairs 2 + 3.
    let mut r = rules("xuezhan");
    r.gen_fan = 3;
    let s = on_discard("11222244m557788p", &r);
    assert_eq!((s.pattern, s.fan), (Pattern::DragonSevenPairs, 4));
    // Between patterns of equal fan in one split, the one worth more: without 清龙七对, the
    // flush dragon hand counts 清七对 4 and keeps its root, not 龙七对 4 without it.
    let mut r = rules("xuezhan");
    r.fan.set(Pattern::FlushDragonSevenPairs, None);
    let s = on_discard("11224444557799m", &r);
    assert_eq!((s.pattern, s.fan), (Pattern::FlushSevenPairs, 5));
}

#[test]
fn bonuses_stack_and_the_cap_limits() {
    // chengdu: 清一色 3 + root 1 + 明杠 1 + 杠上花 1 = 6 fan → 6 × 2^5 = 192.
    let kong_flower = Situation {
        self_draw: true,
        kong_flower: true,
        ..Situation::DISCARD
    };
    let chengdu = rules("chengdu");
    let s = win("11112345677m", &[meld("9999m")], &chengdu, kong_flower);
    assert_eq!(
        (s.pattern, s.pattern_fan, s.fan, s.points),
        (Pattern::FullFlush, 3, 6, 192)
    );
    assert_eq!(
        bonus_list(&s),
        [
            (Bonus::Root, 1, 1),
            (Bonus::ExposedKong, 1, 1),
            (Bonus::KongFlower, 1, 1)
        ]
    );
    let mut capped = chengdu;
    capped.cap_fan = Some(4);
    let s = win("11112345677m", &[meld("9999m")], &capped, kong_flower);
    assert_eq!((s.fan, s.capped_fan, s.multiplier, s.points), (6, 4, 8, 48));
}

#[test]
fn yaoji_adds_no_wild_and_stacks_heavenly_under_its_cap() {
    let yaoji = rules("yaoji");
    // xuezhan basic 0 + 无鸡加番 1 = 1 fan, ×2.
    let s = on_discard("23445677m345789p", &yaoji);
    assert_eq!((s.fan, s.points), (1, 2));
    assert_eq!(bonus_list(&s), [(Bonus::NoWild, 1, 1)]);
    // 天胡 adds 5 to the hand's own pattern: 清一色 2 + 5 + 1 = 8, capped at 5 → ×32.
    let heavenly = Situation {
        heavenly: true,
        ..Situation::DISCARD
    };
    let s = win("11223345678999m", &[], &yaoji, heavenly);
    assert_eq!(
        (s.pattern, s.fan, s.capped_fan, s.points),
        (Pattern::FullFlush, 8, 5, 32)
    );
    // In xuezhan 天胡 replaces the pattern: 5 fan whatever the hand.
    let s = win("11223345678999m", &[], &rules("xuezhan"), heavenly);
    assert_eq!((s.pattern, s.fan), (Pattern::Heavenly, 5));
    // Under wilds a 1s is counted as a wild, never written among the natural tiles.
    let e = score(
        &counts("23445677m345p111s"),
        tile("1s"),
        &[],
        None,
        &yaoji,
        &Situation::DISCARD,
    );
    assert!(matches!(e, Err(ScoreError::Wilds(why)) if why.contains("count its wilds")));
}

/// `hand` (natural tiles, winning tile included) plus `wilds` wilds, winning on `win_tile`.
fn wild_win(hand: &str, wilds: u8, win_tile: &str, melds: &[Meld], s: Situation) -> Score {
    let hand = counts(hand).with_wilds(wilds).unwrap();
    score(&hand, tile(win_tile), melds, None, &rules("yaoji"), &s).unwrap()
}

#[test]
fn a_wild_hand_scores_its_best_split_without_no_wild() {
    // 234m 456m 77m 345p 78p + a wild as 6p or 9p: basic 0, and the wild in hand forfeits
    // 无鸡加番: 0 fan, ×1.
    let s = wild_win("23445677m34578p", 1, "8p", &[], Situation::DISCARD);
    assert_eq!((s.pattern, s.fan, s.points), (Pattern::Basic, 0, 1));
    assert!(bonus_list(&s).is_empty());
    // 111 234 567 89+W(7) 99m: one suit, so 清一色 2 fan ×4, the wild standing for 7m.
    let s = wild_win("1112345678999m", 1, "9m", &[], Situation::DISCARD);
    assert_eq!((s.pattern, s.fan, s.points), (Pattern::FullFlush, 2, 4));
    // Winning on a drawn wild: the winning tile is the wild, 1s.
    let drawn = wild_win("23445677m34578p", 1, "1s", &[], Situation::SELF_DRAW);
    assert_eq!((drawn.pattern, drawn.fan), (Pattern::Basic, 0));
    let e = score(
        &counts("23445677m345789p"),
        tile("1s"),
        &[],
        None,
        &rules("yaoji"),
        &Situation::SELF_DRAW,
    );
    assert_eq!(e, Err(ScoreError::WinTileNotInHand { tile: tile("1s") }));
}

#[test]
fn roots_are_four_natural_copies_and_wild_kongs_are_kongs() {
    // 5555m natural and a wild as the fifth 5m (555m + 55m): one root, 1 fan.
    let s = wild_win("5555m123p456p789p", 1, "9p", &[], Situation::DISCARD);
    assert_eq!(bonus_list(&s), [(Bonus::Root, 1, 1)]);
    // 555m and two wilds make no root: only natural copies count.
    let s = wild_win("555m123p456p789p", 2, "9p", &[], Situation::DISCARD);
    assert!(bonus_list(&s).is_empty());
    // A pong of 5m holding a wild (two natural 5m) and 55m in hand: four natural 5m, a root;
    // no wild in the concealed hand, so 无鸡加番 too (the pong's wild does not count).
    let pong = meld("55m1s");
    let s = wild_win("55m123p456p789p", 0, "9p", &[pong], Situation::DISCARD);
    assert_eq!(bonus_list(&s), [(Bonus::Root, 1, 1), (Bonus::NoWild, 1, 1)]);
    // With 5m alone in hand the pong and hand hold three natural 5m: no root.
    let s = wild_win("5m123p456p789p", 1, "9p", &[pong], Situation::DISCARD);
    assert!(bonus_list(&s).is_empty());
    // A kong holding wilds scores as a kong: 暗杠 2 + 无鸡 1 = 3 fan, ×8.
    let kong = concealed_kong("5m111s");
    let s = wild_win("55p123p456p789p", 0, "9p", &[kong], Situation::DISCARD);
    assert_eq!(
        bonus_list(&s),
        [(Bonus::ConcealedKong, 1, 2), (Bonus::NoWild, 1, 1)]
    );
    assert_eq!(s.points, 8);
}

#[test]
fn gen_counts_kongs_counts_only_kongs_of_four_natural_copies() {
    // docs/game-protocol.md §11: a four made with a wild is never a 根, a kong included.
    let mut r = rules("yaoji");
    r.gen_counts_kongs = true;
    let hand = counts("55p123p456p789p");
    let on_kong = |kong: &str| {
        let melds = [concealed_kong(kong)];
        score(&hand, tile("9p"), &melds, None, &r, &Situation::DISCARD).unwrap()
    };
    let wild = on_kong("555m1s");
    assert_eq!(
        bonus_list(&wild),
        [(Bonus::ConcealedKong, 1, 2), (Bonus::NoWild, 1, 1)]
    );
    assert_eq!(
        bonus_list(&on_kong("5555m")),
        [
            (Bonus::Root, 1, 1),
            (Bonus::ConcealedKong, 1, 2),
            (Bonus::NoWild, 1, 1)
        ]
    );
    // A root-only late kong is one 根 wilds or not (§11), counted once with gen_counts_kongs.
    let late = wild.with_root_only_kongs(&r, 0, 1, 0);
    assert_eq!(
        bonus_list(&late),
        [(Bonus::Root, 1, 1), (Bonus::NoWild, 1, 1)]
    );
}

#[test]
fn four_wilds_win_at_the_cap_whatever_the_hand() {
    // Three suits and no shape: basic 0 + four_wilds 5 (yaoji's cap) = 5 fan, ×32.
    let s = wild_win("1357m2468p35s", 4, "1s", &[], Situation::SELF_DRAW);
    assert_eq!((s.pattern, s.fan, s.capped_fan), (Pattern::Basic, 5, 5));
    assert_eq!(bonus_list(&s), [(Bonus::FourWilds, 1, 5)]);
    assert_eq!(s.points, 32);
    // Without a cap there is no maximum to win at.
    let mut no_cap = rules("yaoji");
    no_cap.cap_fan = None;
    let hand = counts("1357m2468p35s").with_wilds(4).unwrap();
    let e = score(&hand, tile("1s"), &[], None, &no_cap, &Situation::SELF_DRAW);
    assert!(matches!(e, Err(ScoreError::Wilds(why)) if why.contains("cap_fan")));
    // 查叫 of thirteen tiles holding the four: each wait is worth the same.
    let ready = counts("1357m2468p3s").with_wilds(4).unwrap();
    let waits = best_waits(&ready, &[], None, &rules("yaoji")).unwrap();
    assert!(
        !waits.is_empty()
            && waits
                .iter()
                .all(|(_, s)| s.points == 32 && s.pattern == Pattern::Basic)
    );
    let e = best_waits(&ready, &[], None, &no_cap);
    assert!(matches!(e, Err(ScoreError::Wilds(why)) if why.contains("cap_fan")));
}

#[test]
fn wilds_outside_the_variant_and_melds_of_1s_are_errors() {
    let hand = counts("23445677m34578p").with_wilds(1).unwrap();
    let e = score(
        &hand,
        tile("8p"),
        &[],
        None,
        &rules("xuezhan"),
        &Situation::DISCARD,
    );
    assert!(matches!(e, Err(ScoreError::Wilds(why)) if why.contains("wilds = false")));
    let e = score(
        &counts("23445677m345p"),
        tile("7m"),
        &[meld("111s")],
        None,
        &rules("yaoji"),
        &Situation::DISCARD,
    );
    assert!(matches!(e, Err(ScoreError::Wilds(why)) if why.contains("meld of 1s")));
}

#[test]
fn best_waits_with_wilds_list_natural_tiles_never_1s() {
    let yaoji = rules("yaoji");
    // 123m 456m 789m 555p + a wild: 555p + the wild paired with any m or p tile; 5p makes
    // 5555p natural, a root. Bamboo would be a third suit.
    let hand = counts("123m456m789m555p").with_wilds(1).unwrap();
    let waits = best_waits(&hand, &[], None, &yaoji).unwrap();
    let fans: Vec<(String, u32)> = waits.iter().map(|(t, s)| (t.to_string(), s.fan)).collect();
    let mut expected: Vec<(String, u32)> = Vec::new();
    for suit in ["m", "p"] {
        for r in 1..=9 {
            let root = u32::from(suit == "p" && r == 5);
            expected.push((format!("{r}{suit}"), root));
        }
    }
    assert_eq!(fans, expected);
    // 23s waits on 1s and 4s; under wilds a 1s is a wild, so only 4s is listed.
    let hand = counts("123m456m789m23s55m").with_wilds(0).unwrap();
    let waits = best_waits(&hand, &[], None, &yaoji).unwrap();
    let tiles: Vec<String> = waits.iter().map(|(t, _)| t.to_string()).collect();
    assert_eq!(tiles, ["4s"]);
    // Only a wild, as a fifth 5m, completes 5555m123p456p789p: not ready.
    let hand = counts("5555m123p456p789p");
    assert!(best_waits(&hand, &[], None, &yaoji).unwrap().is_empty());
}

#[test]
fn robbing_a_kong_as_basic_keeps_roots_and_kongs() {
    let robbed = Situation {
        robbed_kong: true,
        ..Situation::DISCARD
    };
    // The robbed 4m completes 234m; the kong owner holds the other three.
    // sanxia 抢杠 算做一般的点炮，基本胡型: a full flush scores basic 1 + its 明杠 1.
    let s = win("1112356788m4m", &[meld("9999m")], &rules("sanxia"), robbed);
    assert_eq!((s.pattern, s.fan), (Pattern::Basic, 2));
    // chengdu scores it normally, +1 for 抢杠: 清一色 3 + 明杠 1 + 抢杠 1.
    let s = win("1112356788m4m", &[meld("9999m")], &rules("chengdu"), robbed);
    assert_eq!((s.pattern, s.fan), (Pattern::FullFlush, 5));
}

#[test]
fn self_draw_bonus_options() {
    let mut r = rules("xuezhan");
    r.self_draw_bonus = SelfDrawBonus::AddFan;
    let s = win("23445677m345789p", &[], &r, Situation::SELF_DRAW);
    assert_eq!((s.fan, s.points), (1, 2));
    r.self_draw_bonus = SelfDrawBonus::AddBase;
    r.base_points = 5;
    let s = win("23445677m345789p", &[], &r, Situation::SELF_DRAW);
    assert_eq!((s.fan, s.extra_points, s.points), (0, 5, 10));
    assert_eq!(on_discard("23445677m345789p", &r).points, 5);
}

#[test]
fn gen_counts_kongs_and_room_patterns() {
    let mut r = rules("xuezhan");
    r.gen_counts_kongs = true;
    // basic 0 + 明杠 1 + the kong as a root 1.
    let s = win("23445677m345p", &[meld("9999p")], &r, Situation::DISCARD);
    assert_eq!(s.fan, 2);
    r.fan
        .set_named("golden_hook", crate::rules::Value::Int(4))
        .unwrap();
    let melds = [meld("111m"), meld("999m"), meld("555p"), meld("777p")];
    let s = win("88p", &melds, &r, Situation::DISCARD);
    assert_eq!((s.pattern, s.fan), (Pattern::GoldenHook, 4));
}

#[test]
fn bad_wins_are_errors_that_say_why() {
    let chengdu = rules("chengdu");
    let err = |hand: &str, t: &str, melds: &[Meld], void, s: Situation| {
        score(&counts(hand), tile(t), melds, void, &chengdu, &s)
            .unwrap_err()
            .to_string()
    };
    let d = Situation::DISCARD;
    assert_eq!(
        err("23445677m345789p", "7m", &[], Some(Suit::P), d),
        "23445677m345789p does not win under these rules: it holds its void suit (定缺)"
    );
    assert!(err("123m456p789s11m456p", "1m", &[], None, d).contains("three suits"));
    assert!(err("23445677m345788p", "8p", &[], None, d).contains("not four sets and a pair"));
    assert_eq!(
        err("23445677m345789p", "9s", &[], None, d),
        "the winning tile 9s is not in the hand"
    );
    assert!(err("2344567m345789p", "7m", &[], None, d).contains("14 tiles"));
    let both = Situation {
        self_draw: true,
        kong_shot: true,
        ..d
    };
    assert!(err("23445677m345789p", "7m", &[], None, both).contains("cannot be kong_shot"));
    let flower = Situation {
        kong_flower: true,
        ..d
    };
    assert!(err("23445677m345789p", "7m", &[], None, flower).contains("pass self_draw too"));
    let flower = Situation {
        self_draw: true,
        ..flower
    };
    assert!(err("23445677m345789p", "7m", &[], None, flower).contains("need a kong"));
    let heavenly = Situation {
        heavenly: true,
        ..d
    };
    assert!(err("23445677m345p", "7m", &[meld("999p")], None, heavenly).contains("before any"));
}

#[test]
fn best_waits_value_each_wait_for_ready_check() {
    // Nine gates, chengdu: 1m and 9m give 111 123 456 789 99 (清一色 3 + a root 1); 2m–8m
    // give 清一色 alone.
    let waits = best_waits(&counts("1112345678999m"), &[], None, &rules("chengdu")).unwrap();
    let fans: Vec<(String, u32)> = waits.iter().map(|(t, s)| (t.to_string(), s.fan)).collect();
    let expected: Vec<(String, u32)> = (1..=9)
        .map(|r| (format!("{r}m"), if r == 1 || r == 9 { 4 } else { 3 }))
        .collect();
    assert_eq!(fans, expected);
    // Seed 001's ready hand waits on 1p and 4p, basic either way.
    let waits = best_waits(&counts("12334577m23345p"), &[], None, &rules("sanxia")).unwrap();
    let values: Vec<(String, u64)> = waits
        .iter()
        .map(|(t, s)| (t.to_string(), s.points))
        .collect();
    assert_eq!(values, [("1p".to_owned(), 1), ("4p".to_owned(), 1)]);
}

#[test]
fn best_waits_count_own_kongs_and_no_situational_bonus() {
    // xuezhan: 暗杠 2 + basic 0; yaoji's 无鸡加番 is situational here and left out.
    let melds = [concealed_kong("9999p")];
    for name in ["xuezhan", "yaoji"] {
        let waits = best_waits(&counts("2344567m345p"), &melds, None, &rules(name)).unwrap();
        let fans: Vec<u32> = waits.iter().map(|(_, s)| s.fan).collect();
        assert_eq!(fans, [2, 2, 2], "{name}");
    }
    // dashiyou values a wait as self-drawn: a concealed hand is 门清.
    let waits = best_waits(&counts("2344567m345789p"), &[], None, &rules("dashiyou")).unwrap();
    assert!(waits.iter().all(|(_, s)| s.pattern == Pattern::Concealed));
    // Not ready: no waits.
    let none = best_waits(&counts("1357m2468p13579s"), &[], None, &rules("xuezhan")).unwrap();
    assert!(none.is_empty());
}

#[test]
fn display_is_a_checkable_breakdown() {
    let kong_flower = Situation {
        self_draw: true,
        kong_flower: true,
        ..Situation::DISCARD
    };
    let mut r = rules("chengdu");
    r.cap_fan = Some(4);
    let s = win("11112345677m", &[meld("9999m")], &r, kong_flower);
    assert_eq!(
        s.to_string(),
        "full_flush                3 fan  清一色\n\
         root                      1 fan  根\n\
         exposed_kong              1 fan  明杠\n\
         kong_flower               1 fan  杠上花\n\
         total                     6 fan\n\
         capped                    4 fan  封顶\n\
         points per payer        6 × 2^(4−1) = 48"
    );
}

#[test]
fn late_kongs_can_score_as_roots() {
    // xuezhan basic 0 + 暗杠 2 = 2; as a root-only late kong: 0 + a root 1 = 1.
    let xuezhan = rules("xuezhan");
    let s = win(
        "23445677m345p",
        &[concealed_kong("9999p")],
        &xuezhan,
        Situation::DISCARD,
    );
    let late = s.with_root_only_kongs(&xuezhan, 0, 1, 1);
    assert_eq!((s.fan, late.fan), (2, 1));
    assert_eq!(bonus_list(&late), [(Bonus::Root, 1, 1)]);
    assert_eq!(late.points, 2);
    // With gen_counts_kongs the kong is a root already: only its kong fan goes.
    let mut counting = xuezhan;
    counting.gen_counts_kongs = true;
    let s = win(
        "23445677m345p",
        &[meld("9999p")],
        &counting,
        Situation::DISCARD,
    );
    let late = s.with_root_only_kongs(&counting, 1, 0, 1);
    assert_eq!((s.fan, late.fan), (2, 1));
    assert_eq!(bonus_list(&late), [(Bonus::Root, 1, 1)]);
}

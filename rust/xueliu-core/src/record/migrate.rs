//! What an older snapshot or log leaves out, and what it meant: the one home of the formats'
//! history (issue 29). A field added to the written form after its first version reads, when
//! absent, as the engine played before the field existed; each such default is listed here with
//! the test that holds it.
//!
//! Computed defaults live in this module:
//! - a snapshot without `history` (the public record): [`history`].
//!
//! Defaults that are a field's empty value are read by serde where the field is declared, and
//! tested here:
//! - a snapshot without `leaver`: no seat left (record/snapshot.rs);
//! - a seat without `declined` (过胡): no win declined since its last draw (game/state.rs);
//! - a meld without `wilds`: none (meld.rs);
//! - a win without `feeder` (点杠花): no kong fed it (game/mod.rs);
//! - a kong without `chained` (`kong_income_transfer = "kong_chain"`): not chained (game/mod.rs);
//! - a `start` event without `dealer_given`: the dealer was drawn, not named (game/events.rs);
//! - a rules dict without a group of later options: the values that played as the engine did
//!   before them, `Rules::LATER_KEYS`, applied by `Rules::from_values` (rules/fields.rs, the
//!   rules' own table).
//! - a match log or snapshot without `placement` or `time_called` (written before sessions):
//!   placement points 4-3-2-1, time not called (record/match_log.rs).
//!
//! And a snapshot that leaves a field out is verified without it: the replay's field is not
//! compared (record/verify.rs).

use crate::game::{ExchangeRecord, Exchanged, History};
use crate::tile::Tile;

/// The public record of a snapshot written before `history` existed: the discards still on the
/// table, no deductions (no latest discard, no draws counted), and the exchange the snapshot
/// kept at its top level.
pub fn history(river: &[(u8, Tile)], exchange: Option<ExchangeRecord>) -> History {
    let mut h = History::default();
    for &(seat, t) in river {
        let n = &mut h.discarded[seat as usize & 3][t.index()];
        *n = n.saturating_add(1);
    }
    h.exchange = exchange.map(|x| Exchanged {
        direction: x.direction,
        given: x.given,
    });
    h
}

#[cfg(test)]
mod tests {
    use crate::game::{ActionList, Event, Game, Phase};
    use crate::rng::Rng;
    use crate::rules::{Preset, Rules};
    use serde_json::Value;
    use std::sync::Arc;

    /// A logged hand of `preset` played at random to the end, from the first seed whose end
    /// `wanted` accepts.
    fn hand(rules: Rules, wanted: impl Fn(&Value) -> bool) -> (Game, Value) {
        let rules = Arc::new(rules);
        for seed in 0..200 {
            let mut game = Game::new(rules.clone(), seed, true).unwrap();
            let (mut rng, mut buf) = (Rng::new(seed), ActionList::new());
            while game.step_random(&mut rng, &mut buf) {}
            let snapshot: Value = serde_json::from_str(&game.to_json()).unwrap();
            if wanted(&snapshot) {
                return (game, snapshot);
            }
        }
        panic!("no hand of 200 has what the test needs");
    }

    /// `snapshot` without the field at `pointer`'s end, read back (verified) and written again.
    fn without(snapshot: &Value, pointer: &str) -> Value {
        let mut old = snapshot.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let removed = old
            .pointer_mut(parent)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .remove(key);
        assert!(removed.is_some(), "{pointer} is written today");
        let game = Game::from_json(&old.to_string()).unwrap();
        serde_json::from_str(&game.to_json()).unwrap()
    }

    #[test]
    fn a_snapshot_without_history_has_the_discards_on_the_table_and_no_deductions() {
        let (game, snapshot) = hand(Preset::Xuezhan.rules(), |s| {
            s["river"].as_array().is_some_and(|r| r.len() > 8)
        });
        let mut old = snapshot.clone();
        old.as_object_mut().unwrap().remove("history");
        // Trusted: a verified restore returns the replay, which keeps the full record.
        let read = Game::from_json_trusted(&old.to_string()).unwrap();
        let h = read.history();
        let expected = super::history(game.river(), game.exchanged());
        assert_eq!(*h, expected);
        for seat in 0..4u8 {
            assert_eq!(&h.discarded[seat as usize], game.river_counts_of(seat));
        }
        assert_eq!(h.last_discard, [None; 4]);
        assert_eq!(h.drawn_since_discard, [0; 4]);
        assert!(h.exchange.is_some());
        assert_eq!(h.exchange, game.history().exchange);
        assert_ne!(
            game.history().last_discard,
            [None; 4],
            "today's record has more"
        );
    }

    #[test]
    fn a_snapshot_without_leaver_has_no_leaver() {
        let (_, snapshot) = hand(Preset::Chengdu.rules(), |_| true);
        assert_eq!(without(&snapshot, "/leaver")["leaver"], Value::Null);
    }

    #[test]
    fn a_seat_without_declined_has_declined_no_win() {
        let (_, snapshot) = hand(Preset::Chengdu.rules(), |_| true);
        let read = without(&snapshot, "/seats/1/declined");
        assert_eq!(read["seats"][1]["declined"], Value::Null);
    }

    #[test]
    fn a_meld_without_wilds_holds_none() {
        let has_meld = |s: &Value| {
            s["seats"][0]["melds"]
                .as_array()
                .is_some_and(|m| !m.is_empty())
        };
        let (_, snapshot) = hand(Preset::Chengdu.rules(), has_meld);
        let read = without(&snapshot, "/seats/0/melds/0/wilds");
        assert_eq!(read["seats"][0]["melds"][0]["wilds"], 0);
    }

    #[test]
    fn a_win_without_feeder_was_fed_by_no_kong() {
        let (_, snapshot) = hand(Preset::Chengdu.rules(), |s| s["wins"][0].is_object());
        assert_eq!(
            without(&snapshot, "/wins/0/feeder")["wins"][0]["feeder"],
            Value::Null
        );
    }

    #[test]
    fn a_kong_without_chained_is_not_chained() {
        let mut rules = Preset::Chengdu.rules();
        rules
            .set(
                "kong_income_transfer",
                crate::rules::Value::Text("kong_chain".into()),
            )
            .unwrap();
        let chained = |s: &Value| {
            s["kongs"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k["chained"] == true))
        };
        let (_, snapshot) = hand(rules, chained);
        let i = (snapshot["kongs"].as_array().unwrap().iter())
            .position(|k| k["chained"] == true)
            .unwrap();
        let mut old = snapshot.clone();
        old["kongs"][i].as_object_mut().unwrap().remove("chained");
        let game = Game::from_json_trusted(&old.to_string()).unwrap();
        assert!(!game.kongs()[i].chained);
        assert!(Game::from_json(&snapshot.to_string()).unwrap().kongs()[i].chained);
    }

    #[test]
    fn a_start_without_dealer_given_drew_its_dealer() {
        let (game, _) = hand(Preset::Chengdu.rules(), |_| true);
        let log = game.events_json(None);
        assert!(!log.contains("dealer_given"), "written only when true");
        let read = Game::from_events(&log).unwrap();
        assert!(matches!(
            read.events().next(),
            Some(Event::Start { given: false, .. })
        ));
        assert_eq!(read.phase(), Phase::Over);
    }

    #[test]
    fn rules_without_a_later_group_play_as_before_it() {
        let mut rules = Preset::Chengdu.rules();
        rules.wall_break_dice = 2;
        let (_, snapshot) = hand(rules, |_| true);
        let mut old = snapshot.clone();
        old["rules"]
            .as_object_mut()
            .unwrap()
            .remove("wall_break_dice");
        let game = Game::from_json_trusted(&old.to_string()).unwrap();
        assert_eq!(game.rules().wall_break_dice, 1);
        assert_eq!(
            Game::from_json(&snapshot.to_string())
                .unwrap()
                .rules()
                .wall_break_dice,
            2
        );
    }

    #[test]
    fn a_match_log_without_session_fields_plays_as_before_sessions() {
        let rules = Arc::new(Preset::MilSbr2025.rules());
        let mut m = crate::matches::Match::new(rules, 3, 2).unwrap();
        m = m.with_placement([9, 5, 2, 0]).unwrap();
        m.call_time();
        let mut log: Value = serde_json::from_str(&m.log_json()).unwrap();
        let read = crate::matches::Match::from_log(&log.to_string()).unwrap();
        assert_eq!((read.placement(), read.time_called()), ([9, 5, 2, 0], true));
        let fields = log.as_object_mut().unwrap();
        fields.remove("placement").unwrap();
        fields.remove("time_called").unwrap();
        let old = crate::matches::Match::from_log(&log.to_string()).unwrap();
        assert_eq!(old.placement(), crate::matches::PLACEMENT_POINTS);
        assert!(!old.time_called());
    }

    #[test]
    fn a_snapshot_without_a_field_is_verified_without_it() {
        let (_, snapshot) = hand(Preset::Chengdu.rules(), |_| true);
        let mut old = snapshot.clone();
        old.as_object_mut().unwrap().remove("history");
        old["seats"][2].as_object_mut().unwrap().remove("declined");
        assert!(Game::from_json(&old.to_string()).is_ok());
        old["seed"] = Value::from(old["seed"].as_u64().unwrap() + 1);
        assert!(
            Game::from_json(&old.to_string()).is_err(),
            "what it keeps is still compared"
        );
    }
}

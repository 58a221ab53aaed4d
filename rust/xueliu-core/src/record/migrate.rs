//! What an older snapshot or log leaves out, and what it meant: the one home of the formats'
//! history (issue 29). A field added to the written form after its first version reads, when
//! absent, as the engine played before the field existed. The types' serde reads today's form
//! only; each older form is brought to it here, its defaults written once, each with a test:
//!
//! - a snapshot without `leaver`: no seat left;
//! - a seat without `declined` (过胡): no win declined since its last draw;
//! - a meld (a seat's or a win's) without `wilds`: none;
//! - a win without `feeder` (点杠花): no kong fed it;
//! - a rules dict (a snapshot's, a `start` event's, a match's) without a later addition to the
//!   schema: the values that played before it, declared beside each option in `options!`
//!   (rules/fields.rs: `[since N: older]`) so that an option is spelled once;
//! - a match log or snapshot without `placement` or `time_called` (written before sessions):
//!   placement points 4-3-2-1, time not called;
//! - a snapshot without `history` (the public record): [`history`], computed from the typed
//!   river and exchange after the read.
//!
//! Today's snapshots are read strictly, with no pass over a JSON value: only a snapshot the
//! strict read refuses is parsed as a value, brought up to date (`snapshot`) and read again,
//! so restoring a current one costs what it did. Logs and match logs are values already.
//!
//! A snapshot that leaves a field out is verified without it: the replay writes today's form,
//! and only what the given snapshot has is compared (record/verify.rs).
//!
//! Not older forms, and so left to the types: fields written only when set (a kong's `chained`,
//! a `start` event's `dealer_given`, a win's `last_tile` and `owed`, a pong's `wilds`), whose
//! absence is today's form too; a log must keep omitting them to replay byte for byte.

use crate::game::{ExchangeRecord, Exchanged, History};
use crate::matches::PLACEMENT_POINTS;
use crate::rules::json::option_json;
use crate::rules::Rules;
use crate::tile::Tile;
use serde_json::{Map, Value};

/// A snapshot brought to today's form in place; false if it lacks nothing this module fills (or
/// is no snapshot: the strict read says what is wrong).
pub(super) fn snapshot(v: &mut Value) -> bool {
    let Some(s) = v.as_object_mut() else {
        return false;
    };
    let mut changed = absent(s, "leaver", Value::Null);
    changed |= s.get_mut("rules").is_some_and(rules);
    for seat in objects(s, "seats") {
        changed |= absent(seat, "declined", Value::Null);
        changed |= melds(seat);
    }
    for win in objects(s, "wins") {
        changed |= absent(win, "feeder", Value::Null);
        changed |= melds(win);
    }
    let events = s.get_mut("events").and_then(Value::as_array_mut);
    changed | events.is_some_and(|e| log(e))
}

/// An event log (its events as JSON values) brought to today's form in place; false if it
/// lacks nothing.
pub(super) fn log(events: &mut [Value]) -> bool {
    events.first_mut().is_some_and(start_event)
}

/// A match log or snapshot's header in today's form, in place.
pub(super) fn match_header(v: &mut Value) {
    let Some(fields) = v.as_object_mut() else {
        return;
    };
    absent(fields, "placement", PLACEMENT_POINTS.to_vec().into());
    absent(fields, "time_called", false.into());
    if let Some(r) = fields.get_mut("rules") {
        rules(r);
    }
}

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

/// A `start` event's rules in today's form, in place.
fn start_event(event: &mut Value) -> bool {
    let is_start = event.get("type").and_then(Value::as_str) == Some("start");
    is_start && event.get_mut("rules").is_some_and(rules)
}

/// A rules dict given each later addition to the schema it lacks whole, at the values it
/// played by (`Rules::OLDER`); one that names some options of an addition but not all is left
/// for the read to refuse.
fn rules(v: &mut Value) -> bool {
    let Some(map) = v.as_object_mut() else {
        return false;
    };
    let lacked = Rules::lacked_later(|key| map.contains_key(key));
    for &key in &lacked {
        map.insert(key.to_owned(), option_json(&Rules::OLDER, key));
    }
    !lacked.is_empty()
}

/// The melds of a seat or a win, each given its `wilds`.
fn melds(holder: &mut Map<String, Value>) -> bool {
    let mut changed = false;
    for meld in objects(holder, "melds") {
        changed |= absent(meld, "wilds", 0.into());
    }
    changed
}

/// The objects in the list `fields[key]`, if it is one.
fn objects<'a>(
    fields: &'a mut Map<String, Value>,
    key: &str,
) -> impl Iterator<Item = &'a mut Map<String, Value>> {
    let list = fields.get_mut(key).and_then(Value::as_array_mut);
    list.into_iter().flatten().filter_map(Value::as_object_mut)
}

/// Gives `fields` the value `older` for `key` if it has none; true if it had none.
fn absent(fields: &mut Map<String, Value>, key: &str, older: Value) -> bool {
    let lacks = !fields.contains_key(key);
    if lacks {
        fields.insert(key.to_owned(), older);
    }
    lacks
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
    fn an_event_log_without_a_later_group_replays_as_before_it() {
        let (game, _) = hand(Preset::Chengdu.rules(), |_| true);
        let mut log: Value = serde_json::from_str(&game.events_json(None)).unwrap();
        let rules = log[0]["rules"].as_object_mut().unwrap();
        assert_eq!(rules.remove("wall_break_dice"), Some(Value::from(1)));
        let old = log.to_string();
        let read = Game::from_events(&old).unwrap();
        assert_eq!(read.rules().wall_break_dice, 1);
        assert_eq!(read.log_len(), game.log_len());
        assert_eq!(Game::replayed_prefix(&old).unwrap(), game.log_len());
    }

    #[test]
    fn a_snapshot_without_every_later_field_reads_verified() {
        let has_meld_and_win = |s: &Value| {
            s["wins"][0]["melds"][0].is_object() && s["seats"][1]["melds"][0].is_object()
        };
        let (game, snapshot) = hand(Preset::Chengdu.rules(), has_meld_and_win);
        let mut old = snapshot.clone();
        let drop = |v: &mut Value, key: &str| v.as_object_mut().unwrap().remove(key).unwrap();
        for key in ["leaver", "history"] {
            drop(&mut old, key);
        }
        drop(&mut old["rules"], "wall_break_dice");
        drop(&mut old["events"][0]["rules"], "wall_break_dice");
        drop(&mut old["seats"][1], "declined");
        drop(&mut old["seats"][1]["melds"][0], "wilds");
        drop(&mut old["wins"][0], "feeder");
        drop(&mut old["wins"][0]["melds"][0], "wilds");
        let read = Game::from_json(&old.to_string()).unwrap();
        assert_eq!(read.to_json(), game.to_json());
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

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

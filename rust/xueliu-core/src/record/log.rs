//! Reading a full event log: the checks its order implies, beyond what serde reads per event.
//! A replay (`Game::from_events`) and a snapshot's log both read their events through it.

use crate::game::{EndKind, Event, Purpose, Rolls};
use crate::hand::wilded;

/// Checks the events of a full log read at `path` as its order implies, and counts its wins:
/// win events are numbered in order; under `wilds` a dealt `1s` is a wild, as in the hand, and
/// a meld names its wilds, which other rules do not have.
pub(super) fn events_from(events: &mut [Event], path: &str, wilds: bool) -> Result<usize, String> {
    let (mut wins, mut abandoned) = (0usize, false);
    for (i, e) in events.iter_mut().enumerate() {
        let at = |key: &str, why: &str| Err(format!("{path}[{i}].{key}: {why}"));
        match e {
            Event::Dice {
                purpose,
                seat,
                rolls,
            } => match (*purpose == Purpose::Dealer, rolls, seat) {
                (true, Rolls::One(_), _) => return at("rolls", "one list of rolls per seat"),
                (false, Rolls::Seats(_), _) => return at("rolls", "one die, e.g. [4]"),
                (true, Rolls::Two(_), _) => return at("rolls", "one list of rolls per seat"),
                (false, Rolls::Two(_), _) if *purpose != Purpose::Wall => {
                    return at("rolls", "one die, e.g. [4]")
                }
                (false, Rolls::One(_) | Rolls::Two(_), None) => {
                    return at("seat", "the seat that rolled")
                }
                _ => {}
            },
            Event::Deal { tiles, .. } => {
                *tiles = wilded(*tiles, &format!("{path}[{i}].tiles"), wilds)?;
            }
            Event::Win { index, .. } => {
                *index = wins.min(u16::MAX.into()) as u16;
                wins += 1;
            }
            Event::Pong { wilds: held, .. } | Event::Kong { wilds: held, .. } => {
                *held = wilds.then(|| held.unwrap_or(0));
            }
            Event::Abandon { .. } => abandoned = true,
            Event::End {
                reason: EndKind::Abandoned,
                ..
            } if !abandoned => return at("reason", "an abandoned hand follows an abandon event"),
            _ => {}
        }
    }
    Ok(wins)
}

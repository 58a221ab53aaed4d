//! Search over the tiles hidden from one seat (RULES.md §12): determinisation, which deals a
//! world consistent with everything the seat knows, and the winning-hand search it deals a
//! winner's hidden tiles with. Written against the seat's view ([`SeatView`](crate::game::SeatView)):
//! the world is installed through [`SeatView::world`](crate::game::SeatView::world), and the true
//! tiles are read only where a caller passes [`TrueHands`](crate::game::TrueHands).

mod determinize;
mod winning_hand;

#[cfg(test)]
mod tests;

pub use determinize::determinize;

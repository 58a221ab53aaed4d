//! What a learning agent needs from a game: a fixed table of action ids ([`ids`]), the mask of
//! the ids a seat may take ([`mask`]), exchange picks made one id at a time ([`picks`]), and one
//! seat's observation as planes of 27 bytes ([`observe()`]), or bit-packed ([`packed`]). docs/encoding.md is the
//! reference for the table and every channel.

pub mod ids;
pub mod mask;
pub mod observe;
pub mod packed;
pub mod picks;

pub use ids::{action_id, exchange_ids, id_name, meaning, pick_id, IdMeaning, ACTION_COUNT};
pub use mask::{legal_ids, IdSet};
pub use observe::{observe, observe_packed, RulePlanes, CHANNELS, LAYOUT, OBS_SIZE};
pub use packed::{unpack, PACKED_PLANES};
pub use picks::{act_id, Picks};

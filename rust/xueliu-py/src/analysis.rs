//! Hand analysis functions: `is_win`, `waits`, `shanten`, `decompositions`, `hand_facts`.

use crate::convert::HandArgs;
use crate::tiles::Tile;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xueliu_core::analysis::{
    self, Decomposition as CoreDecomposition, HandFacts as CoreFacts, HandSize, Set,
};
use xueliu_core::hand::Counts;
use xueliu_core::meld::Meld;
use xueliu_core::tile::Tile as CoreTile;

/// Declares an analysis function with the arguments they all share, `(hand, *, melds=None,
/// void=None, seven_pairs=True, wilds=0)`, read by [`HandArgs::read`] for a hand of `$size`.
macro_rules! analysis_fn {
    ($(#[$doc:meta])* fn $name:ident($size:expr) -> $ret:ty { |$args:ident| $body:expr }) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(
            signature = (hand, *, melds=None, void=None, seven_pairs=None, wilds=None),
            text_signature = "(hand, *, melds=None, void=None, seven_pairs=True, wilds=0)"
        )]
        pub fn $name(
            hand: &Bound<'_, PyAny>,
            melds: Option<&Bound<'_, PyAny>>,
            void: Option<&Bound<'_, PyAny>>,
            seven_pairs: Option<&Bound<'_, PyAny>>,
            wilds: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<$ret> {
            let $args = HandArgs::read(hand, melds, void, seven_pairs, wilds, $size)?;
            $body
        }
    };
}

analysis_fn! {
/// Whether `hand` is complete: sets and a pair (with `melds`), or seven pairs when `seven_pairs`;
/// at most two suits; no tile of the `void` suit. The hand has 14 tiles counting each meld as 3.
/// `wilds`: wilds (幺鸡) held besides `hand`, each standing for any tile (a fifth copy too), counted
/// in the 14 but for no suit; four wilds win whatever the rest.
fn is_win(HandSize::Complete) -> bool {
    |a| Ok(analysis::is_win(&a.counts, &a.ctx))
}
}

analysis_fn! {
/// The tiles that complete a 13-tile hand (counting each meld as 3 and each of the `wilds` wilds
/// as 1), in index order. A tile whose four copies are all in the hand and melds is left out. Only
/// natural tiles are listed; a drawn wild completes any hand that waits on something.
fn waits(HandSize::Waiting) -> Vec<Tile> {
    |a| Ok(tiles_of_mask(analysis::waits(&a.counts, &a.ctx)))
}
}

pub fn tiles_of_mask(mask: u32) -> Vec<Tile> {
    CoreTile::all()
        .filter(|t| mask >> t.index() & 1 == 1)
        .map(Tile)
        .collect()
}

analysis_fn! {
/// Tiles from ready: −1 complete, 0 ready. Exactly N − 1 − the most tiles the hand shares with any
/// complete hand the rules allow, where N is the concealed size of a complete hand (14 − 3 per
/// meld). `UNREACHABLE` (99) when the melds already rule out every complete hand. With `wilds`, the
/// wilds count as kept and may stand for copies beyond four; the complete hand is reached by
/// drawing natural tiles.
fn shanten(HandSize::Either) -> i8 {
    |a| Ok(analysis::shanten(&a.counts, &a.ctx))
}
}

/// One way a complete hand splits; with wilds, each wild stands for a tile of the groups.
#[pyclass(frozen, eq, hash, module = "xueliu")]
#[derive(PartialEq, Eq, Hash)]
pub struct Decomposition {
    /// `"standard"` or `"seven_pairs"`.
    #[pyo3(get)]
    kind: &'static str,
    /// The pair, then the concealed sets, then the melds, e.g. `("55m", "123m", "789p", "2222s")`.
    #[pyo3(get)]
    groups: Vec<String>,
    /// The pair of a standard split; None for seven pairs.
    #[pyo3(get)]
    pair: Option<Tile>,
    /// The tiles the wilds stand for, in index order; empty without wilds.
    #[pyo3(get)]
    wilds: Vec<Tile>,
}

#[pymethods]
impl Decomposition {
    fn __repr__(&self) -> String {
        let groups = self.groups.join(" ");
        if self.wilds.is_empty() {
            return format!("Decomposition({}: {groups})", self.kind);
        }
        let wilds: Vec<CoreTile> = self.wilds.iter().map(|t| t.0).collect();
        let wilds = xueliu_core::tile::format_tiles(&wilds);
        format!("Decomposition({}: {groups}; wilds as {wilds})", self.kind)
    }
}

fn group(tile: CoreTile, ranks: &[u8]) -> String {
    let mut text: String = ranks.iter().map(|&r| char::from(b'0' + r)).collect();
    text.push(tile.suit().letter());
    text
}

fn decomposition(split: CoreDecomposition, hand: &Counts, melds: &[Meld]) -> Decomposition {
    let wilds = split.wild_tiles(hand).into_iter().map(Tile).collect();
    let (kind, pair, mut concealed) = match split {
        CoreDecomposition::Standard { pair, sets } => {
            let mut groups = vec![(pair, group(pair, &[pair.rank(); 2]))];
            groups.extend(sets.into_iter().map(|set| match set {
                Set::Triplet(t) => (t, group(t, &[t.rank(); 3])),
                Set::Sequence(t) => (t, group(t, &[t.rank(), t.rank() + 1, t.rank() + 2])),
            }));
            ("standard", Some(Tile(pair)), groups)
        }
        CoreDecomposition::SevenPairs { pairs } => {
            let groups = pairs
                .into_iter()
                .map(|t| (t, group(t, &[t.rank(); 2])))
                .collect();
            ("seven_pairs", None, groups)
        }
    };
    concealed.sort_by(|a, b| (a.0, a.1.len(), &a.1).cmp(&(b.0, b.1.len(), &b.1)));
    let mut groups: Vec<String> = concealed.into_iter().map(|(_, g)| g).collect();
    groups.extend(melds.iter().map(Meld::to_string));
    Decomposition {
        kind,
        groups,
        pair,
        wilds,
    }
}

analysis_fn! {
/// Every way a complete hand splits into a pair and sets (melds included), or seven pairs.
/// Empty when the hand is not complete. With `wilds`, every split for every choice of the tiles
/// the wilds stand for (within the suits the natural tiles allow); four wilds win even with none.
fn decompositions(HandSize::Complete) -> Vec<Decomposition> {
    |a| Ok(analysis::decompositions(&a.counts, &a.ctx)
        .into_iter()
        .map(|d| decomposition(d, &a.counts, &a.melds))
        .collect())
}
}

/// What scoring reads from a complete hand; each flag says whether some split has the property.
#[pyclass(frozen, get_all, eq, module = "xueliu")]
#[derive(PartialEq, Eq)]
pub struct HandFacts {
    /// Splits into sets and a pair (with the melds).
    standard: bool,
    /// Seven pairs (concealed, every count even).
    seven_pairs: bool,
    /// A standard split of triplets only (对对胡).
    all_triplets: bool,
    /// A standard split where every set, meld and the pair holds a 1 or a 9 (带幺九).
    terminals: bool,
    /// One suit only, melds included (清一色).
    one_suit: bool,
    /// Every tile a 2, 5 or 8, melds included.
    only_258: bool,
    /// Kinds held four times across hand and pongs, kongs excluded (根).
    roots: u8,
    /// Kongs among the melds.
    kongs: u8,
}

#[pymethods]
impl HandFacts {
    /// The facts as a dict of plain values, by the names of the attributes.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("standard", self.standard)?;
        d.set_item("seven_pairs", self.seven_pairs)?;
        d.set_item("all_triplets", self.all_triplets)?;
        d.set_item("terminals", self.terminals)?;
        d.set_item("one_suit", self.one_suit)?;
        d.set_item("only_258", self.only_258)?;
        d.set_item("roots", self.roots)?;
        d.set_item("kongs", self.kongs)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "HandFacts(standard={}, seven_pairs={}, all_triplets={}, terminals={}, one_suit={}, only_258={}, roots={}, kongs={})",
            py_bool(self.standard),
            py_bool(self.seven_pairs),
            py_bool(self.all_triplets),
            py_bool(self.terminals),
            py_bool(self.one_suit),
            py_bool(self.only_258),
            self.roots,
            self.kongs
        )
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

analysis_fn! {
/// The pattern facts of a complete hand: the flags scoring reads. Raises for a hand that is not
/// complete. With `wilds`, a flag about splits holds when some split does, the wilds standing for
/// what it needs; `one_suit`, `only_258` and `roots` read natural tiles and melds only.
fn hand_facts(HandSize::Complete) -> HandFacts {
    |a| facts(&a.counts, &a.ctx)
}
}

fn facts(counts: &Counts, ctx: &xueliu_core::analysis::Context) -> PyResult<HandFacts> {
    if !analysis::is_win(counts, ctx) {
        return Err(crate::errors::InvalidHandError::new_err(format!(
            "{counts} is not a complete hand under these rules; hand_facts needs one (check is_win first)"
        )));
    }
    let CoreFacts {
        standard,
        seven_pairs,
        all_triplets,
        terminals,
        one_suit,
        only_258,
        roots,
        kongs,
    } = analysis::facts(counts, ctx);
    Ok(HandFacts {
        standard,
        seven_pairs,
        all_triplets,
        terminals,
        one_suit,
        only_258,
        roots,
        kongs,
    })
}

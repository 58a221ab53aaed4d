//! The plumbing of the JSON wire format (docs/game-protocol.md §9): serde with the separators
//! the format fixes (`", "` and `": "`), integers read within their range, values written as
//! their names, and errors that name the field path, e.g. `snapshot.seats[0].hand: …`.
//!
//! The crate's lowest layer beside [`crate::error`]: it knows no game type. Each type's own serde
//! code sits beside the type (tiles and suits in [`crate::tile`], hands in [`crate::hand`], melds
//! in [`crate::meld`], actions in [`crate::game`]) and calls in here; the snapshot and the log read and
//! write themselves with it.

use serde::de::{self, Deserializer, Unexpected};
use serde::{Deserialize, Serialize};
use std::io;

/// Writes `value` as JSON, with `", "` and `": "` between items as every log and snapshot has.
pub fn to_text<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(512);
    write_text(value, &mut out);
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Appends `value` as [`to_text`] writes it.
pub fn write_text<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    let mut ser = serde_json::Serializer::with_formatter(out, Spaced);
    // Our wire types have string keys only, the one way serializing to JSON can fail.
    value.serialize(&mut ser).expect("wire types serialize");
}

struct Spaced;

/// `", "` before every item of an array or object but its first.
fn separate<W: ?Sized + io::Write>(w: &mut W, first: bool) -> io::Result<()> {
    if first {
        Ok(())
    } else {
        w.write_all(b", ")
    }
}

impl serde_json::ser::Formatter for Spaced {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        separate(w, first)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        separate(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// Reads `T` from JSON `text` whose root is named `root`; an error names the field path.
pub fn read<'a, T: Deserialize<'a>>(text: &'a str, root: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| match e.inner() {
        e if !e.is_data() => format!("{root} is not JSON: {e}"),
        _ => at(root, &e),
    })?;
    de.end().map_err(|e| format!("{root}: {e}"))?;
    Ok(value)
}

/// Reads `T` from a JSON value named `root`; an error names the field path.
pub fn read_value<'a, T: Deserialize<'a>>(
    v: &'a serde_json::Value,
    root: &str,
) -> Result<T, String> {
    serde_path_to_error::deserialize(v).map_err(|e| at(root, &e))
}

/// `root.path: what was wrong`, without serde_json's position (the path says where) and with
/// long quoted values cut, by characters so that no multi-byte one is split.
fn at<E: std::fmt::Display>(root: &str, e: &serde_path_to_error::Error<E>) -> String {
    let path = e.path().to_string();
    let path = match path.as_str() {
        "." => String::new(),
        p if p.starts_with('[') => p.to_owned(),
        p => format!(".{p}"),
    };
    let mut why = e.inner().to_string();
    if let Some(cut) = why.rfind(" at line ") {
        why.truncate(cut);
    }
    if let Some(field) = why
        .strip_prefix("missing field `")
        .and_then(|f| f.strip_suffix('`'))
    {
        return format!("{root}{path}.{field} is missing");
    }
    let parts: Vec<String> = (why.split('"').enumerate())
        .map(|(i, part)| match part.char_indices().nth(60) {
            Some((cut, _)) if i % 2 == 1 => format!("{}…", &part[..cut]),
            _ => part.to_owned(),
        })
        .collect();
    format!("{root}{path}: {}", parts.join("\""))
}

/// Reads a value written as its name, e.g. a tile `"5m"`, by `parse`; `what` says what is
/// expected when it fails.
pub fn named<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: fn(&str) -> Option<T>,
    what: fn() -> String,
) -> Result<T, D::Error> {
    struct Named<T>(fn(&str) -> Option<T>, fn() -> String);
    impl<T> de::Visitor<'_> for Named<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&(self.1)())
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<T, E> {
            (self.0)(s).ok_or_else(|| E::invalid_value(Unexpected::Str(s), &self))
        }
    }
    d.deserialize_str(Named(parse, what))
}

/// Serde for types written as their `Display` text and read by a parser: `by_name! { Tile =>
/// parse, "a tile like \"5m\""; }`.
macro_rules! by_name {
    ($($t:ty => $parse:expr, $what:literal;)*) => {$(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::wire::named(d, $parse, || $what.to_owned())
            }
        }
    )*};
}

pub(crate) use by_name;

/// The game's integers, and options and arrays of them, read within `LO..=HI`.
pub trait Bounded: Sized {
    fn within<'de, D: Deserializer<'de>, const LO: u64, const HI: u64>(
        d: D,
    ) -> Result<Self, D::Error>;
}

/// A `T` read within `LO..=HI`, written as it is.
#[derive(Clone, Copy, Serialize)]
pub struct Within<T, const LO: u64, const HI: u64>(pub T);

/// A seat number.
pub type SeatNo = Within<u8, 0, 3>;

impl<'de, T: Bounded, const LO: u64, const HI: u64> Deserialize<'de> for Within<T, LO, HI> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::within::<D, LO, HI>(d).map(Within)
    }
}

macro_rules! bounded {
    ($($int:ty),*) => {$(
        impl Bounded for $int {
            fn within<'de, D: Deserializer<'de>, const LO: u64, const HI: u64>(
                d: D,
            ) -> Result<Self, D::Error> {
                let n = u64::deserialize(d)?;
                if !(LO..=HI).contains(&n) {
                    let what = format!("an integer {LO}..={HI}");
                    return Err(de::Error::invalid_value(Unexpected::Unsigned(n), &what.as_str()));
                }
                // Each use's HI fits its type.
                Ok(n as $int)
            }
        }
    )*};
}

bounded!(u8, u16, u32, i64);

impl<T: Bounded> Bounded for Option<T> {
    fn within<'de, D: Deserializer<'de>, const LO: u64, const HI: u64>(
        d: D,
    ) -> Result<Self, D::Error> {
        Option::<Within<T, LO, HI>>::deserialize(d).map(|o| o.map(|w| w.0))
    }
}

impl<T: Bounded> Bounded for Vec<T> {
    fn within<'de, D: Deserializer<'de>, const LO: u64, const HI: u64>(
        d: D,
    ) -> Result<Self, D::Error> {
        let list = Vec::<Within<T, LO, HI>>::deserialize(d)?;
        Ok(list.into_iter().map(|w| w.0).collect())
    }
}

impl<T: Bounded, const N: usize> Bounded for [T; N] {
    fn within<'de, D: Deserializer<'de>, const LO: u64, const HI: u64>(
        d: D,
    ) -> Result<Self, D::Error> {
        let list = Vec::<T>::within::<D, LO, HI>(d)?;
        let n = list.len();
        let wrong = || de::Error::invalid_length(n, &format!("an array of length {N}").as_str());
        list.try_into().map_err(|_| wrong())
    }
}

/// Reads a `T` within `0..=HI`: `#[serde(deserialize_with = "upto::<HI, _, _>")]`.
pub fn upto<'de, const HI: u64, D: Deserializer<'de>, T: Bounded>(d: D) -> Result<T, D::Error> {
    T::within::<D, 0, HI>(d)
}

/// Reads a seat number 0-3, or an option or array of them.
pub fn seat<'de, D: Deserializer<'de>, T: Bounded>(d: D) -> Result<T, D::Error> {
    T::within::<D, 0, 3>(d)
}

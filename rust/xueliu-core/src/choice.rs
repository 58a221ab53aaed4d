//! Enums that are written as strings: rule options (`"xuezhan"`, `"dice"`, …) and pattern names.
//! One macro declares the enum and its names together, so a name cannot drift from its variant.

/// An enum with a fixed name per variant.
pub trait Choice: Copy + Eq + 'static {
    /// Every variant, in declaration order.
    const ALL: &'static [Self];

    /// The variant's name as written in the rules schema.
    fn name(self) -> &'static str;

    /// The variant called `text`, if any.
    fn parse(text: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.name() == text)
    }

    /// Every name, quoted and comma-separated, for error messages.
    fn names() -> String {
        let quoted: Vec<String> = Self::ALL
            .iter()
            .map(|c| format!("{:?}", c.name()))
            .collect();
        quoted.join(", ")
    }
}

/// Declares `enum $name { $variant = "text", … }` with `Debug, Clone, Copy, PartialEq, Eq, Hash`,
/// its [`Choice`] implementation, and serde's, which write and read the same names.
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $crate::choice::Choice for $name {
            const ALL: &'static [$name] = &[$($name::$variant),+];

            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($crate::choice::Choice::name(*self))
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::choice::deserialize(d)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad($crate::choice::Choice::name(*self))
            }
        }
    };
}

pub(crate) use choice;

/// Reads a [`Choice`] by its name; an error lists the names.
pub fn deserialize<'de, D: serde::Deserializer<'de>, T: Choice>(d: D) -> Result<T, D::Error> {
    crate::wire::named(d, T::parse, || format!("one of {}", T::names()))
}

#[cfg(test)]
mod tests {
    use super::*;

    choice! {
        enum Fruit {
            Apple = "apple",
            Pear = "pear",
        }
    }

    #[test]
    fn names_parse_back() {
        for &f in Fruit::ALL {
            assert_eq!(Fruit::parse(f.name()), Some(f));
        }
        assert_eq!(Fruit::parse("plum"), None);
        assert_eq!(Fruit::names(), "\"apple\", \"pear\"");
        assert_eq!(Fruit::Pear.to_string(), "pear");
        assert_eq!(format!("[{:<6}]", Fruit::Pear), "[pear  ]");
    }
}

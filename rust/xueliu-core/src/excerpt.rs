//! Bad input quoted in an error message, cut to a short excerpt whatever its length. A leaf of
//! the crate: the modules that read text (tiles, rules) quote with it, and [`crate::error`]'s
//! messages do too.

/// The most characters of a bad input a message quotes: ten million characters give a short message.
pub const EXCERPT_CHARS: usize = 60;

/// `text` quoted for a message: whole when short, else its first [`EXCERPT_CHARS`] characters,
/// `"xxxx…"… (10000000 characters)`.
pub fn quote(text: &str) -> String {
    quote_around(text, 0)
}

/// `text` quoted for a message: whole when short, else the [`EXCERPT_CHARS`] characters around
/// character `at` (a fault's position), `…` marking each cut, then the text's length.
pub fn quote_around(text: &str, at: usize) -> String {
    let length = text.chars().count();
    if length <= EXCERPT_CHARS {
        return format!("{text:?}");
    }
    let start = at
        .saturating_sub(EXCERPT_CHARS / 2)
        .min(length - EXCERPT_CHARS);
    let window: String = text.chars().skip(start).take(EXCERPT_CHARS).collect();
    let before = if start > 0 { "…" } else { "" };
    let after = if start + EXCERPT_CHARS < length {
        "…"
    } else {
        ""
    };
    format!("{before}{window:?}{after} ({length} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_whatever_the_input() {
        assert_eq!(quote("chengdoo"), "\"chengdoo\"");
        let long = "x".repeat(10_000_000);
        assert_eq!(
            quote(&long),
            format!("{:?}… (10000000 characters)", "x".repeat(EXCERPT_CHARS))
        );
        let fault = format!("{}!{}", "a".repeat(1000), "b".repeat(1000));
        let quoted = quote_around(&fault, 1000);
        assert_eq!(
            quoted,
            format!(
                "…{:?}… (2001 characters)",
                "a".repeat(30) + "!" + &"b".repeat(29)
            )
        );
    }
}

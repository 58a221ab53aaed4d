//! The full snapshot: `to_json` / `from_json`, restoring exactly (RNG state and hidden
//! decisions included) and validating everything it reads.

use crate::rules::Rules;

/// `Rules.to_dict()` as JSON. PROVISIONAL until issue 3's `Rules` lands.
pub(super) fn rules_json(rules: &Rules) -> String {
    format!("{{\"preset\": {:?}}}", rules.preset.unwrap_or(""))
}

//! The plugin's facts of edited text, checked by the rules the index checks
//! a file's facts by, before a plan relies on them.

use lingo_index::Snapshot;
use lingo_model::FileFacts;
use lingo_model::validate::{self, FactLimits};
use lingo_runtime::{LanguagePlugin, PluginError};

/// `plugin`'s facts of `text` at `path`, with the definitions `snapshot`
/// holds of the macros it invokes elsewhere, repaired as the index repairs
/// them (spans inside the text, indices in range, no container cycles,
/// counts and lengths capped): a plugin's answer is input like any other.
pub(crate) fn reanalyse(
    plugin: &dyn LanguagePlugin,
    path: &str,
    text: &str,
    snapshot: &Snapshot,
) -> Result<FileFacts, PluginError> {
    let facts = snapshot.analyze_text(plugin, path, text)?;
    Ok(validate::check(facts, text, &FactLimits::default()).0)
}

//! What every resolution-dependent answer of a snapshot may lack: files
//! their plugin could not analyse and import resolutions that failed in a
//! plugin. Each `completeness` of an answer carries it.

use lingo_resolve::Resolved;
use schemars::JsonSchema;
use serde::Serialize;

use super::Analysis;

/// Why an answer that depends on resolution is not complete.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Incompleteness {
    pub unanalyzed_files: usize,
    pub failed_import_resolutions: usize,
    pub incomplete_reasons: Vec<String>,
}

impl Analysis {
    /// What answers of this snapshot lack, so far (import resolutions are
    /// memoised as queries ask for them: call it when the answer is built).
    pub fn incompleteness(&self) -> Option<Incompleteness> {
        let failed = self.snapshot.failed_files();
        let (import_failures, reason) = self.snapshot.import_failures();
        if failed == 0 && import_failures == 0 {
            return None;
        }
        let mut reasons = Vec::new();
        if failed > 0 {
            reasons.push(format!(
                "{failed} files could not be analysed by their plugin (health_check lists them); references in them are not counted"
            ));
        }
        if import_failures > 0 {
            reasons.push(format!(
                "{import_failures} import resolutions failed in a plugin ({}); references through those imports may be missing",
                reason.unwrap_or_default()
            ));
        }
        Some(Incompleteness {
            unanalyzed_files: failed,
            failed_import_resolutions: import_failures,
            incomplete_reasons: reasons,
        })
    }
}

//! Plans, applies and rollbacks as text: what changes where, in one line
//! per file; the warnings; how to apply or undo.

use lingo_refactor::plan::{DocumentChange, FileOperation, Metadata};
use lingo_refactor::{Applied, Plan, Receipt, RolledBack, Warning};

use super::{Request, Writer};
use crate::moves::{PendingChange, RoslynAnswer, SourceLocation};
use crate::refactor::PlanOrApplied;

/// A plan (edits per file as `line:col` lists), or an applied change with
/// its receipt.
pub fn plan_or_applied(answer: &PlanOrApplied, request: &Request, writer: &mut Writer) {
    match answer {
        PlanOrApplied::Planned(planned) => plan(&planned.plan, writer),
        PlanOrApplied::Applied(done) => applied(done, request, writer),
    }
}

/// `rename.symbol `a` -> `b``, from a plan's metadata.
fn what(metadata: &Metadata) -> String {
    match &metadata.rename {
        Some(names) => format!("{} `{}` -> `{}`", metadata.kind, names.from, names.to),
        None => metadata.kind.clone(),
    }
}

fn plan(plan: &Plan, writer: &mut Writer) {
    let summary = &plan.summary;
    writer.always(&format!(
        "{} {} ({}, generation {}): {} edits in {} files, {} created, {} deleted; dry run; apply again with dryRun false, or with apply_plan {{\"plan\": <this plan>}} (its JSON: `format: json`)",
        plan.plan_type,
        what(&plan.metadata),
        plan.metadata.language,
        plan.metadata.generation,
        summary.text_edits,
        summary.affected_files,
        summary.created_files,
        summary.deleted_files,
    ));
    warnings(&plan.warnings, writer);
    for change in &plan.edits.document_changes {
        let line = match change {
            DocumentChange::Edit(edit) => {
                let places: Vec<String> = edit
                    .edits
                    .iter()
                    .map(|e| {
                        let start = e.range.start;
                        format!("{}:{}", start.line + 1, start.character + 1)
                    })
                    .collect();
                format!("{}: {}", edit.text_document.uri, places.join(" "))
            }
            DocumentChange::File(FileOperation::Rename { old_uri, new_uri }) => {
                format!("rename file {old_uri} -> {new_uri}")
            }
            DocumentChange::File(FileOperation::Create { uri, .. }) => {
                format!("create file {uri}")
            }
            DocumentChange::File(FileOperation::Delete { uri }) => format!("delete file {uri}"),
        };
        if !writer.line(&line) {
            writer.always("... more files (all of them: `format: json`)");
            break;
        }
    }
}

/// An applied change: the files written, the receipt, the warnings.
pub fn applied(applied: &Applied, _request: &Request, writer: &mut Writer) {
    writer.always(&format!(
        "applied {}: {} files written, {} created, {} deleted; undo with rollback {{\"snapshot_id\": \"{}\"}}",
        what(&applied.metadata),
        applied.applied_files.len(),
        applied.created_files.len(),
        applied.deleted_files.len(),
        applied.snapshot_id,
    ));
    receipt(&applied.receipt, writer);
    warnings(&applied.warnings, writer);
}

/// The receipt's line, then the files whose syntax errors changed and the
/// sites still spelled with a renamed declaration's old name.
fn receipt(receipt: &Receipt, writer: &mut Writer) {
    let changed: Vec<String> = receipt
        .files
        .iter()
        .filter(|f| f.syntax_errors_after != Some(f.syntax_errors_before))
        .map(|f| {
            let after = f
                .syntax_errors_after
                .map_or_else(|| "null".to_string(), |n| n.to_string());
            format!(
                "{} syntax errors {} -> {after}",
                f.path, f.syntax_errors_before
            )
        })
        .collect();
    // A rename that left the old name nowhere says nothing of it.
    let left = match &receipt.old_name_left {
        Some(left) if left.count > 0 => format!(
            "; `{}` still referenced {} {} in the changed files",
            left.name,
            left.count,
            if left.count == 1 { "time" } else { "times" }
        ),
        _ => String::new(),
    };
    writer.always(&format!(
        "receipt at generation {}: syntax errors {}{left}",
        receipt.generation,
        if changed.is_empty() {
            "unchanged".to_string()
        } else {
            format!("changed in {} files", changed.len())
        }
    ));
    for line in changed {
        if !writer.line(&line) {
            break;
        }
    }
    let sites = receipt.old_name_left.iter().flat_map(|left| &left.sites);
    for site in sites {
        if !writer.line(&format!("  {site}")) {
            break;
        }
    }
}

fn warnings(warnings: &[Warning], writer: &mut Writer) {
    for warning in warnings {
        writer.always(&format!("WARNING {}: {}", warning.code, warning.message));
        for site in &warning.sites {
            if !writer.line(&format!("  {site}")) {
                break;
            }
        }
    }
}

/// A rollback: what was restored, and the snapshot that undoes it.
pub fn rolled_back(rolled_back: &RolledBack, _request: &Request, writer: &mut Writer) {
    writer.always(&format!(
        "rolled back {}: {} files restored, {} recreated, {} deleted (generation {}); undo with rollback {{\"snapshot_id\": \"{}\"}}",
        rolled_back.rolled_back,
        rolled_back.restored_files.len(),
        rolled_back.recreated_files.len(),
        rolled_back.deleted_files.len(),
        rolled_back.generation,
        rolled_back.snapshot_id,
    ));
}

/// `move_type_to_file`: what moved where, or the pending changes of a preview.
pub fn moved(answer: &RoslynAnswer, _request: &Request, writer: &mut Writer) {
    let symbol = match answer {
        RoslynAnswer::Applied(applied) => &applied.symbol,
        RoslynAnswer::Preview(preview) => &preview.symbol,
    };
    let place = |location: &SourceLocation| {
        format!("{}:{}:{}", location.file, location.line, location.column)
    };
    let head = format!(
        "{} `{}` {} -> {}",
        symbol.kind,
        symbol.fully_qualified_name,
        place(&symbol.previous_location),
        place(&symbol.new_location),
    );
    match answer {
        RoslynAnswer::Preview(preview) => {
            writer.always(&format!(
                "preview of move {head}; nothing written (apply with apply_plan {{\"plan\": <its plan>}}; the JSON: `format: json`)"
            ));
            warnings(&preview.warnings, writer);
            pending(&preview.pending_changes, writer);
        }
        RoslynAnswer::Applied(applied) => {
            writer.always(&format!(
                "moved {head}: {} files modified, {} created, {} uses updated; undo with rollback {{\"snapshot_id\": \"{}\"}}",
                applied.changes.files_modified.len(),
                applied.changes.files_created.len(),
                applied.references_updated,
                applied.snapshot_id,
            ));
            warnings(&applied.warnings, writer);
        }
    }
}

/// A preview's changes, each with its diff or new content.
fn pending(changes: &[PendingChange], writer: &mut Writer) {
    for change in changes {
        let _ = writer.line(&format!(
            "{} {}: {}",
            change.change_type.name(),
            change.file,
            change.description
        ));
        let body = change.diff.as_deref().or(change.content.as_deref());
        for line in body.unwrap_or("").lines() {
            if !writer.line(&format!("  {line}")) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use expect_test::{Expect, expect};
    use lingo_refactor::plan::{
        DocumentId, Position, Range, RenameNames, TextDocumentEdit, TextEdit, warning,
    };
    use lingo_refactor::{FileReceipt, NameLeft};
    use serde_json::Map;

    use super::*;
    use crate::moves::{ChangeType, Changes, MovedSymbol, RoslynApplied, RoslynPreview, Succeeded};
    use crate::refactor::Planned;

    fn check<R>(answer: &R, render: fn(&R, &Request, &mut Writer), expected: Expect) {
        let arguments = Map::new();
        let request = Request {
            tool: "rename",
            arguments: &arguments,
            max_tokens: 2_000,
        };
        let mut writer = Writer::new(2_000);
        render(answer, &request, &mut writer);
        expected.assert_eq(&writer.finish());
    }

    fn edit(path: &str, places: &[(u32, u32)]) -> DocumentChange {
        DocumentChange::Edit(TextDocumentEdit {
            text_document: DocumentId {
                uri: path.into(),
                version: None,
            },
            edits: places
                .iter()
                .map(|&(line, character)| TextEdit {
                    range: Range {
                        start: Position { line, character },
                        end: Position {
                            line,
                            character: character + 3,
                        },
                    },
                    new_text: "sum".into(),
                })
                .collect(),
        })
    }

    fn warnings() -> Vec<Warning> {
        vec![Warning::listed(
            warning::INCOMPLETE_REFERENCES,
            "2 uses resolved by name only".into(),
            ["src/a.rs:3:4".to_string(), "src/b.rs:9:1".to_string()],
        )]
    }

    fn rename_plan() -> Plan {
        Plan::new(
            "RenamePlan",
            "rename.symbol".into(),
            "rust".into(),
            7,
            vec![
                edit("src/lib.rs", &[(8, 24), (12, 4)]),
                DocumentChange::File(FileOperation::Create {
                    uri: "src/new.rs".into(),
                    text: Some("pub fn sum() {}\n".into()),
                }),
                DocumentChange::File(FileOperation::Rename {
                    old_uri: "src/old.rs".into(),
                    new_uri: "src/renamed.rs".into(),
                }),
                DocumentChange::File(FileOperation::Delete {
                    uri: "src/gone.rs".into(),
                }),
            ],
            warnings(),
            BTreeMap::new(),
            Some(RenameNames {
                from: "total".into(),
                to: "sum".into(),
            }),
        )
    }

    fn applied() -> Applied {
        Applied {
            success: true,
            applied_files: vec!["src/lib.rs".into(), "src/b.rs".into()],
            created_files: vec!["src/new.rs".into()],
            deleted_files: Vec::new(),
            warnings: warnings(),
            rollback_available: true,
            snapshot_id: "snap-1".into(),
            receipt: Receipt {
                generation: 8,
                files_changed: 3,
                files: vec![
                    FileReceipt {
                        path: "src/lib.rs".into(),
                        syntax_errors_before: 0,
                        syntax_errors_after: Some(0),
                    },
                    FileReceipt {
                        path: "src/b.rs".into(),
                        syntax_errors_before: 0,
                        syntax_errors_after: Some(2),
                    },
                    FileReceipt {
                        path: "src/gone.rs".into(),
                        syntax_errors_before: 1,
                        syntax_errors_after: None,
                    },
                ],
                old_name_left: Some(NameLeft {
                    name: "total".into(),
                    count: 1,
                    sites: vec!["src/b.rs:4:2".into()],
                }),
            },
            metadata: rename_plan().metadata,
        }
    }

    #[test]
    fn a_plan_lists_its_edits_per_file_and_its_file_operations() {
        let answer = PlanOrApplied::Planned(Box::new(Planned {
            plan: rename_plan(),
            dry_run: true,
        }));
        check(
            &answer,
            plan_or_applied,
            expect![[r#"
                RenamePlan rename.symbol `total` -> `sum` (rust, generation 7): 2 edits in 5 files, 2 created, 2 deleted; dry run; apply again with dryRun false, or with apply_plan {"plan": <this plan>} (its JSON: `format: json`)
                WARNING INCOMPLETE_REFERENCES: 2 uses resolved by name only
                  src/a.rs:3:4
                  src/b.rs:9:1
                src/lib.rs: 9:25 13:5
                create file src/new.rs
                rename file src/old.rs -> src/renamed.rs
                delete file src/gone.rs
            "#]],
        );
    }

    #[test]
    fn an_applied_change_has_its_receipt_and_the_way_back() {
        let answer = PlanOrApplied::Applied(Box::new(applied()));
        check(
            &answer,
            plan_or_applied,
            expect![[r#"
                applied rename.symbol `total` -> `sum`: 2 files written, 1 created, 0 deleted; undo with rollback {"snapshot_id": "snap-1"}
                receipt at generation 8: syntax errors changed in 2 files; `total` still referenced 1 time in the changed files
                src/b.rs syntax errors 0 -> 2
                src/gone.rs syntax errors 1 -> null
                  src/b.rs:4:2
                WARNING INCOMPLETE_REFERENCES: 2 uses resolved by name only
                  src/a.rs:3:4
                  src/b.rs:9:1
            "#]],
        );
        // apply_plan's renderer writes an applied change the same way.
        let arguments = Map::new();
        let request = Request {
            tool: "apply_plan",
            arguments: &arguments,
            max_tokens: 2_000,
        };
        let (mut alone, mut within) = (Writer::new(2_000), Writer::new(2_000));
        super::applied(&applied(), &request, &mut alone);
        plan_or_applied(&answer, &request, &mut within);
        assert_eq!(alone.finish(), within.finish());
    }

    #[test]
    fn a_rollback_names_what_it_restored() {
        let answer = RolledBack {
            success: true,
            rolled_back: "snap-1".into(),
            restored_files: vec!["src/lib.rs".into(), "src/b.rs".into()],
            recreated_files: Vec::new(),
            deleted_files: vec!["src/new.rs".into()],
            snapshot_id: "snap-2".into(),
            generation: 9,
        };
        check(
            &answer,
            rolled_back,
            expect![[r#"
                rolled back snap-1: 2 files restored, 0 recreated, 1 deleted (generation 9); undo with rollback {"snapshot_id": "snap-2"}
            "#]],
        );
    }

    fn moved_symbol() -> MovedSymbol {
        MovedSymbol {
            name: "Order".into(),
            fully_qualified_name: "Shop.Order".into(),
            kind: "class".into(),
            previous_location: SourceLocation {
                file: "/w/src/Shop.cs".into(),
                line: 4,
                column: 5,
            },
            new_location: SourceLocation {
                file: "/w/src/Order.cs".into(),
                line: 3,
                column: 5,
            },
            previous_namespace: None,
            new_namespace: None,
        }
    }

    #[test]
    fn a_type_move_says_what_moved_where_or_what_it_would_change() {
        let preview = RoslynAnswer::Preview(RoslynPreview {
            success: Succeeded,
            preview: Succeeded,
            operation_id: "preview-1".into(),
            pending_changes: vec![
                PendingChange {
                    file: "/w/src/Shop.cs".into(),
                    change_type: ChangeType::Modify,
                    description: "Remove Order declaration".into(),
                    diff: Some("-class Order {}\n".into()),
                    content: None,
                },
                PendingChange {
                    file: "/w/src/Order.cs".into(),
                    change_type: ChangeType::Create,
                    description: "Add Order declaration".into(),
                    diff: None,
                    content: Some("class Order {}\n".into()),
                },
            ],
            symbol: moved_symbol(),
            warnings: warnings(),
            plan: Planned {
                plan: rename_plan(),
                dry_run: true,
            },
        });
        check(
            &preview,
            moved,
            expect![[r#"
                preview of move class `Shop.Order` /w/src/Shop.cs:4:5 -> /w/src/Order.cs:3:5; nothing written (apply with apply_plan {"plan": <its plan>}; the JSON: `format: json`)
                WARNING INCOMPLETE_REFERENCES: 2 uses resolved by name only
                  src/a.rs:3:4
                  src/b.rs:9:1
                Modify /w/src/Shop.cs: Remove Order declaration
                  -class Order {}
                Create /w/src/Order.cs: Add Order declaration
                  class Order {}
            "#]],
        );
        let done = RoslynAnswer::Applied(RoslynApplied {
            success: Succeeded,
            operation_id: "snap-3".into(),
            changes: Changes {
                files_modified: vec!["/w/src/Shop.cs".into()],
                files_created: vec!["/w/src/Order.cs".into()],
                files_deleted: Vec::new(),
            },
            symbol: moved_symbol(),
            references_updated: 2,
            using_directives_added: 0,
            using_directives_removed: 0,
            execution_time_ms: 5,
            snapshot_id: "snap-3".into(),
            rollback_available: true,
            receipt: applied().receipt,
            warnings: Vec::new(),
        });
        check(
            &done,
            moved,
            expect![[r#"
                moved class `Shop.Order` /w/src/Shop.cs:4:5 -> /w/src/Order.cs:3:5: 1 files modified, 1 created, 2 uses updated; undo with rollback {"snapshot_id": "snap-3"}
            "#]],
        );
    }
}

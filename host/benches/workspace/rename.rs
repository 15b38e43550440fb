//! `--rename-near N`: the time to plan and to apply a rename with about N
//! references. Once the index is whole (`health_check` says `Ready`), the
//! sample's declarations are asked `find_references`; those with N/2 or
//! more sites are planned, and the one whose plan edits nearest N sites is
//! renamed (to `NAME_renamed`): planned again
//! (`dryRun`), applied (`dryRun: false`, `force` for a plan that warns),
//! and rolled back, each timed as the client sees it.

use serde_json::json;

use super::{Declared, Server, ms};

/// Wait until `health_check` says the index is whole.
pub fn wait_until_ready(server: &mut Server) {
    let waited = std::time::Instant::now();
    loop {
        let answer = server.call("health_check", json!({}));
        if answer
            .result
            .is_ok_and(|v| v["workspace"]["state"] == "Ready")
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    println!(
        "index whole after {:.1} s more",
        waited.elapsed().as_secs_f64()
    );
}

/// Rename the declaration of `sample` with the reference count nearest
/// `near`, and print what each step took.
pub fn run(server: &mut Server, sample: &[Declared], near: u64) {
    // Those with at least half as many same-named references as wanted
    // (every site find_references lists, certain or not), then the plan's
    // own count of edits.
    let mut wide = Vec::new();
    for symbol in sample {
        let answer = server.call(
            "find_references",
            json!({ "symbol": symbol.name, "path": symbol.file, "limit": 1 }),
        );
        let Ok(value) = answer.result else { continue };
        if value["pagination"]["total"].as_u64().unwrap_or(0) >= near / 2 {
            wide.push(symbol);
        }
    }
    let mut best: Option<(u64, &Declared)> = None;
    for symbol in &wide {
        let answer = server.call(
            "rename",
            json!({ "symbol": symbol.name, "path": symbol.file, "new_name": format!("{}_renamed", symbol.name) }),
        );
        let Ok(plan) = answer.result else { continue };
        let edits = plan["summary"]["text_edits"].as_u64().unwrap_or(0);
        if best.is_none_or(|(b, _)| edits.abs_diff(near) < b.abs_diff(near)) {
            best = Some((edits, symbol));
        }
    }
    let Some((total, symbol)) = best else {
        println!("rename: no declaration of the sample could be renamed");
        return;
    };
    let new_name = format!("{}_renamed", symbol.name);
    let arguments = json!({ "symbol": symbol.name, "path": symbol.file, "new_name": new_name });
    println!(
        "rename: `{}` ({} in {}:{}), {total} sites to edit (nearest {near} among {} of {} sampled with {}+ same-named references)",
        symbol.name,
        symbol.kind,
        symbol.file,
        symbol.line,
        wide.len(),
        sample.len(),
        near / 2
    );
    let planned = server.call("rename", arguments.clone());
    let plan = match planned.result {
        Ok(plan) => plan,
        Err(code) => {
            println!("rename plan: refused with {code}");
            return;
        }
    };
    let warnings: Vec<&str> = plan["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w["code"].as_str())
        .collect();
    println!(
        "rename plan: {:.1} ms, {} edits in {} files, warnings {warnings:?}",
        ms(planned.elapsed),
        plan["summary"]["text_edits"],
        plan["summary"]["affected_files"],
    );
    let mut apply = arguments;
    apply["dryRun"] = json!(false);
    apply["force"] = json!(!warnings.is_empty());
    let applied = server.call("rename", apply);
    let snapshot = match &applied.result {
        Ok(value) => value["snapshot_id"].clone(),
        Err(code) => {
            println!("rename apply: refused with {code}");
            return;
        }
    };
    println!(
        "rename apply (plan again, write, re-index, receipt): {:.1} ms",
        ms(applied.elapsed)
    );
    let rolled = server.call("rollback", json!({ "snapshot_id": snapshot }));
    match rolled.result {
        Ok(_) => println!("rollback: {:.1} ms", ms(rolled.elapsed)),
        Err(code) => println!("rollback: refused with {code}"),
    }
}

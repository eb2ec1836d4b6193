//! The api crate is HTTP only: every SQL statement lives in `store`, in a function named for what it
//! does, so a handler never reaches past the store into the pool.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn api_runs_no_sql() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 10, "found only {} source files", files.len());
    let leaks: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("readable source file");
            text.lines()
                .enumerate()
                .filter(|(_, l)| {
                    l.contains("sqlx::query") || l.contains(".pool)") || l.contains(".pool.")
                })
                .map(|(n, l)| format!("{}:{}: {}", f.display(), n + 1, l.trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        leaks.is_empty(),
        "SQL in the api crate:\n{}",
        leaks.join("\n")
    );
}

//! The console checks the release-task limits before it sends a form; the server checks them again.
//! Both sides declare them, so this keeps the console's `web/src/pages/matrix/rules.ts` equal to
//! `domain::matrix`.

use domain::matrix;

fn web_constant(source: &str, name: &str) -> u64 {
    let line = source
        .lines()
        .find(|l| l.starts_with(&format!("export const {name} = ")))
        .unwrap_or_else(|| panic!("rules.ts declares no {name}"));
    let value = line
        .rsplit('=')
        .next()
        .unwrap()
        .trim()
        .trim_end_matches(';');
    value
        .parse()
        .unwrap_or_else(|_| panic!("{name} in rules.ts is not a number: {value}"))
}

#[test]
fn the_console_checks_the_same_limits_as_the_server() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/src/pages/matrix/rules.ts"
    );
    let source = std::fs::read_to_string(path).expect("web/src/pages/matrix/rules.ts");
    let pairs: [(&str, u64); 9] = [
        ("TITLE_MAX", matrix::TITLE_MAX as u64),
        ("NAME_MAX", matrix::TASK_NAME_MAX as u64),
        ("COMMENT_MAX", matrix::COMMENT_MAX as u64),
        ("COMMENT_PICK", matrix::COMMENT_PICK as u64),
        ("PER_ACCOUNT_DAY", matrix::PER_ACCOUNT_DAY as u64),
        ("DAYS_MAX", matrix::MAX_DAYS as u64),
        ("GROUP_NAME_MAX", matrix::GROUP_NAME_MAX as u64),
        ("REMARKS_MAX", matrix::REMARKS_MAX as u64),
        ("REASON_MAX", matrix::REASON_MAX as u64),
    ];
    for (name, server) in pairs {
        assert_eq!(
            web_constant(&source, name),
            server,
            "{name}: console and server disagree"
        );
    }
}

//! README.md lists every `quiver convert` option as `quiver convert --help` describes it.

use crate::common::*;
use std::path::Path;

const START: &str = "<!-- convert-options: generated from `quiver convert --help` -->";
const END: &str = "<!-- end of convert-options -->";

/// One option of a help text: its heading (`-q, --quiet`, `--from <FROM>`), the description,
/// the possible values and the default.
#[derive(Default)]
struct Opt {
    heading: String,
    text: Vec<String>,
    values: Vec<String>,
    default: Option<String>,
}

/// The options of a long help text (`--help`), `--help` itself left out.
fn options(help: &str) -> Vec<Opt> {
    let mut opts: Vec<Opt> = Vec::new();
    let mut in_options = false;
    let mut in_values = false;
    for line in help.lines() {
        if line == "Options:" {
            in_options = true;
            continue;
        }
        if !in_options {
            continue;
        }
        if !line.is_empty() && !line.starts_with(' ') {
            break; // the next section (examples)
        }
        let indent = line.len() - line.trim_start().len();
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        if indent < 10 && text.starts_with('-') {
            opts.push(Opt {
                heading: text.to_string(),
                ..Opt::default()
            });
            in_values = false;
            continue;
        }
        let opt = opts.last_mut().expect("an option heading first");
        if text == "Possible values:" {
            in_values = true;
        } else if let Some(d) = text.strip_prefix("[default: ") {
            opt.default = Some(d.trim_end_matches(']').to_string());
        } else if in_values && text.starts_with("- ") {
            let name = text[2..].split(':').next().unwrap();
            opt.values.push(name.to_string());
        } else {
            opt.text.push(text.to_string());
        }
    }
    opts.retain(|o| !o.heading.ends_with("--help"));
    opts
}

/// The README table generated from the help text.
fn table(help: &str) -> String {
    let mut s = String::from("| option | what it does |\n|---|---|\n");
    for o in options(help) {
        let mut text = o.text.join(" ");
        if !o.values.is_empty() {
            text.push_str(&format!(": {}", o.values.join(", ")));
        }
        if let Some(d) = o.default {
            text.push_str(&format!(" (default: {d})"));
        }
        s.push_str(&format!(
            "| `{}` | {} |\n",
            o.heading,
            text.replace('|', "\\|")
        ));
    }
    s
}

#[test]
fn readme_lists_every_convert_option() {
    let help = ok(&["convert", "--help"]);
    let expected = table(&help);
    assert!(expected.contains("`--compression <CODEC>`"), "{expected}");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme.find(START).expect("the start marker in README.md") + START.len();
    let end = readme.find(END).expect("the end marker in README.md");
    assert_eq!(
        readme[start..end].trim(),
        expected.trim(),
        "README.md's convert options differ from `quiver convert --help`; replace the table \
         between the markers with:\n\n{expected}"
    );
}

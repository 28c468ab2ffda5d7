//! The `quiver` command-line tool. Its subcommands arrive with the CLI issue; until then it
//! says so and exits with the usage-error code.

fn main() {
    eprintln!("quiver: no subcommands yet (the CLI is being built; see the project's open issues)");
    std::process::exit(2);
}

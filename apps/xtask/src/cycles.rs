//! The module-circle check of `cargo xtask test`: inside a crate, no module
//! may import a module that imports it back, directly or around a loop. A
//! type both sides need belongs in a leaf module (see the architecture
//! notes). Modules are files; what a file imports is every `use` and every
//! path it names that leads into another file of the same crate
//! (`crate::…`, `super::…`, `self::…`, or a child module's name), followed
//! through re-exports (`pub use`) to the file that defines the item.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::Context;
use syn::visit::Visit;

/// One file of a crate: its module path and what it defines and re-exports.
#[derive(Debug, Default)]
struct Module {
    file: PathBuf,
    /// Child modules, by name: index of their file (inline modules share
    /// their parent's file, so they are folded into it).
    children: BTreeMap<String, usize>,
    /// Names of items defined here.
    items: BTreeSet<String>,
    /// `use` re-exports: name → absolute path it stands for.
    uses: BTreeMap<String, Vec<String>>,
    /// Absolute module path (`[]` is the crate root).
    path: Vec<String>,
    /// Absolute paths this file names.
    refs: Vec<Vec<String>>,
}

/// A crate's modules, indexed; `0` is the root.
struct Crate {
    modules: Vec<Module>,
}

/// Every circle in the crates under `root` (`crates/*`, `apps/*`,
/// `migrations`): each as the files around it.
pub fn find(root: &Path) -> anyhow::Result<Vec<Vec<PathBuf>>> {
    let mut circles = Vec::new();
    for dir in crate_dirs(root)? {
        for main in ["src/lib.rs", "src/main.rs"] {
            let file = dir.join(main);
            if file.is_file() {
                let krate = load(&file)?;
                circles.extend(krate.circles());
            }
        }
    }
    Ok(circles)
}

fn crate_dirs(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut dirs = vec![root.join("migrations")];
    for group in ["crates", "apps"] {
        let Ok(entries) = std::fs::read_dir(root.join(group)) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if path.join("Cargo.toml").is_file() {
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// Reads the crate whose root file is `root_file`, following `mod x;`.
fn load(root_file: &Path) -> anyhow::Result<Crate> {
    let mut krate = Crate {
        modules: Vec::new(),
    };
    let dir = root_file
        .parent()
        .context("a crate root file has a folder")?
        .to_path_buf();
    krate.read_file(root_file, dir, Vec::new())?;
    Ok(krate)
}

impl Crate {
    /// Reads `file` as the module at `path`; its `mod x;` files are looked
    /// for in `dir`.
    fn read_file(&mut self, file: &Path, dir: PathBuf, path: Vec<String>) -> anyhow::Result<usize> {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let ast = syn::parse_file(&text).with_context(|| format!("parsing {}", file.display()))?;
        let index = self.modules.len();
        self.modules.push(Module {
            file: file.to_path_buf(),
            path: path.clone(),
            ..Module::default()
        });
        self.read_items(index, &ast.items, &dir, &path)?;
        Ok(index)
    }

    /// Records `items` (of the module at `path`, in the file `index`).
    fn read_items(
        &mut self,
        index: usize,
        items: &[syn::Item],
        dir: &Path,
        path: &[String],
    ) -> anyhow::Result<()> {
        for item in items {
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let mut child = path.to_vec();
                    child.push(name.clone());
                    match &m.content {
                        // An inline module (tests): part of this file.
                        Some((_, inner)) => {
                            self.modules[index].children.insert(name, index);
                            let mut refs = Refs::new(&child);
                            for it in inner {
                                refs.visit_item(it);
                            }
                            self.modules[index].refs.extend(refs.paths);
                        }
                        None => {
                            let file = [
                                dir.join(format!("{name}.rs")),
                                dir.join(&name).join("mod.rs"),
                            ]
                            .into_iter()
                            .find(|f| f.is_file())
                            .with_context(|| format!("module {name} of {}", dir.display()))?;
                            // `x.rs` and `x/mod.rs` both keep their modules in `x/`.
                            let at = self.read_file(&file, dir.join(&name), child)?;
                            self.modules[index].children.insert(name, at);
                        }
                    }
                }
                syn::Item::Use(u) => {
                    let mut found = Vec::new();
                    flatten(&u.tree, Vec::new(), &mut found);
                    for (alias, segments) in found {
                        let absolute = absolute(path, &segments);
                        if let Some(alias) = alias {
                            self.modules[index].uses.insert(alias, absolute.clone());
                        }
                        self.modules[index].refs.push(absolute);
                    }
                }
                other => {
                    if let Some(name) = item_name(other) {
                        self.modules[index].items.insert(name);
                    }
                    let mut refs = Refs::new(path);
                    refs.visit_item(other);
                    self.modules[index].refs.extend(refs.paths);
                }
            }
        }
        Ok(())
    }

    /// The file a path leads to: the deepest module on it, or the module
    /// that defines (or re-exports) the item it names.
    fn resolve(&self, path: &[String], depth: usize) -> Option<usize> {
        let mut at = 0;
        for (i, segment) in path.iter().enumerate() {
            let module = &self.modules[at];
            if let Some(&child) = module.children.get(segment) {
                at = child;
                continue;
            }
            if module.items.contains(segment) {
                return Some(at);
            }
            if let Some(target) = module.uses.get(segment) {
                if depth > 8 {
                    return Some(at);
                }
                let mut full = target.clone();
                full.extend(path[i + 1..].iter().cloned());
                return self.resolve(&full, depth + 1).or(Some(at));
            }
            return Some(at);
        }
        Some(at)
    }

    /// Files that import each other around a loop (strongly connected
    /// components of more than one file).
    fn circles(&self) -> Vec<Vec<PathBuf>> {
        let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); self.modules.len()];
        for (from, module) in self.modules.iter().enumerate() {
            for path in &module.refs {
                if let Some(to) = self.resolve(path, 0)
                    && to != from
                    && !self.is_ancestor_root(to, from, path)
                {
                    edges[from].insert(to);
                }
            }
        }
        strongly_connected(&edges)
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|c| {
                c.into_iter()
                    .map(|i| self.modules[i].file.clone())
                    .collect()
            })
            .collect()
    }

    /// A path that names only a parent module itself (`super`, `crate`),
    /// not anything in it, is no import of that file.
    fn is_ancestor_root(&self, to: usize, from: usize, path: &[String]) -> bool {
        let target = &self.modules[to].path;
        let own = &self.modules[from].path;
        path.len() == target.len() && own.starts_with(target)
    }
}

/// `use` trees as (the name they bind, the path they name).
fn flatten(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<(Option<String>, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut next = prefix;
            next.push(p.ident.to_string());
            flatten(&p.tree, next, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix;
            if name == "self" {
                let bound = path.last().cloned();
                out.push((bound, path));
            } else {
                path.push(name.clone());
                out.push((Some(name), path));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix;
            path.push(r.ident.to_string());
            out.push((Some(r.rename.to_string()), path));
        }
        syn::UseTree::Glob(_) => out.push((None, prefix)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, prefix.clone(), out);
            }
        }
    }
}

/// `segments` as seen from the module at `here`, made absolute: `crate`
/// starts at the root, `self` and `super` from here; a path that starts with
/// another name is kept relative to here (a child module's name) and left
/// to resolve.
fn absolute(here: &[String], segments: &[String]) -> Vec<String> {
    let mut at: Vec<String> = here.to_vec();
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                at.pop();
                rest = &rest[1..];
            }
        }
        _ => {}
    }
    at.extend(rest.iter().cloned());
    at
}

fn item_name(item: &syn::Item) -> Option<String> {
    Some(match item {
        syn::Item::Const(i) => i.ident.to_string(),
        syn::Item::Enum(i) => i.ident.to_string(),
        syn::Item::Fn(i) => i.sig.ident.to_string(),
        syn::Item::Static(i) => i.ident.to_string(),
        syn::Item::Struct(i) => i.ident.to_string(),
        syn::Item::Trait(i) => i.ident.to_string(),
        syn::Item::Type(i) => i.ident.to_string(),
        syn::Item::Union(i) => i.ident.to_string(),
        syn::Item::Macro(i) => i.ident.as_ref()?.to_string(),
        _ => return None,
    })
}

/// The paths an item names that may lead into the crate.
struct Refs {
    here: Vec<String>,
    paths: Vec<Vec<String>>,
}

impl Refs {
    fn new(here: &[String]) -> Self {
        Self {
            here: here.to_vec(),
            paths: Vec::new(),
        }
    }
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1
            || matches!(
                segments.first().map(String::as_str),
                Some("crate" | "super" | "self")
            )
        {
            self.paths.push(absolute(&self.here, &segments));
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut found = Vec::new();
        flatten(&u.tree, Vec::new(), &mut found);
        for (_, segments) in found {
            self.paths.push(absolute(&self.here, &segments));
        }
    }
}

/// Tarjan's strongly connected components of the graph `edges`.
fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.edges[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort_unstable();
            s.out.push(component);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The check as a test step: prints each circle; true when there is none.
pub fn check(root: &Path) -> anyhow::Result<bool> {
    let circles = find(root)?;
    for circle in &circles {
        let files: Vec<String> = circle
            .iter()
            .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
            .collect();
        eprintln!(
            "modules that import each other around a loop: {} (move what both need into a leaf module)",
            files.join(" <-> ")
        );
    }
    if circles.is_empty() {
        let crates = crate_dirs(root)?.len();
        println!("no module imports a module that imports it back ({crates} crates checked)");
    }
    Ok(circles.is_empty())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;

    /// A crate in a temporary folder with the given files under `src/`.
    fn krate(files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "xtask-cycles-{}-{}",
            std::process::id(),
            files.len() * 1000 + files.iter().map(|(n, t)| n.len() + t.len()).sum::<usize>()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        for (name, text) in files {
            let path = dir.join("crates/k/src").join(name);
            std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        std::fs::write(dir.join("crates/k/Cargo.toml"), "[package]\nname = \"k\"\n").expect("toml");
        dir
    }

    fn names(root: &Path) -> Vec<Vec<String>> {
        find(root)
            .expect("find")
            .into_iter()
            .map(|c| {
                c.iter()
                    .map(|f| f.file_name().expect("name").to_string_lossy().into_owned())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn two_files_that_import_each_other_are_a_circle() {
        let root = krate(&[
            ("lib.rs", "pub mod a;\npub mod b;\n"),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            ("b.rs", "pub struct B;\nfn f() { let _ = crate::a::A; }\n"),
        ]);
        assert_eq!(names(&root), vec![vec!["a.rs", "b.rs"]]);
    }

    #[test]
    fn a_loop_through_three_files_and_a_re_export_is_a_circle() {
        let root = krate(&[
            (
                "lib.rs",
                "pub mod a;\npub mod b;\npub mod c;\npub use c::C;\n",
            ),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            ("b.rs", "use crate::C;\npub struct B;\n"),
            ("c/mod.rs", "pub mod inner;\npub use inner::C;\n"),
            ("c/inner.rs", "use super::super::a::A;\npub struct C;\n"),
        ]);
        assert_eq!(names(&root), vec![vec!["a.rs", "b.rs", "inner.rs"]]);
    }

    #[test]
    fn a_leaf_both_use_and_the_root_s_re_exports_are_no_circle() {
        let root = krate(&[
            (
                "lib.rs",
                "pub mod a;\npub mod b;\npub mod leaf;\npub use a::A;\npub use leaf::Shared;\n",
            ),
            ("a.rs", "use crate::Shared;\nuse crate::b;\npub struct A;\n"),
            (
                "b.rs",
                "use crate::leaf::Shared;\npub fn f() {}\n#[cfg(test)]\nmod tests { use super::*; }\n",
            ),
            ("leaf.rs", "pub struct Shared;\n"),
        ]);
        assert!(names(&root).is_empty(), "{:?}", names(&root));
    }
}

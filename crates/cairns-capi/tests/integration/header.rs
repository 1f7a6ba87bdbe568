//! The CI check that `include/cairns.h` is what cbindgen generates from the
//! crate: a change to the API that does not regenerate the header fails
//! here.

use std::path::Path;

#[test]
fn the_checked_in_header_is_what_cbindgen_generates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).unwrap();
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read the crate")
        .write(&mut generated);
    let path = dir.join("include/cairns.h");
    if std::env::var_os("CAIRNS_BLESS_HEADER").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "{} differs from what cbindgen generates; write it with \
         CAIRNS_BLESS_HEADER=1 cargo test -p cairns-capi --test integration header",
        path.display()
    );
}

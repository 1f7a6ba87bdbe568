//! Fuzz target: the checks of `cairns_fuzz::osm`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = cairns_fuzz::osm(data);
});

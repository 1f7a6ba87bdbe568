//! Fuzz target: the checks of `cairns_fuzz::scen`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = cairns_fuzz::scen(data);
});

//! The C API's Rust tests: the header check, and the entry points called
//! as C calls them (handles, buffers, error codes), against the library.

mod api;
mod graph;
mod header;

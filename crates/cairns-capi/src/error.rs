//! Status codes, the thread's last error message, and the guard every
//! entry point runs in.

use std::cell::RefCell;
use std::error::Error;
use std::ffi::{CStr, CString, c_char};
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a function of the C API returns: 0 on success, positive for an
/// answer that is not an error, negative for an error (its message is
/// [`cairns_last_error`]'s).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[expect(non_camel_case_types, reason = "the C names are the API")]
pub enum cairns_status {
    /// Done.
    CAIRNS_OK = 0,
    /// The search finished: there is no path (the cost is `INFINITY`).
    CAIRNS_NO_PATH = 1,
    /// A budgeted search stopped before it finished (its best node so far
    /// is reported).
    CAIRNS_PAUSED = 2,
    /// A required pointer argument is NULL.
    CAIRNS_ERR_NULL = -1,
    /// A handle is not of the kind the function takes (another kind of
    /// handle, or one already freed).
    CAIRNS_ERR_HANDLE = -2,
    /// A bad argument: a length that does not match the grid, an unknown
    /// movement, a bad cost, a budget that is NaN.
    CAIRNS_ERR_ARGUMENT = -3,
    /// A malformed `.map` file or text (the message names the line).
    CAIRNS_ERR_PARSE = -4,
    /// A file could not be read.
    CAIRNS_ERR_IO = -5,
    /// A search spec that does not parse or does not fit the map
    /// (`"jps"` on a 4-connected map).
    CAIRNS_ERR_SPEC = -6,
    /// A point off the map or on a wall.
    CAIRNS_ERR_ENDPOINT = -7,
    /// Something the library does not do: a budget for a search that
    /// takes none.
    CAIRNS_ERR_UNSUPPORTED = -8,
    /// A saved table that is malformed, or for another map or search.
    CAIRNS_ERR_TABLE = -9,
    /// An output buffer is too small; the length needed was written back.
    CAIRNS_ERR_BUFFER_TOO_SMALL = -10,
    /// A bug: the library panicked (the panic was caught and the message
    /// kept).
    CAIRNS_ERR_PANIC = -11,
}

use cairns_status::{CAIRNS_ERR_IO, CAIRNS_ERR_NULL, CAIRNS_ERR_PANIC};

impl cairns_status {
    /// Every code.
    const ALL: [cairns_status; 14] = [
        cairns_status::CAIRNS_OK,
        cairns_status::CAIRNS_NO_PATH,
        cairns_status::CAIRNS_PAUSED,
        cairns_status::CAIRNS_ERR_NULL,
        cairns_status::CAIRNS_ERR_HANDLE,
        cairns_status::CAIRNS_ERR_ARGUMENT,
        cairns_status::CAIRNS_ERR_PARSE,
        cairns_status::CAIRNS_ERR_IO,
        cairns_status::CAIRNS_ERR_SPEC,
        cairns_status::CAIRNS_ERR_ENDPOINT,
        cairns_status::CAIRNS_ERR_UNSUPPORTED,
        cairns_status::CAIRNS_ERR_TABLE,
        cairns_status::CAIRNS_ERR_BUFFER_TOO_SMALL,
        cairns_status::CAIRNS_ERR_PANIC,
    ];

    /// The name of the code, as in the header.
    fn name(self) -> &'static CStr {
        match self {
            cairns_status::CAIRNS_OK => c"CAIRNS_OK",
            cairns_status::CAIRNS_NO_PATH => c"CAIRNS_NO_PATH",
            cairns_status::CAIRNS_PAUSED => c"CAIRNS_PAUSED",
            cairns_status::CAIRNS_ERR_NULL => c"CAIRNS_ERR_NULL",
            cairns_status::CAIRNS_ERR_HANDLE => c"CAIRNS_ERR_HANDLE",
            cairns_status::CAIRNS_ERR_ARGUMENT => c"CAIRNS_ERR_ARGUMENT",
            cairns_status::CAIRNS_ERR_PARSE => c"CAIRNS_ERR_PARSE",
            cairns_status::CAIRNS_ERR_IO => c"CAIRNS_ERR_IO",
            cairns_status::CAIRNS_ERR_SPEC => c"CAIRNS_ERR_SPEC",
            cairns_status::CAIRNS_ERR_ENDPOINT => c"CAIRNS_ERR_ENDPOINT",
            cairns_status::CAIRNS_ERR_UNSUPPORTED => c"CAIRNS_ERR_UNSUPPORTED",
            cairns_status::CAIRNS_ERR_TABLE => c"CAIRNS_ERR_TABLE",
            cairns_status::CAIRNS_ERR_BUFFER_TOO_SMALL => c"CAIRNS_ERR_BUFFER_TOO_SMALL",
            cairns_status::CAIRNS_ERR_PANIC => c"CAIRNS_ERR_PANIC",
        }
    }
}

/// An error on its way to the caller: its code and message.
#[derive(Debug)]
pub(crate) struct Failure {
    pub status: cairns_status,
    pub message: String,
}

impl Failure {
    pub fn new(status: cairns_status, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// `error` with the CLI's message (anyhow's `{:#}`: the error and its
    /// sources joined by `": "`), as `status`, or as
    /// `CAIRNS_ERR_IO` when an I/O error is
    /// among its sources.
    pub fn of(status: cairns_status, error: &(dyn Error + 'static)) -> Failure {
        let mut message = error.to_string();
        let mut io = error.is::<io::Error>();
        let mut source = error.source();
        while let Some(e) = source {
            message.push_str(": ");
            message.push_str(&e.to_string());
            io |= e.is::<io::Error>();
            source = e.source();
        }
        Failure::new(if io { CAIRNS_ERR_IO } else { status }, message)
    }

    /// A NULL pointer where `what` was required.
    pub fn null(what: &str) -> Failure {
        Failure::new(CAIRNS_ERR_NULL, format!("{what} is NULL"))
    }
}

pub(crate) type Result<T> = std::result::Result<T, Failure>;

thread_local! {
    /// The message of the last error on this thread.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // A message with a NUL inside (a file name can hold one only on
    // platforms that would refuse it) is cut there.
    let bytes = message.as_bytes();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let text = CString::new(&bytes[..end]).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// Runs `body` for an entry point: its error becomes the thread's last
/// error and its code, a panic becomes
/// `CAIRNS_ERR_PANIC` with the panic's
/// message.
pub(crate) fn guard(body: impl FnOnce() -> Result<cairns_status>) -> cairns_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(status)) => status,
        Ok(Err(failure)) => {
            set_last_error(&failure.message);
            failure.status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            set_last_error(&format!("internal error (a bug in cairns): {what}"));
            CAIRNS_ERR_PANIC
        }
    }
}

/// [`guard`] for the functions that return a value rather than a status:
/// `fallback` on an error (whose message is kept as the last error).
pub(crate) fn guard_value<T>(fallback: T, body: impl FnOnce() -> Result<T>) -> T {
    let mut value = None;
    guard(|| {
        value = Some(body()?);
        Ok(cairns_status::CAIRNS_OK)
    });
    value.unwrap_or(fallback)
}

/// The message of the last error on the calling thread (empty when there
/// was none): a NUL-terminated string owned by the library, valid until the
/// next call into the library on this thread. Functions that succeed leave
/// it as it was.
#[unsafe(no_mangle)]
pub extern "C" fn cairns_last_error() -> *const c_char {
    catch_unwind(|| LAST_ERROR.with(|last| last.borrow().as_ptr())).unwrap_or(c"".as_ptr())
}

/// The name of a status code (`"CAIRNS_NO_PATH"`), a static NUL-terminated
/// string; `"CAIRNS_UNKNOWN"` for a value that is not a code.
#[unsafe(no_mangle)]
pub extern "C" fn cairns_status_name(status: i32) -> *const c_char {
    cairns_status::ALL
        .into_iter()
        .find(|&s| s as i32 == status)
        .map_or(c"CAIRNS_UNKNOWN", cairns_status::name)
        .as_ptr()
}

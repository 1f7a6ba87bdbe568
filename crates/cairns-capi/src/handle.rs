//! Opaque handles and the pointers C passes in: each handle starts with a
//! tag naming its kind, so a handle of another kind (or a freed one, whose
//! tag was cleared) is refused instead of misread; arrays and out-pointers
//! are checked for NULL and for lengths a slice cannot have.

use crate::error::{Failure, Result, cairns_status, guard};

/// A value behind a C handle: the tag of its kind first (`repr(C)`), so
/// that the tag of any handle can be read before its kind is known.
#[repr(C)]
#[derive(Debug)]
pub struct Handle<T> {
    tag: u64,
    pub(crate) value: T,
}

/// A kind of handle: its tag and its C name.
pub(crate) trait Kind {
    const TAG: u64;
    const NAME: &'static str;
}

/// `value` in a new handle, owned by the caller until it is freed with
/// [`free`].
pub(crate) fn into_raw<T: Kind>(value: T) -> *mut Handle<T> {
    Box::into_raw(Box::new(Handle { tag: T::TAG, value }))
}

/// The tag of the handle at `ptr`, refusing NULL and another kind.
///
/// # Safety
///
/// `ptr` is NULL or points to a live handle made by this library (of any
/// kind).
unsafe fn check<T: Kind>(ptr: *const Handle<T>, what: &str) -> Result<()> {
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: every handle of this library is a `Handle<_>`, `repr(C)` with
    // a `u64` first, so the first 8 bytes of a live handle of any kind are
    // its initialised tag (the caller's contract).
    let tag = unsafe { ptr.cast::<u64>().read() };
    if tag == T::TAG {
        Ok(())
    } else {
        Err(Failure::new(
            cairns_status::CAIRNS_ERR_HANDLE,
            format!(
                "{what} is not a {} (a handle of another kind, or one already freed)",
                T::NAME
            ),
        ))
    }
}

/// The value of the handle `ptr`.
///
/// # Safety
///
/// As [`check`]; the value is not mutated elsewhere while the reference
/// lives (the C API documents which handles may be shared by threads: a
/// map and an engine, whose values are read-only or locked inside).
pub(crate) unsafe fn get<'a, T: Kind>(ptr: *const Handle<T>, what: &str) -> Result<&'a T> {
    // SAFETY: the caller's contract.
    unsafe { check(ptr, what)? };
    // SAFETY: checked non-NULL and of kind `T` above; live by contract.
    Ok(unsafe { &(*ptr).value })
}

/// The value of the handle `ptr`, mutably.
///
/// # Safety
///
/// As [`check`], and no other thread uses the handle meanwhile (a searcher
/// is one thread's at a time, as documented in the header).
pub(crate) unsafe fn get_mut<'a, T: Kind>(ptr: *mut Handle<T>, what: &str) -> Result<&'a mut T> {
    // SAFETY: the caller's contract.
    unsafe { check(ptr, what)? };
    // SAFETY: checked non-NULL and of kind `T` above; live and unshared by
    // contract.
    Ok(unsafe { &mut (*ptr).value })
}

/// Runs a `_free` entry point, as [`make`] runs one that makes a handle:
/// frees the handle `ptr` (NULL does nothing) under [`guard`], clearing
/// its tag first so that a later use of the same pointer is refused while
/// the memory has not been reused.
///
/// # Safety
///
/// As [`check`], and the handle is not used after this call.
pub(crate) unsafe fn free<T: Kind>(ptr: *mut Handle<T>, what: &str) -> cairns_status {
    guard(|| {
        if ptr.is_null() {
            return Ok(cairns_status::CAIRNS_OK);
        }
        // SAFETY: the caller's contract.
        unsafe { check(ptr, what)? };
        // SAFETY: `ptr` came from `into_raw` (its tag says it is a live
        // handle of kind `T`), so it is a `Box` allocation this library
        // owns; the caller gives it up.
        let mut boxed = unsafe { Box::from_raw(ptr) };
        boxed.tag = 0;
        drop(boxed);
        Ok(cairns_status::CAIRNS_OK)
    })
}

/// Writes `value` to the out-pointer `out`.
///
/// # Safety
///
/// `out` is NULL or valid for a write of a `T`.
pub(crate) unsafe fn put<T>(out: *mut T, value: T, what: &str) -> Result<()> {
    if out.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: non-NULL, and valid for a write by the caller's contract.
    unsafe { out.write(value) };
    Ok(())
}

/// Runs `body` for an entry point that makes a handle, as [`guard`] runs
/// any other: a NULL `out` is refused before any work is done, and the
/// value `body` makes is handed to the caller as a new handle in `*out`.
///
/// # Safety
///
/// `out` is NULL or valid for a write.
pub(crate) unsafe fn make<T: Kind>(
    out: *mut *mut Handle<T>, body: impl FnOnce() -> Result<T>,
) -> cairns_status {
    guard(|| {
        need(out, "out")?;
        let value = body()?;
        // SAFETY: non-NULL, and valid for a write by the caller's contract.
        unsafe { out.write(into_raw(value)) };
        Ok(cairns_status::CAIRNS_OK)
    })
}

/// Refuses a NULL out-pointer before any work is done.
pub(crate) fn need<T>(out: *mut T, what: &str) -> Result<()> {
    if out.is_null() {
        Err(Failure::null(what))
    } else {
        Ok(())
    }
}

/// Refuses a length that no slice of `T` can have.
fn check_len<T>(len: usize, what: &str) -> Result<()> {
    if len
        .checked_mul(size_of::<T>().max(1))
        .is_some_and(|b| isize::try_from(b).is_ok())
    {
        Ok(())
    } else {
        Err(Failure::new(
            cairns_status::CAIRNS_ERR_ARGUMENT,
            format!("{what}: a length of {len} is larger than any array"),
        ))
    }
}

/// The `len` values at `ptr` (NULL is allowed when `len` is 0).
///
/// # Safety
///
/// `ptr` is NULL or valid for reads of `len` values of `T`, not written
/// meanwhile.
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Result<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    check_len::<T>(len, what)?;
    // SAFETY: non-NULL, valid for `len` reads by the caller's contract,
    // and `len` values fit in `isize::MAX` bytes (checked above).
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// The caller's buffer of `capacity` values at `ptr` (NULL is allowed when
/// `capacity` is 0: a call that only asks for the length needed).
///
/// # Safety
///
/// `ptr` is NULL or valid for writes of `capacity` values of `T`, not
/// accessed elsewhere meanwhile.
pub(crate) unsafe fn buffer<'a, T>(
    ptr: *mut T, capacity: usize, what: &str,
) -> Result<&'a mut [T]> {
    if capacity == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    check_len::<T>(capacity, what)?;
    // SAFETY: non-NULL, valid for `capacity` writes by the caller's
    // contract, and within `isize::MAX` bytes (checked above).
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, capacity) })
}

/// Copies `values` into `out` when it holds them all; otherwise
/// `CAIRNS_ERR_BUFFER_TOO_SMALL` naming `what` and the sizes in `unit`s of
/// `per` values. The caller has written the length needed back already.
pub(crate) fn fill<T: Copy>(
    out: &mut [T], values: &[T], what: &str, (unit, per): (&str, usize),
) -> Result<()> {
    match out.get_mut(..values.len()) {
        Some(head) => {
            head.copy_from_slice(values);
            Ok(())
        }
        None => Err(Failure::new(
            cairns_status::CAIRNS_ERR_BUFFER_TOO_SMALL,
            format!(
                "{what} needs {} {unit}, the buffer holds {}",
                values.len() / per,
                out.len() / per
            ),
        )),
    }
}

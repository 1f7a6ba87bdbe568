//! Drawing for cairns' pictures: the maps of `cairns render` and the charts
//! of the benchmark reports.
//!
//! A [`Canvas`] is an RGB image in memory. It draws filled rectangles,
//! discs, upward triangles, square points and thick lines, all clipped to
//! the image; text in one
//! built-in 5x7 bitmap font, scaled by a whole factor, left to right or
//! reading upwards; and writes itself as an 8-bit RGB PNG, to any writer or
//! to a file. Coordinates are pixels from the top-left corner and may lie
//! outside the image.
//!
//! # Example
//!
//! ```
//! use cairns_draw::{Canvas, text_height, text_width};
//!
//! let mut canvas = Canvas::new(120, 40, [255, 255, 255]);
//! canvas.fill_rect(4, 4, 10, 10, [230, 0, 0]);
//! canvas.line((4, 30), (100, 30), 2, [0, 0, 0]);
//! canvas.text(20, 4, "cost 16", 2, [20, 20, 20]);
//! assert_eq!((text_width("cost 16", 2), text_height(2)), (82, 14));
//! assert_eq!(canvas.pixel(5, 5), Some([230, 0, 0]));
//!
//! let mut png = Vec::new();
//! canvas.write_png(&mut png)?;
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), cairns_draw::PngError>(())
//! ```
//!
//! The font has the digits, the capital letters (lower case is drawn as
//! capitals), the space and `, . : ; ( ) - _ + = / % * < >`; any other
//! character is drawn as `?`.

#![deny(missing_docs)]

mod canvas;
mod font;
mod png;

pub use canvas::{Canvas, Rgb};
pub use font::{text_height, text_width};
pub use png::PngError;

/// The colour the modules' tests draw with.
#[cfg(test)]
const INK: Rgb = [9, 8, 7];

/// The background of the modules' tests.
#[cfg(test)]
const PAPER: Rgb = [250, 250, 250];

/// The coordinates of every pixel of `color`, row by row: what the modules'
/// tests check drawings against.
#[cfg(test)]
fn painted(canvas: &Canvas, color: Rgb) -> Vec<(u32, u32)> {
    (0..canvas.height())
        .flat_map(|y| (0..canvas.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| canvas.pixel(x, y) == Some(color))
        .collect()
}

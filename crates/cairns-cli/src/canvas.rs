//! A small RGB canvas for `cairns render`: filled rectangles, a built-in
//! 5x7 bitmap font and PNG output through the `png` crate.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use anyhow::Context;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// A `width` x `height` image, 3 bytes per pixel, rows from the top.
#[derive(Debug)]
pub struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

/// Width of a glyph in font pixels, and the advance including the gap.
const GLYPH_W: u32 = 5;
const GLYPH_H: u32 = 7;
const ADVANCE: u32 = 6;

impl Canvas {
    /// A canvas filled with `background`.
    pub fn new(width: u32, height: u32, background: Rgb) -> Canvas {
        let n = width as usize * height as usize;
        let mut pixels = Vec::with_capacity(n * 3);
        for _ in 0..n {
            pixels.extend_from_slice(&background);
        }
        Canvas {
            width,
            height,
            pixels,
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// Mutable access to the raw RGB bytes (row-major, 3 per pixel).
    pub fn pixels_mut(&mut self) -> &mut [u8] {
        &mut self.pixels
    }

    /// Fills the rectangle `[x, x + w) x [y, y + h)`, clipped to the canvas.
    pub fn fill_rect(&mut self, x: i64, y: i64, w: u32, h: u32, color: Rgb) {
        let x0 = x.clamp(0, i64::from(self.width)) as usize;
        let y0 = y.clamp(0, i64::from(self.height)) as usize;
        let x1 = (x + i64::from(w)).clamp(0, i64::from(self.width)) as usize;
        let y1 = (y + i64::from(h)).clamp(0, i64::from(self.height)) as usize;
        let stride = self.width as usize * 3;
        for row in y0..y1 {
            for px in self.pixels[row * stride + x0 * 3..row * stride + x1 * 3].chunks_exact_mut(3)
            {
                px.copy_from_slice(&color);
            }
        }
    }

    /// The width in pixels of `text` drawn at `scale`.
    pub fn text_width(text: &str, scale: u32) -> u32 {
        (text.chars().count() as u32 * ADVANCE).saturating_sub(ADVANCE - GLYPH_W) * scale
    }

    /// The height in pixels of a line of text at `scale`.
    pub fn text_height(scale: u32) -> u32 {
        GLYPH_H * scale
    }

    /// Draws `text` with its top-left corner at `(x, y)`, each font pixel a
    /// `scale` x `scale` square. Lower-case letters are drawn as capitals;
    /// characters without a glyph as `?`.
    pub fn text(&mut self, x: i64, y: i64, text: &str, scale: u32, color: Rgb) {
        let mut cx = x;
        for ch in text.chars() {
            let rows = glyph(ch);
            for (dy, bits) in rows.iter().enumerate() {
                for dx in 0..GLYPH_W {
                    if bits & (1 << (GLYPH_W - 1 - dx)) != 0 {
                        self.fill_rect(
                            cx + i64::from(dx * scale),
                            y + (dy as i64) * i64::from(scale),
                            scale,
                            scale,
                            color,
                        );
                    }
                }
            }
            cx += i64::from(ADVANCE * scale);
        }
    }

    /// Writes the canvas as an 8-bit RGB PNG.
    pub fn write_png(&self, path: &Path) -> anyhow::Result<()> {
        let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
        let mut encoder = png::Encoder::new(BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder
            .write_header()
            .with_context(|| format!("writing {}", path.display()))?;
        writer
            .write_image_data(&self.pixels)
            .with_context(|| format!("writing {}", path.display()))?;
        writer
            .finish()
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }
}

/// The 5x7 glyph of `ch`: seven rows, the low five bits of each, the
/// leftmost pixel in bit 4.
fn glyph(ch: char) -> [u8; 7] {
    match ch.to_ascii_uppercase() {
        ' ' => [0; 7],
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        'A' => [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'B' => [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E],
        'C' => [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E],
        'D' => [0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C],
        'E' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        'F' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        'G' => [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F],
        'H' => [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'I' => [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E],
        'J' => [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
        'K' => [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
        'L' => [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        'M' => [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11],
        'N' => [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
        'O' => [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'P' => [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        'Q' => [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D],
        'R' => [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        'S' => [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E],
        'T' => [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        'U' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'V' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        'W' => [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A],
        'X' => [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        'Y' => [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04],
        'Z' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F],
        ',' => [0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08],
        '.' => [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C],
        ':' => [0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00],
        '(' => [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
        ')' => [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08],
        '-' => [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00],
        '+' => [0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00],
        '=' => [0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00],
        '/' => [0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00],
        '%' => [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
        '_' => [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F],
        _ => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_sets_pixels_inside_its_box_only() {
        let mut c = Canvas::new(40, 10, [0, 0, 0]);
        c.text(1, 1, "10", 1, [255, 255, 255]);
        let lit: Vec<(u32, u32)> = (0..10)
            .flat_map(|y| (0..40).map(move |x| (x, y)))
            .filter(|&(x, y)| c.pixels[(y * 40 + x) as usize * 3] == 255)
            .collect();
        assert!(!lit.is_empty());
        let w = Canvas::text_width("10", 1);
        assert_eq!(w, 11);
        assert!(
            lit.iter()
                .all(|&(x, y)| (1..1 + w).contains(&x) && (1..8).contains(&y))
        );
    }

    #[test]
    fn fill_rect_clips() {
        let mut c = Canvas::new(4, 4, [0, 0, 0]);
        c.fill_rect(-2, 3, 10, 10, [9, 9, 9]);
        assert_eq!(c.pixels.chunks(3).filter(|p| p == &[9, 9, 9]).count(), 4);
    }
}

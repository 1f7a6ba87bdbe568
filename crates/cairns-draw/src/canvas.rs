//! The RGB image being drawn on, and its shapes: rectangles, points, lines.

/// An RGB colour, 8 bits per channel.
pub type Rgb = [u8; 3];

/// A `width` x `height` RGB image, 3 bytes per pixel, rows from the top.
///
/// Every drawing method takes signed coordinates and clips to the image, so
/// shapes may start left of or above it, or run past its edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A canvas filled with `background`.
    ///
    /// # Panics
    ///
    /// When `width * height * 3` bytes do not fit in memory.
    pub fn new(width: u32, height: u32, background: Rgb) -> Canvas {
        let n = (width as usize)
            .checked_mul(height as usize)
            .expect("canvas size overflows usize");
        Canvas {
            width,
            height,
            pixels: background.repeat(n),
        }
    }

    /// The width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The raw RGB bytes: row-major from the top-left, 3 per pixel.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The colour at `(x, y)`, or `None` outside the canvas.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgb> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        Some([self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]])
    }

    /// Fills the rectangle `[x, x + w) x [y, y + h)`, clipped to the canvas.
    pub fn fill_rect(&mut self, x: i64, y: i64, w: u32, h: u32, color: Rgb) {
        let clip = |v: i64, size: u32| v.clamp(0, i64::from(size)) as usize;
        let (x0, x1) = (
            clip(x, self.width),
            clip(x.saturating_add(i64::from(w)), self.width),
        );
        let (y0, y1) = (
            clip(y, self.height),
            clip(y.saturating_add(i64::from(h)), self.height),
        );
        let stride = self.width as usize * 3;
        for row in y0..y1 {
            let span = &mut self.pixels[row * stride + x0 * 3..row * stride + x1 * 3];
            for px in span.chunks_exact_mut(3) {
                px.copy_from_slice(&color);
            }
        }
    }

    /// A square dot of side `size` centred on `(x, y)`; for an even side the
    /// extra row and column are above and left of the centre. A size of 1 is
    /// the single pixel, 0 draws nothing.
    pub fn point(&mut self, x: i64, y: i64, size: u32, color: Rgb) {
        let back = i64::from(size / 2);
        self.fill_rect(x - back, y - back, size, size, color);
    }

    /// A filled disc of radius `r` centred on `(x, y)`: every pixel whose
    /// centre lies within `r + 0.5` of `(x, y)`. A radius of 0 is the
    /// single pixel.
    pub fn fill_circle(&mut self, x: i64, y: i64, r: u32, color: Rgb) {
        let r = i64::from(r);
        let limit = r * r + r;
        for dy in -r..=r {
            // The widest span of this row inside the circle.
            let mut dx = 0;
            while (dx + 1) * (dx + 1) + dy * dy <= limit {
                dx += 1;
            }
            self.fill_rect(x - dx, y + dy, (2 * dx + 1) as u32, 1, color);
        }
    }

    /// A filled triangle pointing up, of half-width `r`, its apex `r`
    /// pixels above `(x, y)` and its base `r` pixels below: each row from
    /// the apex down is one pixel wider on each side every two rows.
    pub fn fill_triangle_up(&mut self, x: i64, y: i64, r: u32, color: Rgb) {
        let r = i64::from(r);
        for dy in 0..=2 * r {
            let half = dy / 2;
            self.fill_rect(x - half, y - r + dy, (2 * half + 1) as u32, 1, color);
        }
    }

    /// A straight line from `from` to `to`, both ends included, drawn with a
    /// square pen of side `thickness` (a [`point`](Canvas::point) at every
    /// pixel of Bresenham's line).
    ///
    /// Takes time proportional to the line's length in pixels, including any
    /// part outside the canvas.
    pub fn line(&mut self, from: (i64, i64), to: (i64, i64), thickness: u32, color: Rgb) {
        let ((x0, y0), (x1, y1)) = (from, to);
        let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
        let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
        let (mut x, mut y, mut err) = (x0, y0, dx + dy);
        loop {
            self.point(x, y, thickness, color);
            if x == x1 && y == y1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Canvas;
    use crate::{INK, PAPER, painted};

    #[test]
    fn new_fills_every_pixel_with_the_background() {
        let c = Canvas::new(3, 2, [1, 2, 3]);
        assert_eq!((c.width(), c.height()), (3, 2));
        assert_eq!(c.pixels(), [1, 2, 3].repeat(6).as_slice());
        assert_eq!(c.pixel(2, 1), Some([1, 2, 3]));
        assert_eq!(c.pixel(3, 0), None);
        assert_eq!(c.pixel(0, 2), None);
    }

    #[test]
    fn fill_rect_paints_exactly_its_rectangle() {
        let mut c = Canvas::new(6, 5, PAPER);
        c.fill_rect(1, 2, 3, 2, INK);
        assert_eq!(
            painted(&c, INK),
            [(1, 2), (2, 2), (3, 2), (1, 3), (2, 3), (3, 3)]
        );
        assert_eq!(painted(&c, PAPER).len(), 30 - 6);
    }

    #[test]
    fn fill_rect_clips_at_every_edge() {
        let mut c = Canvas::new(4, 4, PAPER);
        c.fill_rect(-2, 3, 10, 10, INK);
        assert_eq!(painted(&c, INK), [(0, 3), (1, 3), (2, 3), (3, 3)]);
        // Wholly outside, or reaching as far as i64 goes: no panic.
        c.fill_rect(-10, -10, 5, 5, [1, 1, 1]);
        c.fill_rect(4, 0, 3, 3, [1, 1, 1]);
        c.fill_rect(i64::MAX - 1, i64::MAX - 1, u32::MAX, u32::MAX, [1, 1, 1]);
        c.fill_rect(i64::MIN, i64::MIN, u32::MAX, u32::MAX, [1, 1, 1]);
        assert!(painted(&c, [1, 1, 1]).is_empty());
    }

    #[test]
    fn point_is_centred_with_the_extra_pixel_up_and_left() {
        let mut c = Canvas::new(7, 7, PAPER);
        c.point(3, 3, 3, INK);
        let square: Vec<(u32, u32)> = (2..5).flat_map(|y| (2..5).map(move |x| (x, y))).collect();
        assert_eq!(painted(&c, INK), square);

        let mut c = Canvas::new(7, 7, PAPER);
        c.point(3, 3, 2, INK);
        assert_eq!(painted(&c, INK), [(2, 2), (3, 2), (2, 3), (3, 3)]);
        c.point(0, 6, 1, [1, 1, 1]);
        assert_eq!(painted(&c, [1, 1, 1]), [(0, 6)]);
        c.point(5, 5, 0, [2, 2, 2]);
        assert!(painted(&c, [2, 2, 2]).is_empty());
    }

    #[test]
    fn line_covers_both_ends_and_one_pixel_per_column_when_flat() {
        let mut c = Canvas::new(10, 5, PAPER);
        c.line((1, 1), (8, 3), 1, INK);
        let lit = painted(&c, INK);
        assert!(lit.contains(&(1, 1)) && lit.contains(&(8, 3)), "{lit:?}");
        // A shallow line has exactly one pixel in each column it spans.
        for x in 0..10 {
            let in_column = lit.iter().filter(|p| p.0 == x).count();
            assert_eq!(in_column, usize::from((1..=8).contains(&x)), "column {x}");
        }
    }

    #[test]
    fn line_is_the_same_drawn_either_way_and_thick_lines_are_wider() {
        let mut a = Canvas::new(12, 12, PAPER);
        let mut b = Canvas::new(12, 12, PAPER);
        a.line((2, 9), (9, 2), 1, INK);
        b.line((9, 2), (2, 9), 1, INK);
        assert_eq!(a, b);
        assert_eq!(painted(&a, INK).len(), 8);

        let mut v = Canvas::new(9, 9, PAPER);
        v.line((4, 1), (4, 7), 3, INK);
        let lit = painted(&v, INK);
        let band: Vec<(u32, u32)> = (0..9).flat_map(|y| (3..6).map(move |x| (x, y))).collect();
        assert_eq!(lit, band);
    }

    /// How many of the pixels `lit` lie in each row of `rows`.
    fn row_widths(lit: &[(u32, u32)], rows: std::ops::RangeInclusive<u32>) -> Vec<usize> {
        rows.map(|y| lit.iter().filter(|p| p.1 == y).count())
            .collect()
    }

    #[test]
    fn circles_are_round_and_symmetric() {
        let mut c = Canvas::new(11, 11, PAPER);
        c.fill_circle(5, 5, 3, INK);
        let lit = painted(&c, INK);
        // Radius 3: rows of 3, 5, 7, 7, 7, 5, 3 pixels.
        assert_eq!(row_widths(&lit, 2..=8), [3, 5, 7, 7, 7, 5, 3]);
        assert!(
            lit.iter()
                .all(|&(x, y)| (10 - x, 10 - y) == (x, y) || lit.contains(&(10 - x, 10 - y)))
        );
        let mut one = Canvas::new(3, 3, PAPER);
        one.fill_circle(1, 1, 0, INK);
        assert_eq!(painted(&one, INK), [(1, 1)]);
    }

    #[test]
    fn triangles_widen_downwards() {
        let mut c = Canvas::new(9, 9, PAPER);
        c.fill_triangle_up(4, 4, 2, INK);
        let lit = painted(&c, INK);
        assert_eq!(row_widths(&lit, 2..=6), [1, 1, 3, 3, 5]);
    }

    #[test]
    fn line_clips_outside_the_canvas() {
        let mut c = Canvas::new(5, 5, PAPER);
        c.line((-20, 2), (20, 2), 1, INK);
        assert_eq!(painted(&c, INK), [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]);
    }
}

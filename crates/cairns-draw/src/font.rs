//! The built-in 5x7 bitmap font and text drawing.
//!
//! Glyphs are 5 font pixels wide and 7 high, one column apart; at `scale`
//! each font pixel is a `scale` x `scale` square.

use crate::canvas::{Canvas, Rgb};

/// Width of a glyph in font pixels.
const GLYPH_W: u32 = 5;
/// Height of a glyph in font pixels.
const GLYPH_H: u32 = 7;
/// From one glyph to the next: the glyph and a one-pixel gap.
const ADVANCE: u32 = GLYPH_W + 1;

/// The width in pixels of `text` drawn at `scale`: the glyphs and the gaps
/// between them, none after the last.
pub fn text_width(text: &str, scale: u32) -> u32 {
    (text.chars().count() as u32 * ADVANCE).saturating_sub(ADVANCE - GLYPH_W) * scale
}

/// The height in pixels of a line of text at `scale`.
pub fn text_height(scale: u32) -> u32 {
    GLYPH_H * scale
}

impl Canvas {
    /// Draws `text` with the top-left corner of its first glyph at `(x, y)`;
    /// it covers `[x, x + text_width) x [y, y + text_height)`. Lower-case
    /// letters are drawn as capitals, characters without a glyph as `?`.
    pub fn text(&mut self, x: i64, y: i64, text: &str, scale: u32, color: Rgb) {
        let k = i64::from(scale);
        for_each_dot(text, |col, row| {
            self.fill_rect(x + col * k, y + row * k, scale, scale, color);
        });
    }

    /// Draws `text` turned a quarter turn counter-clockwise, reading upwards,
    /// with the bottom-left corner of its first glyph at `(x, y)`; it covers
    /// `[x, x + text_height) x [y - text_width, y)`.
    pub fn text_up(&mut self, x: i64, y: i64, text: &str, scale: u32, color: Rgb) {
        let k = i64::from(scale);
        for_each_dot(text, |col, row| {
            self.fill_rect(x + row * k, y - (col + 1) * k, scale, scale, color);
        });
    }
}

/// Calls `dot(col, row)` for every set font pixel of `text` laid out left to
/// right at scale 1, `(0, 0)` the top-left of the first glyph.
fn for_each_dot(text: &str, mut dot: impl FnMut(i64, i64)) {
    let mut left = 0;
    for ch in text.chars() {
        for (row, bits) in (0..).zip(glyph(ch)) {
            for dx in 0..GLYPH_W {
                if bits & (1 << (GLYPH_W - 1 - dx)) != 0 {
                    dot(left + i64::from(dx), row);
                }
            }
        }
        left += i64::from(ADVANCE);
    }
}

/// The 5x7 glyph of `ch`: seven rows from the top, the low five bits of
/// each, the leftmost pixel in bit 4.
#[rustfmt::skip]
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
        ';' => [0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x04, 0x08],
        '(' => [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
        ')' => [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08],
        '-' => [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00],
        '_' => [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F],
        '+' => [0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00],
        '=' => [0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00],
        '/' => [0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00],
        '%' => [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
        '*' => [0x00, 0x04, 0x15, 0x0E, 0x15, 0x04, 0x00],
        '<' => [0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02],
        '>' => [0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08],
        _ => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04],
    }
}

#[cfg(test)]
mod tests {
    use super::{glyph, text_height, text_width};
    use crate::canvas::Canvas;
    use crate::{INK, PAPER, painted};

    #[test]
    fn text_width_counts_glyphs_and_the_gaps_between_them() {
        assert_eq!(text_width("", 1), 0);
        assert_eq!(text_width("1", 1), 5);
        assert_eq!(text_width("10", 1), 11);
        assert_eq!(text_width("10", 2), 22);
        // Characters, not bytes.
        assert_eq!(text_width("é", 3), 15);
        assert_eq!(text_height(2), 14);
    }

    #[test]
    fn text_draws_the_glyph_bits_at_scale() {
        let mut c = Canvas::new(12, 16, PAPER);
        c.text(1, 1, "T", 2, INK);
        // 'T' is a bar of five font pixels over a stem in the middle column:
        // at scale 2, rows 1..3 are lit from x = 1 to 10 and the stem is
        // x = 5..7 down to y = 14.
        let mut expected: Vec<(u32, u32)> =
            (1..3).flat_map(|y| (1..11).map(move |x| (x, y))).collect();
        expected.extend((3..15).flat_map(|y| (5..7).map(move |x| (x, y))));
        assert_eq!(painted(&c, INK), expected);
    }

    #[test]
    fn text_stays_inside_its_box() {
        let mut c = Canvas::new(40, 10, PAPER);
        c.text(1, 1, "10", 1, INK);
        let lit = painted(&c, INK);
        assert!(!lit.is_empty());
        let w = text_width("10", 1);
        assert!(
            lit.iter()
                .all(|&(x, y)| (1..1 + w).contains(&x) && (1..8).contains(&y)),
            "{lit:?}"
        );
        // The last column of the box is used (the '0' has a right edge).
        assert!(lit.iter().any(|&(x, _)| x == w));
    }

    #[test]
    fn lower_case_is_drawn_as_capitals_and_unknown_characters_as_a_question_mark() {
        assert_eq!(glyph('q'), glyph('Q'));
        let question_mark = [0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04];
        assert_eq!(glyph('~'), question_mark);
        assert_eq!(glyph('?'), question_mark);
        assert_ne!(glyph('*'), glyph('?'));
        assert_ne!(glyph('<'), glyph('>'));
        let mut a = Canvas::new(30, 9, PAPER);
        let mut b = Canvas::new(30, 9, PAPER);
        a.text(0, 0, "dh:4", 1, INK);
        b.text(0, 0, "DH:4", 1, INK);
        assert_eq!(a, b);
    }

    #[test]
    fn text_up_is_text_turned_a_quarter_counter_clockwise() {
        let text = "Ab1";
        let (w, h) = (text_width(text, 2), text_height(2));
        let mut flat = Canvas::new(w, h, PAPER);
        flat.text(0, 0, text, 2, INK);
        let mut up = Canvas::new(h, w, PAPER);
        up.text_up(0, i64::from(w), text, 2, INK);
        // Turning counter-clockwise takes (x, y) to (y, w - 1 - x).
        let mut turned: Vec<(u32, u32)> = painted(&flat, INK)
            .iter()
            .map(|&(x, y)| (y, w - 1 - x))
            .collect();
        turned.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(painted(&up, INK), turned);
    }
}

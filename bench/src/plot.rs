//! A small log-log chart writer for the benchmark reports: points joined by
//! lines, one colour per series, axes with decade ticks and a legend, all
//! drawn with a built-in 5x7 bitmap font into an RGB image and written as
//! PNG. No plotting crate: the benchmark binaries can only use the bench
//! crate's normal dependencies, and this needs nothing but `png`.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// One line of the chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// `(x, y)` points, both positive; others are skipped. Drawn in order,
    /// joined by lines.
    pub points: Vec<(f64, f64)>,
}

/// A log-log chart.
#[derive(Clone, Debug)]
pub struct Chart {
    /// The line above the plot.
    pub title: String,
    /// Under the x axis.
    pub x_label: String,
    /// Above the y axis.
    pub y_label: String,
    /// How to write a tick value of each axis (a power of ten).
    pub x_ticks: fn(f64) -> String,
    /// How to write a tick value of the y axis.
    pub y_ticks: fn(f64) -> String,
    /// The lines, the first drawn last (on top) and thickest.
    pub series: Vec<Series>,
}

/// Width of the image in pixels.
const WIDTH: usize = 1200;
/// Height of the image in pixels.
const HEIGHT: usize = 720;
/// The plot area: left, top, right, bottom edges.
const PLOT: (usize, usize, usize, usize) = (110, 50, 850, 640);
/// Text is drawn at this multiple of the 5x7 font.
const SCALE: usize = 2;

/// Sixteen colours that stay apart on white; the first (black) is for the
/// baseline.
const PALETTE: [[u8; 3]; 16] = [
    [0, 0, 0],
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
    [148, 103, 189],
    [140, 86, 75],
    [227, 119, 194],
    [127, 127, 127],
    [188, 189, 34],
    [23, 190, 207],
    [0, 0, 140],
    [150, 0, 0],
    [0, 120, 120],
    [200, 145, 0],
    [90, 200, 120],
];

/// An RGB image being drawn on.
struct Canvas {
    pixels: Vec<u8>,
}

impl Canvas {
    fn new() -> Self {
        Canvas {
            pixels: vec![255; WIDTH * HEIGHT * 3],
        }
    }

    fn set(&mut self, x: i64, y: i64, rgb: [u8; 3]) {
        if x >= 0 && y >= 0 && (x as usize) < WIDTH && (y as usize) < HEIGHT {
            let i = (y as usize * WIDTH + x as usize) * 3;
            self.pixels[i..i + 3].copy_from_slice(&rgb);
        }
    }

    fn rect(&mut self, x0: i64, y0: i64, w: i64, h: i64, rgb: [u8; 3]) {
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                self.set(x, y, rgb);
            }
        }
    }

    /// A line `thick` pixels wide (Bresenham with a square pen).
    fn line(&mut self, (x0, y0): (i64, i64), (x1, y1): (i64, i64), thick: i64, rgb: [u8; 3]) {
        let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
        let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
        let (mut x, mut y, mut err) = (x0, y0, dx + dy);
        loop {
            self.rect(x - thick / 2, y - thick / 2, thick, thick, rgb);
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

    /// Text with its top-left corner at `(x, y)`.
    fn text(&mut self, x: i64, y: i64, s: &str, rgb: [u8; 3]) {
        let k = SCALE as i64;
        let mut cx = x;
        for ch in s.chars() {
            for (r, bits) in glyph(ch).iter().enumerate() {
                for c in 0..5 {
                    if bits & (0b10000 >> c) != 0 {
                        self.rect(cx + c * k, y + r as i64 * k, k, k, rgb);
                    }
                }
            }
            cx += 6 * k;
        }
    }

    /// Text rotated a quarter turn counter-clockwise, reading upwards, with
    /// the bottom-left of its first letter at `(x, y)`.
    fn text_up(&mut self, x: i64, y: i64, s: &str, rgb: [u8; 3]) {
        let k = SCALE as i64;
        let mut cy = y;
        for ch in s.chars() {
            for (r, bits) in glyph(ch).iter().enumerate() {
                for c in 0..5 {
                    if bits & (0b10000 >> c) != 0 {
                        self.rect(x + r as i64 * k, cy - (c + 1) * k, k, k, rgb);
                    }
                }
            }
            cy -= 6 * k;
        }
    }
}

/// The pixel width of `s` in the chart's font.
fn text_width(s: &str) -> i64 {
    (s.chars().count() * 6 * SCALE) as i64
}

/// Rows of a 5x7 glyph, the high bit of 5 on the left. Lower case is drawn
/// as upper case; characters without a glyph as `?`.
#[rustfmt::skip]
fn glyph(ch: char) -> [u8; 7] {
    match ch.to_ascii_uppercase() {
        'A' => [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        'B' => [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110],
        'C' => [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110],
        'D' => [0b11110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11110],
        'E' => [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111],
        'F' => [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000],
        'G' => [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],
        'H' => [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        'I' => [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        'J' => [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100],
        'K' => [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001],
        'L' => [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
        'M' => [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001],
        'N' => [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001],
        'O' => [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        'P' => [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000],
        'Q' => [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101],
        'R' => [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],
        'S' => [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],
        'T' => [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
        'U' => [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        'V' => [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100],
        'W' => [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010],
        'X' => [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001],
        'Y' => [0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100, 0b00100],
        'Z' => [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111],
        '0' => [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
        '1' => [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        '2' => [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
        '3' => [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],
        '4' => [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
        '5' => [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
        '6' => [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
        '7' => [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
        '8' => [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
        '9' => [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
        ' ' => [0; 7],
        '-' => [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000],
        '_' => [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b11111],
        '.' => [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100],
        ',' => [0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b00100, 0b01000],
        ':' => [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000],
        ';' => [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b00100, 0b01000],
        '(' => [0b00010, 0b00100, 0b01000, 0b01000, 0b01000, 0b00100, 0b00010],
        ')' => [0b01000, 0b00100, 0b00010, 0b00010, 0b00010, 0b00100, 0b01000],
        '/' => [0b00001, 0b00010, 0b00010, 0b00100, 0b01000, 0b01000, 0b10000],
        '<' => [0b00010, 0b00100, 0b01000, 0b10000, 0b01000, 0b00100, 0b00010],
        '>' => [0b01000, 0b00100, 0b00010, 0b00001, 0b00010, 0b00100, 0b01000],
        '=' => [0b00000, 0b00000, 0b11111, 0b00000, 0b11111, 0b00000, 0b00000],
        '+' => [0b00000, 0b00100, 0b00100, 0b11111, 0b00100, 0b00100, 0b00000],
        '*' => [0b00000, 0b00100, 0b10101, 0b01110, 0b10101, 0b00100, 0b00000],
        '%' => [0b11000, 0b11001, 0b00010, 0b00100, 0b01000, 0b10011, 0b00011],
        _ => [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b00000, 0b00100],
    }
}

/// Decades `10^a ..= 10^b` covering `lo..=hi`.
fn decades(lo: f64, hi: f64) -> (i32, i32) {
    let a = lo.log10().floor() as i32;
    let b = (hi.log10().ceil() as i32).max(a + 1);
    (a, b)
}

/// Draws `chart` into an RGB image of [`WIDTH`] x [`HEIGHT`] pixels.
fn render(chart: &Chart) -> Vec<u8> {
    let mut canvas = Canvas::new();
    let points = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|&&(x, y)| x > 0.0 && y > 0.0 && x.is_finite() && y.is_finite());
    let (mut xlo, mut xhi, mut ylo, mut yhi) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points {
        xlo = xlo.min(x);
        xhi = xhi.max(x);
        ylo = ylo.min(y);
        yhi = yhi.max(y);
    }
    if xlo > xhi {
        (xlo, xhi, ylo, yhi) = (1.0, 10.0, 1.0, 10.0);
    }
    let (xa, xb) = decades(xlo, xhi);
    let (ya, yb) = decades(ylo, yhi);
    let (left, top, right, bottom) = (PLOT.0 as i64, PLOT.1 as i64, PLOT.2 as i64, PLOT.3 as i64);
    let px = |x: f64| {
        left + ((x.log10() - f64::from(xa)) / f64::from(xb - xa) * (right - left) as f64).round()
            as i64
    };
    let py = |y: f64| {
        bottom
            - ((y.log10() - f64::from(ya)) / f64::from(yb - ya) * (bottom - top) as f64).round()
                as i64
    };
    let grid = [225, 225, 225];
    let ink = [0, 0, 0];
    let tick_h = (7 * SCALE) as i64;

    // Grid lines at each decade (and lighter ones at 2x and 5x), then labels.
    for d in xa..=xb {
        let x = px(10f64.powi(d));
        canvas.line((x, top), (x, bottom), 1, grid);
        let label = (chart.x_ticks)(10f64.powi(d));
        canvas.text(x - text_width(&label) / 2, bottom + 10, &label, ink);
        if d < xb {
            for m in [2.0, 5.0] {
                let x = px(m * 10f64.powi(d));
                canvas.line((x, top), (x, bottom), 1, [242, 242, 242]);
            }
        }
    }
    for d in ya..=yb {
        let y = py(10f64.powi(d));
        canvas.line((left, y), (right, y), 1, grid);
        let label = (chart.y_ticks)(10f64.powi(d));
        canvas.text(left - 10 - text_width(&label), y - tick_h / 2, &label, ink);
        if d < yb {
            for m in [2.0, 5.0] {
                let y = py(m * 10f64.powi(d));
                canvas.line((left, y), (right, y), 1, [242, 242, 242]);
            }
        }
    }
    canvas.line((left, top), (left, bottom), 2, ink);
    canvas.line((left, bottom), (right, bottom), 2, ink);
    canvas.line((right, top), (right, bottom), 1, ink);
    canvas.line((left, top), (right, top), 1, ink);

    canvas.text(left, 12, &chart.title, ink);
    canvas.text(
        i64::midpoint(left, right) - text_width(&chart.x_label) / 2,
        bottom + 20 + tick_h,
        &chart.x_label,
        ink,
    );
    canvas.text_up(
        14,
        i64::midpoint(top, bottom) + text_width(&chart.y_label) / 2,
        &chart.y_label,
        ink,
    );

    // Series, the first (the baseline) last so that it stays on top.
    for (i, series) in chart.series.iter().enumerate().rev() {
        let colour = PALETTE[i % PALETTE.len()];
        let thick = if i == 0 { 3 } else { 2 };
        let pts: Vec<(i64, i64)> = series
            .points
            .iter()
            .filter(|&&(x, y)| x > 0.0 && y > 0.0 && x.is_finite() && y.is_finite())
            .map(|&(x, y)| (px(x), py(y)))
            .collect();
        for w in pts.windows(2) {
            canvas.line(w[0], w[1], thick, colour);
        }
        for &(x, y) in &pts {
            canvas.rect(x - 3, y - 3, 7, 7, colour);
        }
    }

    // The legend, right of the plot, in series order.
    let lx = right + 20;
    let row = (tick_h + 10).max(20);
    for (i, series) in chart.series.iter().enumerate() {
        let y = top + i as i64 * row;
        let colour = PALETTE[i % PALETTE.len()];
        canvas.line((lx, y + tick_h / 2), (lx + 24, y + tick_h / 2), 3, colour);
        canvas.rect(lx + 9, y + tick_h / 2 - 3, 7, 7, colour);
        canvas.text(lx + 32, y, &series.name, ink);
    }
    canvas.pixels
}

/// Draws `chart` and writes it to `path` as an RGB PNG.
///
/// # Errors
///
/// When the file cannot be created or written.
pub fn write_png(chart: &Chart, path: &Path) -> io::Result<()> {
    let pixels = render(chart);
    let file = BufWriter::new(File::create(path)?);
    let mut encoder = png::Encoder::new(file, WIDTH as u32, HEIGHT as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    writer.write_image_data(&pixels).map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)
}

/// Writes a count as `10`, `100`, `1k`, `10k`, `1M`.
pub fn count_tick(v: f64) -> String {
    if v >= 1e6 {
        format!("{}M", v / 1e6)
    } else if v >= 1e3 {
        format!("{}k", v / 1e3)
    } else {
        format!("{v}")
    }
}

/// Writes seconds as `1us`, `10us`, `1ms`, `1s`.
pub fn seconds_tick(v: f64) -> String {
    if v >= 1.0 {
        format!("{v}s")
    } else if v >= 1e-3 {
        format!("{}ms", (v * 1e3).round())
    } else if v >= 1e-6 {
        format!("{}us", (v * 1e6).round())
    } else {
        format!("{}ns", (v * 1e9).round())
    }
}

#[cfg(test)]
mod tests {
    use super::{Chart, HEIGHT, Series, WIDTH, count_tick, render, seconds_tick};

    #[test]
    fn renders_every_series_in_its_colour() {
        let chart = Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_ticks: count_tick,
            y_ticks: seconds_tick,
            series: vec![
                Series {
                    name: "a".into(),
                    points: vec![(10.0, 1e-5), (1000.0, 1e-3)],
                },
                Series {
                    name: "b".into(),
                    points: vec![(10.0, 2e-5), (0.0, 1.0), (1000.0, 3e-3)],
                },
            ],
        };
        let pixels = render(&chart);
        assert_eq!(pixels.len(), WIDTH * HEIGHT * 3);
        let blue = pixels.chunks(3).filter(|p| p == &[31, 119, 180]).count();
        assert!(blue > 100, "series b drawn with {blue} pixels");
    }

    #[test]
    fn ticks_read_naturally() {
        assert_eq!(count_tick(10_000.0), "10k");
        assert_eq!(count_tick(100.0), "100");
        assert_eq!(seconds_tick(1e-5), "10us");
        assert_eq!(seconds_tick(0.1), "100ms");
        assert_eq!(seconds_tick(1.0), "1s");
    }
}

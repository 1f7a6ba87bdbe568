//! A small log-log chart writer for the benchmark reports: points joined by
//! lines, one colour per series, axes with decade ticks and a legend, drawn
//! with `cairns-draw` (the canvas, font and PNG output of `cairns render`).
//! No plotting crate: the benchmark binaries can only use the bench crate's
//! normal dependencies, and this needs nothing more.

use std::path::Path;

use cairns_draw::{Canvas, PngError, Rgb, text_height, text_width};

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
const WIDTH: u32 = 1200;
/// Height of the image in pixels.
const HEIGHT: u32 = 720;
/// The plot area: left, top, right, bottom edges.
const PLOT: (i64, i64, i64, i64) = (110, 50, 850, 640);
/// Text is drawn at this multiple of the 5x7 font.
const SCALE: u32 = 2;

/// Axes and text.
const INK: Rgb = [0, 0, 0];

/// Sixteen colours that stay apart on white; the first (black) is for the
/// baseline.
const PALETTE: [Rgb; 16] = [
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

/// Decades `10^a ..= 10^b` covering `lo..=hi`.
fn decades(lo: f64, hi: f64) -> (i32, i32) {
    let a = lo.log10().floor() as i32;
    let b = (hi.log10().ceil() as i32).max(a + 1);
    (a, b)
}

/// The pixel width of `s` in the chart's font.
fn width_of(s: &str) -> i64 {
    i64::from(text_width(s, SCALE))
}

/// Draws `chart` into an RGB image of [`WIDTH`] x [`HEIGHT`] pixels.
fn render(chart: &Chart) -> Canvas {
    let mut canvas = Canvas::new(WIDTH, HEIGHT, [255, 255, 255]);
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
    let (left, top, right, bottom) = PLOT;
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
    let tick_h = i64::from(text_height(SCALE));

    // Grid lines at each decade (and lighter ones at 2x and 5x), then labels.
    for d in xa..=xb {
        let x = px(10f64.powi(d));
        canvas.line((x, top), (x, bottom), 1, grid);
        let label = (chart.x_ticks)(10f64.powi(d));
        canvas.text(x - width_of(&label) / 2, bottom + 10, &label, SCALE, INK);
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
        canvas.text(
            left - 10 - width_of(&label),
            y - tick_h / 2,
            &label,
            SCALE,
            INK,
        );
        if d < yb {
            for m in [2.0, 5.0] {
                let y = py(m * 10f64.powi(d));
                canvas.line((left, y), (right, y), 1, [242, 242, 242]);
            }
        }
    }
    canvas.line((left, top), (left, bottom), 2, INK);
    canvas.line((left, bottom), (right, bottom), 2, INK);
    canvas.line((right, top), (right, bottom), 1, INK);
    canvas.line((left, top), (right, top), 1, INK);

    canvas.text(left, 12, &chart.title, SCALE, INK);
    canvas.text(
        i64::midpoint(left, right) - width_of(&chart.x_label) / 2,
        bottom + 20 + tick_h,
        &chart.x_label,
        SCALE,
        INK,
    );
    canvas.text_up(
        14,
        i64::midpoint(top, bottom) + width_of(&chart.y_label) / 2,
        &chart.y_label,
        SCALE,
        INK,
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
            canvas.point(x, y, 7, colour);
        }
    }

    legend(&mut canvas, chart, right + 20, top);
    canvas
}

/// The legend, in series order, from `(x, top)` (right of the plot).
fn legend(canvas: &mut Canvas, chart: &Chart, x: i64, top: i64) {
    let tick_h = i64::from(text_height(SCALE));
    let row = (tick_h + 10).max(20);
    for (i, series) in chart.series.iter().enumerate() {
        let y = top + i as i64 * row;
        let colour = PALETTE[i % PALETTE.len()];
        canvas.line((x, y + tick_h / 2), (x + 24, y + tick_h / 2), 3, colour);
        canvas.point(x + 12, y + tick_h / 2, 7, colour);
        canvas.text(x + 32, y, &series.name, SCALE, INK);
    }
}

/// Draws `chart` and writes it to `path` as an RGB PNG.
///
/// # Errors
///
/// When the file cannot be created or written; the error names `path`.
pub fn write_png(chart: &Chart, path: &Path) -> Result<(), PngError> {
    render(chart).save_png(path)
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
        let canvas = render(&chart);
        assert_eq!((canvas.width(), canvas.height()), (WIDTH, HEIGHT));
        let blue = canvas
            .pixels()
            .chunks(3)
            .filter(|p| p == &[31, 119, 180])
            .count();
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

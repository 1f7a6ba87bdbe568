//! PNG output: a canvas as an 8-bit RGB PNG, to a writer or to a file.

use std::error::Error;
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::canvas::Canvas;

/// A canvas could not be written as PNG: the file could not be created or
/// written, or the image has no pixels.
///
/// The message names the file, if there is one; the cause is the
/// [`source`](Error::source), an [`io::Error`] (of kind
/// [`InvalidInput`](io::ErrorKind::InvalidInput) when the image itself cannot
/// be encoded).
#[derive(Debug)]
pub struct PngError {
    path: Option<PathBuf>,
    source: io::Error,
}

impl PngError {
    /// The file being written, or `None` when writing to a writer.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The cause.
    pub fn io_error(&self) -> &io::Error {
        &self.source
    }
}

impl fmt::Display for PngError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(path) => write!(f, "writing PNG {}", path.display()),
            None => f.write_str("writing PNG"),
        }
    }
}

impl Error for PngError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.source)
    }
}

impl Canvas {
    /// Encodes the canvas as an 8-bit RGB PNG into `writer`, and flushes it.
    ///
    /// The encoder writes in many small pieces: give it a buffered writer, or
    /// use [`save_png`](Canvas::save_png) for a file.
    ///
    /// # Errors
    ///
    /// When `writer` fails, or the canvas is empty (no width or no height).
    pub fn write_png<W: Write>(&self, mut writer: W) -> Result<(), PngError> {
        self.check_size()
            .and_then(|()| self.encode(&mut writer))
            .map_err(|source| PngError { path: None, source })
    }

    /// Writes the canvas as an 8-bit RGB PNG file at `path`, replacing any
    /// file there.
    ///
    /// # Errors
    ///
    /// When the file cannot be created or written, or the canvas is empty
    /// (then no file is created). The error names `path`.
    pub fn save_png(&self, path: &Path) -> Result<(), PngError> {
        let save = || {
            self.check_size()?;
            self.encode(&mut BufWriter::new(File::create(path)?))
        };
        save().map_err(|source| PngError {
            path: Some(path.to_path_buf()),
            source,
        })
    }

    fn check_size(&self) -> io::Result<()> {
        if self.width() == 0 || self.height() == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("an empty {}x{} image", self.width(), self.height()),
            ));
        }
        Ok(())
    }

    /// The encoding itself, once the size is checked; `finish` flushes
    /// `writer`.
    fn encode<W: Write>(&self, writer: W) -> io::Result<()> {
        let mut encoder = ::png::Encoder::new(writer, self.width(), self.height());
        encoder.set_color(::png::ColorType::Rgb);
        encoder.set_depth(::png::BitDepth::Eight);
        // The maps of `cairns render` run to a million pixels; fast
        // compression keeps writing them well under the search times.
        encoder.set_compression(::png::Compression::Fast);
        let mut png = encoder.write_header().map_err(io_error)?;
        png.write_image_data(self.pixels()).map_err(io_error)?;
        png.finish().map_err(io_error)
    }
}

/// The encoder's I/O error as it is, anything else (a bad image) as
/// `InvalidInput`.
fn io_error(e: ::png::EncodingError) -> io::Error {
    match e {
        ::png::EncodingError::IoError(e) => e,
        other => io::Error::new(io::ErrorKind::InvalidInput, other),
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;
    use std::io::{self, Write};
    use std::path::PathBuf;

    use crate::canvas::Canvas;

    /// Decodes a PNG: width, height, colour type and the pixel bytes.
    fn decode(bytes: &[u8]) -> (u32, u32, ::png::ColorType, Vec<u8>) {
        let mut reader = ::png::Decoder::new(io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, info.color_type, buf)
    }

    fn sample() -> Canvas {
        let mut c = Canvas::new(7, 5, [250, 250, 240]);
        c.fill_rect(1, 1, 3, 2, [230, 0, 0]);
        c.text(2, 0, "x", 1, [0, 0, 140]);
        c.line((0, 4), (6, 0), 1, [0, 170, 0]);
        c
    }

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("cairns-draw-{}-{name}", std::process::id()))
    }

    #[test]
    fn write_png_round_trips_every_pixel() {
        let canvas = sample();
        let mut bytes = Vec::new();
        canvas.write_png(&mut bytes).unwrap();
        let (w, h, colour, pixels) = decode(&bytes);
        assert_eq!((w, h, colour), (7, 5, ::png::ColorType::Rgb));
        assert_eq!(pixels, canvas.pixels());
    }

    #[test]
    fn save_png_writes_a_file_that_decodes_to_the_canvas() {
        let canvas = sample();
        let path = temp_path("save.png");
        canvas.save_png(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(decode(&bytes).3, canvas.pixels());
    }

    #[test]
    fn save_png_into_a_missing_directory_is_an_error_naming_the_path() {
        let path = temp_path("no-such-dir").join("out.png");
        let err = sample().save_png(&path).unwrap_err();
        assert_eq!(err.path(), Some(path.as_path()));
        assert_eq!(err.io_error().kind(), io::ErrorKind::NotFound);
        assert_eq!(err.to_string(), format!("writing PNG {}", path.display()));
        assert!(err.source().is_some());
    }

    /// A writer that fails after `left` bytes, like a full disk.
    struct Full {
        left: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failing_writer_is_an_error_not_a_panic() {
        for left in [0, 10, 40] {
            let err = sample().write_png(Full { left }).unwrap_err();
            assert_eq!(err.path(), None);
            assert_eq!(err.io_error().kind(), io::ErrorKind::StorageFull, "{left}");
            assert_eq!(err.to_string(), "writing PNG");
        }
    }

    #[test]
    fn an_empty_canvas_is_an_error_and_creates_no_file() {
        let mut bytes = Vec::new();
        let err = Canvas::new(0, 3, [0; 3]).write_png(&mut bytes).unwrap_err();
        assert_eq!(err.io_error().kind(), io::ErrorKind::InvalidInput);
        let path = temp_path("empty.png");
        let err = Canvas::new(3, 0, [0; 3]).save_png(&path).unwrap_err();
        assert_eq!(err.io_error().kind(), io::ErrorKind::InvalidInput);
        assert!(!path.exists());
    }
}

//! OpenStreetMap PBF extracts (`.osm.pbf`) read into a road graph for a
//! car: the `osm` feature, which brings in the [`osmpbf`] crate to decode
//! the file's blocks; the profile and the graph are this module's.
//!
//! [`read_osm`] and [`parse_osm`] give an [`OsmGraph`]: a [`CsrGraph`] on
//! dense ids from 0, each node's longitude and latitude in degrees, its OSM
//! node id, and counts of what the profile left out ([`OsmStats`]). The
//! graph's nodes are the nodes the kept segments use, numbered in the order
//! of their OSM ids (so the numbering does not depend on the order of the
//! ways in the file). [`read_graph`](super::read_graph) and the `cairns
//! graph` commands read a PBF file by its `.pbf` name or its first bytes and
//! keep the graph alone.
//!
//! # The car profile
//!
//! A way is kept when its `highway` tag is one of `motorway`, `trunk`,
//! `primary`, `secondary`, `tertiary`, their `_link`s, `unclassified`,
//! `residential`, `living_street`, `service` or `road`. Every other
//! `highway` (`track`, `footway`, `cycleway`, `path`, `steps`,
//! `pedestrian`, `construction`, `proposed`, ...) and every way without one
//! is left out. Of the kept ones these are left out too, and counted:
//!
//! - a car may not use it: the most specific of `motorcar`,
//!   `motor_vehicle`, `vehicle` and `access` that the way has is `no`
//!   (so `access=no` with `motor_vehicle=yes` stays; `private` and
//!   `destination` stay) ([`OsmStats::no_access`]);
//! - `area=yes`: a square drawn as a closed way, not a road along its
//!   outline ([`OsmStats::areas`]);
//! - `oneway=reversible` or `oneway=alternating`: the direction changes
//!   with the time of day ([`OsmStats::reversible`]).
//!
//! # Directions and weights
//!
//! `oneway=yes`, `true` or `1` gives each segment one arc along the way,
//! `oneway=-1` or `reverse` one arc against it; `junction=roundabout` (or
//! `circular`) and `highway=motorway` are one-way along the way unless
//! `oneway=no` (`false`, `0`) says otherwise; every other way gives each
//! segment an arc each way. Any other `oneway` value is taken as two-way
//! and counted ([`OsmStats::odd_oneway`]).
//!
//! Each arc weighs the great-circle length of its segment in metres
//! ([`haversine`], on a sphere of the earth's mean radius), rounded to the
//! nearest multiple of [`LATTICE`] (2^-23 m) so that path
//! sums are exact and every search finds the same cost to the bit
//! ([`arc_weight`]); never negative, zero only between two nodes less than
//! 0.06 micrometres apart. Turn restrictions,
//! speeds and barriers are not read.
//!
//! # What an extract leaves out
//!
//! An extract cut along a border keeps ways that run out of it, naming
//! nodes it does not hold: a segment with an end that is not in the file is
//! skipped and counted ([`OsmStats::missing_segments`]), the rest of the
//! way kept. A segment from a node to itself is skipped
//! ([`OsmStats::repeated_nodes`]); a node given twice keeps its first
//! coordinates ([`OsmStats::duplicate_nodes`]).
//!
//! # Errors
//!
//! Nothing here panics on its input (but see the gap below). A PBF file
//! has no lines, so every
//! [`ParseError`] names the blob it is in (its [`line`](ParseError::line),
//! counted from 1) and the byte where that blob starts
//! ([`byte`](ParseError::byte)): `x.osm.pbf: blob 4 (from byte 98304):
//! truncated PBF: the blob data needs 65536 bytes, the file has 1200 more`.
//! A file that ends inside a blob is
//! [`Truncated`](ParseErrorKind::Truncated), a blob larger than the format
//! allows [`BlobTooLarge`](ParseErrorKind::BlobTooLarge), one that does
//! not decode (protobuf, zlib, a string table index, a first blob that is
//! not `OSMHeader`) [`CorruptPbf`](ParseErrorKind::CorruptPbf), a file that
//! requires a feature other than `OsmSchema-V0.6` and `DenseNodes` (a
//! history file) [`UnsupportedFeature`](ParseErrorKind::UnsupportedFeature)
//! and a node off the earth [`BadCoordinates`](ParseErrorKind::BadCoordinates).
//! An empty file is [`Empty`](ParseErrorKind::Empty).
//!
//! **A known gap**: `osmpbf` (0.3.8) adds delta-coded ids and coordinates
//! and multiplies them by the block's granularity without checks, which
//! panics on overflow in a build with overflow checks (the `osm` fuzz
//! target found it: `docs/fuzzing.md`). This workspace builds `osmpbf`
//! without them (the root `Cargo.toml`), so a corrupt value wraps and the
//! reader refuses the node it gives; release builds wrap too. In a build
//! that keeps the checks (a dependent's debug build), the decoding of each
//! block runs under [`std::panic::catch_unwind`] and a panic in it is a
//! [`CorruptPbf`](ParseErrorKind::CorruptPbf) error (the panic hook still
//! prints its message; a build that aborts on panic aborts).
//!
//! # Example
//!
//! ```no_run
//! use std::path::Path;
//!
//! use cairns::graph::NodeId;
//! use cairns::graph::osm::read_osm;
//! use cairns::search::{ChCache, ContractionHierarchy};
//!
//! let osm = read_osm(Path::new("andorra.osm.pbf"))?;
//! let [lon, lat] = osm.coordinates[0];
//! println!("node 0 is OSM node {} at {lon}, {lat}", osm.osm_ids[0]);
//! let ch = ContractionHierarchy::build(&osm.graph);
//! let mut cache = ChCache::new();
//! println!("{:?} m", ch.search_cost(NodeId(0), NodeId(1), &mut cache));
//! # Ok::<(), cairns::graph::ParseError>(())
//! ```
//!
//! Input that is not whole is refused with the blob and the byte:
//!
//! ```
//! use cairns::graph::ParseErrorKind;
//! use cairns::graph::osm::parse_osm;
//!
//! // A blob header length of 14 bytes, then 11 of them.
//! let e = parse_osm(&b"\0\0\0\x0e\x0a\x09OSMHeader"[..]).unwrap_err();
//! assert_eq!((e.line(), e.byte()), (Some(1), Some(0)));
//! assert!(matches!(e.kind(), ParseErrorKind::Truncated { .. }));
//! assert_eq!(
//!     e.to_string(),
//!     "blob 1 (from byte 0): truncated PBF: the blob header needs 14 bytes, the file has 11 more"
//! );
//! ```

use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use osmpbf::{BlobDecode, BlobReader, PrimitiveBlock};

use super::{CsrGraph, LATTICE, MAX_GRAPH_NODES};
use crate::parse::{ParseError, ParseErrorKind, excerpt, load};

pub use super::EARTH_RADIUS_M;

/// The largest blob header the PBF format allows: 64 KiB.
pub const MAX_BLOB_HEADER: u64 = 64 * 1024;

/// The largest blob (compressed or not) the PBF format allows: 32 MiB.
pub const MAX_BLOB_DATA: u64 = 32 * 1024 * 1024;

/// The great-circle distance in metres between two points given as
/// `[longitude, latitude]` in degrees, on a sphere of radius
/// [`EARTH_RADIUS_M`] (the haversine formula, which stays accurate for the
/// metres-long segments of a road).
///
/// ```
/// use cairns::graph::osm::haversine;
///
/// // One degree of latitude is about 111.2 km.
/// let d = haversine([1.5, 42.0], [1.5, 43.0]);
/// assert!((d - 111_195.0).abs() < 1.0, "{d}");
/// assert_eq!(haversine([1.5, 42.5], [1.5, 42.5]), 0.0);
/// ```
pub fn haversine(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (lat1, lat2) = (a[1].to_radians(), b[1].to_radians());
    let dlat = lat2 - lat1;
    let dlon = (b[0] - a[0]).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlon / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().min(1.0).asin()
}

/// The weight of the arc between two points (`[longitude, latitude]` in
/// degrees): their [`haversine`] distance in metres rounded to the nearest
/// multiple of [`LATTICE`] (2^-23 m, about 0.12 micrometres). On the lattice
/// every sum of arcs below 2^29 m is exact in `f64`, so every search adds up
/// a path to the same cost whatever the order (contraction hierarchies and
/// Dijkstra agree to the bit) and landmark tables need no rounding margin.
///
/// ```
/// use cairns::graph::LATTICE;
/// use cairns::graph::osm::{arc_weight, haversine};
///
/// let (a, b) = ([1.5, 42.5], [1.501, 42.5]);
/// assert!((arc_weight(a, b) - haversine(a, b)).abs() <= LATTICE / 2.0);
/// assert_eq!((arc_weight(a, b) / LATTICE).fract(), 0.0);
/// ```
pub fn arc_weight(a: [f64; 2], b: [f64; 2]) -> f64 {
    (haversine(a, b) / LATTICE).round() * LATTICE
}

/// A road graph read from an OpenStreetMap PBF file ([`read_osm`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct OsmGraph {
    /// The arcs a car may drive, weighed in metres, on dense ids from 0.
    pub graph: CsrGraph,
    /// Each node's `[longitude, latitude]` in degrees, by [`NodeId`](super::NodeId).
    pub coordinates: Vec<[f64; 2]>,
    /// Each node's OpenStreetMap node id, by [`NodeId`](super::NodeId); in
    /// increasing order.
    pub osm_ids: Vec<i64>,
    /// What the file held and what the profile left out.
    pub stats: OsmStats,
}

impl OsmGraph {
    /// The node whose OpenStreetMap id is `id`, if the graph has it.
    pub fn node_of(&self, id: i64) -> Option<super::NodeId> {
        let i = self.osm_ids.binary_search(&id).ok()?;
        Some(super::NodeId(i as u32))
    }
}

/// Counts of what a PBF file held and what [the profile](self#the-car-profile)
/// left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OsmStats {
    /// Blobs read, the header included.
    pub blobs: usize,
    /// Blobs of a type other than `OSMHeader` and `OSMData`, skipped as the
    /// format says.
    pub unknown_blobs: usize,
    /// Nodes in the file.
    pub nodes: usize,
    /// Ways in the file.
    pub ways: usize,
    /// Ways the profile keeps.
    pub routable_ways: usize,
    /// Of those, the ones that are one-way.
    pub one_way: usize,
    /// Routable `highway` ways a car may not use (`access`, `vehicle`,
    /// `motor_vehicle` or `motorcar` is `no`).
    pub no_access: usize,
    /// Routable `highway` ways tagged `area=yes`.
    pub areas: usize,
    /// Routable `highway` ways tagged `oneway=reversible` or `alternating`.
    pub reversible: usize,
    /// Kept ways whose `oneway` value is none the profile knows, taken as
    /// two-way.
    pub odd_oneway: usize,
    /// Segments of kept ways skipped for an end not in the file.
    pub missing_segments: usize,
    /// Segments from a node to itself, skipped.
    pub repeated_nodes: usize,
    /// Nodes given a second time, whose later coordinates were ignored.
    pub duplicate_nodes: usize,
}

/// Reads an OpenStreetMap PBF file into a road graph (see the
/// [module](self)).
///
/// # Errors
///
/// As the [module](self#errors) says, naming the file
/// ([`ParseError::path`]); a file that cannot be opened or read is
/// [`ParseErrorKind::Io`].
pub fn read_osm(path: &Path) -> Result<OsmGraph, ParseError> {
    load(path, parse_osm)
}

/// Reads OpenStreetMap PBF data from `reader` (a file, or a byte slice)
/// into a road graph (see the [module](self)).
///
/// # Errors
///
/// As the [module](self#errors) says.
pub fn parse_osm(reader: impl Read) -> Result<OsmGraph, ParseError> {
    let mut blobs = Blobs {
        reader,
        offset: 0,
        number: 0,
        start: 0,
    };
    let mut file = File::default();
    while let Some(blob) = blobs.next()? {
        let at = |kind| ParseError::in_blob(blob.number, blob.start, kind);
        file.stats.blobs += 1;
        match (blob.number, blob.kind.as_slice()) {
            (1, b"OSMHeader") => {}
            (1, other) => {
                return Err(at(ParseErrorKind::CorruptPbf {
                    text: excerpt(&format!(
                        "the first blob is {:?}, not \"OSMHeader\"",
                        String::from_utf8_lossy(other)
                    )),
                }));
            }
            (_, b"OSMHeader" | b"OSMData") => {}
            _ => {
                file.stats.unknown_blobs += 1;
                continue;
            }
        }
        let decoded = catch_unwind(AssertUnwindSafe(|| file.decode(&blob.bytes)));
        let Ok(decoded) = decoded else {
            return Err(at(corrupt("the PBF decoder panicked on this blob")));
        };
        decoded.map_err(at)?;
    }
    if blobs.number == 0 {
        return Err(ParseError::in_blob(1, 0, ParseErrorKind::Empty));
    }
    let last = (blobs.number, blobs.start);
    file.assemble()
        .map_err(|kind| ParseError::in_blob(last.0, last.1, kind))
}

/// A [`CorruptPbf`](ParseErrorKind::CorruptPbf) error saying `text`.
fn corrupt(text: &str) -> ParseErrorKind {
    ParseErrorKind::CorruptPbf {
        text: excerpt(text),
    }
}

/// One blob of a PBF file: its bytes from its length prefix on, as
/// [`BlobReader`] reads them.
struct Blob {
    /// 1-based.
    number: usize,
    /// The byte of the file where its length prefix starts.
    start: u64,
    /// The type its header names (`OSMHeader`, `OSMData`).
    kind: Vec<u8>,
    bytes: Vec<u8>,
}

/// The blobs of a PBF file, framed here (a big-endian `u32` header length,
/// the `BlobHeader`, then `datasize` bytes of `Blob`) so that a file that
/// ends inside one is refused with the sizes, where `osmpbf`'s reader takes
/// one to three stray bytes at the end for the end of the file.
struct Blobs<R> {
    reader: R,
    /// The bytes read so far.
    offset: u64,
    /// The blobs read so far.
    number: usize,
    /// Where the last one read starts (errors about the whole file name
    /// it).
    start: u64,
}

impl<R: Read> Blobs<R> {
    /// The next blob, or `None` at the end of the file.
    fn next(&mut self) -> Result<Option<Blob>, ParseError> {
        let (number, start) = (self.number + 1, self.offset);
        let at = |kind| ParseError::in_blob(number, start, kind);
        let io = |e| ParseError::io(e, Some(number)).at_byte(start);
        let mut bytes = Vec::new();
        let found = self.read(&mut bytes, 4).map_err(io)?;
        if found == 0 {
            return Ok(None);
        }
        self.number = number;
        self.start = start;
        if found < 4 {
            return Err(at(truncated("blob header length", 4, found)));
        }
        let len = u64::from(u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        if len >= MAX_BLOB_HEADER {
            return Err(at(ParseErrorKind::BlobTooLarge {
                what: "blob header",
                size: len,
                max: MAX_BLOB_HEADER,
            }));
        }
        let found = self.read(&mut bytes, len).map_err(io)?;
        if found < len {
            return Err(at(truncated("blob header", len, found)));
        }
        let (kind, size) = blob_header(&bytes[4..]).map_err(|text| at(corrupt(text)))?;
        if size > MAX_BLOB_DATA {
            return Err(at(ParseErrorKind::BlobTooLarge {
                what: "blob data",
                size,
                max: MAX_BLOB_DATA,
            }));
        }
        let found = self.read(&mut bytes, size).map_err(io)?;
        if found < size {
            return Err(at(truncated("blob data", size, found)));
        }
        Ok(Some(Blob {
            number,
            start,
            kind,
            bytes,
        }))
    }

    /// Appends up to `n` more bytes to `bytes`, as many as the input has;
    /// returns how many. Memory grows with what is read, not with `n`.
    fn read(&mut self, bytes: &mut Vec<u8>, n: u64) -> io::Result<u64> {
        let found = (&mut self.reader).take(n).read_to_end(bytes)? as u64;
        self.offset += found;
        Ok(found)
    }
}

/// A [`Truncated`](ParseErrorKind::Truncated) error.
fn truncated(what: &'static str, expected: u64, found: u64) -> ParseErrorKind {
    ParseErrorKind::Truncated {
        what,
        expected,
        found,
    }
}

/// The type and the data size a `BlobHeader` message gives (fields 1 and
/// 3), read here to frame the file; the message is checked again when
/// `osmpbf` decodes the blob.
fn blob_header(mut message: &[u8]) -> Result<(Vec<u8>, u64), &'static str> {
    let (mut kind, mut size) = (None, None);
    while !message.is_empty() {
        let key = varint(&mut message)?;
        match (key >> 3, key & 7) {
            (1, 2) => kind = Some(length_delimited(&mut message)?.to_vec()),
            (3, 0) => size = Some(varint(&mut message)?),
            (_, 0) => drop(varint(&mut message)?),
            (_, 1) => skip(&mut message, 8)?,
            (_, 2) => drop(length_delimited(&mut message)?),
            (_, 5) => skip(&mut message, 4)?,
            _ => return Err("a field of unknown wire type in the blob header"),
        }
    }
    match (kind, size) {
        (Some(kind), Some(size)) => Ok((kind, size)),
        (None, _) => Err("the blob header has no type"),
        (_, None) => Err("the blob header has no data size"),
    }
}

/// `n` bytes off the front of `bytes` (a fixed-size field).
fn skip(bytes: &mut &[u8], n: usize) -> Result<(), &'static str> {
    *bytes = bytes.get(n..).ok_or("a field runs past the blob header")?;
    Ok(())
}

/// A protobuf varint off the front of `bytes`.
fn varint(bytes: &mut &[u8]) -> Result<u64, &'static str> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = bytes
            .split_first()
            .ok_or("a number runs past the blob header")?;
        *bytes = rest;
        value |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a number of more than 10 bytes in the blob header")
}

/// A length-delimited protobuf field's bytes off the front of `bytes`.
fn length_delimited<'a>(bytes: &mut &'a [u8]) -> Result<&'a [u8], &'static str> {
    let len = usize::try_from(varint(bytes)?).map_err(|_| "a field longer than memory")?;
    if len > bytes.len() {
        return Err("a field runs past the blob header");
    }
    let (field, rest) = bytes.split_at(len);
    *bytes = rest;
    Ok(field)
}

/// How the profile takes a way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Take {
    /// Not routable for a car.
    Skip,
    /// Routable, but a car may not use it.
    NoAccess,
    /// `area=yes`.
    Area,
    /// `oneway=reversible`, `alternating`.
    Reversible,
    /// Each segment both ways.
    Both,
    /// Along the way only.
    Forward,
    /// Against the way only.
    Backward,
}

/// The `highway` values of the car profile.
const ROUTABLE: [&[u8]; 15] = [
    b"motorway",
    b"motorway_link",
    b"trunk",
    b"trunk_link",
    b"primary",
    b"primary_link",
    b"secondary",
    b"secondary_link",
    b"tertiary",
    b"tertiary_link",
    b"unclassified",
    b"residential",
    b"living_street",
    b"service",
    b"road",
];

/// The tags of a way the profile reads.
#[derive(Default)]
struct Tags<'a> {
    highway: Option<&'a [u8]>,
    oneway: Option<&'a [u8]>,
    junction: Option<&'a [u8]>,
    area: Option<&'a [u8]>,
    /// `motorcar`, `motor_vehicle`, `vehicle`, `access`: the first one set
    /// decides.
    access: [Option<&'a [u8]>; 4],
}

impl<'a> Tags<'a> {
    fn set(&mut self, key: &[u8], value: &'a [u8]) {
        let slot = match key {
            b"highway" => &mut self.highway,
            b"oneway" => &mut self.oneway,
            b"junction" => &mut self.junction,
            b"area" => &mut self.area,
            b"motorcar" => &mut self.access[0],
            b"motor_vehicle" => &mut self.access[1],
            b"vehicle" => &mut self.access[2],
            b"access" => &mut self.access[3],
            _ => return,
        };
        *slot = Some(value);
    }

    /// How the car profile takes the way, and whether its `oneway` value is
    /// one it does not know.
    fn take(&self) -> (Take, bool) {
        let Some(highway) = self.highway.filter(|h| ROUTABLE.contains(h)) else {
            return (Take::Skip, false);
        };
        if self.access.iter().flatten().next() == Some(&&b"no"[..]) {
            return (Take::NoAccess, false);
        }
        if self.area == Some(b"yes") {
            return (Take::Area, false);
        }
        let implied =
            highway == b"motorway" || matches!(self.junction, Some(b"roundabout" | b"circular"));
        match self.oneway {
            Some(b"yes" | b"true" | b"1") => (Take::Forward, false),
            Some(b"-1" | b"reverse") => (Take::Backward, false),
            Some(b"no" | b"false" | b"0") => (Take::Both, false),
            Some(b"reversible" | b"alternating") => (Take::Reversible, false),
            odd => {
                let take = if implied { Take::Forward } else { Take::Both };
                (take, odd.is_some())
            }
        }
    }
}

/// What the blobs have given so far.
#[derive(Default)]
struct File {
    stats: OsmStats,
    /// `(OSM id, [lon, lat])` of every node, in file order.
    nodes: Vec<(i64, [f64; 2])>,
    /// The node ids of every kept way, one after another.
    refs: Vec<i64>,
    /// Each kept way: where its refs end in `refs`, and its direction.
    ways: Vec<(usize, Take)>,
}

/// The PBF features the reader supports when a file requires them.
const FEATURES: [&str; 2] = ["OsmSchema-V0.6", "DenseNodes"];

/// A coordinate in nanodegrees, checked to be on the earth (`limit`
/// degrees either way), in degrees.
fn degrees(nano: i64, limit: i64) -> Option<f64> {
    (nano.unsigned_abs() <= (limit * 1_000_000_000).unsigned_abs()).then(|| nano as f64 / 1e9)
}

impl File {
    /// Decodes one `OSMHeader` or `OSMData` blob (its bytes from the
    /// length prefix on) and takes what the profile needs from it.
    fn decode(&mut self, bytes: &[u8]) -> Result<(), ParseErrorKind> {
        let blob = BlobReader::new(bytes)
            .next()
            .ok_or_else(|| corrupt("an empty blob"))?
            .map_err(|e| corrupt(&e.to_string()))?;
        match blob.decode().map_err(|e| corrupt(&e.to_string()))? {
            BlobDecode::OsmHeader(header) => {
                if let Some(f) = header
                    .required_features()
                    .iter()
                    .find(|f| !FEATURES.contains(&f.as_str()))
                {
                    return Err(ParseErrorKind::UnsupportedFeature { text: excerpt(f) });
                }
                Ok(())
            }
            BlobDecode::OsmData(block) => self.block(&block),
            BlobDecode::Unknown(_) => Ok(()),
        }
    }

    /// Takes the nodes and the routable ways of a block.
    fn block(&mut self, block: &PrimitiveBlock) -> Result<(), ParseErrorKind> {
        let strings = block.raw_stringtable();
        let mut node = |id: i64, lon: i64, lat: i64| {
            let at = degrees(lon, 180).zip(degrees(lat, 90));
            let (lon, lat) = at.ok_or(ParseErrorKind::BadCoordinates { node: id, lon, lat })?;
            self.nodes.push((id, [lon, lat]));
            Ok::<(), ParseErrorKind>(())
        };
        for group in block.groups() {
            for n in group.nodes() {
                node(n.id(), n.nano_lon(), n.nano_lat())?;
            }
            for n in group.dense_nodes() {
                node(n.id(), n.nano_lon(), n.nano_lat())?;
            }
        }
        for group in block.groups() {
            for way in group.ways() {
                self.stats.ways += 1;
                let mut tags = Tags::default();
                for (k, v) in way.raw_tags() {
                    let string = |i: u32| {
                        strings.get(i as usize).map(Vec::as_slice).ok_or_else(|| {
                            corrupt(&format!(
                                "way {}: tag string {i} beyond the block's {} strings",
                                way.id(),
                                strings.len()
                            ))
                        })
                    };
                    tags.set(string(k)?, string(v)?);
                }
                let (take, odd) = tags.take();
                match take {
                    Take::Skip => {}
                    Take::NoAccess => self.stats.no_access += 1,
                    Take::Area => self.stats.areas += 1,
                    Take::Reversible => self.stats.reversible += 1,
                    Take::Both | Take::Forward | Take::Backward => {
                        self.stats.routable_ways += 1;
                        self.stats.one_way += usize::from(take != Take::Both);
                        self.stats.odd_oneway += usize::from(odd);
                        let mut id = 0i64;
                        for &delta in way.raw_refs() {
                            id = id.checked_add(delta).ok_or_else(|| {
                                corrupt(&format!("way {}: a node id overflows", way.id()))
                            })?;
                            self.refs.push(id);
                        }
                        self.ways.push((self.refs.len(), take));
                    }
                }
            }
        }
        Ok(())
    }

    /// The graph of the ways read: the nodes their kept segments use,
    /// numbered by OSM id, and their arcs.
    fn assemble(mut self) -> Result<OsmGraph, ParseErrorKind> {
        self.stats.nodes = self.nodes.len();
        if !self.nodes.is_sorted_by_key(|n| n.0) {
            self.nodes.sort_by_key(|n| n.0);
        }
        let before = self.nodes.len();
        self.nodes.dedup_by_key(|n| n.0);
        self.stats.duplicate_nodes = before - self.nodes.len();
        // Each kept segment as indices into `nodes`, with its direction.
        let mut segments = Vec::new();
        let mut used = vec![false; self.nodes.len()];
        let mut start = 0;
        for &(end, take) in &self.ways {
            for pair in self.refs[start..end].windows(2) {
                if pair[0] == pair[1] {
                    self.stats.repeated_nodes += 1;
                    continue;
                }
                let index = |id: i64| self.nodes.binary_search_by_key(&id, |n| n.0).ok();
                let (Some(a), Some(b)) = (index(pair[0]), index(pair[1])) else {
                    self.stats.missing_segments += 1;
                    continue;
                };
                used[a] = true;
                used[b] = true;
                segments.push((a, b, take));
            }
            start = end;
        }
        let mut dense = vec![u32::MAX; self.nodes.len()];
        let mut osm_ids = Vec::new();
        let mut coordinates = Vec::new();
        for (i, &(id, at)) in self.nodes.iter().enumerate() {
            if used[i] {
                dense[i] = osm_ids.len() as u32;
                osm_ids.push(id);
                coordinates.push(at);
            }
        }
        let n = osm_ids.len() as u64;
        if n > MAX_GRAPH_NODES {
            return Err(ParseErrorKind::TooManyNodes {
                nodes: n,
                max: MAX_GRAPH_NODES,
            });
        }
        let mut edges = Vec::with_capacity(segments.len() * 2);
        for (a, b) in segments.iter().map(|&(a, b, _)| (dense[a], dense[b])) {
            let w = arc_weight(coordinates[a as usize], coordinates[b as usize]);
            edges.push((a, b, w));
        }
        let edges: Vec<(u32, u32, f64)> = segments
            .iter()
            .zip(edges)
            .flat_map(|(&(_, _, take), (a, b, w))| {
                let forward = matches!(take, Take::Both | Take::Forward).then_some((a, b, w));
                let backward = matches!(take, Take::Both | Take::Backward).then_some((b, a, w));
                forward.into_iter().chain(backward)
            })
            .collect();
        let graph = CsrGraph::from_edges(n as u32, &edges).map_err(|e| corrupt(&e.to_string()))?;
        Ok(OsmGraph {
            graph,
            coordinates,
            osm_ids,
            stats: self.stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Graph, NodeId};

    /// A PBF writer for the tests: protobuf by hand, blobs stored raw
    /// (uncompressed, the `raw` field), which `osmpbf` reads as it reads
    /// zlib blobs.
    pub(crate) mod pbf {
        /// A way to write: its id, its node ids and its tags.
        pub(crate) type Way<'a> = (i64, &'a [i64], super::TagList<'a>);

        fn varint(out: &mut Vec<u8>, mut v: u64) {
            while v >= 0x80 {
                out.push((v as u8) | 0x80);
                v >>= 7;
            }
            out.push(v as u8);
        }

        fn key(out: &mut Vec<u8>, field: u64, wire: u64) {
            varint(out, field << 3 | wire);
        }

        fn bytes(out: &mut Vec<u8>, field: u64, data: &[u8]) {
            key(out, field, 2);
            varint(out, data.len() as u64);
            out.extend_from_slice(data);
        }

        fn number(out: &mut Vec<u8>, field: u64, v: u64) {
            key(out, field, 0);
            varint(out, v);
        }

        fn zigzag(v: i64) -> u64 {
            ((v << 1) ^ (v >> 63)) as u64
        }

        /// A packed field of signed (`sint64`) deltas of `values`.
        fn deltas(out: &mut Vec<u8>, field: u64, values: &[i64]) {
            let mut packed = Vec::new();
            let mut last = 0i64;
            for &v in values {
                varint(&mut packed, zigzag(v - last));
                last = v;
            }
            bytes(out, field, &packed);
        }

        fn packed(out: &mut Vec<u8>, field: u64, values: &[u32]) {
            let mut packed = Vec::new();
            for &v in values {
                varint(&mut packed, u64::from(v));
            }
            bytes(out, field, &packed);
        }

        /// One blob: length prefix, `BlobHeader` of type `kind`, `Blob`
        /// with `raw` data.
        pub(crate) fn blob(kind: &str, data: &[u8]) -> Vec<u8> {
            let mut blob = Vec::new();
            bytes(&mut blob, 1, data);
            number(&mut blob, 2, data.len() as u64);
            let mut header = Vec::new();
            bytes(&mut header, 1, kind.as_bytes());
            number(&mut header, 3, blob.len() as u64);
            let mut out = (header.len() as u32).to_be_bytes().to_vec();
            out.extend(header);
            out.extend(blob);
            out
        }

        /// The `OSMHeader` blob, requiring `features`.
        pub(crate) fn header(features: &[&str]) -> Vec<u8> {
            let mut block = Vec::new();
            for f in features {
                bytes(&mut block, 4, f.as_bytes());
            }
            blob("OSMHeader", &block)
        }

        /// An `OSMData` blob of dense nodes `(id, lon, lat)` (degrees) and
        /// ways `(id, refs, tags)`.
        pub(crate) fn data(nodes: &[(i64, f64, f64)], ways: &[Way]) -> Vec<u8> {
            let mut strings: Vec<String> = vec![String::new()];
            let mut index = |s: &str| {
                if let Some(i) = strings.iter().position(|t| t == s) {
                    return i as u32;
                }
                strings.push(s.to_owned());
                strings.len() as u32 - 1
            };
            let mut groups = Vec::new();
            if !nodes.is_empty() {
                let mut dense = Vec::new();
                let ids: Vec<i64> = nodes.iter().map(|n| n.0).collect();
                // Granularity 100 nanodegrees (the default).
                let lats: Vec<i64> = nodes.iter().map(|n| (n.2 * 1e7).round() as i64).collect();
                let lons: Vec<i64> = nodes.iter().map(|n| (n.1 * 1e7).round() as i64).collect();
                deltas(&mut dense, 1, &ids);
                deltas(&mut dense, 8, &lats);
                deltas(&mut dense, 9, &lons);
                let mut group = Vec::new();
                bytes(&mut group, 2, &dense);
                groups.push(group);
            }
            if !ways.is_empty() {
                let mut group = Vec::new();
                for (id, refs, tags) in ways {
                    let mut way = Vec::new();
                    number(&mut way, 1, *id as u64);
                    let keys: Vec<u32> = tags.iter().map(|t| index(t.0)).collect();
                    let vals: Vec<u32> = tags.iter().map(|t| index(t.1)).collect();
                    packed(&mut way, 2, &keys);
                    packed(&mut way, 3, &vals);
                    deltas(&mut way, 8, refs);
                    bytes(&mut group, 3, &way);
                }
                groups.push(group);
            }
            let mut table = Vec::new();
            for s in &strings {
                bytes(&mut table, 1, s.as_bytes());
            }
            let mut block = Vec::new();
            bytes(&mut block, 1, &table);
            for g in &groups {
                bytes(&mut block, 2, g);
            }
            blob("OSMData", &block)
        }

        /// A whole file: the header, then one data blob.
        pub(crate) fn file(nodes: &[(i64, f64, f64)], ways: &[Way]) -> Vec<u8> {
            let mut out = header(&["OsmSchema-V0.6", "DenseNodes"]);
            out.extend(data(nodes, ways));
            out
        }
    }

    /// A way's tags, `(key, value)`.
    type TagList<'a> = &'a [(&'a str, &'a str)];

    /// The arcs of `g` as `(OSM id, OSM id)` pairs, sorted.
    fn arcs(osm: &OsmGraph) -> Vec<(i64, i64)> {
        let mut out: Vec<(i64, i64)> = (0..osm.graph.node_count() as u32)
            .flat_map(|u| {
                osm.graph
                    .successors(NodeId(u))
                    .map(move |(v, _)| (osm.osm_ids[u as usize], osm.osm_ids[v.index()]))
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// Five nodes in a row along a parallel, 0.001 degrees apart, ids out
    /// of order.
    const ROW: [(i64, f64, f64); 5] = [
        (50, 1.500, 42.5),
        (10, 1.501, 42.5),
        (40, 1.502, 42.5),
        (20, 1.503, 42.5),
        (30, 1.504, 42.5),
    ];

    /// One way over `refs` with `tags`, on [`ROW`].
    fn one(refs: &[i64], tags: &[(&str, &str)]) -> OsmGraph {
        parse_osm(&pbf::file(&ROW, &[(1, refs, tags)])[..]).unwrap()
    }

    #[test]
    fn two_way_roads_give_two_arcs_a_segment_weighed_in_metres() {
        let osm = one(&[50, 10, 40], &[("highway", "residential")]);
        assert_eq!(
            osm.osm_ids,
            [10, 40, 50],
            "nodes in the order of their OSM ids"
        );
        assert_eq!(arcs(&osm), [(10, 40), (10, 50), (40, 10), (50, 10)]);
        assert_eq!(osm.coordinates[0], [1.501, 42.5]);
        for u in 0..3 {
            for (v, w) in osm.graph.successors(NodeId(u)) {
                let (a, b) = (osm.coordinates[u as usize], osm.coordinates[v.index()]);
                assert_eq!(w, arc_weight(a, b));
                assert!((w - haversine(a, b)).abs() <= LATTICE / 2.0);
                // 0.001 degrees of longitude at 42.5 degrees north.
                assert!((w - 81.98).abs() < 0.01, "{w}");
            }
        }
        assert_eq!(osm.node_of(40), Some(NodeId(1)));
        assert_eq!(osm.node_of(20), None);
        let s = &osm.stats;
        assert_eq!(
            (s.blobs, s.nodes, s.ways, s.routable_ways, s.one_way),
            (2, 5, 1, 1, 0)
        );
    }

    #[test]
    fn one_way_tags_give_one_arc_a_segment() {
        let forward = [(50, 10), (10, 40)];
        let backward = [(10, 50), (40, 10)];
        let sorted = |mut v: Vec<(i64, i64)>| {
            v.sort_unstable();
            v
        };
        let cases: [(TagList, &[(i64, i64)]); 12] = [
            (&[("highway", "primary"), ("oneway", "yes")], &forward),
            (&[("highway", "primary"), ("oneway", "true")], &forward),
            (&[("highway", "primary"), ("oneway", "1")], &forward),
            (&[("highway", "primary"), ("oneway", "-1")], &backward),
            (&[("highway", "primary"), ("oneway", "reverse")], &backward),
            (&[("highway", "motorway")], &forward),
            (&[("highway", "motorway"), ("oneway", "no")], &[]),
            (
                &[("highway", "tertiary"), ("junction", "roundabout")],
                &forward,
            ),
            (
                &[
                    ("highway", "tertiary"),
                    ("junction", "roundabout"),
                    ("oneway", "-1"),
                ],
                &backward,
            ),
            (
                &[
                    ("highway", "tertiary"),
                    ("junction", "roundabout"),
                    ("oneway", "false"),
                ],
                &[],
            ),
            (&[("highway", "motorway_link")], &[]),
            (&[("highway", "service"), ("oneway", "no")], &[]),
        ];
        for (tags, want) in cases {
            let osm = one(&[50, 10, 40], tags);
            let want = if want.is_empty() {
                sorted([forward, backward].concat())
            } else {
                sorted(want.to_vec())
            };
            assert_eq!(arcs(&osm), want, "{tags:?}");
            assert_eq!(osm.stats.one_way, usize::from(want.len() == 2), "{tags:?}");
        }
        let odd = one(
            &[50, 10],
            &[("highway", "primary"), ("oneway", "sometimes")],
        );
        assert_eq!((arcs(&odd).len(), odd.stats.odd_oneway), (2, 1));
    }

    #[test]
    fn the_profile_leaves_out_what_a_car_may_not_use_and_counts_it() {
        let kept = |tags: &[(&str, &str)]| one(&[50, 10], tags).graph.edge_count() > 0;
        for highway in ROUTABLE {
            let h = std::str::from_utf8(highway).unwrap();
            assert!(kept(&[("highway", h)]), "{h}");
        }
        for highway in [
            "footway",
            "cycleway",
            "track",
            "path",
            "steps",
            "pedestrian",
            "construction",
            "bus_guideway",
            "",
        ] {
            assert!(!kept(&[("highway", highway)]), "{highway}");
        }
        assert!(!kept(&[("building", "yes")]));
        assert!(!kept(&[]));
        let osm = one(&[50, 10], &[("highway", "service"), ("access", "no")]);
        assert_eq!((osm.graph.node_count(), osm.stats.no_access), (0, 1));
        for tags in [
            &[("highway", "service"), ("motor_vehicle", "no")][..],
            &[("highway", "service"), ("vehicle", "no")],
            &[
                ("highway", "service"),
                ("access", "yes"),
                ("motorcar", "no"),
            ],
        ] {
            assert_eq!(one(&[50, 10], tags).stats.no_access, 1, "{tags:?}");
        }
        // The most specific tag decides.
        assert!(kept(&[
            ("highway", "service"),
            ("access", "no"),
            ("motor_vehicle", "yes")
        ]));
        assert!(kept(&[("highway", "service"), ("access", "private")]));
        let osm = one(
            &[50, 10, 40, 50],
            &[("highway", "living_street"), ("area", "yes")],
        );
        assert_eq!((osm.graph.node_count(), osm.stats.areas), (0, 1));
        let osm = one(
            &[50, 10],
            &[("highway", "primary"), ("oneway", "reversible")],
        );
        assert_eq!((osm.graph.node_count(), osm.stats.reversible), (0, 1));
    }

    #[test]
    fn segments_to_nodes_not_in_the_file_are_skipped_and_counted() {
        let osm = one(&[50, 10, 99, 40, 20, 20, 30], &[("highway", "road")]);
        assert_eq!(
            (osm.stats.missing_segments, osm.stats.repeated_nodes),
            (2, 1)
        );
        assert_eq!(
            arcs(&osm),
            [(10, 50), (20, 30), (20, 40), (30, 20), (40, 20), (50, 10)]
        );
        // A node with no kept segment is not in the graph.
        let osm = one(&[50, 99], &[("highway", "road")]);
        assert_eq!((osm.graph.node_count(), osm.stats.missing_segments), (0, 1));
    }

    #[test]
    fn duplicate_nodes_keep_their_first_coordinates() {
        let mut nodes = ROW.to_vec();
        nodes.push((10, 9.0, 9.0));
        let osm =
            parse_osm(&pbf::file(&nodes, &[(1, &[50, 10], &[("highway", "road")])])[..]).unwrap();
        assert_eq!(osm.stats.duplicate_nodes, 1);
        assert_eq!(osm.coordinates[0], [1.501, 42.5]);
    }

    fn refused(bytes: &[u8]) -> ParseError {
        parse_osm(bytes).expect_err("the input should be refused")
    }

    #[test]
    fn malformed_files_name_the_blob_and_byte() {
        let file = pbf::file(&ROW, &[(1, &[50, 10], &[("highway", "road")])]);
        let second = pbf::header(&["OsmSchema-V0.6", "DenseNodes"]).len() as u64;
        // Every cut that is not at a blob's end is refused, naming the
        // blob being read.
        for cut in 0..file.len() {
            let r = parse_osm(&file[..cut]);
            if cut as u64 == second {
                assert_eq!(r.unwrap().stats.blobs, 1, "cut at the first blob's end");
                continue;
            }
            let e = r.expect_err("a truncated file");
            let blob = if (cut as u64) < second { 1 } else { 2 };
            let byte = if blob == 1 { 0 } else { second };
            assert_eq!(
                (e.line(), e.byte()),
                (Some(blob), Some(byte)),
                "cut at {cut}: {e}"
            );
            if cut == 0 {
                assert_eq!(e.kind(), &ParseErrorKind::Empty);
            } else {
                assert!(
                    matches!(e.kind(), ParseErrorKind::Truncated { .. }),
                    "cut at {cut}: {e}"
                );
            }
        }
        let e = refused(&file[..file.len() - 3]);
        let s = second as usize;
        let header = u32::from_be_bytes(file[s..s + 4].try_into().unwrap()) as usize;
        let data = file.len() - s - 4 - header;
        assert_eq!(
            e.to_string(),
            format!(
                "blob 2 (from byte {second}): truncated PBF: the blob data needs {data} bytes, the file has {} more",
                data - 3
            )
        );
        let e = refused(&pbf::data(&ROW, &[]));
        assert_eq!(
            e.to_string(),
            "blob 1 (from byte 0): corrupt PBF data: the first blob is \"OSMData\", not \"OSMHeader\""
        );
        let e = refused(&pbf::header(&["OsmSchema-V0.6", "HistoricalInformation"]));
        assert_eq!(
            e.kind(),
            &ParseErrorKind::UnsupportedFeature {
                text: "HistoricalInformation".into()
            }
        );
        let e = refused(&b"\x00\x01\x00\x00\x0a\x09OSMHeader"[..]);
        assert_eq!(
            e.to_string(),
            "blob 1 (from byte 0): the blob header declares 65536 bytes, more than the 65536 a PBF file may have"
        );
        let mut off = pbf::header(&[]);
        off.extend(pbf::data(&[(1, 1.0, 95.0)], &[]));
        let e = refused(&off);
        assert_eq!(
            e.to_string(),
            format!(
                "blob 2 (from byte {}): node 1 has coordinates (1, 95) outside the earth's",
                pbf::header(&[]).len()
            )
        );
        // A blob whose data is not a block.
        let mut bad = pbf::header(&[]);
        bad.extend(pbf::blob("OSMData", b"\xff\xff\xff"));
        let e = refused(&bad);
        assert!(matches!(e.kind(), ParseErrorKind::CorruptPbf { .. }), "{e}");
        // Blobs of other types are skipped.
        let mut other = pbf::header(&[]);
        other.extend(pbf::blob("Private", b"\xff\xff\xff"));
        other.extend(pbf::data(&ROW, &[(1, &[50, 10], &[("highway", "road")])]));
        let osm = parse_osm(&other[..]).unwrap();
        assert_eq!((osm.stats.unknown_blobs, osm.graph.edge_count()), (1, 2));
    }

    /// Every byte of a small file set to each of a few values, and every
    /// prefix: refused or read, never a panic.
    #[test]
    fn corrupt_bytes_never_panic() {
        let file = pbf::file(
            &ROW,
            &[(1, &[50, 10, 40], &[("highway", "road"), ("oneway", "yes")])],
        );
        for i in 0..file.len() {
            for b in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                let mut bad = file.clone();
                bad[i] = b;
                if let Err(e) = parse_osm(&bad[..]) {
                    assert!(e.line().is_some() && e.byte().is_some(), "{e}");
                    assert!(e.to_string().len() < 200, "{e}");
                }
            }
        }
    }

    /// A pinned count of one extract: nodes, arcs, and the stats.
    fn extract(relative: &str) -> OsmGraph {
        let path = cairns_testdata::road_file(relative);
        read_osm(&path).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Real properties of a graph read from an extract: ids increasing,
    /// coordinates on the earth, every arc's weight the haversine length of
    /// its ends, positive and finite, and no node without an arc.
    fn check_extract(osm: &OsmGraph) {
        let n = osm.graph.node_count();
        assert_eq!((osm.coordinates.len(), osm.osm_ids.len()), (n, n));
        assert!(osm.osm_ids.windows(2).all(|w| w[0] < w[1]));
        let mut degree = vec![0usize; n];
        for u in 0..n as u32 {
            for (v, w) in osm.graph.successors(NodeId(u)) {
                let (a, b) = (osm.coordinates[u as usize], osm.coordinates[v.index()]);
                assert_eq!(w, arc_weight(a, b), "{u} -> {v:?}");
                assert!((w - haversine(a, b)).abs() <= LATTICE / 2.0, "{u} -> {v:?}");
                assert!(w.is_finite() && w > 0.0 && w < 100_000.0, "{w}");
                degree[u as usize] += 1;
                degree[v.index()] += 1;
            }
        }
        assert!(degree.iter().all(|&d| d > 0), "a node without arcs");
        assert!(osm.graph.lattice_costs());
    }

    /// Both extracts of `../shared/data/roads/osm` read with these counts
    /// (printed, so that a change shows what moved).
    #[test]
    fn both_extracts_load_with_their_counts() {
        let counts = |s: &OsmStats| {
            (
                s.blobs,
                s.nodes,
                s.ways,
                s.routable_ways,
                s.one_way,
                s.no_access,
                s.missing_segments,
            )
        };
        for (file, want, stats) in [
            (
                "osm/andorra.osm.pbf",
                (16_565, 31_759),
                (11, 69_644, 2_725, 1_173, 292, 6, 0),
            ),
            (
                "osm/pyrosm-test.osm.pbf",
                (892, 1_677),
                (4, 14_222, 2_653, 215, 40, 0, 280),
            ),
        ] {
            let osm = extract(file);
            println!(
                "{file}: {} nodes, {} arcs, {:?}",
                osm.graph.node_count(),
                osm.graph.edge_count(),
                osm.stats
            );
            check_extract(&osm);
            assert_eq!(
                (osm.graph.node_count(), osm.graph.edge_count()),
                want,
                "{file}"
            );
            assert_eq!(counts(&osm.stats), stats, "{file}");
            assert_eq!(
                (
                    osm.stats.repeated_nodes,
                    osm.stats.duplicate_nodes,
                    osm.stats.areas
                ),
                (0, 0, 0)
            );
        }
    }

    /// Contraction hierarchies and bidirectional Dijkstra give Dijkstra's
    /// cost to the bit on random queries over both extracts: they add the
    /// arcs in other orders, and the weights' lattice makes that exact
    /// (with the haversine lengths unrounded, 61 of 598 Andorra costs
    /// matched exactly).
    #[test]
    fn searches_agree_on_the_extracts() {
        use crate::rng::SplitMix64;
        use crate::search::{
            BiCache, BidirectionalDijkstra, ChCache, ContractionHierarchy, Dijkstra, Search,
            SearchCache,
        };
        for file in ["osm/andorra.osm.pbf", "osm/pyrosm-test.osm.pbf"] {
            let osm = extract(file);
            let g = &osm.graph;
            let ch = ContractionHierarchy::build(g);
            let bi = BidirectionalDijkstra::new(g);
            let one = Dijkstra::new(g);
            let (mut c1, mut c2, mut c3) = (SearchCache::new(), BiCache::new(), ChCache::new());
            let mut rng = SplitMix64::new(7);
            let mut found = 0;
            for _ in 0..300 {
                let s = NodeId(rng.below(g.node_count() as u64) as u32);
                let t = NodeId(rng.below(g.node_count() as u64) as u32);
                let want = one.search_cost(s, t, &mut c1);
                for (name, got) in [
                    ("ch", ch.search_cost(s, t, &mut c3)),
                    ("bidijkstra", bi.search_cost(s, t, &mut c2)),
                ] {
                    assert_eq!(got, want, "{file} {name} {s:?} -> {t:?}");
                }
                found += usize::from(want.is_some());
            }
            println!("{file}: {found} of 300 queries have a path");
            assert!(
                found >= 150,
                "{file}: only {found} of 300 queries have a path"
            );
        }
    }

    /// `read_road_graph` gives an extract's graph with its places from one
    /// read, whether the file is told by its `.pbf` name or by its first
    /// bytes; a text format has none.
    #[test]
    fn road_graph_reads_keep_the_places() {
        let path = cairns_testdata::road_file("osm/pyrosm-test.osm.pbf");
        let osm = read_osm(&path).unwrap();
        let dir = std::env::temp_dir().join(format!("cairns-road-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let unnamed = dir.join("extract.bin");
        std::fs::copy(&path, &unnamed).unwrap();
        for file in [&path, &unnamed] {
            let read = crate::graph::read_road_graph(file).unwrap();
            assert_eq!(read.format, crate::graph::GraphFormat::Osm);
            assert_eq!(read.graph.edge_count(), osm.graph.edge_count());
            assert_eq!(
                read.lon_lat.as_ref(),
                Some(&osm.coordinates),
                "{}",
                file.display()
            );
        }
        let text = dir.join("triangle.gr");
        std::fs::write(&text, "p sp 3 2\na 1 2 5\na 2 3 1\n").unwrap();
        let read = crate::graph::read_road_graph(&text).unwrap();
        assert_eq!(
            (read.format, read.lon_lat),
            (crate::graph::GraphFormat::Dimacs, None)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

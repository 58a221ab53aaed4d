//! The policy network's weights file (docs/bots.md, "The weights format"): a small
//! little-endian binary read here and written by `python/xueliu/train.py`.
//!
//! ```text
//! magic    4 bytes  "XLPW"
//! format   u32      1 or 2
//! version  u32      the model's version, as in "policy:VERSION"
//! layers   u32      L, 2 to 8
//! shapes   L × (u32 inputs, u32 outputs)   inputs of layer 0 = 1917 (71 × 27 planes, version
//!                                          1) or 546 (features.rs, version 2 on),
//!                                          outputs of layer L-1 = 114 (action ids)
//! values   per layer: inputs × outputs f32 weights (input-major), then outputs f32 biases
//! prior    f32      format 2 only: the weight of greedy's choice (features.rs) added to its
//!                   logit; 0 with the planes
//! checksum u64      FNV-1a 64 of every byte before it
//! ```
//!
//! Each hidden layer is followed by a ReLU; the last layer's outputs are the logits of the
//! action ids. The input of plane byte `v` is `min(v, 8) / 4` ([`input_value`]).

use super::features::FEATURES;
use crate::encode::{ACTION_COUNT, OBS_SIZE};
use crate::error::Error;

/// The first four bytes of a weights file.
pub const MAGIC: &[u8; 4] = b"XLPW";
/// The format written; this reader reads it and format 1 (no prior).
pub const FORMAT: u32 = 2;
/// The most layers a file may hold.
pub const MAX_LAYERS: usize = 8;
/// The widest hidden layer a file may hold.
pub const MAX_WIDTH: usize = 4096;

/// The network input of one observation byte: counts saturate at 8 and scale to about one.
#[inline]
pub fn input_value(byte: u8) -> f32 {
    f32::from(byte.min(8)) * 0.25
}

/// FNV-1a, 64 bits: the file's checksum (a guard against truncation and corruption, not
/// against tampering).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// One dense layer, `outputs = inputs · weights + biases`, weights input-major as in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub inputs: usize,
    pub outputs: usize,
    pub weights: Vec<f32>,
    pub biases: Vec<f32>,
}

/// A parsed, checked weights file.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub format: u32,
    pub version: u32,
    pub layers: Vec<Layer>,
    /// Greedy's choice's input times this is added to its logit (format 2 and features only).
    pub prior: f32,
}

/// Reads little-endian fields in order, naming the field that runs past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| bad(format!("the file ends inside {what}")))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self, what: &str) -> Result<u32, Error> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32s(&mut self, n: usize, what: &str) -> Result<Vec<f32>, Error> {
        let bytes = self.take(n * 4, what)?;
        let values: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if values.iter().all(|v| v.is_finite()) {
            Ok(values)
        } else {
            Err(bad(format!("{what} holds a value that is not finite")))
        }
    }
}

fn bad(why: String) -> Error {
    Error::Argument(format!(
        "not a policy weights file: {why}; export one with python -m xueliu.train"
    ))
}

impl Weights {
    /// Parses and checks a weights file: magic, format, shapes chained from the observation's
    /// 1,917 inputs or the features' 546 to the 114 action ids, finite values, checksum, nothing after it.
    pub fn parse(bytes: &[u8]) -> Result<Weights, Error> {
        let Some((body, sum)) = bytes.split_last_chunk::<8>() else {
            return Err(bad(format!("{} bytes is too short", bytes.len())));
        };
        let (stored, computed) = (u64::from_le_bytes(*sum), fnv1a64(body));
        if stored != computed {
            return Err(bad(format!(
                "checksum {stored:#018x} does not match the contents ({computed:#018x})"
            )));
        }
        let mut r = Reader { bytes: body, at: 0 };
        if r.take(4, "the magic")? != MAGIC {
            return Err(bad("it does not start with XLPW".into()));
        }
        let format = r.u32("the format")?;
        if !(1..=FORMAT).contains(&format) {
            return Err(bad(format!(
                "format {format}; this xueliu reads 1 to {FORMAT}"
            )));
        }
        let version = r.u32("the version")?;
        let count = r.u32("the layer count")? as usize;
        if !(2..=MAX_LAYERS).contains(&count) {
            return Err(bad(format!("{count} layers; 2 to {MAX_LAYERS} are read")));
        }
        let mut shapes = Vec::with_capacity(count);
        for k in 0..count {
            let shape = (r.u32("a shape")? as usize, r.u32("a shape")? as usize);
            // The first layer reads the planes (version 1) or the features (version 2 on).
            let first_in = if shape.0 == FEATURES {
                FEATURES
            } else {
                OBS_SIZE
            };
            let want_in = shapes.last().map_or(first_in, |&(_, o)| o);
            let last = k + 1 == count;
            let out_ok = if last {
                shape.1 == ACTION_COUNT
            } else {
                (1..=MAX_WIDTH).contains(&shape.1)
            };
            if shape.0 != want_in || !out_ok {
                return Err(bad(format!(
                    "layer {k} is {} × {}; it must take {want_in} inputs and give {}",
                    shape.0,
                    shape.1,
                    if last {
                        format!("{ACTION_COUNT} (the action ids)")
                    } else {
                        format!("1 to {MAX_WIDTH}")
                    }
                )));
            }
            shapes.push(shape);
        }
        let mut layers = Vec::with_capacity(count);
        for (k, &(inputs, outputs)) in shapes.iter().enumerate() {
            let weights = r.f32s(inputs * outputs, &format!("layer {k}'s weights"))?;
            let biases = r.f32s(outputs, &format!("layer {k}'s biases"))?;
            layers.push(Layer {
                inputs,
                outputs,
                weights,
                biases,
            });
        }
        let prior = if format >= 2 {
            r.f32s(1, "the prior")?[0]
        } else {
            0.0
        };
        if prior != 0.0 && shapes[0].0 != FEATURES {
            return Err(bad("a prior needs the features as input".into()));
        }
        if r.at != body.len() {
            return Err(bad(format!(
                "{} bytes follow the last layer",
                body.len() - r.at
            )));
        }
        Ok(Weights {
            format,
            version,
            layers,
            prior,
        })
    }

    /// The file's bytes: [`Weights::parse`] reads them back equal.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let words = [self.format, self.version, self.layers.len() as u32];
        words.iter().for_each(|w| out.extend(w.to_le_bytes()));
        for l in &self.layers {
            out.extend((l.inputs as u32).to_le_bytes());
            out.extend((l.outputs as u32).to_le_bytes());
        }
        for l in &self.layers {
            l.weights
                .iter()
                .chain(&l.biases)
                .for_each(|v| out.extend(v.to_le_bytes()));
        }
        if self.format >= 2 {
            out.extend(self.prior.to_le_bytes());
        }
        out.extend(fnv1a64(&out).to_le_bytes());
        out
    }
}

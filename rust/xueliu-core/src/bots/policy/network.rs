//! The policy network at run time: a multilayer perceptron over one seat's observation planes
//! (version 1) or its [`super::features`] (version 2 on), evaluated without
//! allocating. The first layer is applied sparsely (an input is mostly zeros) and the rules
//! planes' share of it (the input's last bytes either way) is computed once per ruleset; the
//! last layer scores only the legal action ids.

use super::features;
use super::weights::{input_value, Weights};
use crate::encode::{IdSet, CHANNELS, OBS_SIZE};
use crate::tile::KINDS;

/// The output layer, its weights output-major: one legal id's logit is one contiguous dot
/// product, and only the legal ids are computed.
#[derive(Debug)]
struct Dense {
    inputs: usize,
    weights: Vec<f32>,
    biases: Vec<f32>,
}

impl Dense {
    #[inline]
    fn output(&self, o: usize, x: &[f32]) -> f32 {
        let row = &self.weights[o * self.inputs..][..self.inputs];
        self.biases[o] + row.iter().zip(x).map(|(w, v)| w * v).sum::<f32>()
    }
}

/// A hidden layer after the first, its weights input-major as in the file: each nonzero input
/// adds its row to every output at once, which vectorises (a dot product per output, summed one
/// f32 at a time in order, does not), and the sums keep the dot products' order.
#[derive(Debug)]
struct Hidden {
    outputs: usize,
    weights: Vec<f32>,
    biases: Vec<f32>,
}

impl Hidden {
    /// `out = relu(x · weights + biases)`.
    #[inline]
    fn apply(&self, x: &[f32], out: &mut [f32]) {
        out.fill(0.0);
        for (i, &v) in x.iter().enumerate() {
            if v != 0.0 {
                let row = &self.weights[i * self.outputs..][..self.outputs];
                out.iter_mut().zip(row).for_each(|(o, w)| *o += v * w);
            }
        }
        for (o, bias) in out.iter_mut().zip(&self.biases) {
            *o = (bias + *o).max(0.0);
        }
    }
}

/// A checked network, ready to evaluate.
#[derive(Debug)]
pub struct Network {
    pub version: u32,
    /// What it reads: the observation planes or the features.
    pub input: Input,
    /// The first layer, input-major as in the file: one row per input byte.
    first: Vec<f32>,
    first_biases: Vec<f32>,
    /// The hidden layers after the first.
    hidden: Vec<Hidden>,
    /// The last layer: the action ids' logits.
    last: Dense,
    /// Added, times greedy's choice's input, to that id's logit (features only).
    prior: f32,
    /// The widest layer, for the scratch buffers.
    width: usize,
}

/// The input a network reads, told by its first layer's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The observation planes (docs/encoding.md), 1,917 bytes: version 1.
    Planes,
    /// [`features::write`]'s bytes.
    Features,
}

impl Input {
    /// The input of a first layer `inputs` wide, if it is one.
    pub fn of_width(inputs: usize) -> Option<Input> {
        match inputs {
            OBS_SIZE => Some(Input::Planes),
            features::FEATURES => Some(Input::Features),
            _ => None,
        }
    }

    pub fn width(self) -> usize {
        match self {
            Input::Planes => OBS_SIZE,
            Input::Features => features::FEATURES,
        }
    }

    /// Where the rules planes start: the last bytes of either input (`rules` and `rule_values`
    /// are the last two channels, docs/encoding.md §2; the encoder asserts it), so their share
    /// of the first layer is constant.
    fn rules_start(self) -> usize {
        match self {
            Input::Planes => (CHANNELS - 2) * KINDS,
            Input::Features => features::RULES_START,
        }
    }
}

/// Buffers a bot keeps between decisions: the activations of two consecutive layers, and the
/// rules planes' share of the first layer ([`Network::rules_base`]).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
    base: Vec<f32>,
}

impl Network {
    /// The network of a parsed file ([`Weights::parse`] keeps two layers or more).
    pub fn new(w: Weights) -> Option<Network> {
        let mut layers = w.layers;
        let last = layers.pop()?;
        let mut layers = layers.into_iter();
        let first = layers.next()?;
        let input = Input::of_width(first.inputs)?;
        let hidden: Vec<Hidden> = layers
            .map(|l| Hidden {
                outputs: l.outputs,
                weights: l.weights,
                biases: l.biases,
            })
            .collect();
        let width = hidden.iter().fold(first.outputs, |w, l| w.max(l.outputs));
        let mut weights = vec![0.0; last.weights.len()];
        for i in 0..last.inputs {
            for o in 0..last.outputs {
                weights[o * last.inputs + i] = last.weights[i * last.outputs + o];
            }
        }
        Some(Network {
            version: w.version,
            input,
            first: first.weights,
            first_biases: first.biases,
            hidden,
            last: Dense {
                inputs: last.inputs,
                weights,
                biases: last.biases,
            },
            width,
            prior: w.prior,
        })
    }

    /// Buffers sized for this network.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            a: vec![0.0; self.width],
            b: vec![0.0; self.width],
            base: vec![0.0; self.hidden()],
        }
    }

    fn hidden(&self) -> usize {
        self.first_biases.len()
    }

    /// Adds `input_value(byte)` times the first layer's row of each nonzero byte to `h`.
    fn accumulate(&self, bytes: &[u8], offset: usize, h: &mut [f32]) {
        let n = self.hidden();
        for (i, &byte) in bytes.iter().enumerate() {
            if byte != 0 {
                let x = input_value(byte);
                let row = &self.first[(offset + i) * n..][..n];
                h.iter_mut().zip(row).for_each(|(h, w)| *h += x * w);
            }
        }
    }

    /// The first layer's pre-activation from its biases and the rules planes of `input` alone,
    /// kept in `s`: the same for every decision of a ruleset. `input` is [`Input::width`] long.
    pub fn rules_base(&self, input: &[u8], s: &mut Scratch) {
        let start = self.input.rules_start();
        s.base.copy_from_slice(&self.first_biases);
        self.accumulate(&input[start..self.input.width()], start, &mut s.base);
    }

    /// The legal id with the highest logit (the lowest id among equals); `None` when `legal`
    /// is empty. `s` holds [`Network::rules_base`] of the same ruleset.
    pub fn best(&self, input: &[u8], legal: IdSet, s: &mut Scratch) -> Option<u16> {
        let n = self.hidden();
        let (a, b) = (&mut s.a, &mut s.b);
        a[..n].copy_from_slice(&s.base);
        self.accumulate(&input[..self.input.rules_start()], 0, &mut a[..n]);
        a[..n].iter_mut().for_each(|v| *v = v.max(0.0));
        let mut width = n;
        for layer in &self.hidden {
            layer.apply(&a[..width], &mut b[..layer.outputs]);
            std::mem::swap(a, b);
            width = layer.outputs;
        }
        let last = &self.last;
        let mut best: Option<(u16, f32)> = None;
        for id in legal.iter() {
            let mut logit = last.output(usize::from(id), &a[..width]);
            if self.input == Input::Features {
                logit += self.prior * input_value(input[features::GREEDY + usize::from(id)]);
            }
            if best.is_none_or(|(_, top)| logit > top) {
                best = Some((id, logit));
            }
        }
        best.map(|(id, _)| id)
    }
}

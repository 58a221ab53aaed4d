use super::weights::{self, fnv1a64, Layer, Weights};
use super::*;
use crate::bots::{play, AnyBot, BotKind};
use crate::choice::Choice;
use crate::encode::ACTION_COUNT;
use crate::game::Game;
use crate::rules::{Preset, Rules};

#[test]
fn the_shipped_weights_parse_and_write_back_equal() {
    for (version, bytes) in EMBEDDED {
        let w = Weights::parse(bytes).unwrap();
        assert_eq!(w.version, version);
        assert_eq!(w.to_bytes(), bytes);
        assert!(network(version).is_some());
    }
    assert_eq!(BotKind::parse("policy"), Ok(BotKind::Policy(LATEST)));
    assert_eq!(
        BotKind::Policy(LATEST).to_string(),
        format!("policy:{LATEST}")
    );
}

#[test]
fn a_damaged_file_is_refused_with_its_reason() {
    let good = EMBEDDED[0].1.to_vec();
    let mut flipped = good.clone();
    flipped[100] ^= 1;
    let refuse = |bytes: &[u8], why: &str| {
        let e = Weights::parse(bytes).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    };
    refuse(&flipped, "checksum");
    refuse(&good[..good.len() - 9], "checksum");
    refuse(&good[..5], "too short");
    let resealed = |mut body: Vec<u8>| {
        let sum = fnv1a64(&body);
        body.extend(sum.to_le_bytes());
        body
    };
    let body = &good[..good.len() - 8];
    let mut wrong_magic = body.to_vec();
    wrong_magic[0] = b'Y';
    refuse(&resealed(wrong_magic), "XLPW");
    let mut wrong_shape = body.to_vec();
    wrong_shape[16] ^= 1; // layer 0's inputs
    refuse(&resealed(wrong_shape), "layer 0");
    let mut extra = body.to_vec();
    extra.push(0);
    refuse(&resealed(extra), "follow the last layer");
    let mut nan = body.to_vec();
    let at = nan.len() - 4;
    nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
    refuse(&resealed(nan), "not finite");
}

#[test]
fn a_shipped_version_cannot_be_replaced_and_a_loaded_one_plays() {
    let mut w = Weights::parse(EMBEDDED[0].1).unwrap();
    w.layers[1].biases[0] += 1.0;
    assert!(load(&w.to_bytes())
        .unwrap_err()
        .to_string()
        .contains("cannot be replaced"));
    assert_eq!(load(EMBEDDED[0].1), Ok(1));
    assert_eq!(load(EMBEDDED[1].1), Ok(LATEST));
    w.version = 4_000_000;
    assert_eq!(load(&w.to_bytes()), Ok(4_000_000));
    assert_eq!(
        BotKind::parse("policy:4000000"),
        Ok(BotKind::Policy(4_000_000))
    );
    assert!(versions().contains(&4_000_000));
    for bad in ["policy:", "policy:+1", "policy:3999999", "policy:x"] {
        let e = BotKind::parse(bad).unwrap_err().to_string();
        assert!(e.contains("policy:VERSION"), "{e}");
    }
}

/// Every preset, every seat played by the policy: only legal actions (`play` checks each),
/// hands to the end, and the same game again from the same seed.
#[test]
fn the_policy_plays_whole_hands_legally_in_every_preset() {
    for &preset in Preset::ALL {
        let (name, rules) = (preset.name(), std::sync::Arc::new(preset.rules()));
        for seed in 0..3 {
            let run = || {
                let mut bots: Vec<PolicyBot> =
                    (0..4).map(|s| PolicyBot::new(LATEST, s).unwrap()).collect();
                let mut game = Game::new(rules.clone(), seed, true).unwrap();
                while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                    play(&mut bots[seat as usize], &mut game, seat).unwrap();
                }
                game.events_jsonl()
            };
            assert_eq!(run(), run(), "{name} seed {seed}");
        }
    }
}

#[test]
fn samples_do_not_depend_on_threads_and_label_legal_ids() {
    let plan = Distillation {
        rules: std::sync::Arc::new(Rules::preset("yaoji").unwrap()),
        teacher: BotKind::Greedy,
        players: [
            BotKind::Policy(LATEST),
            BotKind::Greedy,
            BotKind::Random,
            BotKind::Greedy,
        ],
        seed: 5,
        first_game: 0,
    };
    let one = samples(&plan, 6, 1).unwrap();
    assert_eq!(one, samples(&plan, 6, 3).unwrap());
    assert!(one.len() > 100);
    assert_eq!(one.obs.len(), one.len() * OBS_SIZE);
    assert_eq!(one.features.len(), one.len() * features::FEATURES);
    for (k, &id) in one.labels.iter().enumerate() {
        let legal = &one.legal[k * crate::encode::ACTION_COUNT..][..crate::encode::ACTION_COUNT];
        assert!(legal[usize::from(id)]);
        assert!(legal.iter().filter(|&&l| l).count() > 1);
    }
}

/// A features network of zero weights whose prior alone decides: greedy's choice in the
/// features is greedy's own, so it plays greedy's hands move for move in every preset.
#[test]
fn a_network_of_its_prior_alone_plays_greedy_s_hands() {
    let layer = |inputs, outputs| Layer {
        inputs,
        outputs,
        weights: vec![0.0; inputs * outputs],
        biases: vec![0.0; outputs],
    };
    let w = Weights {
        format: weights::FORMAT,
        version: 4_000_001,
        layers: vec![layer(features::FEATURES, 4), layer(4, ACTION_COUNT)],
        prior: 8.0,
    };
    assert_eq!(Weights::parse(&w.to_bytes()), Ok(w.clone()));
    assert_eq!(load(&w.to_bytes()), Ok(4_000_001));
    for &preset in Preset::ALL {
        let rules = std::sync::Arc::new(preset.rules());
        for seed in 0..2 {
            let run = |policy: bool| {
                let kind = if policy {
                    BotKind::Policy(4_000_001)
                } else {
                    BotKind::Greedy
                };
                let mut bots: Vec<AnyBot> = (0..4).map(|s| AnyBot::new(kind, s)).collect();
                let mut game = Game::new(rules.clone(), seed, true).unwrap();
                while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                    play(&mut bots[seat as usize], &mut game, seat).unwrap();
                }
                game.events_jsonl()
            };
            assert_eq!(run(true), run(false), "{} seed {seed}", preset.name());
        }
    }
    // The planes (version 1's input) carry no greedy choice: a prior over them is refused.
    let planes = Weights {
        layers: vec![layer(OBS_SIZE, 4), layer(4, ACTION_COUNT)],
        ..w
    };
    let e = Weights::parse(&planes.to_bytes()).unwrap_err().to_string();
    assert!(e.contains("prior"), "{e}");
}

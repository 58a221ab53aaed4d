//! The wire format, byte for byte: a digest of every snapshot and every view of the log that
//! eager play writes in each preset, against digests recorded from a known-good build
//! (`golden.txt`). A change of form in the JSON code must keep them; a deliberate change of the
//! format re-records them (the failure prints the new lines) and says so in its commit.

use super::*;
use crate::rules::Preset;
use crate::Choice;

/// FNV-1a, 64 bits: a fixed digest with no dependency.
struct Digest(u64);

impl Digest {
    fn add(&mut self, text: &str) {
        for b in text.bytes().chain([0xff]) {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Every text a hand writes at every step (snapshot; at the end each view of the log), with
/// a restore of each snapshot checked every few steps; a third of the hands end by 逃跑.
fn digest(preset: Preset) -> (u64, usize) {
    let rules = Arc::new(preset.rules());
    let (mut d, mut bytes) = (Digest(0xcbf2_9ce4_8422_2325), 0);
    let mut add = |text: &str, d: &mut Digest| {
        bytes += text.len();
        d.add(text);
    };
    let (mut rng, mut buf) = (Rng::new(11), ActionList::new());
    for seed in 0..6u64 {
        let mut game = Game::new(rules.clone(), seed, true).unwrap();
        let mut step = 0;
        loop {
            let text = game.to_json();
            if step % 7 == 0 {
                assert_eq!(Game::from_json(&text).unwrap().to_json(), text);
            }
            add(&text, &mut d);
            if seed % 3 == 2 && step == 40 + seed as usize && !game.is_over() {
                let seat = (0..4).find(|&s| game.abandon(s).is_ok());
                assert!(seat.is_some(), "someone can leave");
                add(&game.to_json(), &mut d);
            }
            if !eager_step(&mut game, &mut rng, &mut buf) {
                break;
            }
            step += 1;
        }
        add(&game.events_json(None), &mut d);
        add(&game.events_jsonl(), &mut d);
        add(&game.public_events_json(0), &mut d);
        for seat in 0..4 {
            add(&game.events_json_from(Some(Viewer::Seat(seat)), 3), &mut d);
        }
        assert_eq!(
            Game::from_events(&game.events_json(None))
                .unwrap()
                .to_json(),
            game.to_json()
        );
    }
    (d.0, bytes)
}

#[test]
fn snapshots_and_logs_are_written_byte_for_byte_as_recorded() {
    let golden = include_str!("golden.txt");
    let got: Vec<String> = Preset::ALL
        .iter()
        .map(|&p| {
            let (hash, bytes) = digest(p);
            format!("{} {hash:016x} {bytes}", p.name())
        })
        .collect();
    let want: Vec<&str> = golden.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(got, want, "new digests:\n{}", got.join("\n"));
}

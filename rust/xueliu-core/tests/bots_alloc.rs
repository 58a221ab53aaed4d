//! Bot decisions allocate nothing: a counting allocator watches every `choose` of whole hands.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use xueliu_core::bots::{bot_seed, BotKind};
use xueliu_core::game::Game;
use xueliu_core::rules::Rules;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn choosing_allocates_nothing() {
    // Build the hand tables first (with wilds too): their one-time construction allocates.
    let wild = xueliu_core::hand::Counts::new().with_wilds(1).unwrap();
    xueliu_core::analysis::shanten(&wild, &xueliu_core::analysis::Context::default());
    for preset in ["chengdu", "chengdu_xueliu", "xuezhan", "dashiyou", "yaoji"] {
        let rules = Arc::new(Rules::preset(preset).unwrap());
        for seed in 0..30u64 {
            let mut game = Game::new(rules.clone(), seed, false).unwrap();
            let mut bots = [
                BotKind::Greedy,
                BotKind::Random,
                BotKind::Policy(xueliu_core::bots::policy::LATEST),
                BotKind::Greedy,
            ]
            .map(|k| k.build(bot_seed(seed, 0)));
            while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                let before = ALLOCATIONS.load(Ordering::Relaxed);
                let action = bots[seat as usize].choose(&game.view(seat).unwrap());
                let after = ALLOCATIONS.load(Ordering::Relaxed);
                assert_eq!(before, after, "{preset} seed {seed}: {action} allocated");
                game.act(seat, action).unwrap();
            }
        }
    }
}

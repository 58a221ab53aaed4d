//! Bot decisions allocate nothing: a counting allocator watches every `choose` of whole hands.
//! The search bots allocate in their playouts (determinised copies of the game); a policy as
//! their prior adds nothing to that.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use xueliu_core::bots::{bot_seed, policy, Bot, BotKind, GreedyBot, PolicyBot};
use xueliu_core::game::Game;
use xueliu_core::rules::Rules;

struct Counting;

thread_local! {
    /// This thread's allocations: the tests run on threads of their own, side by side.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations so far on this thread.
fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
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
                BotKind::Policy(policy::LATEST),
                BotKind::Greedy,
            ]
            .map(|k| k.build(bot_seed(seed, 0)));
            while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                let before = allocations();
                let action = bots[seat as usize].choose(&game.view(seat).unwrap());
                let after = allocations();
                assert_eq!(before, after, "{preset} seed {seed}: {action} allocated");
                game.act(seat, action).unwrap();
            }
        }
    }
}

/// Where the policy picks greedy's action, `ismcts+policy:N` searches exactly as `ismcts:N`
/// does (same candidates, same worlds): it must choose the same and allocate as often.
#[test]
fn the_policy_as_prior_adds_no_allocation_to_the_search() {
    let (mut compared, mut apart) = (0, 0);
    for preset in ["chengdu", "yaoji"] {
        let rules = Arc::new(Rules::preset(preset).unwrap());
        for seed in 0..4u64 {
            let mut game = Game::new(rules.clone(), seed, false).unwrap();
            let mut greedy = GreedyBot::default();
            let mut policy = PolicyBot::new(policy::LATEST, 0).unwrap();
            while let Some(seat) = (0..4u8).find(|&s| game.must_act(s)) {
                let view = game.view(seat).unwrap();
                let action = greedy.choose(&view);
                if policy.choose(&view) == action {
                    let counted = |kind: BotKind| {
                        let mut bot = kind.build(seed);
                        let before = allocations();
                        let action = bot.choose(&view);
                        (action, allocations() - before)
                    };
                    let plain = counted(BotKind::Ismcts(8));
                    assert_eq!(counted(BotKind::IsmctsPolicy(8)), plain, "{preset} {seed}");
                    compared += 1;
                } else {
                    apart += 1;
                }
                game.act(seat, action).unwrap();
            }
        }
    }
    assert!(
        compared > 400 && apart < compared / 10,
        "{compared} {apart}"
    );
}

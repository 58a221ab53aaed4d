"""RULES.md §10's two tables, transcribed by hand from the spec (not from the engine), for the
tests of rules and scoring."""

PRESETS = ["dashiyou", "sanxia", "sanxia_piao", "chengdu", "chengdu_xueliu", "xuezhan", "yaoji"]

# RULES.md §10's first table, column by column; "—" is None. Every other pattern is None.
FAN = {
    "dashiyou": dict(basic=3, concealed=4, all_triplets=6, full_flush=8, flush_triplets=12),
    "sanxia": dict(basic=1, all_triplets=4, full_flush=6, flush_triplets=10),
    "sanxia_piao": dict(basic=3, all_triplets=6, full_flush=8, flush_triplets=12),
    "chengdu": dict(
        basic=1, all_triplets=2, full_flush=3, flush_triplets=4, terminals=3, seven_pairs=3,
        triplets_258=4, dragon_seven_pairs=5, flush_seven_pairs=5, flush_terminals=5,
        flush_dragon_seven_pairs=6, heavenly=6, earthly=6,
    ),
    "xuezhan": dict(
        basic=0, all_triplets=1, full_flush=2, flush_triplets=3, terminals=2, seven_pairs=2,
        triplets_258=3, dragon_seven_pairs=4, flush_seven_pairs=4, flush_terminals=4,
        flush_dragon_seven_pairs=5, heavenly=5, earthly=5,
    ),
}
FAN["chengdu_xueliu"] = FAN["chengdu"]
FAN["yaoji"] = FAN["xuezhan"]
PATTERNS = [
    "basic", "concealed", "all_triplets", "full_flush", "terminals", "seven_pairs",
    "dragon_seven_pairs", "flush_triplets", "triplets_258", "flush_seven_pairs",
    "flush_dragon_seven_pairs", "flush_terminals", "heavenly", "earthly", "golden_hook",
    "eighteen_arhats",
]

# Options §10's second table leaves out take the defaults RULES.md states.
DEFAULTS = dict(
    kong_draw_from="front", pong_last_discard=False, gen_counts_kongs=False,
    self_draw_payers="not_won", self_draw_bonus="none", exchange_same_suit=True,
    wilds=False, no_wild_fan=0, heavenly_stacks=False, flower_pig_rule="three_suits",
    escape_penalty=96,
)

# RULES.md §10's second table, one column per preset. flower_pig_fan is only read with
# "fixed_fan"; fan_offset only with "exponential" (both 0 where the table has "—").
OPTIONS = {
    "dashiyou": dict(
        mode="xueliu", first_dealer="east", dealer_rotation="rotate",
        exchange="dice", exchange_redeal_if_unchanged=True,
        declare_void=True, allow_seven_pairs=False,
        scoring="linear", base_points=1, fan_offset=0, cap_fan=None,
        gen_fan=0, exposed_kong_fan=1, concealed_kong_fan=2,
        kong_flower_fan=0, kong_shot_fan=0, rob_kong_fan=0,
        rob_kong_scoring="as_basic", rob_concealed_kong=True,
        late_kong="full", pass_win_lock="none", last_four="forced",
        kong_fan="win_and_loss", kong_payments=False,
        kong_flower_after_direct_kong="all_pay", kong_income_transfer="none",
        flower_pig_penalty="double_ready_value", flower_pig_fan=0, flower_pig_payees="ready",
        tax_refund=False, ready_difference=False,
    ),
    "sanxia": dict(
        mode="xueliu", first_dealer="east", dealer_rotation="rotate",
        exchange="dice", exchange_redeal_if_unchanged=False,
        declare_void=True, allow_seven_pairs=False,
        scoring="linear", base_points=1, fan_offset=0, cap_fan=None,
        gen_fan=0, exposed_kong_fan=1, concealed_kong_fan=2,
        kong_flower_fan=0, kong_shot_fan=0, rob_kong_fan=0,
        rob_kong_scoring="as_basic", rob_concealed_kong=False,
        late_kong="kept_fourth_forbidden", pass_win_lock="none", last_four="none",
        kong_fan="win_and_loss", kong_payments=False,
        kong_flower_after_direct_kong="all_pay", kong_income_transfer="none",
        flower_pig_penalty="double_ready_value", flower_pig_fan=0,
        flower_pig_payees="ready_or_won",
        tax_refund=False, ready_difference=False,
    ),
    "chengdu": dict(
        mode="xuezhan", first_dealer="random", dealer_rotation="first_winner",
        exchange=None, exchange_redeal_if_unchanged=False,
        declare_void=True, allow_seven_pairs=True,
        scoring="exponential", base_points=6, fan_offset=1, cap_fan=None,
        gen_fan=1, exposed_kong_fan=1, concealed_kong_fan=1,
        kong_flower_fan=1, kong_shot_fan=1, rob_kong_fan=1,
        rob_kong_scoring="normal", rob_concealed_kong=False,
        late_kong="root_only", pass_win_lock="until_draw_unless_higher", last_four="ron_forced",
        kong_fan="win_only", kong_payments=True,
        kong_flower_after_direct_kong="feeder_pays_all", kong_income_transfer="last_kong",
        flower_pig_penalty="fixed_fan", flower_pig_fan=5, flower_pig_payees="ready_or_won",
        tax_refund=True, ready_difference=False,
    ),
    "chengdu_xueliu": dict(
        mode="xueliu", first_dealer="random", dealer_rotation="first_winner",
        exchange="dice", exchange_redeal_if_unchanged=False,
        declare_void=True, allow_seven_pairs=True,
        scoring="exponential", base_points=6, fan_offset=1, cap_fan=None,
        gen_fan=1, exposed_kong_fan=1, concealed_kong_fan=1,
        kong_flower_fan=1, kong_shot_fan=1, rob_kong_fan=1,
        rob_kong_scoring="normal", rob_concealed_kong=False,
        late_kong="kept_fourth_forbidden", pass_win_lock="until_draw_unless_higher",
        last_four="ron_forced",
        kong_fan="win_only", kong_payments=True,
        kong_flower_after_direct_kong="feeder_pays_all", kong_income_transfer="last_kong",
        flower_pig_penalty="fixed_fan", flower_pig_fan=5, flower_pig_payees="ready_or_won",
        tax_refund=True, ready_difference=False,
    ),
    "xuezhan": dict(
        mode="xuezhan", first_dealer="dice", dealer_rotation="first_winner",
        exchange="dice", exchange_redeal_if_unchanged=False,
        declare_void=True, allow_seven_pairs=True,
        scoring="exponential", base_points=1, fan_offset=0, cap_fan=None,
        gen_fan=1, exposed_kong_fan=1, concealed_kong_fan=2,
        kong_flower_fan=1, kong_shot_fan=1, rob_kong_fan=1,
        rob_kong_scoring="normal", rob_concealed_kong=False,
        late_kong="full", pass_win_lock="none", last_four="self_draw_forced",
        kong_fan="win_only", kong_payments=True,
        kong_flower_after_direct_kong="all_pay", kong_income_transfer="none",
        flower_pig_penalty="fixed_fan", flower_pig_fan=4, flower_pig_payees="non_pigs",
        tax_refund=True, ready_difference=True,
    ),
}
OPTIONS["sanxia_piao"] = OPTIONS["sanxia"]
OPTIONS["yaoji"] = dict(OPTIONS["xuezhan"], cap_fan=5, kong_flower_after_direct_kong="feeder_pays_all")
OWN_DEFAULTS = {"yaoji": dict(wilds=True, no_wild_fan=1, heavenly_stacks=True)}


def expected_dict(preset):
    fan = {p: FAN[preset].get(p) for p in PATTERNS}
    return dict(DEFAULTS, **OPTIONS[preset], **OWN_DEFAULTS.get(preset, {}), fan=fan, preset=preset)

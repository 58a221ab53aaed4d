"""The words of ``xueliu play`` in the player's language: English, 简体中文 or 繁體中文, from one table.

``--lang`` picks the language; without it the environment's locale does (``LC_ALL``, then
``LC_MESSAGES``, then ``LANG``, as POSIX orders them): ``zh_TW``, ``zh_HK``, ``zh_MO`` or a
``Hant`` script read 繁體, any other ``zh`` 简体, anything else English. The rule words are the ones
Sichuan players say (刮风, 下雨, 查叫, 花猪, 退税 …), the 繁體 set in the seeds' traditional forms; the
web table's words are its own table (server/static/strings.json).
"""

from __future__ import annotations

from typing import Mapping

LANGUAGES = ("en", "zh-Hans", "zh-Hant")

# key: (English, 简体, 繁體); "{name}" marks a value filled in (str.format)
WORDS: dict[str, tuple[str, str, str]] = {
    # seats and tiles
    "seat.0": ("East", "东家", "東家"),
    "seat.1": ("South", "南家", "南家"),
    "seat.2": ("West", "西家", "西家"),
    "seat.3": ("North", "北家", "北家"),
    "you": ("{seat} (you)", "{seat}（你）", "{seat}（你）"),
    "suit.m": ("characters (万)", "万", "萬"),
    "suit.p": ("dots (筒)", "筒", "筒"),
    "suit.s": ("bamboo (条)", "条", "條"),
    "void.m": ("m", "万", "萬"),
    "void.p": ("p", "筒", "筒"),
    "void.s": ("s", "条", "條"),
    "tiles": ("{n} tiles", "{n} 张", "{n} 張"),
    "pt": ("1 pt", "1 分", "1 分"),
    "pts": ("{n} pts", "{n} 分", "{n} 分"),
    "tile": ("1 tile", "1 张", "1 張"),
    # the events
    "start": (
        "New hand: {preset}{seed}, {dealer} deals",
        "新一局：{preset}{seed}，{dealer}坐庄",
        "新一局：{preset}{seed}，{dealer}坐莊",
    ),
    "start.custom": ("custom rules", "自定规则", "自訂規則"),
    "start.seed": (", seed {seed}", "，种子 {seed}", "，種子 {seed}"),
    "deal": ("{who} is dealt {n} tiles", "{who}起手 {n} 张", "{who}起手 {n} 張"),
    "redeal": ("Redeal: every seat got back what it gave", "重换：各家收回换出的牌", "重換：各家收回換出的牌"),
    "void": ("{who} declares void (定缺): {suit}", "{who}定缺：{suit}", "{who}定缺：{suit}"),
    "draw": ("{who} draws ", "{who}摸 ", "{who}摸 "),
    "draw.hidden": ("a tile", "一张牌", "一張牌"),
    "draw.replacement": (" (kong replacement)", "（杠后补牌）", "（槓後補牌）"),
    "discard": ("{who} discards ", "{who}打出 ", "{who}打出 "),
    "pass": ("{who} passes on the {on} (could {could})", "{who}过（本可{could}）", "{who}過（本可{could}）"),
    "pass.win": ("{who} passes on the {on} (could {could})", "{who}过胡（本可{could}）", "{who}過胡（本可{could}）"),
    "or": (" or ", "或", "或"),
    "claim.win": ("win", "胡", "胡"),
    "claim.pong": ("pong", "碰", "碰"),
    "claim.kong": ("kong", "杠", "槓"),
    "pong": ("{who} pongs ", "{who}碰 ", "{who}碰 "),
    "pong.from": (" from {seat}", "（{seat}打的）", "（{seat}打的）"),
    "with_wilds": (" with {n} wild", "，含 {n} 张幺鸡", "，含 {n} 張幺雞"),
    "with_wilds.many": (" with {n} wilds", "，含 {n} 张幺鸡", "，含 {n} 張幺雞"),
    "kong": ("{who} kongs ", "{who}杠 ", "{who}槓 "),
    "kong.direct": (" on {seat}'s discard (直杠)", "（{seat}打的，直杠·刮风）", "（{seat}打的，直槓·刮風）"),
    "kong.added": (" onto its pong (补杠)", "（巴杠·刮风）", "（巴槓·刮風）"),
    "kong.concealed": (" concealed (暗杠)", "（暗杠·下雨）", "（暗槓·下雨）"),
    "kong.late": (", a late kong", "，迟杠", "，遲槓"),
    "swap": ("{who} swaps ", "{who}幺鸡换：用 ", "{who}幺雞換：用 "),
    "swap.back": (" into its kong and takes a wild back (幺鸡换)", " 换回杠里的幺鸡", " 換回槓裡的幺雞"),
    "beaten": ("{who}'s {claim} loses to a win", "{who}的{claim}被胡截了", "{who}的{claim}被胡截了"),
    "robbed": ("{who}'s kong of {tile} is robbed", "{who}杠的 {tile} 被抢杠胡", "{who}槓的 {tile} 被搶槓胡"),
    "wins": ("{who} WINS", "{who}胡了", "{who}胡了"),
    "wins.on": (" on ", " ", " "),
    "win.discard": ("on {seat}'s discard", "点炮（{seat}打的）", "點炮（{seat}打的）"),
    "win.self_draw": ("by self-draw (自摸)", "自摸", "自摸"),
    "win.robbed_kong": ("robbing {seat}'s kong (抢杠)", "抢杠胡（{seat}的杠）", "搶槓胡（{seat}的槓）"),
    "win.score": (" {kind}: {score}", " {kind}：{score}", " {kind}：{score}"),
    "win.unshown": (" {kind}; shown when the hand ends", " {kind}，本局结束时公示", " {kind}，本局結束時公示"),
    "reveal": ("The wins are shown:", "公示和牌：", "公示和牌："),
    "payment": ("  {payer} pays {payee} ", "  {payer}付给{payee} ", "  {payer}付給{payee} "),
    "payment.why": (" ({reason})", " 分（{reason}）", " 分（{reason}）"),
    "reason.win": ("win on a discard, 点炮", "点炮", "點炮"),
    "reason.self_draw": ("self-drawn win, 自摸", "自摸", "自摸"),
    "reason.kong_flower_feeder": ("fed a kong's win, 点杠花", "点杠花", "點槓花"),
    "reason.kong": ("kong, 刮风下雨", "刮风下雨", "刮風下雨"),
    "reason.kong_transfer": ("kong income passed on, 呼叫转移", "呼叫转移", "呼叫轉移"),
    "reason.flower_pig": ("flower pig, 查花猪", "查花猪", "查花豬"),
    "reason.not_ready": ("not ready at a drawn wall, 查叫", "查叫", "查叫"),
    "reason.ready_difference": ("ready hands' difference, 补差价", "补差价", "補差價"),
    "reason.tax_refund": ("kong income repaid by a hand not ready, 退税", "退税", "退稅"),
    "reason.escape": ("left the hand, 逃跑", "逃跑", "逃跑"),
    "end": ("Hand over ({reason}): {scores}", "本局结束（{reason}）：{scores}", "本局結束（{reason}）：{scores}"),
    "end.three_won": ("three have won", "三家已胡", "三家已胡"),
    "end.wall_empty": ("the wall is empty", "流局", "流局"),
    "end.abandoned": ("a player left (逃跑)", "有人逃跑", "有人逃跑"),
    "dice.dealer": ("Dice for the dealer: {throws}", "掷骰定庄：{throws}", "擲骰定莊：{throws}"),
    "dice.then": (", then ", "，再掷 ", "，再擲 "),
    "dice.sep": ("; ", "；", "；"),
    "deal.tiles": (": ", "：", "："),
    "dice.and": (" and ", "和", "和"),
    "dice.wall": ("{who} rolls {values} to break the wall", "{who}掷出 {values}，开牌", "{who}擲出 {values}，開牌"),
    "dice.exchange": (
        "{who} rolls {values} for the exchange's direction",
        "{who}掷出 {values}，定换牌方向",
        "{who}擲出 {values}，定換牌方向",
    ),
    "exchange": ("Exchange three (换三张), {direction}", "换三张，{direction}", "換三張，{direction}"),
    "direction.clockwise": ("clockwise", "顺时针", "順時針"),
    "direction.counterclockwise": ("counter-clockwise", "逆时针", "逆時針"),
    "direction.opposite": ("opposite", "对家互换", "對家互換"),
    "exchange.gives": ("\n  {who} gives ", "\n  {who}换出 ", "\n  {who}換出 "),
    "exchange.give": ("\n  You give ", "\n  你换出 ", "\n  你換出 "),
    "exchange.receives": (" to {seat} and receives ", " 给{seat}，换回 ", " 給{seat}，換回 "),
    "exchange.receive": (" to {seat} and receive ", " 给{seat}，换回 ", " 給{seat}，換回 "),
    "exchange.from": (" from {seat}", "（来自{seat}）", "（來自{seat}）"),
    # a score in words
    "fan": ("{n} fan", "{n} 番", "{n} 番"),
    "capped": (" (capped, {fan} uncapped)", "（封顶，原 {fan} 番）", "（封頂，原 {fan} 番）"),
    "points": ("{n} points", "{n} 分", "{n} 分"),
    "point": ("1 point", "1 分", "1 分"),
    "score": ("{parts}, {fan}, {points}", "{parts}，{fan}，{points}", "{parts}，{fan}，{points}"),
    "paid.one": ("{points} from 1 seat", "{points}，一家付", "{points}，一家付"),
    "paid.many": ("{points} from {n} seats ({each})", "{points}，{n} 家付（{each}）", "{points}，{n} 家付（{each}）"),
    "paid.each": ("{n} each", "各 {n}", "各 {n}"),
    "pattern.basic": ("basic", "平胡", "平胡"),
    "pattern.concealed": ("concealed", "门清", "門清"),
    "pattern.all_triplets": ("all_triplets", "对对胡", "對對胡"),
    "pattern.full_flush": ("full_flush", "清一色", "清一色"),
    "pattern.terminals": ("terminals", "带幺九", "帶幺九"),
    "pattern.seven_pairs": ("seven_pairs", "七对", "七對"),
    "pattern.dragon_seven_pairs": ("dragon_seven_pairs", "龙七对", "龍七對"),
    "pattern.flush_triplets": ("flush_triplets", "清对", "清對"),
    "pattern.triplets_258": ("triplets_258", "将对", "將對"),
    "pattern.flush_seven_pairs": ("flush_seven_pairs", "清七对", "清七對"),
    "pattern.flush_dragon_seven_pairs": ("flush_dragon_seven_pairs", "清龙七对", "清龍七對"),
    "pattern.flush_terminals": ("flush_terminals", "清幺九", "清幺九"),
    "pattern.heavenly": ("heavenly", "天胡", "天胡"),
    "pattern.earthly": ("earthly", "地胡", "地胡"),
    "pattern.golden_hook": ("golden_hook", "金钩钓", "金鉤釣"),
    "pattern.eighteen_arhats": ("eighteen_arhats", "十八罗汉", "十八羅漢"),
    "bonus.root": ("root", "根", "根"),
    "bonus.exposed_kong": ("exposed_kong", "明杠", "明槓"),
    "bonus.concealed_kong": ("concealed_kong", "暗杠", "暗槓"),
    "bonus.kong_flower": ("kong_flower", "杠上花", "槓上花"),
    "bonus.kong_shot": ("kong_shot", "杠上炮", "槓上炮"),
    "bonus.rob_kong": ("rob_kong", "抢杠胡", "搶槓胡"),
    "bonus.self_draw": ("self_draw", "自摸加番", "自摸加番"),
    "bonus.no_wild": ("no_wild", "无鸡加番", "無雞加番"),
    "bonus.four_wilds": ("four_wilds", "四幺鸡", "四幺雞"),
    "bonus.heavenly": ("heavenly", "天胡", "天胡"),
    "bonus.earthly": ("earthly", "地胡", "地胡"),
    "bonus.golden_hook": ("golden_hook", "金钩钓", "金鉤釣"),
    "bonus.last_tile_self_draw": ("last_tile_self_draw", "海底捞月", "海底撈月"),
    "bonus.last_discard_win": ("last_discard_win", "海底炮", "海底炮"),
    # the play screen
    "intro": (
        "xueliu play: {rules}, seed {seed} (--seed {seed} plays this hand again); you are {seat}",
        "血流 play：{rules}，种子 {seed}（--seed {seed} 重打这一局）；你是{seat}",
        "血流 play：{rules}，種子 {seed}（--seed {seed} 重打這一局）；你是{seat}",
    ),
    "intro.match": (
        "xueliu play: {rules}, a match of {hands} hands, seed {seed} (--seed {seed} plays it again); you are {seat}",
        "血流 play：{rules}，共 {hands} 局，种子 {seed}（--seed {seed} 重打这一场）；你是{seat}",
        "血流 play：{rules}，共 {hands} 局，種子 {seed}（--seed {seed} 重打這一場）；你是{seat}",
    ),
    "log.written": (
        "Log written to {path} (xueliu replay {path})",
        "日志已写入 {path}（xueliu replay {path}）",
        "日誌已寫入 {path}（xueliu replay {path}）",
    ),
    "log.match_written": (
        "Match log written to {path} (xueliu replay {path})",
        "整场日志已写入 {path}（xueliu replay {path}）",
        "整場日誌已寫入 {path}（xueliu replay {path}）",
    ),
    "hand.deals": (
        "Hand {hand} of {hands}: {dealer} deals",
        "第 {hand}/{hands} 局：{dealer}坐庄",
        "第 {hand}/{hands} 局：{dealer}坐莊",
    ),
    "hand.next": ("Next hand: {dealer} deals", "下一局：{dealer}坐庄", "下一局：{dealer}坐莊"),
    "wilds_note": (
        "幺鸡: the four 1s are wilds, shown 1s*: each stands for any tile (a fifth copy too) and for no suit.\n"
        "A wild is never discarded or exchanged; pongs and kongs may hold one (幺鸡换 swaps it back\n"
        "for the natural tile); four wilds win at once.",
        "幺鸡：四张一条是万能牌，显示为 1s*：每张可当任何牌（也可当第五张），不算任何花色。\n"
        "幺鸡不能打出，也不能换出；碰、杠里可以含幺鸡（幺鸡换：用真牌换回）；四张幺鸡直接胡。",
        "幺雞：四張一條是萬能牌，顯示為 1s*：每張可當任何牌（也可當第五張），不算任何花色。\n"
        "幺雞不能打出，也不能換出；碰、槓裡可以含幺雞（幺雞換：用真牌換回）；四張幺雞直接胡。",
    ),
    "only_choice": ("Only one choice: {action}{why}", "只有一个选择：{action}{why}", "只有一個選擇：{action}{why}"),
    "only_choice.win": (
        " (the rules force it: the wall's last four, or four wilds), {value}",
        "（规则强制：牌墙最后四张，或四张幺鸡），{value}",
        "（規則強制：牌牆最後四張，或四張幺雞），{value}",
    ),
    "only_choice.void": (" (tiles of your void suit go first)", "（缺的那门要先打完）", "（缺的那門要先打完）"),
    "your_move": ("Your move [1-{n}]: ", "你的选择 [1-{n}]：", "你的選擇 [1-{n}]："),
    "type_a_number": (
        "Please type a number from 1 to {n}, or a move such as `{example}`.",
        "请输入 1 到 {n} 的数字，或像 `{example}` 这样的招法。",
        "請輸入 1 到 {n} 的數字，或像 `{example}` 這樣的招法。",
    ),
    "not_possible": (
        "Not possible: {reason}. Type a number from 1 to {n}, or a move such as `{example}`.",
        "不行：{reason}。请输入 1 到 {n} 的数字，或像 `{example}` 这样的招法。",
        "不行：{reason}。請輸入 1 到 {n} 的數字，或像 `{example}` 這樣的招法。",
    ),
    "not_possible.short": ("Not possible: {reason}.", "不行：{reason}。", "不行：{reason}。"),
    "not_a_choice": ("{action} is not among the choices", "{action} 不在可选之列", "{action} 不在可選之列"),
    "ready": ("Ready 听牌, waiting on ", "听牌，等 ", "聽牌，等 "),
    "ready.wait": (
        " ({unseen} unseen: {pattern}, {fan}, {points})",
        "（未见 {unseen} 张：{pattern}，{fan}，{points}）",
        "（未見 {unseen} 張：{pattern}，{fan}，{points}）",
    ),
    "ready.comma": (", ", "，", "，"),
    "exchange.ask": (
        "Exchange three (换三张): give three tiles{one_suit}. Type them (e.g. {suggested}), or "
        "their places in your hand (e.g. 1 2 3), or press Enter for {suggested}.{never}",
        "换三张：换出三张牌{one_suit}。输入这三张（如 {suggested}），或它们在手牌中的位置（如 1 2 3），"
        "或直接回车换 {suggested}。{never}",
        "換三張：換出三張牌{one_suit}。輸入這三張（如 {suggested}），或它們在手牌中的位置（如 1 2 3），"
        "或直接按 Enter 換 {suggested}。{never}",
    ),
    "exchange.one_suit": (" of one suit", "（同一花色）", "（同一花色）"),
    "exchange.never": (" A wild (1s*) is never given.", "幺鸡（1s*）不能换出。", "幺雞（1s*）不能換出。"),
    "exchange.prompt": ("Give three [{suggested}]: ", "换出三张 [{suggested}]：", "換出三張 [{suggested}]："),
    "exchange.places": (
        "Please give three different places from 1 to {n}.",
        "请给出 1 到 {n} 之间三个不同的位置。",
        "請給出 1 到 {n} 之間三個不同的位置。",
    ),
    "worth": ("worth {score}; {paid}", "值 {score}；{paid}", "值 {score}；{paid}"),
    "view.title": ("Phase {phase}, wall {tiles}", "阶段 {phase}，牌墙 {tiles}", "階段 {phase}，牌牆 {tiles}"),
    "phase.exchange": ("exchange", "换三张", "換三張"),
    "phase.void": ("void", "定缺", "定缺"),
    "phase.play": ("play", "行牌", "行牌"),
    "phase.over": ("over", "结束", "結束"),
    "col.seat": ("seat", "座位", "座位"),
    "col.void": ("void", "缺", "缺"),
    "col.tiles": ("tiles", "手牌", "手牌"),
    "col.melds": ("melds", "碰杠", "碰槓"),
    "col.river": ("river (in order)", "出牌（按顺序）", "出牌（按順序）"),
    "col.score": ("score", "分", "分"),
    "col.hand": ("hand", "手牌", "手牌"),
    "col.wins": ("wins", "胡牌", "胡牌"),
    "col.total": ("total", "合计", "合計"),
    "col.dealer": ("dealer", "庄家", "莊家"),
    "col.hand_no": ("hand", "局", "局"),
    "won": (" won ", " 胡了 ", " 胡了 "),
    "hidden": ("{n} hidden", "{n} 张暗牌", "{n} 張暗牌"),
    "settlement": ("Settlement", "结算", "結算"),
    "settlement.win": (
        "{tile} {pattern}, {fan} fan, {points} pts",
        "{tile} {pattern}，{fan} 番，{points} 分",
        "{tile} {pattern}，{fan} 番，{points} 分",
    ),
    "totals": ("After {played} of {hands} hands", "{played}/{hands} 局之后", "{played}/{hands} 局之後"),
    "totals.total": ("total", "合计", "合計"),
    "totals.placement": ("placement", "名次分", "名次分"),
}


def language_of(environ: Mapping[str, str]) -> str:
    """The language a locale names (``zh_TW.UTF-8`` → zh-Hant, ``zh_CN`` → zh-Hans), else English;
    the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` set decides, as for any POSIX program."""
    locale = next((environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(k)), "")
    tag = locale.split(".")[0].replace("_", "-").lower()
    if tag == "zh" or tag.startswith("zh-"):
        return "zh-Hant" if tag.startswith(("zh-tw", "zh-hk", "zh-mo", "zh-hant")) else "zh-Hans"
    return "en"


class Words:
    """``words(key, **values)``: the text of ``key`` in this language, its ``{name}``s filled in."""

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
        self.language = language
        self._column = LANGUAGES.index(language)

    def __call__(self, key: str, **values: object) -> str:
        return WORDS[key][self._column].format(**values)

    def name(self, prefix: str, name: str) -> str:
        """The words for an engine name (a pattern, a payment reason); the name itself if none."""
        key = f"{prefix}.{name}"
        return self(key) if key in WORDS else name

    def seats(self) -> list[str]:
        return [self(f"seat.{s}") for s in range(4)]

    def count(self, n: int, key: str) -> str:
        """``1 point`` / ``2 points`` (``key`` for one, ``key + "s"`` for more): in Chinese the same."""
        return self(key) if n == 1 and self.language == "en" else self(f"{key}s", n=n)


ENGLISH = Words("en")

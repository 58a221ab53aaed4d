// Labels: English first, the Chinese term beside it. One home for every word the page shows.

export const SEATS = ["East", "South", "West", "North"];
export const SEATS_ZH = ["东", "南", "西", "北"];
export const SUITS = { m: "Characters", p: "Dots", s: "Bamboo" };
export const SUITS_ZH = { m: "万", p: "筒", s: "条" };

export const seatName = (seat) => `${SEATS[seat]} ${SEATS_ZH[seat]}`;
export const suitName = (suit) => `${SUITS[suit]} ${SUITS_ZH[suit]}`;

// Where a seat sits as seen from `me` (seats run counter-clockwise: me + 1 is on my right).
export const PLACES = ["bottom", "right", "top", "left"];
export const RELATIVE = ["you", "next 下家", "opposite 对家", "previous 上家"];

export const PATTERNS = {
  basic: ["Basic", "平胡"],
  concealed: ["Concealed", "门清"],
  all_triplets: ["All triplets", "对对胡"],
  full_flush: ["Full flush", "清一色"],
  terminals: ["Terminals", "带幺九"],
  seven_pairs: ["Seven pairs", "七对"],
  dragon_seven_pairs: ["Dragon seven pairs", "龙七对"],
  flush_triplets: ["Flush triplets", "清对"],
  triplets_258: ["2-5-8 triplets", "将对"],
  flush_seven_pairs: ["Flush seven pairs", "清七对"],
  flush_dragon_seven_pairs: ["Flush dragon seven pairs", "清龙七对"],
  flush_terminals: ["Flush terminals", "清幺九"],
  heavenly: ["Heavenly hand", "天胡"],
  earthly: ["Earthly hand", "地胡"],
  golden_hook: ["Golden hook", "金钩钓"],
  eighteen_arhats: ["Eighteen arhats", "十八罗汉"],
};

export const BONUSES = {
  heavenly: ["Heavenly", "天胡"],
  earthly: ["Earthly", "地胡"],
  root: ["Root", "根"],
  exposed_kong: ["Exposed kong", "明杠"],
  concealed_kong: ["Concealed kong", "暗杠"],
  kong_flower: ["Win on a kong's draw", "杠上花"],
  kong_shot: ["Win on a kong's discard", "杠上炮"],
  rob_kong: ["Robbing a kong", "抢杠"],
  self_draw: ["Self-draw", "自摸加番"],
  no_wild: ["No wild", "无鸡加番"],
  four_wilds: ["Four wilds", "四幺鸡"],
  golden_hook: ["Golden hook", "金钩钓"],
  last_tile_self_draw: ["Self-draw of the last tile", "海底捞月"],
  last_discard_win: ["Win on the last discard", "海底炮"],
};

export const REASONS = {
  win: ["Win on a discard", "点炮"],
  self_draw: ["Self-drawn win", "自摸"],
  kong_flower_feeder: ["Fed a kong's win", "点杠花"],
  kong: ["Kong", "刮风下雨"],
  kong_transfer: ["Kong income passed on", "呼叫转移"],
  flower_pig: ["Flower pig", "查花猪"],
  not_ready: ["Not ready", "查叫"],
  ready_difference: ["Ready difference", "补差价"],
  tax_refund: ["Tax refund", "退税"],
  escape: ["Left the hand", "逃跑"],
};

export const END_REASONS = {
  three_won: "three players have won",
  wall_empty: "the wall is empty 流局",
  abandoned: "a player left the hand 逃跑",
};

export const WIN_KINDS = {
  discard: ["on a discard", "点炮"],
  self_draw: ["self-drawn", "自摸"],
  robbed_kong: ["robbing a kong", "抢杠"],
};

export const KONG_KINDS = {
  direct: ["direct kong", "明杠"],
  added: ["added kong", "巴杠"],
  concealed: ["concealed kong", "暗杠"],
};

export const MELDS = {
  pong: ["Pong", "碰"],
  kong: ["Kong", "杠"],
  concealed_kong: ["Concealed kong", "暗杠"],
};

export const ACTIONS = {
  win: ["Win", "胡"],
  pong: ["Pong", "碰"],
  kong: ["Kong", "杠"],
  swap: ["Swap", "幺鸡换"],
  pass: ["Pass", "过"],
  discard: ["Discard", "打"],
  exchange: ["Exchange", "换三张"],
  void: ["Void", "定缺"],
};

// "You receive from": docs/game-protocol.md §1 (clockwise: from 下家, seat + 1).
export const RECEIVE_FROM = { clockwise: 1, counterclockwise: 3, opposite: 2 };

export const EXCHANGE_RULE = {
  dice: "the dice decide the direction once everyone has picked",
  random: "the direction is drawn once everyone has picked",
  clockwise: "you receive from your next seat 下家 and give to your previous seat 上家",
  counterclockwise: "you receive from your previous seat 上家 and give to your next seat 下家",
  opposite: "you swap with the seat opposite 对家",
};

export const BOTS = {
  greedy: "greedy: fast, plays for the quickest win",
  random: "random: any legal move",
  "ismcts:200": "ismcts:200: searches 200 playouts a move (slower, stronger)",
};

export const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
export const label = ([en, zh]) => `${en} ${zh}`;
export const pattern = (name) => label(PATTERNS[name] || [name, ""]);
export const bonus = (name) => label(BONUSES[name] || [name, ""]);
export const reason = (name) => label(REASONS[name] || [name, ""]);

//! DY billboards (`GET /data/extern/billboard/...`, client token in `access-token`, the `{data,
//! extra}` envelope, same fields as the real host; docs/content-platforms.md). Each board is the
//! day's top of a fixed pool ranked by `words::heat` on the China day of the platform clock, so it
//! is stable within a day and reshuffles when the clock moves; `rank_change` compares with
//! yesterday's board. Fault call name: `billboard` (every board).

use super::dy_reply::{client_refusal, fault, ok};
use super::{S, both, gate, stable_hash, words};
use crate::{Board, BoardShape, Platform};
use axum::Router;
use axum::extract::State as St;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

/// Rows of a video, topic or music board; creator boards show [`CREATOR_LEN`].
pub(crate) const BOARD_LEN: usize = 30;
pub(crate) const CREATOR_LEN: usize = 20;

pub(crate) fn routes(mut r: Router<S>) -> Router<S> {
    for b in Board::ALL {
        r = both(
            r,
            b.path(),
            get(move |s: St<S>, h: HeaderMap| board(s, h, b)),
        );
    }
    r
}

async fn board(St(s): St<S>, headers: HeaderMap, b: Board) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "billboard", "").await {
        return fault(x, "billboard");
    }
    if let Some(r) = client_refusal(&s, &headers) {
        return r;
    }
    ok(json!({"list": list(&s.public_base, b, words::today(&s.clock))}))
}

/// (title, hot words, author) of the hot-video pool.
const VIDEOS: [(&str, &str, &str); 36] = [
    ("排队两小时的火锅到底值不值", "火锅,探店", "成都吃货阿强"),
    ("39元烤肉套餐闭眼入", "烤肉,团购", "老王爱烧烤"),
    ("凌晨四点的早市太有烟火气了", "早市,烟火气", "城市漫游记"),
    ("一口气吃遍长沙夜市", "长沙美食,夜市", "湘妹子小鱼"),
    ("夏日第一杯奶茶测评", "奶茶,测评", "奶茶研究所"),
    ("县城咖啡店老板的一天", "咖啡,创业", "小城咖啡馆"),
    ("十分钟学会炒火锅底料", "火锅底料,教程", "厨房老李"),
    ("露营装备清单一次说清", "露营,装备", "山野露营家"),
    ("宝藏古镇三天两晚攻略", "古镇,旅游攻略", "背包去旅行"),
    ("自助餐回本的正确姿势", "自助餐,攻略", "大胃王小美"),
    ("老字号的新吃法", "老字号,美食", "街巷寻味"),
    ("美甲店的爆款款式合集", "美甲,爆款", "小美美甲日记"),
    ("装修避坑十条建议", "装修,避坑", "老李家装实录"),
    ("二手房翻新前后对比", "翻新,改造", "老李家装实录"),
    ("健身房月卡怎么买最划算", "健身,省钱", "健身教练阿杰"),
    ("小龙虾季必吃的五家店", "小龙虾,必吃榜", "夜宵地图"),
    ("中式烘焙排队三小时", "烘焙,排队", "甜品控"),
    ("婚礼策划省钱攻略", "婚礼,攻略", "婚礼策划师安妮"),
    ("亲子游好去处推荐", "亲子游,周末", "带娃去旅行"),
    ("一人食也要有仪式感", "一人食,生活", "独居日记"),
    ("城市夜景最佳机位", "夜景,摄影", "城市摄影师"),
    ("毕业季拍照打卡地", "毕业季,打卡", "城市摄影师"),
    ("平价护肤好物分享", "护肤,好物", "护肤小课堂"),
    ("宠物友好餐厅合集", "宠物,餐厅", "猫狗双全"),
    ("夜市摆摊第一天收入", "摆摊,夜市", "摆摊小哥"),
    ("网红餐厅翻车现场", "网红店,探店", "吃货侦探"),
    ("高铁上的美食盘点", "高铁,美食", "旅途美食家"),
    ("办公室零食推荐", "零食,好物", "打工人日常"),
    ("居家收纳神器实测", "收纳,好物", "收纳达人"),
    ("减脂餐一周不重样", "减脂餐,做法", "健康厨房"),
    ("街头美食大赛冠军", "街头美食,比赛", "街巷寻味"),
    ("抖音团购节怎么抢", "团购,优惠", "省钱攻略君"),
    ("烧烤季限定套餐上新", "烧烤,新品", "老王爱烧烤"),
    ("路边摊的快乐谁懂", "路边摊,快乐", "夜宵地图"),
    ("年轻人爱上逛菜市场", "菜市场,生活", "城市漫游记"),
    ("广场舞新曲教学", "广场舞,教学", "舞蹈王阿姨"),
];

/// Topics (hashtags without '#').
const TOPICS: [&str; 36] = [
    "城市烟火气",
    "跟着抖音逛吃",
    "周末去哪儿",
    "夏日限定",
    "打工人的午饭",
    "本地宝藏小店",
    "探店日记",
    "烧烤季",
    "奶茶续命",
    "露营生活",
    "县城生活",
    "家常菜教程",
    "美甲分享",
    "装修日记",
    "健身打卡",
    "小龙虾季",
    "一人食",
    "亲子时光",
    "毕业季",
    "宠物日常",
    "夜市摆摊",
    "平价好物",
    "减脂餐",
    "旅行vlog",
    "古镇游",
    "早餐打卡",
    "街头美食",
    "网红打卡地",
    "团购节",
    "婚礼现场",
    "居家收纳",
    "城市夜景",
    "新店开业",
    "老字号",
    "甜品控",
    "火锅季",
];

/// (title, author, seconds) — made-up songs.
const SONGS: [(&str, &str, i64); 36] = [
    ("晚风吹过街角", "林小满", 32),
    ("烟火人间", "陈一舟", 28),
    ("夏天的汽水", "橘子乐队", 25),
    ("慢慢走", "周南", 30),
    ("小城故事多一点", "阿杰", 35),
    ("今天也要好好吃饭", "米粒", 22),
    ("夜市霓虹", "霓虹少年", 27),
    ("向着山野出发", "山野乐队", 40),
    ("那年毕业季", "青柠", 33),
    ("一个人的晚餐", "苏苏", 29),
    ("心动打卡", "小鹿", 24),
    ("火锅沸腾了", "辣妹子组合", 26),
    ("旅途的风", "远方", 38),
    ("城市节拍", "DJ 小凯", 31),
    ("奶茶味的夏天", "橘子乐队", 23),
    ("我们的小店", "老板娘", 34),
    ("晴天出发", "周南", 30),
    ("甜甜的日子", "米粒", 21),
    ("街角的咖啡", "林小满", 36),
    ("热辣滚烫", "辣妹子组合", 25),
    ("故乡的月亮", "陈一舟", 42),
    ("加油打工人", "阿杰", 27),
    ("露营星空", "山野乐队", 39),
    ("宝贝晚安", "苏苏", 30),
    ("跳起来", "霓虹少年", 20),
    ("小镇姑娘", "青柠", 33),
    ("早安城市", "DJ 小凯", 26),
    ("慢生活", "远方", 37),
    ("好运来敲门", "小鹿", 24),
    ("月光下的夜市", "林小满", 29),
    ("青春不散场", "青柠", 35),
    ("一路向南", "周南", 31),
    ("开业大吉", "老板娘", 22),
    ("烧烤摊的夜", "阿杰", 28),
    ("风吹麦浪", "远方", 40),
    ("快乐星期五", "DJ 小凯", 23),
];

/// (name parts, video title templates with `{city}`) per creator board.
fn creator_pool(b: Board) -> (&'static [&'static str], &'static [&'static str]) {
    match b {
        Board::Food => (
            &["吃货", "美食家", "大胃王", "厨神", "寻味"],
            &[
                "{city}必吃的十家小馆",
                "在{city}吃到了童年的味道",
                "{city}人均30吃到撑",
            ],
        ),
        Board::FoodShop => (
            &["探店王", "探店小姐姐", "街头侦探", "吃播", "打卡君"],
            &[
                "{city}新开的这家店排爆了",
                "{city}团购套餐实测",
                "{city}老字号探店",
            ],
        ),
        Board::Travel => (
            &["旅行家", "背包客", "徒步者", "航拍", "漫游"],
            &[
                "{city}三日游攻略",
                "{city}小众景点合集",
                "{city}citywalk路线",
            ],
        ),
        Board::Stars => (
            &["明星", "歌手", "演员", "主持人", "艺人"],
            &["{city}演唱会现场", "{city}活动后台花絮", "{city}新剧路透"],
        ),
        Board::Amusement => (
            &["搞笑", "段子手", "脱口秀", "整蛊", "萌宠"],
            &["{city}街头采访笑疯了", "在{city}整蛊朋友", "{city}方言挑战"],
        ),
        Board::Sport => (
            &["健身", "篮球", "跑者", "瑜伽", "骑行"],
            &[
                "{city}马拉松备赛日记",
                "{city}野球场斗牛",
                "{city}骑行路线推荐",
            ],
        ),
        Board::Drama => (
            &["剧情", "短剧", "小剧场", "反转", "都市"],
            &["{city}打工人的一天", "{city}出租屋的故事", "{city}婆媳日常"],
        ),
        Board::Car => (
            &["车评", "老司机", "改装", "试驾", "用车"],
            &[
                "{city}城市通勤续航实测",
                "{city}二手车避坑",
                "{city}试驾新能源",
            ],
        ),
        _ => (
            &["游戏", "主机", "电竞", "攻略", "解说"],
            &["{city}线下赛现场", "{city}玩家聚会", "{city}网吧回忆"],
        ),
    }
}

const CITIES: [&str; 5] = ["成都", "重庆", "长沙", "西安", "广州"];

/// The pool of a board: (key for heat, heat range).
fn pool(b: Board) -> (Vec<String>, i64, i64) {
    match b.shape() {
        BoardShape::Video => (
            VIDEOS.iter().map(|v| v.0.to_string()).collect(),
            500_000,
            9_000_000,
        ),
        BoardShape::Topic => (TOPICS.iter().map(|t| t.to_string()).collect(), 1_000, 9_900),
        BoardShape::Music => (
            SONGS.iter().map(|m| m.0.to_string()).collect(),
            20_000,
            2_000_000,
        ),
        BoardShape::Creator => {
            let (parts, _) = creator_pool(b);
            let names = CITIES
                .iter()
                .flat_map(|c| parts.iter().map(move |p| format!("{c}{p}")))
                .collect();
            (names, 300, 990)
        }
    }
}

/// The board's keys of `day`, hottest first, with their heat.
fn ranked(b: Board, day: i64) -> Vec<(String, i64)> {
    let (keys, lo, hi) = pool(b);
    let salt = format!("board-{}", b.code());
    let mut all: Vec<(String, i64)> = keys
        .into_iter()
        .map(|k| {
            let h = words::heat(&salt, &k, day, lo, hi);
            (k, h)
        })
        .collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(match b.shape() {
        BoardShape::Creator => CREATOR_LEN,
        _ => BOARD_LEN,
    });
    all
}

fn cover(base: &str, kind: &str, key: &str) -> String {
    format!(
        "{base}/avatar/{kind}-{:012x}.svg",
        stable_hash(&[kind, key]) & 0xffff_ffff_ffff
    )
}

/// The board as the platform answers it on China day `day`.
pub(crate) fn list(base: &str, b: Board, day: i64) -> Vec<Value> {
    let yesterday = ranked(b, day - 1);
    ranked(b, day)
        .into_iter()
        .enumerate()
        .map(|(i, (key, heat))| {
            let rank = i + 1;
            let change = match yesterday.iter().position(|(k, _)| *k == key) {
                None => "new".to_string(),
                Some(y) if y + 1 > rank => format!("+{}", y + 1 - rank),
                Some(y) if y + 1 < rank => format!("-{}", rank - (y + 1)),
                Some(_) => "0".to_string(),
            };
            let id = stable_hash(&[b.code(), &key]);
            let share = format!("{base}/dy/share/billboard/{}/{id:016x}", b.code());
            match b.shape() {
                BoardShape::Video => {
                    let (title, words_, author) = VIDEOS
                        .iter()
                        .find(|v| v.0 == key)
                        .copied()
                        .unwrap_or_default();
                    // plays follow heat; likes 3–8 %, comments 0.2–0.8 % of plays
                    let plays = heat * 3 + (id % 1000) as i64;
                    json!({"rank": rank, "title": title, "author": author,
                        "item_cover": cover(base, "video", title), "share_url": share,
                        "hot_value": heat as f64 + 0.5, "hot_words": words_,
                        "play_count": plays, "digg_count": plays * (3 + (id % 6) as i64) / 100,
                        "comment_count": plays * (2 + (id % 7) as i64) / 1000})
                }
                BoardShape::Topic => json!({"rank": rank, "title": key, "rank_change": change,
                    "effect_value": heat as f64 / 10.0}),
                BoardShape::Music => {
                    let (title, author, secs) = SONGS
                        .iter()
                        .find(|m| m.0 == key)
                        .copied()
                        .unwrap_or_default();
                    json!({"rank": rank, "title": title, "author": author, "duration": secs,
                        "cover": cover(base, "music", title), "share_url": share,
                        "use_count": heat})
                }
                BoardShape::Creator => {
                    let (_, titles) = creator_pool(b);
                    let city = CITIES
                        .iter()
                        .find(|c| key.starts_with(**c))
                        .unwrap_or(&"成都");
                    let videos: Vec<Value> = titles
                        .iter()
                        .enumerate()
                        .map(|(n, t)| {
                            let title = t.replace("{city}", city);
                            json!({"title": title, "item_cover": cover(base, "video", &title),
                                "share_url": format!("{share}/{n}")})
                        })
                        .collect();
                    json!({"rank": rank, "nickname": key, "avatar": cover(base, "creator", &key),
                        "rank_change": change,
                        "follower_count": 50_000 + (id % 5_000_000) as i64 + heat * 100,
                        "onbillbaord_times": 1 + id % 20,
                        "effect_value": heat as f64 / 10.0, "hot_value": heat as f64 / 10.0,
                        "video_list": videos})
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_ranked_stable_in_a_day_and_move_between_days() {
        for b in Board::ALL {
            let a = list("http://x", b, 20_000);
            assert_eq!(a, list("http://x", b, 20_000));
            let len = if b.shape() == BoardShape::Creator {
                CREATOR_LEN
            } else {
                BOARD_LEN
            };
            assert_eq!(a.len(), len, "{b:?}");
            let moved = (20_001..20_008).any(|d| list("http://x", b, d) != a);
            assert!(moved, "{b:?} never changes");
            let first: Vec<&Value> = a.iter().map(|v| &v["rank"]).collect();
            assert_eq!(first[0], 1);
        }
    }

    #[test]
    fn rank_change_compares_with_yesterday() {
        let today = ranked(Board::Topic, 20_010);
        let yesterday = ranked(Board::Topic, 20_009);
        let l = list("http://x", Board::Topic, 20_010);
        for (i, (k, _)) in today.iter().enumerate() {
            let want = match yesterday.iter().position(|(y, _)| y == k) {
                None => "new".to_string(),
                Some(y) if y == i => "0".into(),
                Some(y) if y > i => format!("+{}", y - i),
                Some(y) => format!("-{}", i - y),
            };
            assert_eq!(l[i]["rank_change"], want.as_str());
        }
    }
}

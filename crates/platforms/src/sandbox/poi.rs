//! POI search for every platform: a few dozen plausible places per city, generated deterministically
//! from district and place-type tables (same answer every run).

use crate::Poi;
use axum::Json;
use axum::extract::Query;
use serde_json::{Value, json};
use std::collections::HashMap;

const CITIES: [(&str, &str, [&str; 4]); 10] = [
    ("北京", "北京市", ["朝阳区", "海淀区", "东城区", "西城区"]),
    ("上海", "上海市", ["浦东新区", "徐汇区", "静安区", "黄浦区"]),
    ("广州", "广东省", ["天河区", "越秀区", "海珠区", "番禺区"]),
    ("深圳", "广东省", ["南山区", "福田区", "罗湖区", "宝安区"]),
    ("杭州", "浙江省", ["西湖区", "上城区", "滨江区", "拱墅区"]),
    ("成都", "四川省", ["锦江区", "武侯区", "青羊区", "高新区"]),
    ("武汉", "湖北省", ["江汉区", "武昌区", "洪山区", "汉阳区"]),
    ("西安", "陕西省", ["雁塔区", "碑林区", "莲湖区", "未央区"]),
    ("南京", "江苏省", ["玄武区", "秦淮区", "鼓楼区", "建邺区"]),
    ("重庆", "重庆市", ["渝中区", "江北区", "南岸区", "沙坪坝区"]),
];

/// Place types: chains get "(<district>店)", landmarks are prefixed by the district.
const CHAINS: [&str; 5] = ["星巴克", "海底捞火锅", "喜茶", "万达广场", "肯德基"];
const LANDMARKS: [&str; 4] = ["人民公园", "图书馆", "体育中心", "美食街"];
const STREETS: [&str; 8] = [
    "人民路",
    "解放路",
    "中山路",
    "建设路",
    "文化路",
    "和平路",
    "新华路",
    "长江路",
];

fn normalize_city(city: &str) -> &str {
    city.trim().trim_end_matches('市')
}

/// All POIs of `city` whose name or address contains `keyword` (empty keyword: all). An unknown
/// city still gets places, in generic districts, so every query has something to pick.
pub fn search(keyword: &str, city: &str) -> Vec<Poi> {
    let c = normalize_city(city);
    let cities: Vec<(&str, &str, [&str; 4])> = if c.is_empty() {
        CITIES.to_vec()
    } else {
        match CITIES.iter().find(|x| x.0 == c) {
            Some(x) => vec![*x],
            None => vec![(c, "", ["城区", "新区", "开发区", "老城"])],
        }
    };
    let kw = keyword.trim();
    let mut out = Vec::new();
    for (city, province, districts) in cities {
        for d in districts {
            let mut names: Vec<String> = CHAINS.iter().map(|n| format!("{n}({d}店)")).collect();
            names.extend(LANDMARKS.iter().map(|n| format!("{city}{d}{n}")));
            for name in names {
                let h = super::stable_hash(&[city, &name]);
                let address = format!(
                    "{province}{city}市{d}{}{}号",
                    STREETS[(h % 8) as usize],
                    1 + h % 300
                );
                if !kw.is_empty() && !name.contains(kw) && !address.contains(kw) {
                    continue;
                }
                out.push(Poi {
                    poi_id: format!("6601{:012}", h % 1_000_000_000_000),
                    poi_name: name,
                    address,
                    city: format!("{city}市"),
                    province: province.to_string(),
                });
            }
        }
    }
    out
}

/// GET /poi/search?keyword&city (also under each platform): `{code:0, data:{pois}}`.
pub(crate) async fn generic(Query(q): Query<HashMap<String, String>>) -> Json<Value> {
    let pois = search(
        q.get("keyword").map_or("", |s| s),
        q.get("city").map_or("", |s| s),
    );
    Json(
        json!({"code": 0, "msg": "ok", "data": {"pois": pois.into_iter().take(50).collect::<Vec<_>>()}}),
    )
}

/// Whether `name` is a place of the table (what a console's publish takes from its picker).
pub(crate) fn is_place(name: &str) -> bool {
    search(name, "").iter().any(|p| p.poi_name == name)
}

/// The places a console's location picker offers for `keyword` (`GET .../_location/search`):
/// `{ok, places: [{name, address}]}`, ten at most, as a picker lists them.
pub(crate) async fn places(Query(q): Query<HashMap<String, String>>) -> Json<Value> {
    let kw = q.get("keyword").map_or("", |s| s.trim());
    let places: Vec<Value> = if kw.is_empty() {
        vec![]
    } else {
        search(kw, "")
            .into_iter()
            .take(10)
            .map(|p| json!({"name": p.poi_name, "address": p.address}))
            .collect()
    };
    Json(json!({"ok": true, "places": places}))
}

#[cfg(test)]
mod tests {
    #[test]
    fn deterministic_per_city() {
        let a = super::search("", "北京");
        assert_eq!(a.len(), 36);
        assert_eq!(a[0].poi_id, super::search("", "北京市")[0].poi_id);
        let sb = super::search("星巴克", "上海");
        assert_eq!(sb.len(), 4);
        assert!(
            sb.iter()
                .all(|p| p.poi_name.contains("星巴克") && p.city == "上海市")
        );
        assert!(!super::search("", "拉萨").is_empty());
    }
}

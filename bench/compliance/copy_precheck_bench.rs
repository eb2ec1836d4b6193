//! Copy precheck benchmark (issue 39): 10,000 release titles of 20–50 characters checked on one
//! thread against every rule file (the advertising law and every platform's rules) plus a merchant's
//! banned words. Target: ≤ 200 µs a title.
//!
//! Run: `make bench`, or `cargo run --release -p domain --example copy_precheck_bench`. Prints
//! `bench: copy_precheck_us_per_title <value> us`, then how many titles were flagged.

use domain::compliance::{self, Checker};
use std::hint::black_box;
use std::time::Instant;

/// Pieces of real-looking titles: most clean, some with an absolute term, a cure, a contact or a
/// context that makes a term harmless (最近, 第一次, 100%纯棉).
const PIECES: &[&str] = &[
    "老码头火锅春熙路店新店开业",
    "招牌牛油锅底每天现炒麻辣鲜香",
    "鲜毛肚七上八下脆嫩爽口",
    "双人套餐团购价只要128元",
    "周末来吃火锅记得提前预约",
    "最近新开的宝藏小店",
    "第一次来成都一定要吃",
    "这是全城最好的火锅",
    "行业第一品牌值得信赖",
    "三天根治脚气不复发",
    "100%纯棉T恤夏天穿很舒服",
    "到店电话13800138000",
    "加微信领优惠券",
    "Fresh bread every morning",
    "The best pizza in Brooklyn",
    "社区烘焙坊黄油可颂层层起酥",
    "周年庆全场满减老顾客送曲奇",
    "顾客第一服务至上",
];

fn titles(n: usize) -> Vec<String> {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..n)
        .map(|_| {
            let want = 20 + (next() % 31) as usize;
            let mut t = String::new();
            while t.chars().count() < want {
                if !t.is_empty() {
                    t.push('，');
                }
                t.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
            }
            t.chars().take(want).collect()
        })
        .collect()
}

fn main() {
    let t = Instant::now();
    compliance::warm_up();
    println!(
        "bench: copy_precheck_rules_load_ms {:.2} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let all = titles(10_000);
    assert!(all.iter().all(|t| (20..=50).contains(&t.chars().count())));
    let checker = Checker::new(&["毛肚".to_string(), "代购".to_string()]);
    // One pass to warm the caches, then the measured passes.
    let mut flagged = 0;
    for t in &all {
        flagged += usize::from(!checker.check(t, &[]).is_empty());
    }
    let runs = 5;
    let start = Instant::now();
    for _ in 0..runs {
        for t in &all {
            black_box(checker.check(black_box(t), &[]));
        }
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / (runs * all.len()) as f64;
    println!("bench: copy_precheck_us_per_title {us:.2} us");
    println!(
        "{flagged} of {} titles flagged (every platform's rules)",
        all.len()
    );
}

//! The mix planner (DESIGN.md §6): one clip per shot group per variant, never the same sequence
//! twice within a project, clip usage spread evenly, seeded and deterministic. Pure code, no I/O.
//!
//! A *sequence* is one clip id per shot group, in group order. The planner is given the shot groups, the
//! sequences the project already made (so "continue adding" never repeats one) and a seed (store one per
//! project, e.g. derived from its id, and pass the same seed every time).
//!
//! # How it chooses
//! Every seed defines a *balanced order* of all `∏ |group|` sequences: the clips of each group are shuffled
//! by the seed, then the sequences are listed by a mixed-radix diagonal (below) in which **every prefix uses
//! the clips of each group evenly** (max − min ≤ 1 per group). When the sequences already made are exactly a
//! prefix of that order (a new project, or every earlier batch came from this planner with the same seed and
//! the same groups), the plan is simply the next `count` sequences of the order.
//!
//! When they are not (groups were edited since, or sequences came from elsewhere), the planner falls back
//! to a greedy: each new variant is the unused sequence that keeps the most groups at their least-used clip,
//! then the lowest total use, ties broken by the seed. It still never repeats and never exceeds capacity, but
//! the evenness bound is best effort there: choosing a perfectly balanced set out of an arbitrary remainder
//! is a 3-dimensional-matching problem (NP-complete), so no fast planner can promise it.
//!
//! # The evenness bound (property-tested below)
//! Whenever the sequences already made are a prefix of the seed's order — always true for a project whose
//! variants all came from `plan` with its seed and unchanged groups, including any number of "continue
//! adding" batches — then after the plan, **within every group, the use counts of its clips differ by at
//! most 1** (counting the made and the new variants together), for every request up to the capacity.
//! Batches also compose: planning a then b variants gives exactly the a + b variants of one request.
//!
//! # Why the order is balanced
//! Let `P_g = n_0 ⋯ n_{g-1}` (P_0 = 1) and `L_g = lcm(P_g, n_g)`. The order of the first g+1 groups is
//! `T_{g+1}(k) = (T_g(k mod P_g), (k + ⌊k / L_g⌋) mod n_g)` for `0 ≤ k < P_g n_g`.
//! *Bijective*: write k = j·L_g + r (r < L_g, j < gcd(P_g, n_g)); by the Chinese remainder theorem r ↦
//! (r mod P_g, r mod n_g) is injective and hits exactly the pairs (x, y) with x ≡ y (mod gcd); block j
//! shifts y by j, so the blocks cover disjoint residue classes of y − x, together all P_g·n_g pairs.
//! *Prefix-balanced*: the last coordinate runs through consecutive values mod n_g inside a block, and each
//! block holds every value L_g/n_g times, so any prefix is within 1; the other coordinates run through
//! whole cycles of T_g plus one prefix of T_g, balanced by induction.

use std::collections::{BTreeSet, BinaryHeap, HashSet};

/// SPEC §5 "Voice and clip": at least three shot groups.
pub const MIN_GROUPS: usize = 3;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("at least {min} shot groups are needed, got {got}")]
    TooFewGroups { min: usize, got: usize },
    #[error("shot group {group} has no clips")]
    EmptyGroup { group: usize },
    #[error("clip {clip} appears twice in shot group {group}")]
    DuplicateClip { group: usize, clip: i64 },
    #[error(
        "{requested} variants requested but these shot groups allow only {capacity} more unique ones"
    )]
    OverCapacity { requested: usize, capacity: u64 },
    /// Enough unique sequences are left, but only `capacity` of them last at least the floor: the
    /// other `short` would end before the voice-over does.
    #[error(
        "{requested} variants requested but only {capacity} more unique ones last at least {min_ms} ms ({short} are shorter)"
    )]
    TooShort {
        requested: usize,
        capacity: u64,
        short: u64,
        min_ms: i64,
    },
}

/// The least a variant must last (a quick mix with a voice-over: the voice-over's length, so no variant
/// stops it mid-sentence), and how long each clip plays in a variant: `lengths[g][i]` for
/// `groups[g][i]`, in ms. A sequence lasts the sum of its clips' lengths.
#[derive(Debug, Clone, Copy)]
pub struct Floor<'a> {
    pub lengths: &'a [Vec<i64>],
    pub min_ms: i64,
}

impl Floor<'_> {
    /// The floor when it rules something out: the lengths fit the groups and the shortest sequence is
    /// shorter than `min_ms` (otherwise every sequence is long enough and the plain plan applies).
    fn binding(&self, groups: &[Vec<i64>]) -> bool {
        let fits = self.lengths.len() == groups.len()
            && self
                .lengths
                .iter()
                .zip(groups)
                .all(|(l, g)| l.len() == g.len());
        let shortest: i64 = self
            .lengths
            .iter()
            .map(|l| l.iter().copied().min().unwrap_or(0).max(0))
            .sum();
        fits && shortest < self.min_ms
    }

    fn len_of(&self, seq: &[usize]) -> i64 {
        seq.iter()
            .enumerate()
            .map(|(g, &i)| self.lengths[g][i].max(0))
            .sum()
    }

    fn long_enough(&self, seq: &[usize]) -> bool {
        self.len_of(seq) >= self.min_ms
    }

    /// How many sequences of all the groups last at least `min_ms` (saturating): the sums are counted
    /// group by group, capped at `min_ms`, so the states stay few however many sequences there are.
    fn count_long(&self) -> u128 {
        let mut states: std::collections::HashMap<i64, u128> = [(0, 1)].into();
        for l in self.lengths {
            let mut next = std::collections::HashMap::with_capacity(states.len());
            for (&s, &n) in &states {
                for &x in l {
                    let e = next.entry((s + x.max(0)).min(self.min_ms)).or_insert(0u128);
                    *e = e.saturating_add(n);
                }
            }
            states = next;
        }
        states.get(&self.min_ms).copied().unwrap_or(0)
    }
}

/// Unique sequences left that last at least the floor, and those left that are shorter (both
/// saturating at `u64::MAX`).
pub fn capacity_long_enough(
    groups: &[Vec<i64>],
    made: &[Vec<i64>],
    floor: &Floor<'_>,
) -> Result<(u64, u64), PlanError> {
    let all = capacity(groups, made)?;
    if !floor.binding(groups) {
        return Ok((all, 0));
    }
    let made_long = made_indices(groups, made)
        .iter()
        .filter(|s| floor.long_enough(s))
        .count() as u128;
    let long = u64::try_from(floor.count_long().saturating_sub(made_long)).unwrap_or(u64::MAX);
    Ok((long, all.saturating_sub(long)))
}

/// The variants to render and what they do to clip usage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// One sequence per new variant: a clip id per shot group, in group order.
    pub variants: Vec<Vec<i64>>,
    /// Use count of every clip after this plan (made + new), `usage[group][i]` for `groups[group][i]`.
    pub usage: Vec<Vec<u32>>,
    /// Largest and smallest use of any clip (over all groups) after this plan.
    pub max_use: u32,
    pub min_use: u32,
    /// Largest (max − min) use within one group after this plan; ≤ 1 whenever `balanced` is true.
    pub max_spread: u32,
    /// Unique sequences left before and after this plan.
    pub capacity_before: u64,
    pub capacity_after: u64,
    /// True when the plan followed the seed's balanced order (the evenness bound holds), false when it fell
    /// back to the greedy because the sequences already made were not a prefix of that order.
    pub balanced: bool,
    /// The most shot slots any new variant shares with another variant of the project (new or made):
    /// what drives the siblings' duplicate risk (`domain::clip::risk`).
    pub max_shared: u32,
}

/// How many more unique variants these groups allow: the product of the group sizes minus the distinct
/// sequences already made from them (saturating at `u64::MAX`). Made sequences that do not fit the groups
/// (wrong length, a clip no longer in its group) are not counted.
pub fn capacity(groups: &[Vec<i64>], made: &[Vec<i64>]) -> Result<u64, PlanError> {
    validate(groups)?;
    let total = product(&sizes(groups));
    let made = made_indices(groups, made).len() as u128;
    Ok(u64::try_from(total.saturating_sub(made)).unwrap_or(u64::MAX))
}

/// Plans `count` new variants (see the module documentation for the rules and the guarantee).
pub fn plan(
    groups: &[Vec<i64>],
    made: &[Vec<i64>],
    count: usize,
    seed: u64,
) -> Result<Plan, PlanError> {
    validate(groups)?;
    let sizes = sizes(groups);
    let made_set = made_indices(groups, made);
    let capacity_before =
        u64::try_from(product(&sizes).saturating_sub(made_set.len() as u128)).unwrap_or(u64::MAX);
    if count as u128 > capacity_before as u128 {
        return Err(PlanError::OverCapacity {
            requested: count,
            capacity: capacity_before,
        });
    }
    let order = Order::new(&sizes, seed);
    let k0 = made_set.len() as u128;
    let is_prefix = (0..k0).all(|k| made_set.contains(&order.at(k)));
    let picked: Vec<Vec<usize>> = if is_prefix {
        (k0..k0 + count as u128).map(|k| order.at(k)).collect()
    } else {
        greedy(&sizes, &made_set, count, &order)
    };
    let mut p = summarize(groups, &made_set, picked, capacity_before, count);
    p.balanced = is_prefix;
    Ok(p)
}

/// [`plan`] with a floor: only sequences lasting at least `floor.min_ms` are planned (a plan of more
/// than there are is refused with [`PlanError::TooShort`]). When the floor rules nothing out this is
/// [`plan`] itself. Otherwise the seed's order is walked skipping the short sequences, while the long
/// ones made so far are its first long ones; else (or when the long ones are too sparse to find by
/// walking) each variant is the least-used long unused sequence, found depth first: clips in order of
/// use, a branch cut as soon as even the longest clips of the groups left cannot reach the floor. The
/// evenness bound cannot hold here: short clips can only be used beside long ones.
pub fn plan_long_enough(
    groups: &[Vec<i64>],
    made: &[Vec<i64>],
    count: usize,
    seed: u64,
    floor: &Floor<'_>,
) -> Result<Plan, PlanError> {
    validate(groups)?;
    if !floor.binding(groups) {
        return plan(groups, made, count, seed);
    }
    let sizes = sizes(groups);
    let made_set = made_indices(groups, made);
    let (long, short) = capacity_long_enough(groups, made, floor)?;
    if count as u128 > long as u128 {
        let all = capacity(groups, made)?;
        return Err(if count as u128 > all as u128 {
            PlanError::OverCapacity {
                requested: count,
                capacity: all,
            }
        } else {
            PlanError::TooShort {
                requested: count,
                capacity: long,
                short,
                min_ms: floor.min_ms,
            }
        });
    }
    let order = Order::new(&sizes, seed);
    let made_long: BTreeSet<&Vec<usize>> =
        made_set.iter().filter(|s| floor.long_enough(s)).collect();
    let total = product(&sizes);
    let mut picked = Vec::with_capacity(count);
    let mut seen = 0;
    let mut in_order = true;
    let mut k: u128 = 0;
    while picked.len() < count {
        if k >= total || k >= WALK_LIMIT {
            in_order = false;
            break;
        }
        let s = order.at(k);
        k += 1;
        if !floor.long_enough(&s) {
            continue;
        }
        if made_long.contains(&s) {
            seen += 1;
        } else if seen < made_long.len() {
            in_order = false;
            break;
        } else {
            picked.push(s);
        }
    }
    if !in_order {
        picked = greedy_long(&sizes, &made_set, count, &order, floor);
    }
    let mut p = summarize(groups, &made_set, picked, long, count);
    p.balanced = false;
    Ok(p)
}

/// How far the long-enough plan walks the seed's order before it takes the greedy.
const WALK_LIMIT: u128 = 1 << 20;

/// The fallback of [`plan_long_enough`]: one variant at a time, depth first over the groups, each
/// group's clips least used first (ties by the seed), a branch cut when the longest clips of the groups
/// after it cannot bring it to the floor. Every branch not cut holds a long sequence, so a step visits
/// little more than the used sequences it has to pass.
fn greedy_long(
    sizes: &[usize],
    made: &BTreeSet<Vec<usize>>,
    count: usize,
    order: &Order,
    floor: &Floor<'_>,
) -> Vec<Vec<usize>> {
    let rank = order.rank();
    let m = sizes.len();
    let mut used: HashSet<Vec<usize>> = made.iter().cloned().collect();
    let mut usage: Vec<Vec<u64>> = sizes.iter().map(|&n| vec![0; n]).collect();
    for seq in made {
        for (g, &i) in seq.iter().enumerate() {
            usage[g][i] += 1;
        }
    }
    // The most the groups from g on can add.
    let mut reach = vec![0i64; m + 1];
    for g in (0..m).rev() {
        reach[g] = reach[g + 1] + floor.lengths[g].iter().copied().max().unwrap_or(0).max(0);
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let lists: Vec<Vec<usize>> = (0..m)
            .map(|g| {
                let mut l: Vec<usize> = (0..sizes[g]).collect();
                l.sort_by_key(|&i| (usage[g][i], rank[g][i]));
                l
            })
            .collect();
        let mut seq = Vec::with_capacity(m);
        let found = dfs(&lists, floor, &reach, &used, &mut seq, 0);
        assert!(
            found,
            "capacity was checked, so a long unused sequence exists"
        );
        for (g, &i) in seq.iter().enumerate() {
            usage[g][i] += 1;
        }
        used.insert(seq.clone());
        out.push(seq);
    }
    out
}

fn dfs(
    lists: &[Vec<usize>],
    floor: &Floor<'_>,
    reach: &[i64],
    used: &HashSet<Vec<usize>>,
    seq: &mut Vec<usize>,
    sum: i64,
) -> bool {
    let g = seq.len();
    if g == lists.len() {
        return sum >= floor.min_ms && !used.contains(seq);
    }
    for &i in &lists[g] {
        let s = sum + floor.lengths[g][i].max(0);
        if s + reach[g + 1] < floor.min_ms {
            continue;
        }
        seq.push(i);
        if dfs(lists, floor, reach, used, seq, s) {
            return true;
        }
        seq.pop();
    }
    false
}

/// A plan of the picked sequences (clip indices) with its usage figures.
fn summarize(
    groups: &[Vec<i64>],
    made_set: &BTreeSet<Vec<usize>>,
    picked: Vec<Vec<usize>>,
    capacity_before: u64,
    count: usize,
) -> Plan {
    let mut usage: Vec<Vec<u32>> = groups.iter().map(|g| vec![0; g.len()]).collect();
    for seq in made_set.iter().chain(picked.iter()) {
        for (g, &i) in seq.iter().enumerate() {
            usage[g][i] += 1;
        }
    }
    let all = usage.iter().flatten();
    let max_use = all.clone().copied().max().unwrap_or(0);
    let min_use = all.copied().min().unwrap_or(0);
    let max_spread = usage
        .iter()
        .map(|u| u.iter().max().unwrap_or(&0) - u.iter().min().unwrap_or(&0))
        .max()
        .unwrap_or(0);
    let variants = picked
        .iter()
        .map(|seq| seq.iter().enumerate().map(|(g, &i)| groups[g][i]).collect())
        .collect();
    Plan {
        variants,
        usage,
        max_use,
        min_use,
        max_spread,
        capacity_before,
        capacity_after: capacity_before - count as u64,
        balanced: true,
        max_shared: 0,
    }
}

/// How many slots two sequences share: the same clip at the same place (a clip belongs to one group),
/// or two clips of one group that `twins` says look alike.
fn shared(a: &[usize], b: &[usize], twins: &[Vec<usize>]) -> u32 {
    let same = |g: usize, x: usize, y: usize| {
        x == y
            || twins
                .get(g)
                .is_some_and(|t| t.get(x).is_some() && t.get(x) == t.get(y))
    };
    a.iter()
        .zip(b)
        .enumerate()
        .filter(|&(g, (&x, &y))| same(g, x, y))
        .count() as u32
}

/// One group's clips sorted into look-alikes (duplicate risk: the same footage uploaded twice, renamed
/// or re-encoded): for each clip (by index), the first clip it looks like, itself when none. `alike`
/// is asked about each clip against the earlier ones that start a class.
pub fn twins_of(n: usize, mut alike: impl FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut class: Vec<usize> = Vec::with_capacity(n);
    for i in 0..n {
        let first = (0..i).find(|&j| class[j] == j && alike(j, i)).unwrap_or(i);
        class.push(first);
    }
    class
}

/// How many clips of a group look unlike one another (its classes in [`twins_of`]).
pub fn unlike_count(class: &[usize]) -> usize {
    class.iter().enumerate().filter(|&(i, &c)| i == c).count()
}

/// Candidates [`plan_least_alike`] chooses among: this many times the request (at least
/// `LEAST_ALIKE_EXTRA` more), from the seed's order.
const LEAST_ALIKE_POOL: usize = 4;
const LEAST_ALIKE_EXTRA: usize = 32;
/// Made sequences compared with each candidate (the newest): enough for a batch's siblings, bounded
/// for a project with thousands.
const LEAST_ALIKE_MADE: usize = 500;

/// [`plan_long_enough`], preferring the set of variants least alike one another (duplicate risk):
/// unique sequences stay the hard rule; among the next candidates of the seed's order (a few times
/// the request), each new variant is the one sharing the fewest slots with any variant of the project
/// (made or chosen), then the one using the least-used clips, then the earliest in the order. The
/// balanced order's first sequences are already far apart, so a fresh project mostly gets them; the
/// choice matters where the order puts neighbours that share most slots (`max_shared` says the result).
/// `twins` ([`twins_of`] per group, or empty) counts look-alike clips of a group as one.
pub fn plan_least_alike(
    groups: &[Vec<i64>],
    made: &[Vec<i64>],
    count: usize,
    seed: u64,
    floor: &Floor<'_>,
    twins: &[Vec<usize>],
) -> Result<Plan, PlanError> {
    let (long, _) = capacity_long_enough(groups, made, floor)?;
    let pool_n = (count.saturating_mul(LEAST_ALIKE_POOL))
        .max(count + LEAST_ALIKE_EXTRA)
        .min(usize::try_from(long).unwrap_or(usize::MAX))
        .max(count);
    let pool = plan_long_enough(groups, made, pool_n, seed, floor)?;
    // The pool's sequences are the groups' own clips: they always fit.
    let cands: Vec<Vec<usize>> = pool
        .variants
        .iter()
        .filter_map(|seq| indices(groups, seq))
        .collect();
    let made_set = made_indices(groups, made);
    let recent: Vec<Vec<usize>> = made
        .iter()
        .rev()
        .take(LEAST_ALIKE_MADE)
        .filter_map(|seq| indices(groups, seq))
        .collect();
    // Each candidate's most shared slots so far, starting with the made ones.
    let mut worst: Vec<u32> = cands
        .iter()
        .map(|c| {
            recent
                .iter()
                .map(|m| shared(c, m, twins))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut usage: Vec<Vec<u32>> = groups.iter().map(|g| vec![0; g.len()]).collect();
    for seq in &made_set {
        for (g, &i) in seq.iter().enumerate() {
            usage[g][i] += 1;
        }
    }
    let mut taken = vec![false; cands.len()];
    let mut picked: Vec<Vec<usize>> = Vec::with_capacity(count);
    let mut max_shared = 0;
    for _ in 0..count {
        let Some(best) = (0..cands.len()).filter(|&i| !taken[i]).min_by_key(|&i| {
            let use_sum: u32 = cands[i].iter().enumerate().map(|(g, &c)| usage[g][c]).sum();
            (worst[i], use_sum, i)
        }) else {
            break;
        };
        taken[best] = true;
        max_shared = max_shared.max(worst[best]);
        let chosen = cands[best].clone();
        for (g, &c) in chosen.iter().enumerate() {
            usage[g][c] += 1;
        }
        for (i, c) in cands.iter().enumerate() {
            if !taken[i] {
                worst[i] = worst[i].max(shared(c, &chosen, twins));
            }
        }
        picked.push(chosen);
    }
    let in_order = picked.iter().zip(&cands).all(|(p, c)| p == c);
    let mut p = summarize(groups, &made_set, picked, pool.capacity_before, count);
    p.balanced = pool.balanced && in_order;
    p.max_shared = max_shared;
    Ok(p)
}

/// Where a project's material cannot give `count` variants of which no two share more than half the
/// slots (the share above which the siblings' duplicate risk is high when they also share the music and
/// text): enough clips in half the groups (rounded up) lets every variant take its own clip there. The
/// groups to add to (their index) and how many clips each lacks; empty when the material suffices.
pub fn clips_lacking(sizes: &[usize], count: usize) -> Vec<(usize, usize)> {
    let need = sizes.len().div_ceil(2);
    let mut by_size: Vec<usize> = (0..sizes.len()).collect();
    by_size.sort_by_key(|&g| (std::cmp::Reverse(sizes[g]), g));
    let mut out: Vec<(usize, usize)> = by_size
        .into_iter()
        .take(need)
        .filter(|&g| sizes[g] < count)
        .map(|g| (g, count - sizes[g]))
        .collect();
    out.sort();
    out
}

fn validate(groups: &[Vec<i64>]) -> Result<(), PlanError> {
    if groups.len() < MIN_GROUPS {
        return Err(PlanError::TooFewGroups {
            min: MIN_GROUPS,
            got: groups.len(),
        });
    }
    for (g, clips) in groups.iter().enumerate() {
        if clips.is_empty() {
            return Err(PlanError::EmptyGroup { group: g });
        }
        let mut seen = HashSet::new();
        for &c in clips {
            if !seen.insert(c) {
                return Err(PlanError::DuplicateClip { group: g, clip: c });
            }
        }
    }
    Ok(())
}

fn sizes(groups: &[Vec<i64>]) -> Vec<usize> {
    groups.iter().map(Vec::len).collect()
}

fn product(sizes: &[usize]) -> u128 {
    sizes
        .iter()
        .fold(1u128, |p, &n| p.saturating_mul(n as u128))
}

/// The made sequences that fit the groups, as clip indices, deduplicated.
fn made_indices(groups: &[Vec<i64>], made: &[Vec<i64>]) -> BTreeSet<Vec<usize>> {
    made.iter().filter_map(|seq| indices(groups, seq)).collect()
}

/// A sequence as clip indices, when it fits the groups (its length, each clip in its group).
fn indices(groups: &[Vec<i64>], seq: &[i64]) -> Option<Vec<usize>> {
    if seq.len() != groups.len() {
        return None;
    }
    seq.iter()
        .zip(groups)
        .map(|(c, clips)| clips.iter().position(|x| x == c))
        .collect()
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// SplitMix64: small, seedable and stable across versions (the plan must not change with a crate update).
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The seed's balanced order of all sequences (module documentation).
struct Order {
    sizes: Vec<u128>,
    /// P_g (saturating): the number of sequences of the groups before g.
    before: Vec<u128>,
    /// L_g = lcm(P_g, n_g) (saturating; a saturated value is still larger than any index we reach).
    lcm: Vec<u128>,
    /// perm[g][d]: the clip index the d-th digit of group g stands for (the seed's shuffle).
    perm: Vec<Vec<usize>>,
}

impl Order {
    fn new(sizes: &[usize], seed: u64) -> Self {
        let mut before = Vec::with_capacity(sizes.len());
        let mut lcm = Vec::with_capacity(sizes.len());
        let mut p: u128 = 1;
        for &n in sizes {
            let n = n as u128;
            before.push(p);
            lcm.push(if p == u128::MAX {
                u128::MAX
            } else {
                (p / gcd(p, n)).saturating_mul(n)
            });
            p = p.saturating_mul(n);
        }
        let perm = sizes
            .iter()
            .enumerate()
            .map(|(g, &n)| {
                let mut rng = SplitMix(seed ^ (g as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
                let mut v: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    v.swap(i, rng.below(i + 1));
                }
                v
            })
            .collect();
        Order {
            sizes: sizes.iter().map(|&n| n as u128).collect(),
            before,
            lcm,
            perm,
        }
    }

    /// The k-th sequence of the order (clip indices per group), for k below the product of the sizes.
    fn at(&self, k: u128) -> Vec<usize> {
        let m = self.sizes.len();
        let mut out = vec![0; m];
        let mut k = k;
        for g in (0..m).rev() {
            let digit = (k % self.sizes[g] + (k / self.lcm[g]) % self.sizes[g]) % self.sizes[g];
            out[g] = self.perm[g][digit as usize];
            k %= self.before[g];
        }
        out
    }

    /// The seed's preference among the clips of a group (lower first), for the greedy's tie-break.
    fn rank(&self) -> Vec<Vec<u64>> {
        self.perm
            .iter()
            .map(|p| {
                let mut r = vec![0u64; p.len()];
                for (d, &i) in p.iter().enumerate() {
                    r[i] = d as u64;
                }
                r
            })
            .collect()
    }
}

/// A per-clip cost, compared lexicographically: (is the clip above its group's minimum use, its use, the
/// seed's rank). Costs add up component-wise over the groups; lexicographic order is compatible with that
/// addition, which is what makes the best-first enumeration below exact.
type Cost = (u64, u64, u64);

fn add(a: Cost, b: Cost) -> Cost {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2)
}

fn sub(a: Cost, b: Cost) -> Cost {
    (a.0 - b.0, a.1 - b.1, a.2 - b.2)
}

/// The fallback: each step takes the cheapest sequence not used yet. Sequences are enumerated cheapest
/// first over the groups' clip lists sorted by cost (each tuple of positions generated exactly once: its
/// parent is the tuple with its last non-zero position decremented), so a step pops at most as many
/// tuples as are already used, plus one.
fn greedy(
    sizes: &[usize],
    made: &BTreeSet<Vec<usize>>,
    count: usize,
    order: &Order,
) -> Vec<Vec<usize>> {
    let rank = order.rank();
    let mut used: HashSet<Vec<usize>> = made.iter().cloned().collect();
    let mut usage: Vec<Vec<u64>> = sizes.iter().map(|&n| vec![0; n]).collect();
    for seq in made {
        for (g, &i) in seq.iter().enumerate() {
            usage[g][i] += 1;
        }
    }
    let m = sizes.len();
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        // Each group's clips, cheapest first, with their costs.
        let lists: Vec<Vec<(Cost, usize)>> = (0..m)
            .map(|g| {
                let min = *usage[g].iter().min().unwrap_or(&0);
                let mut l: Vec<(Cost, usize)> = (0..sizes[g])
                    .map(|i| ((u64::from(usage[g][i] > min), usage[g][i], rank[g][i]), i))
                    .collect();
                l.sort();
                l
            })
            .collect();
        let cost_of = |pos: &[usize]| {
            pos.iter()
                .enumerate()
                .fold((0, 0, 0), |c, (g, &p)| add(c, lists[g][p].0))
        };
        let mut heap = BinaryHeap::new();
        let start = vec![0usize; m];
        heap.push(std::cmp::Reverse((cost_of(&start), start)));
        let chosen = loop {
            let std::cmp::Reverse((cost, pos)) = heap
                .pop()
                .expect("capacity was checked, so an unused sequence exists");
            let seq: Vec<usize> = pos
                .iter()
                .enumerate()
                .map(|(g, &p)| lists[g][p].1)
                .collect();
            if !used.contains(&seq) {
                break seq;
            }
            let last = pos.iter().rposition(|&p| p > 0).unwrap_or(0);
            for g in last..m {
                if pos[g] + 1 < sizes[g] {
                    let mut next = pos.clone();
                    next[g] += 1;
                    let c = add(sub(cost, lists[g][pos[g]].0), lists[g][pos[g] + 1].0);
                    heap.push(std::cmp::Reverse((c, next)));
                }
            }
        };
        for (g, &i) in chosen.iter().enumerate() {
            usage[g][i] += 1;
        }
        used.insert(chosen.clone());
        out.push(chosen);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Groups of the given sizes with distinct clip ids (group g holds g*100 + i).
    fn groups_of(sizes: &[usize]) -> Vec<Vec<i64>> {
        sizes
            .iter()
            .enumerate()
            .map(|(g, &n)| (0..n as i64).map(|i| g as i64 * 100 + i).collect())
            .collect()
    }

    fn all_sequences(groups: &[Vec<i64>]) -> Vec<Vec<i64>> {
        groups.iter().fold(vec![vec![]], |acc, clips| {
            acc.iter()
                .flat_map(|s| {
                    clips.iter().map(move |c| {
                        let mut s = s.clone();
                        s.push(*c);
                        s
                    })
                })
                .collect()
        })
    }

    fn assert_valid_and_unique(groups: &[Vec<i64>], made: &[Vec<i64>], plan: &Plan) {
        let made: HashSet<&Vec<i64>> = made.iter().collect();
        let mut seen = HashSet::new();
        for v in &plan.variants {
            assert_eq!(v.len(), groups.len());
            for (g, c) in v.iter().enumerate() {
                assert!(groups[g].contains(c), "clip {c} is not in group {g}");
            }
            assert!(seen.insert(v.clone()), "{v:?} planned twice");
            assert!(!made.contains(v), "{v:?} was already made");
        }
    }

    fn sizes_strategy() -> impl Strategy<Value = Vec<usize>> {
        prop::collection::vec(1usize..=5, 3..=5)
    }

    /// The most slots two variants of `vs` share.
    fn max_pair_shared(vs: &[Vec<i64>]) -> usize {
        let mut m = 0;
        for (i, a) in vs.iter().enumerate() {
            for b in &vs[i + 1..] {
                m = m.max(a.iter().zip(b).filter(|(x, y)| x == y).count());
            }
        }
        m
    }

    #[test]
    fn least_alike_plans_share_fewer_slots_than_the_plain_order() {
        let g = groups_of(&[3, 3, 3]);
        let none = Floor {
            lengths: &[],
            min_ms: 0,
        };
        for seed in 0..20 {
            let plain = plan(&g, &[], 4, seed).unwrap();
            let apart = plan_least_alike(&g, &[], 4, seed, &none, &[]).unwrap();
            assert_valid_and_unique(&g, &[], &apart);
            // Three diagonal sequences, then the order's fourth shares two slots with one of them; a
            // fourth sharing one slot with each exists and is chosen.
            assert_eq!(max_pair_shared(&plain.variants), 2, "seed {seed}");
            assert_eq!(max_pair_shared(&apart.variants), 1, "seed {seed}");
            assert_eq!(apart.max_shared, 1);
            assert!(apart.max_use - apart.min_use <= 1, "{apart:?}");
        }
        // Against what the project already made, too ("continue adding").
        let made = plan(&g, &[], 3, 7).unwrap().variants;
        let more = plan_least_alike(&g, &made, 1, 7, &none, &[]).unwrap();
        assert_valid_and_unique(&g, &made, &more);
        assert_eq!(more.max_shared, 1);
        let all: Vec<Vec<i64>> = made.iter().chain(&more.variants).cloned().collect();
        assert_eq!(max_pair_shared(&all), 1);
        // Over capacity is still refused.
        assert!(matches!(
            plan_least_alike(&g, &[], 28, 1, &none, &[]),
            Err(PlanError::OverCapacity { .. })
        ));
        assert_eq!(
            plan_least_alike(&g, &[], 27, 1, &none, &[])
                .unwrap()
                .variants
                .len(),
            27
        );
    }

    #[test]
    fn look_alike_clips_count_as_one() {
        // Clips 0 and 2 of a group are one picture (1 looks like neither).
        let class = twins_of(4, |a, b| (a, b) == (0, 2));
        assert_eq!(class, [0, 1, 0, 3]);
        assert_eq!(unlike_count(&class), 3);
        let g = groups_of(&[3, 3, 3]);
        let none = Floor {
            lengths: &[],
            min_ms: 0,
        };
        // Every clip of the first group looks alike: every two variants share that slot, so the
        // planner keeps the other two apart (three can differ in both) and says one slot is shared.
        let twins = vec![vec![0, 0, 0], vec![0, 1, 2], vec![0, 1, 2]];
        for seed in 0..20 {
            let blind = plan_least_alike(&g, &[], 3, seed, &none, &[]).unwrap();
            assert_eq!(blind.max_shared, 0, "seed {seed}");
            let seeing = plan_least_alike(&g, &[], 3, seed, &none, &twins).unwrap();
            assert_valid_and_unique(&g, &[], &seeing);
            assert_eq!(seeing.max_shared, 1, "seed {seed}");
            let rest: Vec<Vec<i64>> = seeing.variants.iter().map(|v| v[1..].to_vec()).collect();
            assert_eq!(
                max_pair_shared(&rest),
                0,
                "seed {seed}: {:?}",
                seeing.variants
            );
        }
    }

    #[test]
    fn lacking_clips_are_named_per_group() {
        // Four variants need four clips in two of three groups: the largest has five, the next two.
        assert_eq!(clips_lacking(&[2, 2, 5], 4), vec![(0, 2)]);
        assert_eq!(clips_lacking(&[4, 4, 1], 4), vec![]);
        assert_eq!(clips_lacking(&[1, 1, 1, 1], 3), vec![(0, 2), (1, 2)]);
    }

    #[test]
    fn rules_are_checked() {
        assert_eq!(
            plan(&groups_of(&[2, 2]), &[], 1, 0),
            Err(PlanError::TooFewGroups { min: 3, got: 2 })
        );
        assert_eq!(
            plan(&groups_of(&[2, 0, 2]), &[], 1, 0),
            Err(PlanError::EmptyGroup { group: 1 })
        );
        assert_eq!(
            plan(&[vec![1], vec![2, 2], vec![3]], &[], 1, 0),
            Err(PlanError::DuplicateClip { group: 1, clip: 2 })
        );
        let g = groups_of(&[2, 3, 2]);
        assert_eq!(capacity(&g, &[]), Ok(12));
        assert_eq!(
            plan(&g, &[], 13, 0),
            Err(PlanError::OverCapacity {
                requested: 13,
                capacity: 12
            })
        );
        let p = plan(&g, &[], 12, 0).unwrap();
        assert_eq!((p.capacity_before, p.capacity_after), (12, 0));
        assert_eq!((p.max_use, p.min_use, p.max_spread), (6, 4, 0));
        // The same clip may sit in two groups: its uses are counted per group.
        let shared = vec![vec![7, 8], vec![7, 9], vec![7]];
        assert_eq!(plan(&shared, &[], 4, 1).unwrap().variants.len(), 4);
    }

    #[test]
    fn huge_groups_saturate_instead_of_overflowing() {
        let g: Vec<Vec<i64>> = (0..40).map(|_| (0..50).collect()).collect();
        assert_eq!(capacity(&g, &[]), Ok(u64::MAX));
        let p = plan(&g, &[], 200, 3).unwrap();
        assert_eq!(p.variants.len(), 200);
        assert!(p.balanced && p.max_spread <= 1);
        let q = plan(&g, &p.variants, 200, 3).unwrap();
        assert!(q.balanced && q.max_spread <= 1);
    }

    #[test]
    fn greedy_is_used_for_foreign_history_and_stays_unique() {
        let g = groups_of(&[3, 3, 3]);
        // Every sequence starting with clip 0: not a prefix of any balanced order.
        let made: Vec<Vec<i64>> = all_sequences(&g)
            .into_iter()
            .filter(|s| s[0] == 0)
            .collect();
        let p = plan(&g, &made, 18, 5).unwrap();
        assert!(!p.balanced);
        assert_valid_and_unique(&g, &made, &p);
        assert_eq!(p.capacity_after, 0);
        // Clip 0 of group 0 is used up, so the other two get 9 each: the greedy evens them out.
        assert_eq!(p.usage[0], vec![9, 9, 9]);
    }

    proptest! {
        /// Capacity is the product of the group sizes minus the distinct fitting sequences already made,
        /// and a request for more is refused while a request for exactly that many succeeds.
        #[test]
        fn capacity_formula(sizes in sizes_strategy(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..40), seed in any::<u64>()) {
            let g = groups_of(&sizes);
            let all = all_sequences(&g);
            let mut made: Vec<Vec<i64>> = picks.iter().map(|i| all[i.index(all.len())].clone()).collect();
            made.push(vec![999, 998, 997]); // does not fit: ignored
            let distinct: HashSet<&Vec<i64>> = made.iter().filter(|s| all.contains(s)).collect();
            let product: usize = sizes.iter().product();
            let cap = capacity(&g, &made).unwrap();
            prop_assert_eq!(cap as usize, product - distinct.len());
            prop_assert_eq!(
                plan(&g, &made, cap as usize + 1, seed),
                Err(PlanError::OverCapacity { requested: cap as usize + 1, capacity: cap })
            );
            let p = plan(&g, &made, cap as usize, seed).unwrap();
            prop_assert_eq!(p.variants.len(), cap as usize);
            prop_assert_eq!(p.capacity_after, 0);
        }

        /// Never a repeated sequence, never one already made, always one clip of each group in order,
        /// whatever the history.
        #[test]
        fn uniqueness(sizes in sizes_strategy(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..40), frac in 0.0f64..=1.0, seed in any::<u64>()) {
            let g = groups_of(&sizes);
            let all = all_sequences(&g);
            let made: Vec<Vec<i64>> = picks.iter().map(|i| all[i.index(all.len())].clone()).collect();
            let cap = capacity(&g, &made).unwrap() as usize;
            let count = (cap as f64 * frac).round() as usize;
            let p = plan(&g, &made, count, seed).unwrap();
            prop_assert_eq!(p.variants.len(), count);
            assert_valid_and_unique(&g, &made, &p);
        }

        /// The bound: on a fresh project, within every group the use counts differ by at most 1, for
        /// every request size up to the capacity.
        #[test]
        fn evenness_fresh(sizes in sizes_strategy(), frac in 0.0f64..=1.0, seed in any::<u64>()) {
            let g = groups_of(&sizes);
            let product: usize = sizes.iter().product();
            let count = (product as f64 * frac).round() as usize;
            let p = plan(&g, &[], count, seed).unwrap();
            prop_assert!(p.balanced);
            prop_assert!(p.max_spread <= 1, "spread {} for {:?} x{}", p.max_spread, sizes, count);
            for (u, clips) in p.usage.iter().zip(&g) {
                let counted: Vec<u32> = clips.iter().map(|c| {
                    p.variants.iter().filter(|v| v.contains(c)).count() as u32
                }).collect();
                prop_assert_eq!(u, &counted);
            }
        }

        /// The bound holds across "continue adding": batches planned one after another with the same
        /// seed stay balanced over the whole project, and equal one request of the total.
        #[test]
        fn evenness_across_batches(sizes in sizes_strategy(), cuts in prop::collection::vec(0.0f64..=1.0, 1..5), seed in any::<u64>()) {
            let g = groups_of(&sizes);
            let product: usize = sizes.iter().product();
            let mut made: Vec<Vec<i64>> = Vec::new();
            for c in cuts {
                let left = product - made.len();
                let count = (left as f64 * c).round() as usize;
                let p = plan(&g, &made, count, seed).unwrap();
                prop_assert!(p.balanced);
                prop_assert!(p.max_spread <= 1);
                assert_valid_and_unique(&g, &made, &p);
                made.extend(p.variants);
            }
            let once = plan(&g, &[], made.len(), seed).unwrap();
            prop_assert_eq!(once.variants, made);
        }

        /// Deterministic per seed: the same input gives the same plan, with or without history.
        #[test]
        fn deterministic(sizes in sizes_strategy(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..20), seed in any::<u64>(), frac in 0.0f64..=1.0) {
            let g = groups_of(&sizes);
            let all = all_sequences(&g);
            let made: Vec<Vec<i64>> = picks.iter().map(|i| all[i.index(all.len())].clone()).collect();
            let cap = capacity(&g, &made).unwrap() as usize;
            let count = (cap as f64 * frac).round() as usize;
            prop_assert_eq!(plan(&g, &made, count, seed), plan(&g, &made, count, seed));
            prop_assert_eq!(plan(&g, &[], sizes.iter().product(), seed), plan(&g, &[], sizes.iter().product(), seed));
        }
    }

    /// Lengths for `groups_of(sizes)`: clip i of group g lasts `(g + i) % 5 + 5` seconds (5–9 s clips).
    fn lengths_of(sizes: &[usize]) -> Vec<Vec<i64>> {
        sizes
            .iter()
            .enumerate()
            .map(|(g, &n)| (0..n).map(|i| ((g + i) % 5 + 5) as i64 * 1000).collect())
            .collect()
    }

    fn length(groups: &[Vec<i64>], lengths: &[Vec<i64>], seq: &[i64]) -> i64 {
        seq.iter()
            .enumerate()
            .map(|(g, c)| lengths[g][groups[g].iter().position(|x| x == c).unwrap()])
            .sum()
    }

    #[test]
    fn a_floor_plans_only_sequences_at_least_that_long() {
        // A 20.3 s voice-over over three groups of 5–9 s clips: 15–27 s sequences.
        let g = groups_of(&[4, 4, 4]);
        let lengths = lengths_of(&[4, 4, 4]);
        let floor = Floor {
            lengths: &lengths,
            min_ms: 20_300,
        };
        let all = all_sequences(&g);
        let long = all
            .iter()
            .filter(|s| length(&g, &lengths, s) >= 20_300)
            .count() as u64;
        assert!(long > 0 && long < 64);
        assert_eq!(capacity_long_enough(&g, &[], &floor), Ok((long, 64 - long)));
        let p = plan_long_enough(&g, &[], long as usize, 7, &floor).unwrap();
        assert_eq!(p.variants.len() as u64, long);
        assert_valid_and_unique(&g, &[], &p);
        for v in &p.variants {
            assert!(length(&g, &lengths, v) >= 20_300, "{v:?}");
        }
        assert_eq!(
            plan_long_enough(&g, &[], long as usize + 1, 7, &floor),
            Err(PlanError::TooShort {
                requested: long as usize + 1,
                capacity: long,
                short: 64 - long,
                min_ms: 20_300
            })
        );
        // Without the floor, or with one every sequence meets, the plain plan.
        let none = Floor {
            lengths: &lengths,
            min_ms: 15_000,
        };
        assert_eq!(plan_long_enough(&g, &[], 8, 7, &none), plan(&g, &[], 8, 7));
        assert_eq!(capacity_long_enough(&g, &[], &none), Ok((64, 0)));
        // Longer than any sequence: nothing can be planned, and the error says why.
        let never = Floor {
            lengths: &lengths,
            min_ms: 60_000,
        };
        assert!(matches!(
            plan_long_enough(&g, &[], 1, 7, &never),
            Err(PlanError::TooShort { capacity: 0, .. })
        ));
    }

    proptest! {
        /// With a floor: the capacity is the number of long sequences not made yet, every planned
        /// variant is long, new and unique, whatever the history, and one more than the capacity is
        /// refused.
        #[test]
        fn floors(sizes in sizes_strategy(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..30), min_s in 10i64..40, frac in 0.0f64..=1.0, seed in any::<u64>()) {
            let g = groups_of(&sizes);
            let lengths = lengths_of(&sizes);
            let floor = Floor { lengths: &lengths, min_ms: min_s * 1000 };
            let all = all_sequences(&g);
            let made: Vec<Vec<i64>> = picks.iter().map(|i| all[i.index(all.len())].clone()).collect();
            let made_set: HashSet<&Vec<i64>> = made.iter().collect();
            let long = all.iter().filter(|s| !made_set.contains(s) && length(&g, &lengths, s) >= floor.min_ms).count() as u64;
            let (cap, short) = capacity_long_enough(&g, &made, &floor).unwrap();
            prop_assert_eq!(cap, long);
            prop_assert_eq!(cap + short, capacity(&g, &made).unwrap());
            let count = (cap as f64 * frac).round() as usize;
            let p = plan_long_enough(&g, &made, count, seed, &floor).unwrap();
            prop_assert_eq!(p.variants.len(), count);
            assert_valid_and_unique(&g, &made, &p);
            for v in &p.variants {
                prop_assert!(length(&g, &lengths, v) >= floor.min_ms);
            }
            prop_assert!(plan_long_enough(&g, &made, cap as usize + 1, seed, &floor).is_err());
        }
    }

    #[test]
    fn seeds_shuffle_the_choice() {
        let g = groups_of(&[5, 5, 5]);
        let a = plan(&g, &[], 5, 1).unwrap().variants;
        let b = plan(&g, &[], 5, 2).unwrap().variants;
        assert_ne!(a, b);
        // Consecutive variants of the balanced order change every group (diagonal walk).
        for w in a.windows(2) {
            assert!(w[0].iter().zip(&w[1]).all(|(x, y)| x != y), "{w:?}");
        }
    }
}

//! Fixed slots: whether a project's variants put each clip at the same times, so that burned text
//! is reused across them (the render's `reuse_burns`) and the project lists can say so.

use domain::clip::GroupRule;
use media::mix;

/// Whether every slot trims each of its clips (their lengths, ms, per group in order) to the same span
/// (image shots always do): the render's `reuse_burns`, and what the project lists show
/// (`projects::Overview::fixed_slots`).
pub(crate) fn fixed_slots(rules: &[GroupRule], lengths: &[Vec<i64>]) -> bool {
    !rules.is_empty()
        && rules.len() == lengths.len()
        && rules
            .iter()
            .zip(lengths)
            .all(|(g, l)| !g.images.is_empty() || same_slot(l.iter().copied(), g.in_ms, g.max_ms))
}

/// True when every clip of a slot's pool (by duration) is trimmed to the same span by the slot's rule
/// (start `in_ms`, length `max_ms`, 0 = the whole clip), as the engine snaps trims to its GOP grid.
fn same_slot(durations: impl Iterator<Item = i64>, in_ms: i64, max_ms: i64) -> bool {
    let mut spans = durations.map(|d| {
        mix::snap_trim(
            d,
            (in_ms > 0).then_some(in_ms),
            (max_ms > 0).then_some(in_ms + max_ms),
        )
    });
    let first = spans.next();
    first.is_some() && spans.all(|s| Some(s) == first)
}

#[cfg(test)]
mod tests {
    use super::{GroupRule, fixed_slots, same_slot};

    #[test]
    fn a_slot_is_fixed_when_every_clip_trims_to_the_same_span() {
        // A 3 s rule over clips of 4–9 s: every clip gives 0–3 s.
        assert!(same_slot([4000, 9000, 3600].into_iter(), 0, 3000));
        // A clip shorter than the rule ends earlier: not fixed.
        assert!(!same_slot([4000, 2500].into_iter(), 0, 3000));
        // Whole clips are fixed only when they last the same.
        assert!(same_slot([5000, 5000].into_iter(), 0, 0));
        assert!(!same_slot([5000, 6000].into_iter(), 0, 0));
        // Starting later (advanced mode) counts from there.
        assert!(same_slot([8000, 6000].into_iter(), 2000, 3000));
        assert!(!same_slot([8000, 4200].into_iter(), 2000, 3000));
        assert!(!same_slot(std::iter::empty(), 0, 3000));
    }

    #[test]
    fn slots_are_fixed_when_every_group_trims_its_clips_alike() {
        let rule = |max_ms: i64| GroupRule {
            max_ms,
            ..Default::default()
        };
        let image = GroupRule {
            images: vec![1, 2],
            max_ms: 3000,
            ..Default::default()
        };
        // A 3 s rule over longer clips, equal whole clips, and an image shot.
        let lengths = vec![vec![4000, 9000], vec![5000, 5000], vec![]];
        assert!(fixed_slots(&[rule(3000), rule(0), image.clone()], &lengths));
        // Whole clips of different lengths.
        assert!(!fixed_slots(
            &[rule(3000), rule(0), image],
            &[vec![4000], vec![5000, 6000], vec![]]
        ));
        // A group gone (no pool for it), or no groups.
        assert!(!fixed_slots(&[rule(3000), rule(0)], &[vec![4000]]));
        assert!(!fixed_slots(&[], &[]));
    }
}

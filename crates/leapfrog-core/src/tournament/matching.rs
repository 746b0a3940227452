//! Perfect matchings of a general graph (Edmonds' blossom algorithm), for
//! the Swiss pairing's look-ahead: whether the players still unpaired can
//! all be paired under a round's constraints, kept up to date as pairs
//! are fixed one by one.
//!
//! The graph is an adjacency matrix over at most a few hundred players
//! (an event's cap): one augmenting-path search is O(V²).

/// A graph's vertices, the pairs allowed between them, and a matching
/// kept maximum among the vertices still in play.
#[derive(Debug, Clone)]
pub(crate) struct Matcher {
    n: usize,
    allowed: Vec<bool>,
    alive: Vec<bool>,
    mate: Vec<Option<usize>>,
}

/// The scratch of one augmenting-path search.
struct Search {
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    seen: Vec<bool>,
    queue: Vec<usize>,
}

impl Matcher {
    /// `n` vertices, `allowed(a, b)` whether `a` and `b` may be paired;
    /// the matching starts maximum.
    pub(crate) fn new(n: usize, allowed: impl Fn(usize, usize) -> bool) -> Matcher {
        let mut m = vec![false; n * n];
        for a in 0..n {
            for b in 0..n {
                m[a * n + b] = a != b && allowed(a, b) && allowed(b, a);
            }
        }
        let mut matcher = Matcher { n, allowed: m, alive: vec![true; n], mate: vec![None; n] };
        for v in 0..n {
            if matcher.mate[v].is_none() {
                matcher.augment_from(v);
            }
        }
        matcher
    }

    /// Whether every vertex still in play is matched.
    pub(crate) fn is_perfect(&self) -> bool {
        (0..self.n).all(|v| !self.alive[v] || self.mate[v].is_some())
    }

    /// Whether `a` and `b` may be paired.
    pub(crate) fn allows(&self, a: usize, b: usize) -> bool {
        self.allowed[a * self.n + b]
    }

    /// Takes `a` and `b` out of play as a pair if the vertices left can
    /// still all be matched (the matching is then perfect on them);
    /// otherwise changes nothing and answers `false`. Needs a perfect
    /// matching to start from.
    pub(crate) fn fix_pair(&mut self, a: usize, b: usize) -> bool {
        if !self.allows(a, b) || !self.alive[a] || !self.alive[b] {
            return false;
        }
        let (ma, mb) = (self.mate[a], self.mate[b]);
        if ma == Some(b) {
            self.remove(a, b);
            return true;
        }
        let saved = self.mate.clone();
        self.remove(a, b);
        // The old partners of `a` and `b` are the only unmatched vertices
        // in play: one augmenting path joins them, or none exists.
        if let (Some(x), Some(_)) = (ma, mb) {
            if self.augment_from(x) {
                return true;
            }
        }
        self.alive[a] = true;
        self.alive[b] = true;
        self.mate = saved;
        false
    }

    /// Takes `v` out of play (a bye) if the vertices left can all be
    /// matched; otherwise changes nothing and answers `false`. Needs a
    /// matching that leaves at most one vertex in play unmatched.
    pub(crate) fn take_out(&mut self, v: usize) -> bool {
        if !self.alive[v] {
            return false;
        }
        let saved = self.mate.clone();
        self.alive[v] = false;
        if let Some(m) = self.mate[v].take() {
            self.mate[m] = None;
        }
        let exposed: Vec<usize> = (0..self.n).filter(|&x| self.alive[x] && self.mate[x].is_none()).collect();
        match exposed[..] {
            [] => return true,
            [x, _] if self.augment_from(x) => return true,
            _ => {}
        }
        self.alive[v] = true;
        self.mate = saved;
        false
    }

    fn remove(&mut self, a: usize, b: usize) {
        for v in [a, b] {
            if let Some(m) = self.mate[v].take() {
                self.mate[m] = None;
            }
            self.alive[v] = false;
        }
    }

    /// Augments the matching along a path from the unmatched vertex
    /// `root`, if there is one.
    fn augment_from(&mut self, root: usize) -> bool {
        let Some((end, parent)) = self.find_path(root) else { return false };
        let mut v = Some(end);
        while let Some(x) = v {
            let Some(px) = parent[x] else { break };
            let next = self.mate[px];
            self.mate[x] = Some(px);
            self.mate[px] = Some(x);
            v = next;
        }
        true
    }

    /// An augmenting path from `root`: its unmatched end and the parents
    /// that lead back (Edmonds: odd cycles shrunk to their base).
    fn find_path(&self, root: usize) -> Option<(usize, Vec<Option<usize>>)> {
        let n = self.n;
        let mut s =
            Search { parent: vec![None; n], base: (0..n).collect(), seen: vec![false; n], queue: vec![root] };
        s.seen[root] = true;
        let mut head = 0;
        while head < s.queue.len() {
            let v = s.queue[head];
            head += 1;
            for to in 0..n {
                if !self.alive[to]
                    || !self.allows(v, to)
                    || s.base[v] == s.base[to]
                    || self.mate[v] == Some(to)
                {
                    continue;
                }
                let odd_cycle = to == root || self.mate[to].is_some_and(|m| s.parent[m].is_some());
                if odd_cycle {
                    self.shrink(&mut s, v, to);
                } else if s.parent[to].is_none() {
                    s.parent[to] = Some(v);
                    let Some(m) = self.mate[to] else { return Some((to, s.parent)) };
                    s.seen[m] = true;
                    s.queue.push(m);
                }
            }
        }
        None
    }

    /// Shrinks the blossom closed by the edge `v`–`to` into its base.
    fn shrink(&self, s: &mut Search, v: usize, to: usize) {
        let base = self.common_base(s, v, to);
        let mut in_blossom = vec![false; self.n];
        self.mark_path(s, &mut in_blossom, v, base, to);
        self.mark_path(s, &mut in_blossom, to, base, v);
        for i in 0..self.n {
            if in_blossom[s.base[i]] {
                s.base[i] = base;
                if !s.seen[i] {
                    s.seen[i] = true;
                    s.queue.push(i);
                }
            }
        }
    }

    /// The base of the blossom where the tree paths from `a` and `b` meet.
    fn common_base(&self, s: &Search, mut a: usize, mut b: usize) -> usize {
        let mut on_path = vec![false; self.n];
        loop {
            a = s.base[a];
            on_path[a] = true;
            match self.mate[a].and_then(|m| s.parent[m]) {
                Some(next) => a = next,
                None => break,
            }
        }
        loop {
            b = s.base[b];
            if on_path[b] {
                return b;
            }
            // Every vertex on the tree path below the root has a mate and
            // its mate a parent: the root ends the walk above.
            match self.mate[b].and_then(|m| s.parent[m]) {
                Some(next) => b = next,
                None => return b,
            }
        }
    }

    /// Marks the blossom's vertices on the path from `v` down to `base`,
    /// pointing their parents across the closing edge at `child`.
    fn mark_path(
        &self,
        s: &mut Search,
        in_blossom: &mut [bool],
        mut v: usize,
        base: usize,
        mut child: usize,
    ) {
        while s.base[v] != base {
            let Some(m) = self.mate[v] else { break };
            in_blossom[s.base[v]] = true;
            in_blossom[s.base[m]] = true;
            s.parent[v] = Some(child);
            child = m;
            match s.parent[m] {
                Some(p) => v = p,
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a perfect matching exists, by trying every pairing.
    fn brute(allowed: &dyn Fn(usize, usize) -> bool, left: &[usize]) -> bool {
        let Some(&a) = left.first() else { return true };
        for k in 1..left.len() {
            let b = left[k];
            if allowed(a, b) && allowed(b, a) {
                let rest: Vec<usize> = left.iter().copied().filter(|&x| x != a && x != b).collect();
                if brute(allowed, &rest) {
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn a_perfect_matching_is_found_exactly_when_one_exists_through_odd_cycles_too() {
        // Two triangles joined by an edge: perfect only through the bridge
        // (a blossom must be shrunk to see it).
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3)];
        let allowed = |a: usize, b: usize| edges.contains(&(a, b)) || edges.contains(&(b, a));
        let m = Matcher::new(6, allowed);
        assert!(m.is_perfect());
        // Without the bridge, none.
        let apart = |a: usize, b: usize| (a, b) != (2, 3) && (a, b) != (3, 2) && allowed(a, b);
        assert!(!Matcher::new(6, apart).is_perfect());
    }

    #[test]
    fn random_graphs_agree_with_trying_every_pairing() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            let n = 2 * (1 + (next() % 5) as usize);
            let bits = next();
            let allowed = |a: usize, b: usize| {
                let (x, y) = (a.min(b), a.max(b));
                bits >> ((x * 10 + y) % 64) & 1 == 1
            };
            let m = Matcher::new(n, allowed);
            assert_eq!(m.is_perfect(), brute(&allowed, &(0..n).collect::<Vec<_>>()), "n {n} bits {bits:x}");
            if !m.is_perfect() {
                continue;
            }
            // Fixing any allowed pair keeps it perfect exactly when the rest
            // can be matched.
            for a in 0..n {
                for b in a + 1..n {
                    let mut fixed = m.clone();
                    let rest: Vec<usize> = (0..n).filter(|&x| x != a && x != b).collect();
                    let want = allowed(a, b) && brute(&allowed, &rest);
                    assert_eq!(fixed.fix_pair(a, b), want, "n {n} bits {bits:x} pair {a}-{b}");
                    assert!(fixed.is_perfect());
                }
            }
        }
    }
}

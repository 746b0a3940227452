//! A position's legal moves: counted, walked in notation order, listed,
//! as a jump tree, picked at random, and random playouts.

use super::*;

impl Position {
    /// The number of legal moves, counted in bulk, if it is at most the
    /// budget's paths. (To know whether there is one, ask
    /// [`has_moves`](Self::has_moves): it does not count.)
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when there are more moves than the budget.
    pub fn count_moves(&self, budget: PathBudget) -> Result<u64, OverBudget> {
        with_width!(self.rules.layout.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            st.quota = budget.paths();
            let n = st.count(&ctx, self.ply);
            if st.over || n > budget.paths() { Err(OverBudget::of(budget)) } else { Ok(n) }
        })
    }

    /// [`count_moves`](Self::count_moves) without a budget: exponential in
    /// the board's size on some positions.
    pub fn count_moves_unbounded(&self) -> u64 {
        self.count_moves(PathBudget::UNLIMITED).unwrap_or(u64::MAX)
    }

    /// Calls `visit` with every legal move — only those from `from`, if
    /// given; none from a cell off the board — in notation order, until it
    /// breaks: its path and what it scores (and, when asked, the cells it
    /// captures). The path is reused between calls: nothing is allocated
    /// per move. The
    /// way to list a page of moves, or to pick among them by gain, without
    /// building them.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use jump_capture::{Position, Preset, Rules, Setup};
    ///
    /// let rules = Rules::new(Preset::Murray.spec().with_size(3, 3))?;
    /// let setup: Setup = "1GR/RW1/YWG 2 0,0".parse()?;
    /// let pos = Position::from_setup(rules, &setup)?;
    /// let mut scored = Vec::new();
    /// pos.for_each_move(None, |m| {
    ///     let cells: Vec<String> = m.path.iter().map(|c| c.to_string()).collect();
    ///     let over = m.captures().next().map(|c| c.to_string());
    ///     scored.push((cells.join("x"), over.unwrap_or_default(), m.gain));
    ///     ControlFlow::Continue(())
    /// });
    /// // Over a red piece (3), a white one (1), a green one (4).
    /// assert_eq!(
    ///     scored,
    ///     [("a1xa3".into(), "a2".into(), 3), ("a2xc2".into(), "b2".into(), 1), ("c3xa3".into(), "b3".into(), 4)]
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each_move<F>(&self, from: Option<Cell>, mut visit: F)
    where
        F: FnMut(ScoredPath<'_>) -> ControlFlow<()>,
    {
        let removals_score = self.rules.spec().removals_score;
        // The value of the piece on a layout index of this position (the
        // pieces a move takes are all there before it).
        let value = |i: usize| kind_index(self.squares[i]).map_or(0, |k| self.rules.kinds()[k].value);
        // The walk goes depth first and visits a path right after its
        // last jump is made, so the path one jump shorter was the last one
        // of that length visited (or, for a first jump, is its start cell
        // alone): a path's cells and gain are that path's plus one cell
        // and one piece's value, kept per length (grown to the longest
        // path yet, and written over). Room for the paths of nearly every
        // position at once: growing a cell at a time would reallocate.
        let mut cells: Vec<Cell> = Vec::with_capacity(32);
        let mut gains: Vec<u32> = Vec::with_capacity(32);
        self.walk_indices(from, |lay, path| {
            let n = path.len();
            let last = path[n - 1];
            if cells.len() < n {
                cells.resize(n, lay.cell(last));
                gains.resize(n, 0);
            }
            cells[n - 1] = lay.cell(last);
            let gain = match n {
                1 if removals_score => value(last),
                1 => 0,
                _ => {
                    // The start cell is written for every path: cheaper
                    // than a guess at whether this one is a first jump.
                    cells[0] = lay.cell(path[0]);
                    gains[0] = 0;
                    // Layout indices are linear in file and rank: the cell
                    // jumped over is the mean of the two ends of a jump.
                    gains[n - 2].saturating_add(value((path[n - 2] + last) / 2))
                }
            };
            gains[n - 1] = gain;
            debug_assert!(
                cells[..n].iter().zip(path).all(|(&c, &i)| c == lay.cell(i)),
                "the walk is not depth first"
            );
            visit(ScoredPath { path: &cells[..n], gain })
        });
    }

    /// [`for_each_move`](Self::for_each_move) with the paths as layout
    /// indices.
    fn walk_indices<F>(&self, from: Option<Cell>, mut visit: F)
    where
        F: FnMut(&Layout, &[usize]) -> ControlFlow<()>,
    {
        let lay = &self.rules.layout;
        let only = match from {
            Some(f) if !self.rules.has_cell(f) => return,
            f => f.map(|f| lay.index(f)),
        };
        with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let _ = st.walk_paths(&ctx, self.ply, only, &mut |path: &[usize]| visit(lay, path));
        });
    }

    /// Every legal move, sorted by notation.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when there are more moves than the budget.
    pub fn legal_moves(&self, budget: PathBudget) -> Result<Vec<Move>, OverBudget> {
        Ok(self.move_list(None, budget)?.to_moves())
    }

    /// [`legal_moves`](Self::legal_moves) without a budget: exponential in
    /// the board's size on some positions.
    pub fn legal_moves_unbounded(&self) -> Vec<Move> {
        self.move_list_unbounded(None).to_moves()
    }

    /// The legal moves (only those starting on `from`, if given), sorted
    /// by notation, in one flat list: the cheap way to list many moves and
    /// use a few, as a page of them.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when there are more moves than the budget.
    pub fn move_list(&self, from: Option<Cell>, budget: PathBudget) -> Result<MoveList, OverBudget> {
        let limit = usize::try_from(budget.paths()).unwrap_or(usize::MAX);
        let list = self.first_moves(from, limit.saturating_add(1));
        if list.len() > limit { Err(OverBudget::of(budget)) } else { Ok(list) }
    }

    /// [`move_list`](Self::move_list) without a budget: exponential in the
    /// board's size on some positions.
    pub fn move_list_unbounded(&self, from: Option<Cell>) -> MoveList {
        self.first_moves(from, usize::MAX)
    }

    /// The first `n` legal moves in notation order (only those starting on
    /// `from`, if given): all of them when there are fewer. Never walks
    /// more than `n` paths.
    pub fn first_moves(&self, from: Option<Cell>, n: usize) -> MoveList {
        // Room for a typical middle game at once: growing by doubling would
        // copy and free the buffers several times over.
        let mut cells = Vec::with_capacity(1024.min(n.saturating_mul(4)));
        let mut spans = Vec::with_capacity(256.min(n));
        let mut gains = Vec::with_capacity(256.min(n));
        if n > 0 {
            self.for_each_move(from, |m| {
                spans.push((cells.len() as u32, m.path.len() as u32));
                cells.extend(m.path.iter().copied());
                gains.push(m.gain);
                if gains.len() < n { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
            });
        }
        MoveList::in_order(cells, spans, gains)
    }

    /// The jumps from `from` as a tree (children in notation order), of at
    /// most the budget's paths (one node a path). In the opening, and from
    /// a cell with no jump, the tree is the root alone.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when more moves start on `from` than the budget.
    pub fn jump_tree(&self, from: Cell, budget: PathBudget) -> Result<JumpTree, OverBudget> {
        let mut root = JumpTree { cell: from, over: None, next: Vec::new() };
        if self.is_opening() {
            return Ok(root);
        }
        let mut left = budget.paths();
        let mut over = false;
        // Every path walked starts on `from`.
        self.for_each_move(Some(from), |m| {
            if left == 0 {
                over = true;
                return ControlFlow::Break(());
            }
            left -= 1;
            let mut node = &mut root;
            for (&to, over) in m.path[1..].iter().zip(m.captures()) {
                let pos = match node.next.iter().position(|n| n.cell == to) {
                    Some(p) => p,
                    None => {
                        node.next.push(JumpTree { cell: to, over: Some(over), next: Vec::new() });
                        node.next.len() - 1
                    }
                };
                node = &mut node.next[pos];
            }
            ControlFlow::Continue(())
        });
        if over { Err(OverBudget::of(budget)) } else { Ok(root) }
    }

    /// [`jump_tree`](Self::jump_tree) without a budget: exponential in the
    /// board's size on some positions, in time and memory.
    pub fn jump_tree_unbounded(&self, from: Cell) -> JumpTree {
        self.jump_tree(from, PathBudget::UNLIMITED).unwrap_or(JumpTree {
            cell: from,
            over: None,
            next: Vec::new(),
        })
    }

    /// A uniformly random legal move (every path equally likely), or `None`
    /// when the game is over. Choosing needs the count.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when there are more moves than the budget.
    pub fn random_move<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        budget: PathBudget,
    ) -> Result<Option<Move>, OverBudget> {
        let n = self.count_moves(budget)?;
        if n == 0 {
            return Ok(None);
        }
        self.nth_move(below(rng, n), budget)
    }

    /// [`random_move`](Self::random_move) without a budget: exponential in
    /// the board's size on some positions.
    pub fn random_move_unbounded<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        self.random_move(rng, PathBudget::UNLIMITED).unwrap_or(None)
    }

    /// Move `k` (from 0) of the legal moves in the engine's own fixed
    /// order, or `None` when `k` is not below the number of moves. Every
    /// legal move has exactly one index; finding it skips the moves before
    /// it in bulk instead of listing them.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when there are more moves than the budget.
    pub fn nth_move(&self, k: u64, budget: PathBudget) -> Result<Option<Move>, OverBudget> {
        let lay = &self.rules.layout;
        let mut path = Vec::new();
        with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            st.quota = budget.paths();
            let mut figures = CountRecord::default();
            let n = st.count_recording(&ctx, self.ply, Some(&mut figures));
            if st.over || n > budget.paths() {
                return Err(OverBudget::of(budget));
            }
            if k >= n {
                return Ok(None);
            }
            // Selection walks within what was just counted: no more work.
            st.quota = u64::MAX;
            st.select_counted(&ctx, self.ply, k, &figures, &mut path);
        });
        Ok(Move::new(path.iter().map(|&i| lay.cell(i)).collect()).ok())
    }

    /// A move of the largest gain, drawn uniformly among the moves of that
    /// gain, with its gain; `None` when the game is over. Looks at no more
    /// than `limit` moves, in the engine's own order (not notation order):
    /// past it, the best of those. A greedy player's move and a search's
    /// greedy playouts: nothing is built or named per move.
    ///
    /// ```
    /// use jump_capture::{Position, Preset, Rules, Setup};
    ///
    /// let rules = Rules::new(Preset::Murray.spec().with_size(3, 3))?;
    /// let setup: Setup = "1GR/RW1/YWG 2 0,0".parse()?;
    /// let pos = Position::from_setup(rules, &setup)?;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
    /// let (mv, gain) = pos.greedy_move(&mut rng, u64::MAX).expect("a move");
    /// // Over the green piece (4), the largest gain.
    /// assert_eq!((mv.to_string().as_str(), gain), ("c3xa3", 4));
    /// # use rand::SeedableRng;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn greedy_move<R: rand::Rng + ?Sized>(&self, rng: &mut R, limit: u64) -> Option<(Move, u32)> {
        let lay = &self.rules.layout;
        let (path, gain) = with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            self.greediest_path(&ctx, &mut st, rng, limit)?
        });
        let mv = Move::new(path.iter().map(|&i| lay.cell(i)).collect()).ok()?;
        Some((mv, gain))
    }

    /// The largest gain of a legal move and how many moves have it; `None`
    /// when the game is over. Looks at no more than `limit` moves, as
    /// [`greedy_move`](Self::greedy_move) does.
    pub fn largest_gain(&self, limit: u64) -> Option<(u32, u32)> {
        with_width!(self.rules.layout.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let mut keep = Greediest::new(|_| false, limit);
            self.visit_gains(&ctx, &mut st, &mut keep);
            (keep.ties > 0).then_some((keep.top, keep.ties))
        })
    }

    /// Plays up to `plies` moves of [`greedy_move`](Self::greedy_move)'s
    /// (each looking at no more than `limit` moves); returns the plies
    /// played, fewer when the game ends first. One move-generator state is
    /// kept for them all, and nothing is checked: the moves are the
    /// engine's.
    pub fn greedy_playout<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, plies: u32, limit: u64) -> u32 {
        let start = self.ply;
        with_width!(self.rules.layout.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            while self.ply - start < plies {
                let Some((path, _)) = self.greediest_path(&ctx, &mut st, rng, limit) else { break };
                st.apply(&ctx, self.ply, &path);
                self.apply_unchecked(&path);
            }
        });
        self.ply - start
    }

    /// Move `k` (from 0) of the legal moves ranked by gain, largest first,
    /// moves of equal gain in an order drawn from `salt`: the same order
    /// for the same position and salt, another for another salt. Looks at
    /// no more than `limit` moves, in the engine's own order. For a search
    /// that makes a node's children one at a time, best first: it asks for
    /// the next without keeping the list.
    ///
    /// ```
    /// use jump_capture::{Position, Preset, Rules, Setup};
    ///
    /// let rules = Rules::new(Preset::Murray.spec().with_size(3, 3))?;
    /// let setup: Setup = "1GR/RW1/YWG 2 0,0".parse()?;
    /// let pos = Position::from_setup(rules, &setup)?;
    /// let ranked: Vec<String> = (0..4).filter_map(|k| pos.ranked_move(k, 7, u64::MAX)).map(|m| m.to_string()).collect();
    /// // Over green (4), red (3), white (1); there are no more.
    /// assert_eq!(ranked, ["c3xa3", "a1xa3", "a2xc2"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ranked_move(&self, k: u64, salt: u64, limit: u64) -> Option<Move> {
        let lay = &self.rules.layout;
        let path = with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let mut ranks = Ranks { salt, left: limit, keys: Vec::new() };
            self.visit_gains(&ctx, &mut st, &mut ranks);
            let k = usize::try_from(k).ok().filter(|&k| k < ranks.keys.len())?;
            let (_, _, seq) = *ranks.keys.select_nth_unstable(k).1;
            // The walk again, to path number `seq`: cheaper than keeping
            // every path of the first.
            let mut numbered = Numbered { seq, path: Vec::with_capacity(16) };
            self.visit_gains(&ctx, &mut st, &mut numbered);
            numbered.path
        });
        Move::new(path.iter().map(|&i| lay.cell(i)).collect()).ok()
    }

    /// The path (layout indices) and gain of [`greedy_move`](Self::greedy_move),
    /// on `st`, this position's move-generator state.
    fn greediest_path<const W: usize, R: rand::Rng + ?Sized>(
        &self,
        ctx: &RuleTables<W>,
        st: &mut Board<W>,
        rng: &mut R,
        limit: u64,
    ) -> Option<(Vec<usize>, u32)> {
        // The `k`-th equal replaces the kept one with probability 1/k
        // (reservoir sampling): each is kept with the same chance.
        let mut keep = Greediest::new(|k: u32| below(rng, u64::from(k)) == 0, limit);
        self.visit_gains(ctx, st, &mut keep);
        (keep.ties > 0).then_some((keep.best, keep.top))
    }

    /// Shows `visitor` every legal move's path (layout indices) and gain,
    /// in the engine's order, on `st`, this position's move-generator
    /// state.
    fn visit_gains<const W: usize, G: GainVisitor>(
        &self,
        ctx: &RuleTables<W>,
        st: &mut Board<W>,
        visitor: &mut G,
    ) {
        if self.is_opening() {
            // Removals: a cell each, few; the walk in notation order serves.
            let lay = &self.rules.layout;
            self.for_each_move(None, |m| visitor.visit(&[lay.index(m.path[0])], m.gain));
        } else {
            let kinds = self.rules.kinds();
            let value = |i: usize| kind_index(self.squares[i]).map_or(0, |k| kinds[k].value);
            st.walk_gains(ctx, self.ply, &value, visitor);
        }
    }

    /// Plays uniformly random legal moves (every path equally likely) until
    /// the game is over; returns the number of plies played. The engine of
    /// Monte Carlo search: one move-generator state is kept for the whole
    /// game, and a ply costs a bulk count and a selection that skips the
    /// moves before the chosen one in bulk. The budget holds for each ply.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] when a ply has more moves than the budget: the
    /// position is then the one that had them (the plies before it are
    /// played).
    pub fn playout<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        budget: PathBudget,
    ) -> Result<u32, OverBudget> {
        let lay = &self.rules.layout;
        let mut path = Vec::with_capacity(16);
        let start = self.ply;
        with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let mut figures = CountRecord::default();
            loop {
                st.quota = budget.paths();
                let n = st.count_recording(&ctx, self.ply, Some(&mut figures));
                if st.over || n > budget.paths() {
                    return Err(OverBudget::of(budget));
                }
                if n == 0 {
                    break;
                }
                st.quota = u64::MAX;
                st.select_counted(&ctx, self.ply, below(rng, n), &figures, &mut path);
                st.apply(&ctx, self.ply, &path);
                self.apply_unchecked(&path);
            }
        });
        Ok(self.ply - start)
    }

    /// [`playout`](Self::playout) without a budget: a ply can take
    /// exponential time on some boards.
    pub fn playout_unbounded<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let start = self.ply;
        match self.playout(rng, PathBudget::UNLIMITED) {
            Ok(n) => n,
            Err(_) => self.ply - start,
        }
    }

    /// Plays a generated path (layout indices) on the mailbox, bitboard and
    /// scores, without checks.
    fn apply_unchecked(&mut self, path: &[usize]) {
        let kinds = self.rules.kinds();
        let player = self.to_move();
        let mut gain = 0u32;
        let clear = |squares: &mut Vec<u8>, occ: &mut [u64; MAX_WORDS], i: usize| {
            let k = std::mem::replace(&mut squares[i], EMPTY);
            occ[i >> 6] ^= 1 << (i & 63);
            kind_index(k).map_or(0, |k| kinds[k].value)
        };
        if let [cell] = path {
            let value = clear(&mut self.squares, &mut self.occ, *cell);
            if self.rules.spec().removals_score {
                gain = value;
            }
        } else {
            let (from, to) = (path[0], path[path.len() - 1]);
            let piece = self.squares[from];
            clear(&mut self.squares, &mut self.occ, from);
            for w in path.windows(2) {
                gain = gain.saturating_add(clear(&mut self.squares, &mut self.occ, (w[0] + w[1]) / 2));
            }
            self.squares[to] = piece;
            self.occ[to >> 6] ^= 1 << (to & 63);
        }
        let score = &mut self.scores[player];
        *score = score.saturating_add(gain);
        self.ply = self.ply.saturating_add(1);
    }
}

-- The kinds of the pieces a move took (rule book §4: what each is worth),
-- so that a history tells them without replaying the game. One set for
-- SQLite and PostgreSQL.
--
-- `moves.kinds`: the kinds' letters, one per cell of `captures`, in the
-- same order (`GGR`). NULL for moves stored before this column: their
-- kinds are read by replaying the game from its deal.
ALTER TABLE moves ADD COLUMN kinds TEXT;

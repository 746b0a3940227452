//! The stateless endpoints: presets, setups, legal moves, apply. Each
//! request carries the rules and the position; nothing is stored.

use std::io::Write;
use std::ops::ControlFlow;

use actix_web::{HttpResponse, get, post};
use jump_capture as jc;
use serde::{Deserialize, Serialize};
use utoipa::{IntoResponses, ToSchema};

use super::json::JsonBody;
use super::play::{JumpTree, MoveInput, MoveView, MoveWriter, Outcome, PositionInput, PositionView, Status};
use super::problem::{ApiError, Problem, Refusal};
use super::rules::{PresetId, RuleSet, Rules};

/// The most moves one page of legal moves holds.
pub const MAX_PAGE: usize = 1000;
/// Moves per page when `limit` is not given.
pub const DEFAULT_PAGE: usize = 100;

/// The error answers of the endpoints that take a JSON body.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum BodyErrors {
    /// Malformed JSON, a wrong type, a missing or unknown field; `field`
    /// names it.
    #[response(status = 400, content_type = "application/problem+json")]
    BadRequest(Problem),
    /// The body is larger than the limit (64 KiB unless configured).
    #[response(status = 413, content_type = "application/problem+json")]
    TooLarge(Problem),
    /// A well-formed request the rules refuse: an invalid rule set, a bad
    /// board or cell (with rank and file), an illegal move (with the
    /// reason), a board size or player count out of range.
    #[response(status = 422, content_type = "application/problem+json")]
    Unprocessable(Problem),
}

/// A preset rule set.
#[derive(Debug, Serialize, ToSchema)]
pub struct PresetInfo {
    /// Its identifier, for `rules.preset`.
    pub id: PresetId,
    /// Its title.
    pub name: String,
    /// How it plays.
    pub description: String,
    /// The complete rule set on its default board.
    pub rules: RuleSet,
}

/// Every preset with its complete rule set.
#[utoipa::path(
    tag = "rules",
    responses((status = 200, description = "The presets", body = Vec<PresetInfo>))
)]
#[get("/v1/presets")]
pub async fn presets() -> Result<HttpResponse, ApiError> {
    let list: Vec<PresetInfo> = jc::Preset::ALL
        .into_iter()
        .map(|p| PresetInfo {
            id: p.into(),
            name: p.title().into(),
            description: p.description().into(),
            rules: RuleSet::from_rules(&p.rules()),
        })
        .collect();
    Ok(HttpResponse::Ok().json(list))
}

/// A request for a new game's starting position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rules": {"preset": "murray"}, "players": 3, "seed": 42}))]
pub struct SetupRequest {
    /// The rule set.
    pub rules: Rules,
    /// Number of players (default 2; 1 to 64, within the rule set's range).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 64)]
    pub players: Option<usize>,
    /// Seed of the deal; drawn and returned when omitted.
    #[serde(default)]
    #[schema(format = "uint64")]
    pub seed: Option<u64>,
}

/// A new game's starting position.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetupResponse {
    /// The complete rule set.
    pub rules: RuleSet,
    /// The seed used: send it again for the same board.
    #[schema(format = "uint64")]
    pub seed: u64,
    /// The starting position.
    pub position: PositionView,
}

/// Deals the starting position of a new game. The same rules and seed
/// always give the same board.
#[utoipa::path(
    tag = "play",
    request_body = SetupRequest,
    responses((status = 200, description = "The starting position", body = SetupResponse), BodyErrors)
)]
#[post("/v1/setups")]
pub async fn setups(JsonBody(req): JsonBody<SetupRequest>) -> Result<HttpResponse, ApiError> {
    let rules = req.rules.resolve(None)?;
    let full = RuleSet::from_rules(&rules);
    let (pos, seed) = start(rules, req.players.unwrap_or(2), req.seed)?;
    Ok(HttpResponse::Ok().json(SetupResponse { rules: full, seed, position: PositionView::of(&pos) }))
}

/// Deals a starting position, mapping refusals to 422.
pub fn start(rules: jc::Rules, players: usize, seed: Option<u64>) -> Result<(jc::Position, u64), ApiError> {
    jc::Position::start(rules, players, seed)
        .map_err(|e| ApiError::refuse(Refusal::InvalidValue, e, "players"))
}

/// A request for the legal moves of a position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "old"},
    "position": {"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]},
    "limit": 100
}))]
pub struct LegalMovesRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position.
    pub position: PositionInput,
    /// Only the moves starting on this cell; the answer then also holds
    /// the jump tree from it.
    #[serde(default)]
    pub from: Option<String>,
    /// Moves per page, 1 to 1000 (default 100).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
    /// Where to go on from: a previous answer's `next_cursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}

// The wire schema of a `LegalMovesResponse`.
/// A page of legal moves, sorted by notation.
#[derive(ToSchema)]
#[schema(as = LegalMovesResponse)]
#[allow(dead_code)] // only read by the OpenAPI derive
struct LegalMovesResponseDoc {
    /// The number of all legal moves (of those from `from`, if given).
    count: u64,
    /// This page of them.
    moves: Vec<MoveView>,
    /// The cursor of the next page; null on the last.
    next_cursor: Option<String>,
    /// With `from`: the jumps from that cell as a tree.
    #[schema(required = false)]
    tree: Option<JumpTree>,
}

/// A page of legal moves, sorted by notation, as the JSON body of the
/// answer: the page's moves are written while the legal moves are walked,
/// without building them.
#[derive(Debug)]
pub struct LegalMovesResponse {
    /// The body is `json[skip..]`: the moves are written after room for
    /// the longest head (`{"count":…,"moves":[`), and the head goes in
    /// right before them once the count is known.
    json: Vec<u8>,
    skip: usize,
}

schema_of!(LegalMovesResponse => LegalMovesResponseDoc);

impl LegalMovesResponse {
    /// The JSON body: the bytes `serde_json` writes for the page (a test
    /// holds it to that).
    pub fn to_json(&self) -> &[u8] {
        &self.json[self.skip..]
    }

    /// The 200 answer carrying [`to_json`](Self::to_json), without a copy.
    pub fn respond(self) -> HttpResponse {
        let body = actix_web::web::Bytes::from(self.json).slice(self.skip..);
        HttpResponse::Ok().content_type(actix_web::http::header::ContentType::json()).body(body)
    }
}

/// Resolves a request's rules and position together: the board's shape
/// comes from the position unless the rules give one.
pub fn rules_and_position(rules: &Rules, position: &PositionInput) -> Result<jc::Position, ApiError> {
    // What nearly every request sends, read in one pass: a plain board
    // under preset rules already made for its size.
    let quick =
        jc::Position::from_board_str(&position.board, position.ply, &position.scores, |rows, cols| {
            rules.shared(rows, cols)
        });
    match quick {
        Some(pos) => Ok(pos),
        None => careful_position(rules, position),
    }
}

/// [`rules_and_position`] the careful way, through a grid: everything the
/// one-pass reader declines, and the reason for every refusal.
fn careful_position(rules: &Rules, position: &PositionInput) -> Result<jc::Position, ApiError> {
    let setup = position.setup()?;
    let rules = rules.resolve_shared(Some(&setup.grid))?;
    position.position(rules, &setup)
}

fn cell(text: &str, field: &str) -> Result<jc::Cell, ApiError> {
    text.parse().map_err(|e: jc::ParseCellError| {
        ApiError::refuse(Refusal::InvalidNotation, format!("'{text}': {e}"), field)
    })
}

/// A cursor is opaque to clients; inside it is the index of the next move.
fn parse_cursor(cursor: &str) -> Result<usize, ApiError> {
    cursor.strip_prefix("m").and_then(|n| usize::from_str_radix(n, 16).ok()).ok_or_else(|| {
        ApiError::refuse(Refusal::InvalidValue, "the cursor is not one this server gave out", "cursor")
    })
}

/// Lists the legal moves of a position, a page at a time, sorted by
/// notation. With `from`, only the moves from that cell, and their jump
/// tree.
#[utoipa::path(
    tag = "play",
    request_body = LegalMovesRequest,
    responses((status = 200, description = "A page of legal moves", body = LegalMovesResponse), BodyErrors)
)]
#[post("/v1/legal-moves")]
pub async fn legal_moves(JsonBody(req): JsonBody<LegalMovesRequest>) -> Result<HttpResponse, ApiError> {
    let pos = rules_and_position(&req.rules, &req.position)?;
    let page = legal_moves_page(&pos, req.from.as_deref(), req.limit, req.cursor.as_deref())?;
    Ok(page.respond())
}

/// The head of a page before its moves, at its longest.
const PAGE_HEAD: usize = r#"{"count":,"moves":["#.len() + 20;

/// One page of a position's legal moves (shared with the games API).
pub fn legal_moves_page(
    pos: &jc::Position,
    from: Option<&str>,
    limit: Option<usize>,
    cursor: Option<&str>,
) -> Result<LegalMovesResponse, ApiError> {
    let limit = limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::refuse(
            Refusal::InvalidValue,
            format!("limit {limit} is not from 1 to {MAX_PAGE}"),
            "limit",
        ));
    }
    let start = cursor.map(parse_cursor).transpose()?.unwrap_or(0);
    let from = from.map(|f| cell(f, "from")).transpose()?;
    let stop = start.saturating_add(limit);
    // Room for a page of short moves; it grows for long ones. What is in
    // it is written over, so it is zeroed once, not per move.
    let mut json = vec![0; PAGE_HEAD + limit.min(DEFAULT_PAGE) * 96];
    let mut at = PAGE_HEAD;
    let mut count = 0usize;
    let mut stopped = false;
    pos.for_each_scored_move(from, |path, gain| {
        if count >= stop && from.is_none() {
            // The rest is counted in bulk. (The moves from one cell are
            // few: those are walked to the end.)
            stopped = true;
            return ControlFlow::Break(());
        }
        if (start..stop).contains(&count) {
            let room = MoveWriter::room(path.len());
            if json.len() < at + room {
                json.resize((2 * json.len()).max(at + room), 0);
            }
            let mut w = MoveWriter { buf: &mut json, at };
            if count > start {
                w.bytes(b",");
            }
            w.move_json(path, gain);
            at = w.at;
        }
        count += 1;
        ControlFlow::Continue(())
    });
    json.truncate(at);
    let count = if stopped { pos.count_moves() } else { count as u64 };
    let end = (stop as u64).min(count);
    json.extend_from_slice(b"],\"next_cursor\":");
    if end < count {
        let _ = write!(json, "\"m{end:x}\"");
    } else {
        json.extend_from_slice(b"null");
    }
    if let Some(c) = from {
        json.extend_from_slice(b",\"tree\":");
        // A tree is a plain serde value: this cannot fail.
        let _ = serde_json::to_writer(&mut json, &JumpTree::of(&pos.jump_tree(c)));
    }
    json.push(b'}');
    let mut head = [0u8; PAGE_HEAD];
    let mut rest = &mut head[..];
    let _ = write!(rest, "{{\"count\":{count},\"moves\":[");
    // The head ends where the moves begin.
    let skip = rest.len();
    json[skip..PAGE_HEAD].copy_from_slice(&head[..PAGE_HEAD - skip]);
    Ok(LegalMovesResponse { json, skip })
}

/// A request to play one move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "old"},
    "position": {"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]},
    "move": {"path": ["c2", "a2"]}
}))]
pub struct ApplyRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position before the move.
    pub position: PositionInput,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveInput,
}

/// The position after a move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApplyResponse {
    /// The position after the move.
    pub position: PositionView,
    /// The move as played.
    #[serde(rename = "move")]
    pub mv: MoveView,
    /// Opening, playing or over, after the move.
    pub status: Status,
    /// The result, when the game is over.
    pub result: Option<Outcome>,
}

/// Plays one move on a position, or refuses it with the reason.
#[utoipa::path(
    tag = "play",
    request_body = ApplyRequest,
    responses((status = 200, description = "The position after the move", body = ApplyResponse), BodyErrors)
)]
#[post("/v1/apply")]
pub async fn apply(JsonBody(req): JsonBody<ApplyRequest>) -> Result<HttpResponse, ApiError> {
    let mut pos = rules_and_position(&req.rules, &req.position)?;
    let mv = req.mv.to_move("move.path")?;
    let played = pos.play(&mv).map_err(|e| ApiError::refuse(Refusal::IllegalMove, e, "move.path"))?;
    Ok(HttpResponse::Ok().json(ApplyResponse {
        position: PositionView::of(&pos),
        mv: MoveView::of(&played),
        status: pos.phase().into(),
        result: pos.outcome().as_ref().map(Outcome::of),
    }))
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    use super::*;

    /// A request's position is read the same, or refused for the same
    /// reason, by the service (the one-pass reader once the rule set is
    /// made) as by the careful path (grid, then position): plain boards,
    /// boards with missing cells, wrong sizes, letters and player counts,
    /// bad board strings, sizes given by the request, custom rules.
    #[test]
    fn positions_read_the_same_with_the_rules_made_or_not() {
        let murray: Rules = serde_json::from_value(serde_json::json!({"preset": "murray"})).unwrap();
        let sized: Rules =
            serde_json::from_value(serde_json::json!({"preset": "old", "rows": 4, "cols": 5})).unwrap();
        let custom: Rules = serde_json::from_value(serde_json::json!({
            "rows": 3, "cols": 4,
            "kinds": [{"letter": "O", "name": "frog", "value": 1}]
        }))
        .unwrap();
        let boards = [
            (&murray, "WYRG/W1YR/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W.YR/GGWW/RY2", 3, vec![4, 1, 2]),
            (&murray, "WYRG/W-YR/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W1YR/GGOW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W1YR/GGWW/RYWY", 1, vec![]),
            (&murray, "WYRG/W01R/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/WYR/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W1YR/GGWW/", 1, vec![0, 0]),
            (&sized, "OOOOO/OO1OO/OOOOO/OOOOO", 2, vec![1, 0]),
            (&sized, "OOOO/OO1O/OOOO/OOOO", 2, vec![1, 0]),
            (&custom, "OOOO/O1OO/OOOO", 2, vec![1, 0]),
        ];
        for (rules, board, ply, scores) in boards {
            let input = PositionInput { board: board.to_string(), ply, scores };
            // (This makes the rules of the board's size, where it has one.)
            let careful = careful_position(rules, &input);
            let served = rules_and_position(rules, &input);
            match (careful, served) {
                (Ok(a), Ok(b)) => assert!(a == b && a.to_string() == b.to_string(), "{board}"),
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{board}"),
                (a, b) => panic!("{board}: {a:?} then {b:?}"),
            }
        }
    }

    /// What `serde_json` writes for a page, built from the engine's move
    /// list: the reference the written page is held to.
    fn serde_page(
        pos: &jc::Position,
        from: Option<&str>,
        limit: Option<usize>,
        cursor: Option<&str>,
    ) -> String {
        #[derive(Serialize)]
        struct Page {
            count: u64,
            moves: Vec<MoveView>,
            next_cursor: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            tree: Option<JumpTree>,
        }
        let from = from.map(|f| f.parse::<jc::Cell>().unwrap());
        let list = pos.move_list(from);
        let start = cursor.map(|c| parse_cursor(c).unwrap()).unwrap_or(0);
        let end = start.saturating_add(limit.unwrap_or(DEFAULT_PAGE)).min(list.len());
        let page = Page {
            count: list.len() as u64,
            moves: (start.min(end)..end)
                .map(|i| MoveView { mv: list.get(i).unwrap(), gain: list.gain(i).unwrap() })
                .collect(),
            next_cursor: (end < list.len()).then(|| format!("m{end:x}")),
            tree: from.map(|c| JumpTree::of(&pos.jump_tree(c))),
        };
        serde_json::to_string(&page).unwrap()
    }

    /// The hand-written body is byte for byte what serde_json writes:
    /// openings (removals), middle games (long chains, gains over 9), the
    /// jump tree, middle and last pages.
    #[test]
    fn the_written_page_is_the_serde_json_page() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for (preset, dirs) in [
            (jc::Preset::Murray, jc::DirectionSet::Orthogonal),
            (jc::Preset::Old, jc::DirectionSet::All),
            (jc::Preset::Froglet, jc::DirectionSet::Diagonal),
            (jc::Preset::Konane, jc::DirectionSet::Orthogonal),
        ] {
            let rules = jc::Rules::new(preset.spec().with_directions(dirs)).unwrap();
            let (mut pos, _) = jc::Position::start(rules, 2, Some(3)).unwrap();
            for ply in 0..60 {
                let from = pos.legal_moves().first().map(|m| m.from().to_string());
                for (from, limit, cursor) in [
                    (None, None, None),
                    (None, Some(3), Some("m2")),
                    (None, Some(1), Some("m3e8")),
                    (from.as_deref(), Some(1000), None),
                    (from.as_deref(), Some(1), Some("m1")),
                ] {
                    let page = legal_moves_page(&pos, from, limit, cursor).unwrap();
                    assert_eq!(
                        std::str::from_utf8(page.to_json()).unwrap(),
                        serde_page(&pos, from, limit, cursor),
                        "{preset:?} ply {ply}, from {from:?}, limit {limit:?}, cursor {cursor:?}"
                    );
                }
                let Some(mv) = pos.random_move(&mut rng) else { break };
                pos.play(&mv).unwrap();
            }
        }
    }
}

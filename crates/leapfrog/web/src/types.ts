// The API's types, from `api.d.ts` (generated from openapi/openapi.json by
// openapi-typescript): a spec that does not describe the server fails the
// strict compile of every module that uses them.

import type { components } from "./api";

export type S = components["schemas"];
export type Game = S["Game"];
export type MoveRecord = S["MoveRecord"];
export type JumpTree = S["JumpTree"];
export type PositionView = S["PositionView"];
export type Problem = S["Problem"];
export type Joined = S["Joined"];

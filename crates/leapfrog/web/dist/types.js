// The API's types, from `api.d.ts` (generated from openapi/openapi.json by
// openapi-typescript): a spec that does not describe the server fails the
// strict compile of every module that uses them.
export {};

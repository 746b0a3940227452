// The rules engine in this browser: the WebAssembly build of the server's
// own stateless operations (served at /engine/, the npm package
// leapfrog-engine), so that legal moves, moves, hints and analyses are
// computed here, not asked of the server, and the analysis board works with
// the server gone. Where it cannot load, the server answers instead.
let engine = null;
/** Loads the engine once; whether it runs in this browser. */
export async function loadEngine() {
    if (engine)
        return true;
    try {
        // A path, not a module the compiler resolves: the binary serves it.
        const url = "/engine/index.js";
        const loaded = (await import(url));
        await loaded.init();
        engine = loaded;
        return true;
    }
    catch (err) {
        console.warn("The rules engine did not load here; the server answers instead.", err);
        return false;
    }
}
/** The engine, once loaded. */
export function localEngine() {
    return engine;
}
/** A refusal of the engine: the problem object the server would answer. */
export function problemOf(err) {
    if (typeof err === "object" && err !== null && "problem" in err) {
        return err.problem;
    }
    return null;
}

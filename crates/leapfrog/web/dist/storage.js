// What the browser keeps: the seats (and their tokens) it holds, per game.
export const account = {
    get() {
        try {
            const raw = localStorage.getItem("leapfrog:account");
            return raw ? JSON.parse(raw) : null;
        }
        catch {
            return null;
        }
    },
    set(a) {
        localStorage.setItem("leapfrog:account", JSON.stringify(a));
    },
    clear() {
        localStorage.removeItem("leapfrog:account");
    },
};
/** The seats this browser holds in a game, kept across reloads. */
export const seats = {
    key: (id) => `leapfrog:seats:${id}`,
    get(id) {
        try {
            const raw = localStorage.getItem(seats.key(id));
            return raw ? JSON.parse(raw) : [];
        }
        catch {
            return [];
        }
    },
    add(id, seat) {
        const all = seats.get(id).filter((s) => s.player !== seat.player);
        all.push(seat);
        localStorage.setItem(seats.key(id), JSON.stringify(all));
    },
    drop(id, player) {
        localStorage.setItem(seats.key(id), JSON.stringify(seats.get(id).filter((s) => s.player !== player)));
    },
    invitations(id) {
        const raw = localStorage.getItem(`leapfrog:invitations:${id}`);
        return raw ? JSON.parse(raw) : [];
    },
    keepInvitations(id, list) {
        localStorage.setItem(`leapfrog:invitations:${id}`, JSON.stringify(list));
    },
};

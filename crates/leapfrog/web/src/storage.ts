// What the browser keeps: the seats (and their tokens) it holds, per game.

import type { S } from "./types.js";

export interface HeldSeat { player: number; token: string }

/** The account signed in on this browser: its name and a token of it
 * (scopes play and account), kept across reloads until signed out. */
export interface SignedIn { name: string; token: string; id: string }

export const account = {
  get(): SignedIn | null {
    try {
      const raw = localStorage.getItem("leapfrog:account");
      return raw ? (JSON.parse(raw) as SignedIn) : null;
    } catch {
      return null;
    }
  },
  set(a: SignedIn): void {
    localStorage.setItem("leapfrog:account", JSON.stringify(a));
  },
  clear(): void {
    localStorage.removeItem("leapfrog:account");
  },
};

/** The seats this browser holds in a game, kept across reloads. */
export const seats = {
  key: (id: string) => `leapfrog:seats:${id}`,
  get(id: string): HeldSeat[] {
    try {
      const raw = localStorage.getItem(seats.key(id));
      return raw ? (JSON.parse(raw) as HeldSeat[]) : [];
    } catch {
      return [];
    }
  },
  add(id: string, seat: HeldSeat): void {
    const all = seats.get(id).filter((s) => s.player !== seat.player);
    all.push(seat);
    localStorage.setItem(seats.key(id), JSON.stringify(all));
  },
  drop(id: string, player: number): void {
    localStorage.setItem(seats.key(id), JSON.stringify(seats.get(id).filter((s) => s.player !== player)));
  },
  invitations(id: string): S["InvitationView"][] {
    const raw = localStorage.getItem(`leapfrog:invitations:${id}`);
    return raw ? (JSON.parse(raw) as S["InvitationView"][]) : [];
  },
  keepInvitations(id: string, list: S["InvitationView"][]): void {
    localStorage.setItem(`leapfrog:invitations:${id}`, JSON.stringify(list));
  },
};
